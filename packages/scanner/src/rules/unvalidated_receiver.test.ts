// Valid and invalid cases of the `unvalidated_receiver` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './unvalidated_receiver.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('unvalidated_receiver', () => {
  it('money in the amount a client sends, for any player', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("give_money")',
        'net.Receive("give_money", function(len, ply) ply:addMoney(net.ReadInt(32)) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    expect(findings[0]!.verdictClass ?? rule.meta.verdictClass).toBe('vulnerable');
  });
  it('a data file written under the name a client sends', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("save_cfg", function(len, ply) file.Write(net.ReadString(), net.ReadString()) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
  it('a shop charging the price the server knows, and an admin giving money (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local PRICES = { pistol = 200, rifle = 900 }',
        'net.Receive("shop_buy", function(len, ply)',
        '  local price = PRICES[net.ReadString()]',
        '  if not price or not ply:canAfford(price) then return end',
        '  ply:addMoney(-200)',
        'end)',
        'net.Receive("admin_money", function(len, ply)',
        '  if not ply:IsSuperAdmin() then return end',
        '  local target = net.ReadEntity()',
        '  if IsValid(target) then target:addMoney(net.ReadInt(32)) end',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("a player's own settings saved under their SteamID, and a client caching what the server sends (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("prefs_save", function(len, ply) file.Write("myaddon/" .. ply:SteamID64() .. ".txt", net.ReadString()) end)',
      'lua/autorun/client/cl_x.lua':
        'net.Receive("cache_put", function() file.Write(net.ReadString(), net.ReadString()) end)',
    });
    expect(findings).toEqual([]);
  });
  it('a player the client names, kicked, banned or killed for any player', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("vote_kick")',
        'net.Receive("vote_kick", function(len, ply)',
        '  local target = net.ReadEntity()',
        '  if IsValid(target) then target:Kick(net.ReadString()) end',
        'end)',
        'net.Receive("slay_request", function(len, ply)',
        '  local victim = player.GetBySteamID(net.ReadString())',
        '  if victim then victim:Kill() end',
        'end)',
        'net.Receive("ban_by_index", function(len, ply) Entity(net.ReadUInt(8)):Ban(0) end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    expect(findings.map((f) => f.line).sort((a, b) => a - b)).toEqual([4, 8, 10]);
  });
  it('a honeypot kicking the sender, and admin commands behind rank checks of any kind (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'net.Receive("ULX_QUERY2", function(len, ply) ply:Kick("nice try") end)',
        // A vote: the client names whom it votes against; enough votes kick.
        'local votes = {}',
        'net.Receive("votekick_cast", function(len, ply)',
        '  local target = net.ReadEntity()',
        '  votes[target] = (votes[target] or 0) + 1',
        '  if votes[target] > player.GetCount() / 2 then target:Kick("Vote kicked") end',
        'end)',
        'net.Receive("admin_slay", function(len, ply)',
        '  if not ply:IsAdmin() then return end',
        '  local target = net.ReadEntity()',
        '  if IsValid(target) then target:Kill() end',
        'end)',
        // A rank check asked of the addon's own hook, answered elsewhere.
        'net.Receive("MyAddonAdminCommand", function(_, ply)',
        '  if not IsValid(ply) or not hook.Run("MyAddonAdminCheck", ply) then return end',
        '  net.ReadPlayer():Kill()',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('a deposit or withdrawal bounded only by numbers written in the code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'net.Receive("atm_withdraw", function(len, ply)',
        '  local amount = net.ReadUInt(32)',
        '  if amount <= 0 or amount > 10000000 then return end',
        '  ply:addMoney(amount)',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
  it("a deposit or withdrawal within the player's own money or balance (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'net.Receive("atm_action", function(len, ply)',
        '  local deposit = net.ReadBool()',
        '  local amount = net.ReadUInt(32)',
        '  if amount <= 0 or amount > 10000000 then return end',
        '  local bal = GetBalance(ply)',
        '  if deposit then',
        '    if not ply:canAfford(amount) then return end',
        '    ply:addMoney(-amount)',
        '    SetBalance(ply, bal + amount)',
        '  else',
        '    if amount > bal then return end',
        '    SetBalance(ply, bal - amount)',
        '    ply:addMoney(amount)',
        '  end',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
