// Valid and invalid cases of the `binary_module` rule.
import { describe, expect, it } from 'vitest';
import { rule } from './binary_module.js';
import { check, RANK, worst } from './ruleTesting.js';

describe('binary_module', () => {
  it('unknown module with loader strings', () => {
    const findings = check(rule, { 'lua/bin/gmsv_x_win32.dll': 'MZ\nRunStringG\nlua_loadbuffer' });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
    for (const f of findings) expect(f.line).toBeGreaterThanOrEqual(0);
  });
  it('a native implant: runs Lua, names the server passwords, calls a web address', () => {
    const findings = check(rule, {
      'lua/bin/gmsv_chttp_win64.dll': [
        'MZ',
        'luaL_loadbuffer',
        'lua_pcall',
        'GetConVar',
        'rcon_password',
        'hostport',
        'https://relay.statsync.invalid/in.php?id=',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.critical);
  });
  it('an HTTP client module (unknown build: not critical)', () => {
    const findings = check(rule, {
      'lua/bin/gmsv_chttp_win64.dll': [
        'MZ',
        'curl/7.88.1',
        'lua_pushstring',
        'luaL_loadbuffer',
        'https://curl.se/docs/',
        'Content-Type',
      ].join('\n'),
    });
    expect(worst(findings)).toBe(RANK.high);
  });
  it('no binary module', () => {
    const findings = check(rule, { 'lua/autorun/server/sv_x.lua': 'require("mysqloo")' });
    expect(findings.filter((f) => f.severity !== 'low')).toEqual([]);
  });
  it('a native library loaded by path with package.loadlib', () => {
    const findings = check(rule, {
      'lua/autorun/server/sv_x.lua':
        'local f = package.loadlib and package.loadlib("garrysmod/lua/bin/winsys.so", "luaopen_winsys")\nif f then f() end',
    });
    expect(worst(findings)).toBeGreaterThanOrEqual(RANK.high);
  });
});
