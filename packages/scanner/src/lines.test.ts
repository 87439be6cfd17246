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

  it('counts CR, LF and CR LF pairs a word at a time as the byte loop does, pairs across words included', () => {
    // Returns and line feeds packed together put CR LF pairs across every lane and word edge;
    // runs longer than 255 words check the per-lane sums.
    const mix = [0x0d, 0x0a, 0x0d, 0x0a, 0x0a, 0x0d, 0x41, 0x0c, 0x0e, 0x8d, 0x20];
    let seed = 11;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
    const whole = new Uint8Array(3 * 4096 + 7);
    for (let i = 0; i < whole.length; i++) whole[i] = mix[random() % mix.length]!;
    for (let offset = 0; offset < 4; offset++) {
      for (const length of [64, 65, 66, 67, 1023, 1024 * 4 + 3, whole.length - offset]) {
        const view = whole.subarray(offset, offset + length);
        expect(countLineBreaks(view, 1e9)).toBe(lineBreaks(view, 1e9).count);
        expect(countLineBreaks(view, 5)).toBe(Math.min(5, lineBreaks(view, 1e9).count));
      }
    }
  });
});
