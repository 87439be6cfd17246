// Valid and invalid cases of the `concommand_backdoor` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './concommand_backdoor.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('concommand_backdoor', () => {
  it('command running its arguments', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("dbg", function(ply, cmd, args, argStr) RunString(argStr) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('command picking a function of a local table by its first argument', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local cmds = {}',
        'function cmds.rcon(p, a) game.ConsoleCommand(a .. "\\n") end',
        'concommand.Add("srv", function(p, c, args)',
        '  local f = cmds[args[1]]',
        '  if f then f(p, args[2]) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('command for the server console only', () => {
    for (const check0 of [
      'if IsValid(ply) then return end',
      'if ply ~= NULL and ply:IsValid() then return end',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `concommand.Add("x_exec", function(ply, cmd, args, argStr)\n ${check0}\n RunString(argStr)\nend)`,
      });
      expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
    }
  });
  it('command that only leaves out the server console', () => {
    // `if not IsValid(ply)` stops the console and lets every player through.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("x_exec", function(ply, cmd, args, argStr)\n if not IsValid(ply) then return end\n RunString(argStr)\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('command granting a rank with no check', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("x", function(ply) ply:SetUserGroup("superadmin") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('command behind IsSuperAdmin', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("dbg", function(ply, cmd, args, argStr)\n if IsValid(ply) and !ply:IsSuperAdmin() then return end\n RunString(argStr)\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
