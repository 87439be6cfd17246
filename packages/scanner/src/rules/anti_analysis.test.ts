// Valid and invalid cases of the `anti_analysis` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './anti_analysis.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('anti_analysis', () => {
  it('RunString detour check', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local info = debug.getinfo(RunString, "S")\nif info.short_src ~= "[C]" then return end',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('debug.getinfo of own function', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local function f() end\nlocal i = debug.getinfo(f, "S")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
