// Valid and invalid cases of the `cvar_tampering` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './cvar_tampering.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('cvar_tampering', () => {
  it('sv_allowcslua enabled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'RunConsoleCommand("sv_allowcslua", "1")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('a downloaded workshop save loaded by its path', () => {
    // The path is where the game put the file; the command and what it does are fixed.
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'steamworks.DownloadUGC(id, function(path, f)\n RunConsoleCommand("gm_load", path)\nend)',
    });
    expect(findings).toEqual([]);
  });
  it('a net message naming which setting the server changes', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("cfg")',
        'net.Receive("cfg", function(len, ply) RunConsoleCommand(net.ReadString(), net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a net message naming the convar it sets through the convar object', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("cfg")',
        'net.Receive("cfg", function(len, ply) GetConVar(net.ReadString()):SetString(net.ReadString()) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("a tool handing the player's own setting to one of the addon's commands (benign)", () => {
    const findings = check(rule, {
      'lua/weapons/gmod_tool/stools/sound.lua': [
        'TOOL.ClientConVar = { sound = "synth/square.wav" }',
        'concommand.Add("snd_browser_open", function(ply, cmd, args) ply:ChatPrint(tostring(args[1])) end)',
        'function TOOL:RightClick(trace)',
        '  RunConsoleCommand("snd_browser_open", self:GetClientInfo("sound"), "1")',
        '  return false',
        'end',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a superadmin's lockdown command setting the join password", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'concommand.Add("lockdown", function(ply, cmd, args)',
        '  if IsValid(ply) and not ply:IsSuperAdmin() then return end',
        '  RunConsoleCommand("sv_password", args[1] or "")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('a hard-coded SteamID setting the RCON password', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSay", "x", function(ply, text)',
        '  if ply:SteamID() == "STEAM_0:1:4400112" then RunConsoleCommand("rcon_password", "letmein") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('admin gravity event', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("lowgrav", function(ply)\n if IsValid(ply) and !ply:IsAdmin() then return end\n RunConsoleCommand("sv_gravity", "200")\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
