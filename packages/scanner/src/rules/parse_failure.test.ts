// Valid and invalid cases of the `parse_failure` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './parse_failure.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('parse_failure', () => {
  it('broken file with RunString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'RunString( http.Fetch( ) ) end end ) ( = = =',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.low);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('valid file', () => {
    const findings = check(rule, { 'lua/autorun/server/sv_x.lua': 'print("ok")' });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
