// Valid and invalid cases of the `sqlinjection` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './sqlinjection.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('sqlinjection', () => {
  it('net string in SQL', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("q", function(l, p) sql.Query("SELECT * FROM x WHERE n = \'" .. net.ReadString() .. "\'") end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it("chat text in SQL, from a gamemode's PlayerSay method", () => {
    // The method's object comes first: the text is its second parameter after self.
    const findings = check(rule, {
      'gamemodes/x/gamemode/init.lua':
        'function GM:PlayerSay(ply, text)\n sql.Query("INSERT INTO log VALUES(\'" .. text .. "\')")\nend',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
  it('numbers from the client in a query', () => {
    // A number cannot break out of the query, however the client picks it.
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'net.Receive("q", function(l, p)',
        '  sql.Query("SELECT * FROM x WHERE id = " .. net.ReadUInt(16))',
        '  sql.Query("DELETE FROM y WHERE n = " .. tonumber(net.ReadString()))',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it('escaped with sql.SQLStr', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("q", function(l, p) sql.Query("SELECT * FROM x WHERE n = " .. sql.SQLStr(net.ReadString())) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a default filled in for what the client sent is still what the client sent', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'util.AddNetworkString("inv")',
        'net.Receive("inv", function(len, ply)',
        ' local sid = net.ReadString()',
        ' if sid == "" then sid = "none" end',
        ' sql.Query("SELECT * FROM inventory WHERE sid = \'" .. sid .. "\'")',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
  });
  it('a MySQLOO query built from what a receiver reads', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local db = mysqloo.connect("localhost", "u", "p", "shop", 3306)',
        'net.Receive("shop_buy", function(l, ply)',
        '  local q = db:query("INSERT INTO buys (item) VALUES (\'" .. net.ReadString() .. "\')")',
        '  q:start()',
        'end)',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    expect(findings[0]!.pattern).toContain(':query(');
  });
  it('a MySQLOO query with the value escaped by the database (benign)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'local db = mysqloo.connect("localhost", "u", "p", "shop", 3306)',
        'net.Receive("shop_buy", function(l, ply)',
        '  local q = db:query("INSERT INTO buys (item) VALUES (\'" .. db:escape(net.ReadString()) .. "\')")',
        '  q:start()',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
  it("ULib's permission query of a player, with a command's argument (benign)", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': [
        'concommand.Add("my_cvar", function(ply, cmd, args)',
        '  if not ply:query(args[1]) then return end',
        '  RunConsoleCommand("sv_gravity", "600")',
        'end)',
      ].join('\n'),
    });
    expect(findings).toEqual([]);
  });
});
