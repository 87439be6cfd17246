// The one-pass word counts must agree with the regexes they replace, on crafted and mixed text.
import { describe, expect, it } from 'vitest';
import { countWords } from './words.js';

const OBFUSCATED_IDENT = /\b(_0x[0-9a-fA-F]{2,}|[lIO0_]{8,}|[a-zA-Z]{22,})\b/g;
const IDENT = /\b[A-Za-z_][A-Za-z0-9_]*\b/g;

function byRegex(text: string): { identifiers: number; obfuscated: number } {
  return {
    identifiers: text.match(IDENT)?.length ?? 0,
    obfuscated: text.match(OBFUSCATED_IDENT)?.length ?? 0,
  };
}

describe('countWords', () => {
  it.each([
    '',
    'local x = 1',
    'local _0x1f2e = _0x1 .. _0xZZ .. _0x12g .. x_0x12',
    'lIlIlIlI = IIIIIIII0 + 00000000lI + 0000000 + lIlIlI_l',
    'abcdefghijklmnopqrstuv abcdefghijklmnopqrstu abcdefghijklmnopqrstuv1',
    '12abc 3.5e10 0x1F foo.bar:baz() "str ing" -- comment é_word ñandúes',
    'a\u00e9b\u00ffc _ __ 9_ _9',
  ])('matches the regexes on %j', (text) => {
    expect(countWords(text)).toEqual(byRegex(text));
  });

  it('matches the regexes on generated text', () => {
    const alphabet = 'lIO0_x1aZ fg.\n"é';
    let seed = 7;
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let i = 0; i < 300; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        text += alphabet[seed % alphabet.length];
      }
      expect(countWords(text)).toEqual(byRegex(text));
    }
  });
});
