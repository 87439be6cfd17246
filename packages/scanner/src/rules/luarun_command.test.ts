// Valid and invalid cases of the `luarun_command` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './luarun_command.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('luarun_command', () => {
  it('chat text through ulx luarun', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("PlayerSay", "m", function(ply, text) RunConsoleCommand("ulx", "luarun", string.sub(text, 5)) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('ordinary console command', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'RunConsoleCommand("sv_gravity", "400")',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
