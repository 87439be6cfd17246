// Lua patterns as the emulator runs them (string.gmatch, gsub, find, match of known text).
import { describe, expect, it } from 'vitest';
import { BUILTINS, luaPatternToRegExp } from './builtins.js';
import { num, str, UNKNOWN, NIL, LuaTable } from './values.js';

/** Every match of a Lua pattern in a text, as string.gmatch without captures would give them. */
function matches(pattern: string, text: string): string[] | undefined {
  const re = luaPatternToRegExp(pattern);
  return re ? [...text.matchAll(re)].map((m) => m[0]) : undefined;
}

describe('luaPatternToRegExp', () => {
  it('sets: complements, classes and ranges inside, and a literal dot', () => {
    // The walk of `_G` by the parts of a dotted name (`for w in s:gmatch("[^.]+")`).
    expect(matches('[^.]+', 'http.Fetch')).toEqual(['http', 'Fetch']);
    expect(matches('[%w_]+', 'a_b c-d')).toEqual(['a_b', 'c', 'd']);
    expect(matches('[a-f]+', 'xxabcfz')).toEqual(['abcf']);
    expect(matches('[^%s]+', 'a b\tc')).toEqual(['a', 'b', 'c']);
    expect(matches('[%]]', 'a]b')).toEqual([']']);
    expect(matches('[]]', 'a]')).toEqual([']']);
    expect(matches('[%a-]+', 'ab-cd ef')).toEqual(['ab-cd', 'ef']);
  });
  it('classes, escapes, quantifiers and anchors', () => {
    expect(matches('%x%x', '4142')).toEqual(['41', '42']);
    expect(matches('..', 'abcd')).toEqual(['ab', 'cd']);
    expect(matches('%.', 'a.b')).toEqual(['.']);
    expect(matches('%%', '5%')).toEqual(['%']);
    expect(matches('%A+', 'ab12cd')).toEqual(['12']);
    expect(matches('a-b', 'aaab')).toEqual(['aaab']);
    expect(matches('^%d+', '12ab34')).toEqual(['12']);
    expect(matches('%d+$', '12ab34')).toEqual(['34']);
    expect(matches('a$b', 'a$b')).toEqual(['a$b']);
    expect(matches('%z', 'ab\0c\0')).toEqual(['\0', '\0']);
    expect(matches('%Z+', 'ab\0c')).toEqual(['ab', 'c']);
    expect(luaPatternToRegExp('(%d+)-(%d+)')!.exec('12-34')?.slice(1)).toEqual(['12', '34']);
  });
  it('what has no regex: balance, frontier, position captures, an open set', () => {
    for (const p of ['%b()', '%f[%w]', '()a', '[abc', '[%W]'])
      expect(luaPatternToRegExp(p)).toBe(undefined);
  });
});

describe('builtins on known values', () => {
  it("the game's hashes of a known text, as GMod gives them", () => {
    expect(BUILTINS['util.CRC']!([str('http')])).toEqual([str('2541227442')]);
    expect(BUILTINS['util.MD5']!([str('a')])).toEqual([str('0cc175b9c0f1b6a831c399e269772661')]);
    expect(BUILTINS['util.SHA256']!([str('')])[0]).toEqual(
      str('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'),
    );
    expect(BUILTINS['util.CRC']!([UNKNOWN])).toEqual([UNKNOWN]);
  });
  it('type() of what is known for sure; nil and unknown values stay unknown', () => {
    expect(BUILTINS.type!([str('x')])).toEqual([str('string')]);
    expect(BUILTINS.type!([num(1)])).toEqual([str('number')]);
    expect(BUILTINS.type!([{ k: 'table', t: new LuaTable() }])).toEqual([str('table')]);
    expect(BUILTINS.type!([NIL])).toEqual([UNKNOWN]);
    expect(BUILTINS.type!([UNKNOWN])).toEqual([UNKNOWN]);
  });
  it('math functions of a known number', () => {
    expect(BUILTINS['math.sqrt']!([num(9)])).toEqual([num(3)]);
    expect(BUILTINS['math.ceil']!([num(1.2)])).toEqual([num(2)]);
    expect(BUILTINS['math.exp']!([UNKNOWN])).toEqual([UNKNOWN]);
  });
  it('answers istable and its kin for values whose type is known, and only for those', () => {
    const t = { k: 'table' as const, t: new LuaTable() };
    expect(BUILTINS['istable']!([t])).toEqual([{ k: 'bool', v: true }]);
    expect(BUILTINS['isstring']!([t])).toEqual([{ k: 'bool', v: false }]);
    expect(BUILTINS['isstring']!([str('x')])).toEqual([{ k: 'bool', v: true }]);
    expect(BUILTINS['isnumber']!([num(1)])).toEqual([{ k: 'bool', v: true }]);
    expect(BUILTINS['istable']!([UNKNOWN])).toEqual([UNKNOWN]);
    expect(BUILTINS['istable']!([NIL])).toEqual([UNKNOWN]);
  });
});
