// Valid and invalid cases of the `xor_decoding` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './xor_decoding.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('xor_decoding', () => {
  it('XOR loop decoding a stager', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local d = {33,61,61,57}\nlocal s = {}\nfor i = 1, #d do s[i] = string.char(bit.bxor(d[i], 73)) end\nlocal f = CompileString(table.concat(s), "x", false)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('no decoding', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local s = {}\nfor i = 1, 3 do s[i] = i * 2 end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
