// Valid and invalid cases of the `string_encoding` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './string_encoding.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('string_encoding', () => {
  it('string.char run hiding a URL', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local u = string.char(104,116,116,112,115,58,47,47,97,46,105,110,118,97,108,105,100)\nprint(u)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('UTF-8 glyph built with string.char', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'local star = string.char(226, 152, 133)\ndraw.SimpleText(star, "x", 0, 0)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
