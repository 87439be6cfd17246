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
  it('ULX command open to every player that runs its text or grants a rank', () => {
    for (const body of [
      [
        'local function exec(calling_ply, code) RunString(code) end',
        'local cmd = ulx.command("Utility", "ulx exec2", exec, "!exec2")',
        'cmd:addParam{ type = ULib.cmds.StringArg, hint = "code", ULib.cmds.takeRestOfLine }',
        'cmd:defaultAccess(ULib.ACCESS_ALL)',
      ],
      [
        'function ulx.vip(calling_ply) calling_ply:SetUserGroup("superadmin") end',
        'local vip = ulx.command("Fun", "ulx vip", ulx.vip, "!vip")',
        'vip:defaultAccess("user")',
      ],
      // Under ulx.command, ULib's TranslateCommand with the calling player as a parameter.
      [
        'local c = ULib.cmds.TranslateCommand("ulx sys", function(p, s) game.ConsoleCommand(s .. "\\n") end)',
        'c:addParam{ type = ULib.cmds.CallingPlayerArg }',
        'c:addParam{ type = ULib.cmds.StringArg }',
        'c:defaultAccess(ULib.ACCESS_ALL)',
      ],
    ]) {
      const findings = check(rule, { 'lua/ulx/modules/sh/x.lua': body.join('\n') });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('ULX command for a rank, with no default access, or with a text kept to a list', () => {
    for (const access of [
      'cmd:defaultAccess(ULib.ACCESS_SUPERADMIN)',
      '',
      'cmd:defaultAccess(ULib.ACCESS_ADMIN)',
    ]) {
      const findings = check(rule, {
        'lua/ulx/modules/sh/x.lua': [
          'local function exec(calling_ply, code) RunString(code) end',
          'local cmd = ulx.command("Rcon", "ulx luarun2", exec, "!luarun2")',
          'cmd:addParam{ type = ULib.cmds.StringArg, hint = "code", ULib.cmds.takeRestOfLine }',
          access,
        ].join('\n'),
      });
      expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
    }
    const findings = check(rule, {
      'lua/ulx/modules/sh/x.lua': [
        'local function vote(calling_ply, map) game.ConsoleCommand("changelevel " .. map .. "\\n") end',
        'local cmd = ulx.command("Voting", "ulx votemap3", vote, "!votemap3")',
        'cmd:addParam{ type = ULib.cmds.StringArg, completes = ulx.maps, ULib.cmds.restrictToCompletes }',
        'cmd:defaultAccess(ULib.ACCESS_ALL)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
