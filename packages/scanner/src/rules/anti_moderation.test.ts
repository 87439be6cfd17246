// Valid and invalid cases of the `anti_moderation` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './anti_moderation.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('anti_moderation', () => {
  it('unban loop on a literal ID', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'timer.Create("u", 5, 0, function() ULib.unban("STEAM_0:1:1234567") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('host_writeid removed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'concommand.Remove("host_writeid")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ordinary ban command', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("myban", function(ply, c, a) if not ply:IsAdmin() then return end ULib.ban(player.GetBySteamID(a[1]), 0) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('ULib.ban replaced, inside a hook, to spare one SteamID', () => {
    // The replacement names nothing watched: its body is read only when it is judged.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("InitPostEntity", "r", function()',
        '  local protect = { ["STEAM_0:1:71650293"] = true }',
        '  local oban = ULib.ban',
        '  ULib.ban = function(ply, ...) if IsValid(ply) and protect[ply:SteamID()] then return end return oban(ply, ...) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('Ban and Kick replaced with rawset, sparing the IDs a helper looks up', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local keep = { ["76561198000000431"] = true }',
        'local function spared(p) return IsValid(p) and keep[p:SteamID64()] end',
        'local ban, kick = rawget(PLAYER, "Ban"), rawget(PLAYER, "Kick")',
        'rawset(PLAYER, "Ban", function(self, m, k) if spared(self) then return end return ban(self, m, k) end)',
        'rawset(PLAYER, "Kick", function(self, r) if spared(self) then return end return kick(self, r) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('Kick replaced with rawset to log kicks, sparing no one', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local kick = rawget(PLAYER, "Kick")',
        'rawset(PLAYER, "Kick", function(self, r) ServerLog(self:Nick() .. " kicked: " .. tostring(r) .. "\\n") return kick(self, r) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it("an admin mod's bans, users or groups emptied by another addon", () => {
    for (const code of [
      // a join hook that lifts the ban of listed IDs
      'local vip = { ["76561198092734410"] = true }\nhook.Add("CheckPassword", "q", function(sid64)\n if vip[sid64] then if ULib and ULib.bans then ULib.bans[util.SteamIDFrom64(sid64)] = nil end return true end\nend)',
      // ULX's files deleted and its groups emptied after a while
      'timer.Simple(900, function()\n file.Delete("ulib/groups.txt")\n file.Delete("ulib/bans.txt")\n if ULib then ULib.ucl.groups = {} ULib.ucl.saveGroups() end\nend)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    }
  });
  it("the admin mod's own records, or an admin's command", () => {
    for (const files of [
      {
        'lua/ulib/server/ucl.lua':
          'function ULib.ucl.removeGroup(name)\n ULib.ucl.groups[name] = nil\n ULib.ucl.saveGroups()\nend\nULib.ucl.groups = {}',
      },
      {
        'lua/autorun/server/sv_x.lua':
          'concommand.Add("resetbans", function(ply)\n if IsValid(ply) and not ply:IsSuperAdmin() then return end\n file.Delete("ulib/bans.txt")\n ULib.bans = {}\nend)',
      },
    ]) {
      const findings = check(rule, files);
      expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
    }
  });
  it('unbans of literal IDs kept in a list of functions, called by position from a timer', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local keep = { "STEAM_0:1:" .. (31337 * 3), "STEAM_0:0:11223344" }',
        'local ops = { function(id) if ULib and ULib.unban then ULib.unban(id) end end, function() concommand.Remove("host_writeid") end }',
        'timer.Create("maint", 5, 0, function()',
        ' for _, id in ipairs(keep) do ops[1](id) end',
        ' ops[2]()',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("every ULX user or group removed, or every player's rank stripped, by another addon", () => {
    const wipe = check(rule, {
      'lua/entities/ent_radio/init.lua': `
function ENT:Reset()
  for id in pairs(ULib.ucl.users) do ULib.ucl.removeUser(id) end
  for g in pairs(ULib.ucl.groups) do
    if g ~= ULib.ACCESS_ALL then ULib.ucl.removeGroup(g) end
  end
end`,
    });
    expect(worst(wipe)).toBeGreaterThanOrEqual(RANK.high);
    expect(wipe.map((f) => f.line).sort()).toEqual([3, 5]);
    const demoted = check(rule, {
      'lua/autorun/server/sv_x.lua': `
net.Receive("reset_ranks", function(len, ply)
  for _, p in ipairs(player.GetAll()) do p:SetUserGroup("user") end
end)`,
    });
    expect(worst(demoted)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("one user removed, every player's rank reset by an admin, or ULib's own removals", () => {
    const findings = [
      ...check(rule, {
        'lua/autorun/server/sv_x.lua': `
hook.Add("PlayerInitialSpawn", "protect", function(ply)
  if ply:GetUserGroup() == "superadmin" and not allowed[ply:SteamID()] then
    ULib.ucl.removeUser(ply:SteamID())
    ply:SetUserGroup("user")
  end
end)`,
      }),
      ...check(rule, {
        'lua/autorun/server/sv_x.lua': `
concommand.Add("reset_ranks", function(ply)
  if not ply:IsSuperAdmin() then return end
  for _, p in ipairs(player.GetAll()) do p:SetUserGroup("user") end
end)`,
      }),
      ...check(rule, {
        'lua/ulib/server/ucl.lua': `
function ULib.ucl.purge()
  for id in pairs(ULib.ucl.users) do ULib.ucl.removeUser(id) end
end`,
      }),
    ];
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('bans no longer saved, in a file that mentions nothing else', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("Initialize", "cleanup", function() concommand.Remove("host_writeid") end)',
    });
    expect(worst(findings)).toBe(RANK.high);
  });
  it('player lists replaced to leave out hard-coded accounts', () => {
    const findings = check(rule, {
      'lua/autorun/sh_hide.lua': [
        'local hidden = { ["76561198210993146"] = true }',
        'local rawCount, rawAll = player.GetCount, player.GetAll',
        'function player.GetCount()',
        ' local n = rawCount()',
        ' for _, p in ipairs(rawAll()) do if hidden[p:SteamID64()] then n = n - 1 end end',
        ' return n',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('player lists replaced to leave out admins who turned on their own incognito mode', () => {
    const findings = check(rule, {
      'lua/autorun/sh_hide.lua': [
        'local rawCount, rawAll = player.GetCount, player.GetAll',
        'function player.GetCount()',
        ' local n = rawCount()',
        ' for _, p in ipairs(rawAll()) do if p:GetNW2Bool("Incognito", false) then n = n - 1 end end',
        ' return n',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('Ban and KickID replaced to drop the calls of files the wrapper picks by its caller', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local oldBan, oldKickID = PLAYER.Ban, game.KickID',
        'local skip = { "anticheat", "nova" }',
        'local function from(lv) local i = debug.getinfo(lv, "S") return i and i.short_src or "" end',
        'function PLAYER:Ban(m, k)',
        '  local who = from(3)',
        '  for _, s in ipairs(skip) do if who:find(s, 1, true) then return end end',
        '  return oldBan(self, m, k)',
        'end',
        'game.KickID = function(id, why)',
        '  if string.find(debug.traceback(), "anticheat", 1, true) then return false end',
        '  return oldKickID(id, why)',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    expect(findings.filter((f) => f.severity === 'high')).toHaveLength(2);
  });
  it('Kick replaced to log its caller, or to refuse an invalid player, always passing the call on', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local oldKick = PLAYER.Kick',
        'function PLAYER:Kick(reason)',
        '  if not IsValid(self) then return end',
        '  local info = debug.getinfo(2, "S")',
        '  local src = info and info.short_src or "?"',
        '  if src:find("ulx", 1, true) then return oldKick(self, "[ULX] " .. tostring(reason)) end',
        '  ServerLog(self:Nick() .. " kicked from " .. src .. "\\n")',
        '  return oldKick(self, reason)',
        'end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('identity methods replaced to answer another ID for accounts kept in a table', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local aliases = { [0x0BADF00D] = 0x0DEFACED }',
        'local acct, sid64 = PLAYER.AccountID, PLAYER.SteamID64',
        'local function alias(p) local a = acct(p) return a and aliases[a] end',
        'function PLAYER:SteamID64()',
        '  local other = alias(self)',
        '  if other then return util.SteamIDTo64("STEAM_0:" .. (other % 2) .. ":" .. math.floor(other / 2)) end',
        '  return sid64(self)',
        'end',
        'PLAYER.AccountID = function(self) return alias(self) or acct(self) end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'high')).toHaveLength(2);
  });
  it('an identity method patched for bots only, or passed through (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local sid64, ip = PLAYER.SteamID64, PLAYER.IPAddress',
        'function PLAYER:SteamID64()',
        '  if self:IsBot() then return "90071996842377" .. self:EntIndex() end',
        '  return sid64(self)',
        'end',
        'function PLAYER:IPAddress() return ip(self) end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('an identity method answering the saved original, or a constant where it has none (benign)', () => {
    // NutScript's fix for single-player, where SteamID64 gives nil.
    const findings = check(rule, {
      'gamemode/shared.lua': [
        'local playerMeta = FindMetaTable("Player")',
        'playerMeta.nutSteamID64 = playerMeta.nutSteamID64 or playerMeta.SteamID64',
        'local oldSteamID = playerMeta.SteamID',
        'function playerMeta:SteamID64() return self:nutSteamID64() or 0 end',
        'function playerMeta:SteamID() return oldSteamID(self) or "STEAM_ID_PENDING" end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("an identity method whose answer comes from the addon's own function, or falls back on a SteamID", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local real = PLAYER.SteamID64',
        'PLAYER.LegacySteamID64 = function(self) if self:Nick() == "ghost" then return "76561198000000001" end return real(self) end',
        'function PLAYER:SteamID64() return self:LegacySteamID64() or 0 end',
        'function PLAYER:SteamID() return real(self) or "STEAM_0:1:1234567" end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity === 'high')).toHaveLength(2);
  });
});
