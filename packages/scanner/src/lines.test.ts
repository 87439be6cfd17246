// Line counting: the word-at-a-time count agrees with the byte loop on every alignment.
import { describe, expect, it } from 'vitest';
import { countLineBreaks, countLines, lineBreaks } from './lines.js';

describe('line counting', () => {
  it('counts LF, CRLF and lone CR as one break each', () => {
    const text = Buffer.from('a\nb\r\nc\rd\n\n');
    expect(lineBreaks(text, 100)).toEqual({ count: 5, at: -1 });
    expect(countLines(text)).toBe(5);
    expect(lineBreaks(text, 2)).toEqual({ count: 2, at: 3 });
    expect(countLineBreaks(text, 100)).toBe(5);
  });

  it('counts four bytes at a time exactly, whatever the alignment and the byte values', () => {
    // Bytes next to 0x0a (0x0b, 0x8a, 0x09…) are where a borrow-based zero test goes wrong.
    const tricky = [0x0a, 0x0b, 0x09, 0x8a, 0x0a, 0x00, 0xff, 0x7f, 0x80, 0x0a, 0x0a, 0x41];
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
    const whole = new Uint8Array(4099);
    for (let i = 0; i < whole.length; i++) whole[i] = tricky[random() % tricky.length]!;
    for (let offset = 0; offset < 4; offset++) {
      for (const length of [64, 65, 66, 67, 1000, 4095]) {
        const view = whole.subarray(offset, offset + length);
        let expected = 0;
        for (const b of view) if (b === 10) expected++;
        expect(countLineBreaks(view, 1e9)).toBe(expected);
        expect(countLineBreaks(view, 3)).toBe(Math.min(3, expected));
      }
    }
  });
});
