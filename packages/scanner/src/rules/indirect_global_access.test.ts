// Valid and invalid cases of the `indirect_global_access` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './indirect_global_access.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('indirect_global_access', () => {
  it('hex-escaped _G lookup of RunString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        '_G["\\x52\\x75\\x6e\\x53\\x74\\x72\\x69\\x6e\\x67"]("print(1)")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('sink names from a list looked up, only to be checked', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_ac.lua':
        'util.AddNetworkString("ac_flag")\nlocal checks = { "RunString", "CompileString" }\ntimer.Create("ac", 30, 0, function()\n for _, n in ipairs(checks) do\n  local f = _G[n]\n  local src = f and debug.getinfo(f, "S").short_src\n  if src ~= "[C]" then net.Start("ac_flag") net.WriteString(n) net.SendToServer() end\n end\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('sink names from a list looked up and called', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local names = { "RunString" }\nutil.AddNetworkString("x")\nnet.Receive("x", function() _G[names[1]](net.ReadString()) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('module registry with _G[name]', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local mods = {"MyMod"}\nfor _, n in ipairs(mods) do _G[n] = _G[n] or {} end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a sink name written in fullwidth letters, turned back with utf8.codes', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_fancy.lua': [
        'local function normalize(text)',
        ' local out = {}',
        ' for _, code in utf8.codes(text) do',
        '  if code >= 0xFF01 and code <= 0xFF5E then code = code - 0xFEE0 end',
        '  out[#out + 1] = utf8.char(code)',
        ' end',
        ' return table.concat(out)',
        'end',
        'local render = _G[normalize("\uFF32\uFF55\uFF4E\uFF33\uFF54\uFF52\uFF49\uFF4E\uFF47")]',
        'concommand.Add("fancy_preview", function(ply, cmd, args, argStr) render(argStr) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('fullwidth text made for display with utf8.char', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_fancy.lua': [
        'local function widen(text)',
        ' local out = {}',
        ' for _, code in utf8.codes(text) do',
        '  if code >= 0x21 and code <= 0x7E then code = code + 0xFEE0 end',
        '  out[#out + 1] = utf8.char(code)',
        ' end',
        ' return table.concat(out)',
        'end',
        'hook.Add("HUDPaint", "fancy", function() draw.SimpleText(widen("Welcome"), "DermaLarge", 10, 10) end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  /** A receiver calling the global named `name` (built around the sender's text `id`). */
  const namedBySender = (name: string): Record<string, string> => ({
    'lua/autorun/server/sv_modes.lua': [
      'net.Receive("mode_start", function(len, ply)',
      ' local id = net.ReadString()',
      ` local fn = id and _G[${name}]`,
      ' if fn then fn(net.ReadString()) end',
      'end)',
    ].join('\n'),
  });
  it("a global named by the sender's text, or by text ending theirs, called with more of it", () => {
    expect(worst(check(rule, namedBySender('id')))).toBeGreaterThanOrEqual(RANK.high);
    expect(worst(check(rule, namedBySender('"Run" .. id')))).toBeGreaterThanOrEqual(RANK.high);
  });
  it("the addon's own globals by a prefix and the sender's text (no sink can be named)", () => {
    expect(check(rule, namedBySender('"PartyMode_" .. id .. "_Start"'))).toEqual([]);
  });
  it("a global named by a web reply's field with a default, or by a sender's text or ''", () => {
    expect(
      worst(check(rule, namedBySender('(net.ReadString() or "deny")'))),
    ).toBeGreaterThanOrEqual(RANK.high);
    expect(
      check(rule, namedBySender('"PartyMode_" .. (net.ReadString() or "") .. "_Start"')),
    ).toEqual([]);
  });
  /** Fragments `parts`, put in order by their first field, joined and looked up in _G. */
  const sortedName = (parts: string): Record<string, string> => ({
    'lua/autorun/server/sv_voice.lua': [
      `local parts = { ${parts} }`,
      'table.sort(parts, function(a, b) return a[1] < b[1] end)',
      'local out = {}',
      'for i, p in ipairs(parts) do out[i] = p[2] end',
      'local effect = _G[table.concat(out)]',
      'hook.Add("PlayerSay", "voice", function(ply, text) if effect then effect(text) end end)',
    ].join('\n'),
  });
  it('a global named by fragments put in order by table.sort with a comparator', () => {
    const findings = check(rule, sortedName('{ 0.62, "ing" }, { 0.11, "Ru" }, { 0.35, "nStr" }'));
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("the addon's own function named by sorted fragments (no finding)", () => {
    const findings = check(rule, sortedName('{ 0.62, "Echo" }, { 0.11, "Voice" }'));
    expect(findings).toEqual([]);
  });
});
