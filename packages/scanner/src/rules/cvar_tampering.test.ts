// Valid and invalid cases of the `cvar_tampering` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './cvar_tampering.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('cvar_tampering', () => {
  it('sv_allowcslua enabled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'RunConsoleCommand("sv_allowcslua", "1")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('admin gravity event', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'concommand.Add("lowgrav", function(ply)\n if IsValid(ply) and !ply:IsAdmin() then return end\n RunConsoleCommand("sv_gravity", "200")\nend)',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
