// Valid and invalid cases of the `anti_analysis` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './anti_analysis.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('anti_analysis', () => {
  it('RunString detour check', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local info = debug.getinfo(RunString, "S")\nif info.short_src ~= "[C]" then return end',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it("an anti-cheat checking the client's own RunString for a cheat's detour", () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_ac.lua':
        'util.AddNetworkString("ac_flag")\nlocal checks = { "RunString", "CompileString" }\ntimer.Create("ac", 30, 0, function()\n for _, n in ipairs(checks) do\n  local f = _G[n]\n  local src = f and debug.getinfo(f, "S").short_src\n  if src ~= "[C]" then net.Start("ac_flag") net.WriteString(n) net.SendToServer() end\n end\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('the same check on the server', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_ac.lua':
        'util.AddNetworkString("ac_flag")\nlocal checks = { "RunString", "CompileString" }\ntimer.Create("ac", 30, 0, function()\n for _, n in ipairs(checks) do\n  local f = _G[n]\n  local src = f and debug.getinfo(f, "S").short_src\n  if src ~= "[C]" then net.Start("ac_flag") net.WriteString(n) net.SendToServer() end\n end\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('debug.getinfo of own function', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local function f() end\nlocal i = debug.getinfo(f, "S")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a developer command listing every global with where it was defined (benign)', () => {
    // Each function of _G goes to debug.getinfo for its source: a listing, not a detour check.
    const findings = check(rule, {
      'lua/autorun/developer_find.lua': [
        'local function FindInTable(tab, find, depth)',
        '  depth = (depth or 0) + 1',
        '  if depth > 3 then return end',
        '  for k, v in pairs(tab) do',
        '    if isstring(k) and k:lower():find(find:lower()) then',
        '      local info = isfunction(v) and debug.getinfo(v) or { source = "" }',
        '      Msg(k, " ", info.source, "\\n")',
        '    end',
        '    if istable(v) and k ~= "_G" and k ~= "_R" then FindInTable(v, find, depth) end',
        '  end',
        'end',
        'concommand.Add("lua_find", function(ply, cmd, args) FindInTable(_G, args[1] or "") end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
});
