// util.Decompress's LZMA: streams made with LZMA's "alone" format, as util.Compress writes them.
import { describe, expect, it } from 'vitest';
import { lzmaDecompress } from './lzma.js';

const unpack = (b64: string, max = 1 << 20): string | undefined => {
  const out = lzmaDecompress(Buffer.from(b64, 'base64'), max);
  return out === undefined ? undefined : Buffer.from(out).toString('latin1');
};

/** `abcabc… hello hello hello ` ten times: matches, repeats and literals. */
const REPEATED = 'XQAAgACuAQAAAAAAAAAwmIiq7ZwERml/TyjAEdVLXUn72jf///SEgAA=';

describe('lzmaDecompress', () => {
  it('unpacks what util.Compress packed', () => {
    expect(
      unpack(
        'XQAAgAAvAAAAAAAAAAA0HSzgLhyQ6fqIqVRO6DJjTO/HQH8cXF3CdAKcSuz+z8uYuaRuPpDInLZireW2XtHEFv/L5mAA',
      ),
    ).toBe('http.Post("https://x.invalid/p", {}, RunString)');
    expect(unpack(REPEATED)).toBe('abcabcabcabcabcabcabcabc hello hello hello '.repeat(10));
  });
  it('gives nothing for a cut stream, one larger than the cap, or bytes that are no LZMA', () => {
    const whole = Buffer.from(REPEATED, 'base64');
    expect(lzmaDecompress(whole.subarray(0, 20), 1 << 20)).toBeUndefined();
    expect(unpack(REPEATED, 100)).toBeUndefined();
    expect(
      lzmaDecompress(Buffer.from('not compressed at all, just text'), 1 << 20),
    ).toBeUndefined();
  });
});
