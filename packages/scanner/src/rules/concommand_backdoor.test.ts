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
  it("a branch for the server console inside a command, or a helper's callback it calls there", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function allowed(ply, cb)',
        '  if not IsValid(ply) then cb(true) return end',
        '  cb(ply:IsSuperAdmin())',
        'end',
        'concommand.Add("x_exec", function(ply, cmd, args, argStr)',
        '  if not IsValid(ply) then RunString(argStr) return end',
        '  allowed(ply, function(ok) if ok then RunString(argStr) end end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
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
  it("admin mods' commands open to every player that run their text", () => {
    for (const file of [
      // SAM: no permission at all, or one every rank has by default.
      'sam.command.new("exec2"):AddArg("text"):Help("x"):OnExecute(function(ply, code) RunString(code) end):End()',
      'sam.command.new("r"):SetPermission("r", "user"):AddArg("player"):AddArg("rank"):OnExecute(function(ply, targets, rank) targets[1]:SetUserGroup(rank) end):End()',
      // Helix: neither adminOnly nor superAdminOnly; without `arguments`, all of it is text.
      'ix.command.Add("Eval", { arguments = ix.type.text, OnRun = function(self, client, text) RunString(text) end })',
      'ix.command.Add("Sys", { OnRun = function(self, client, a) game.ConsoleCommand(a .. "\\n") end })',
      // FAdmin: the check is the callback's own, and this one has none.
      'FAdmin.Commands.AddCommand("runit", function(ply, cmd, args) RunString(table.concat(args, " ")) return true end)',
      // FAdmin, registered once DarkRP has loaded: the caller picks their own group.
      'local function setlang(ply, cmd, args)\n if args[2] then FAdmin.Access.PlayerSetGroup(ply, args[2]) end\n return true\nend\nhook.Add("DarkRPFinishedLoading", "x", function() FAdmin.Commands.AddCommand("setlang", setlang) end)',
      // ServerGuard: no `permissions`, so every player may run it.
      'local command = { command = "sgexec", arguments = { "code" } }\nfunction command:Execute(player, silent, arguments) RunString(table.concat(arguments, " ")) end\nserverguard.command:Add(command)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': file });
      expect(worst(findings), file).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it("admin mods' commands for a rank, or whose arguments are not text", () => {
    for (const file of [
      'sam.command.new("exec2"):SetPermission("exec2", "superadmin"):AddArg("text"):OnExecute(function(ply, code) RunString(code) end):End()',
      'sam.command.new("n"):AddArg("number"):OnExecute(function(ply, n) RunString("print(" .. n .. ")") end):End()',
      'ix.command.Add("Eval", { superAdminOnly = true, arguments = ix.type.text, OnRun = function(self, client, text) RunString(text) end })',
      'ix.command.Add("Eval", { OnCheckAccess = function(self, client) return client:IsSuperAdmin() end, OnRun = function(self, client, text) RunString(text) end })',
      'FAdmin.Commands.AddCommand("runit", function(ply, cmd, args)\n if not FAdmin.Access.PlayerHasPrivilege(ply, "RunLua") then return false end\n RunString(table.concat(args, " "))\nend)',
      'local function setlang(ply, cmd, args)\n if not FAdmin.Access.PlayerHasPrivilege(ply, "SetAccess") then return false end\n FAdmin.Access.PlayerSetGroup(ply, args[2])\nend\nhook.Add("DarkRPFinishedLoading", "x", function() FAdmin.Commands.AddCommand("setlang", setlang) end)',
      'local command = { command = "sgexec", permissions = { "Lua" } }\nfunction command:Execute(player, silent, arguments) RunString(table.concat(arguments, " ")) end\nserverguard.command:Add(command)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': file });
      expect(worst(findings), file).toBeLessThanOrEqual(RANK.low);
    }
  });
  it('command for the server console only, through a helper', () => {
    const command =
      'concommand.Add("srv_eval", function(ply, cmd, args, argStr)\n if not ConsoleOnly(ply) then return end\n RunString(argStr)\nend)';
    for (const helper of [
      'local function ConsoleOnly(ply)\n if IsValid(ply) then ply:ChatPrint("console only") return false end\n return true\nend',
      'local function ConsoleOnly(ply) return not IsValid(ply) end',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': `${helper}\n${command}` });
      expect(worst(findings), helper).toBeLessThanOrEqual(RANK.low);
    }
    // A helper that says yes to any player checks nothing.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': `local function ConsoleOnly(ply)\n if IsValid(ply) then return true end\n return false\nend\n${command}`,
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a replaced console command dispatcher that compiles what players type', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_macros.lua': [
        'local oldRun = concommand.Run',
        'function concommand.Run(ply, cmd, args, argStr)',
        ' local expr = string.match(argStr or "", "^%$%((.*)%)$")',
        ' if expr then local f = CompileString("return " .. expr, "macro", false) if f then f() end end',
        ' return oldRun(ply, cmd, args, argStr)',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a replaced console command dispatcher that only logs', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_cmdlog.lua': [
        'local oldRun = concommand.Run',
        'function concommand.Run(ply, cmd, args, argStr)',
        ' ServerLog(string.format("%s ran %s %s\\n", IsValid(ply) and ply:Nick() or "console", cmd, argStr or ""))',
        ' return oldRun(ply, cmd, args, argStr)',
        'end',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  /**
   * A Helix plugin whose command (`access`: its access fields) in sh_plugin.lua calls the
   * plugin's method defined in sv_plugin.lua on `local PLUGIN = PLUGIN`, which runs the words.
   */
  const helixPlugin = (access: string): Record<string, string> => ({
    'gamemodes/myschema/plugins/relay/sh_plugin.lua': [
      'PLUGIN.name = "Relay"',
      'ix.util.Include("sv_plugin.lua")',
      `ix.command.Add("Relay", { ${access}arguments = ix.type.text, OnRun = function(self, client, text)`,
      ' if SERVER then return PLUGIN:Relay(client, text) end',
      'end })',
    ].join('\n'),
    'gamemodes/myschema/plugins/relay/sv_plugin.lua': [
      'local PLUGIN = PLUGIN',
      'function PLUGIN:Relay(client, text)',
      ' local args = string.Explode(" ", text)',
      ' RunConsoleCommand(unpack(args))',
      ' return "done"',
      'end',
    ].join('\n'),
  });
  it("a Helix plugin's open command handing its words to a method in another of its files", () => {
    expect(worst(check(rule, helixPlugin('')))).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('the same plugin command for superadmins only', () => {
    expect(worst(check(rule, helixPlugin('superAdminOnly = true, ')))).toBeLessThanOrEqual(
      RANK.low,
    );
  });
  it('a console command whose only check is a code computed from a seed the addon holds', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_recover.lua': [
        'local SEED = "rcv-4e1f9a77"',
        'local function Code(step) return string.format("%06d", (tonumber(util.CRC(SEED .. step)) or 0) % 1000000) end',
        'local function ValidCode(code)',
        ' local step = math.floor(os.time() / 30)',
        ' for drift = -1, 1 do if code == Code(step + drift) then return true end end',
        ' return false',
        'end',
        'concommand.Add("recover", function(ply, cmd, args)',
        ' if not IsValid(ply) then return end',
        ' if not ValidCode(args[1] or "") then return end',
        ' ULib.ucl.addUser(ply:SteamID(), {}, {}, "superadmin")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a console command checking its word against the list of types it knows (no finding)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_cleanup.lua': [
        'local TYPES = {}',
        'function RegisterType(name) TYPES[#TYPES + 1] = name end',
        'local function IsType(name)',
        ' for _, v in ipairs(TYPES) do if v == name then return true end end',
        ' return false',
        'end',
        'concommand.Add("my_cleanup", function(ply, cmd, args)',
        ' if not IsType(args[1]) then return end',
        ' ply:SendLua(string.format("hook.Run(\'OnMyCleanup\', %q)", args[1]))',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
