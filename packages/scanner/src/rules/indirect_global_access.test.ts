// Valid and invalid cases of the `indirect_global_access` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './indirect_global_access.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('indirect_global_access', () => {
  it('hex-escaped _G lookup of RunString', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        '_G["\\x52\\x75\\x6e\\x53\\x74\\x72\\x69\\x6e\\x67"]("print(1)")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('module registry with _G[name]', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local mods = {"MyMod"}\nfor _, n in ipairs(mods) do _G[n] = _G[n] or {} end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
