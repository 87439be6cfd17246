// The byte-level facts of a source: the native scan over bytes answers as the decoder over
// the one-char-per-byte text does, on every kind of byte sequence.
import { describe, expect, it } from 'vitest';
import { scanEncoding, scanEncodingOfBytes } from './source.js';

function bothScans(bytes: Uint8Array, start = 0) {
  const text = Buffer.from(bytes).toString('latin1');
  return [scanEncoding(text, start), scanEncodingOfBytes(bytes, start)] as const;
}

describe('scanEncodingOfBytes', () => {
  it('finds what the text decoder finds in crafted sequences', () => {
    const cases: number[][] = [
      [0x61, 0x62],
      [0xe2, 0x80, 0x8b], // zero-width space
      [0xe2, 0x80, 0xae, 0x61], // right-to-left override
      [0xe2, 0x81, 0xa0, 0xe2, 0x81, 0xa9], // word joiner, pop directional isolate
      [0xe2, 0x81, 0xa5], // U+2065: unassigned, not counted
      [0xef, 0xbb, 0xbf, 0x61], // BOM as a character
      [0xe2, 0xe2, 0x80, 0x8b], // a broken lead, then an invisible one
      [0xc0, 0x80], // overlong
      [0xe0, 0x80, 0x80], // overlong, three bytes
      [0xed, 0xa0, 0x80], // surrogate
      [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
      [0xf0, 0x9f, 0x98, 0x80], // emoji
      [0x80], // lone continuation
      [0xe2, 0x80], // cut short at the end
      [0xc3, 0xa9, 0x20, 0xe2, 0x80, 0x9c], // é and a curly quote
    ];
    for (const bytes of cases) {
      const [text, native] = bothScans(Uint8Array.from(bytes));
      expect(native, bytes.map((b) => b.toString(16)).join(' ')).toEqual(text);
    }
  });

  it('skips a byte-order mark at the start as the text decoder does', () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0xe2, 0x80, 0x8b]);
    const [text, native] = bothScans(bytes, 3);
    expect(native).toEqual(text);
    expect(native.invisibleCharCount).toBe(1);
  });

  it('finds what the text decoder finds in random bytes', () => {
    // Bytes drawn mostly from the ones that matter: ASCII, lead and continuation bytes.
    const pool = [
      0x61, 0x20, 0x80, 0x81, 0x8b, 0xaa, 0xa0, 0xa6, 0xbb, 0xbf, 0xc3, 0xe2, 0xef, 0xf0,
    ];
    let seed = 3;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let k = 0; k < 3000; k++) {
      const bytes = Uint8Array.from({ length: 1 + random(24) }, () =>
        random(4) === 0 ? random(256) : pool[random(pool.length)]!,
      );
      const [text, native] = bothScans(bytes);
      expect(native).toEqual(text);
    }
  });
});
