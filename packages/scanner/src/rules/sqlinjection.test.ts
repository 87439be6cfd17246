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
  it('escaped with sql.SQLStr', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'net.Receive("q", function(l, p) sql.Query("SELECT * FROM x WHERE n = " .. sql.SQLStr(net.ReadString())) end)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
