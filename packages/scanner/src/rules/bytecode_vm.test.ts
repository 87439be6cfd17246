// Valid and invalid cases of the `bytecode_vm` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './bytecode_vm.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('bytecode_vm', () => {
  it('stack VM dispatch loop', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local function vm(p)\n local st, pc = {}, 1\n while pc <= #p do\n  local op = p[pc]\n  if op == 1 then pc = pc + 2\n  elseif op == 2 then pc = pc + 1\n  elseif op == 3 then pc = pc + 1\n  elseif op == 4 then pc = pc + 2\n  else pc = pc + 1 end\n end\nend\nvm({1,2,3})',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.medium);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('string.dump of a function, and escaped bytecode', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local a = 1\nlocal code = string.dump(function() end)',
      'lua/autorun/server/sv_y.lua': 'local b = "\\27LJ\\2\\0"\nRunString(b)',
    });
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ['lua/autorun/server/sv_x.lua', 2],
      ['lua/autorun/server/sv_y.lua', 1],
    ]);
  });
  it('string functions that dump nothing', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local s = string.format("%s", "dump")\nprint(msg.dump)',
    });
    expect(findings).toEqual([]);
  });
  it('ordinary while loop', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua': 'local i = 1\nwhile i <= 10 do i = i + 1 end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
