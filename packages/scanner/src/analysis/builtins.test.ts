// Lua patterns as the emulator runs them (string.gmatch, gsub, find, match of known text).
import { describe, expect, it } from 'vitest';
import { luaPatternToRegExp } from './builtins.js';

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
