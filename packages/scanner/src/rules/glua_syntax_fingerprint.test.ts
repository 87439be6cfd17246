// Valid and invalid cases of the `glua_syntax_fingerprint` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './glua_syntax_fingerprint.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('glua_syntax_fingerprint', () => {
  it('!true in obfuscated code', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local _0x1a2b=!true;local _0x3c4d=_G;local _0x5e6f=1;local _0x7a8b=2;local _0x9c0d=3;_0x3c4d["\\x70\\x72\\x69\\x6e\\x74"](_0x1a2b)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.low);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('GLua operators in a gamemode', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'if a != b && !c then print(1) end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
