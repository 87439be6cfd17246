// Line counting over raw bytes, as the analysis splits lines (LF, CRLF or a lone CR).

/** Lines of a file (a last line without a break counts; an empty file has none). */
export function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = 1;
  // An indexed loop: the iterator form costs ~25× more, seconds on a few hundred MiB of skipped Lua.
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
  return lines;
}

/**
 * Counts the line breaks of `bytes` as the analysis splits lines (LF, CRLF or a lone CR), up
 * to `limit` of them: `at` is the offset of the limit-th break, or -1 when there are fewer.
 */
export function lineBreaks(bytes: Uint8Array, limit: number): { count: number; at: number } {
  // One indexed pass: two native indexOf calls per line cost more than the loop on ordinary
  // code (~30 bytes a line); a newline bomb still stops at `limit`.
  let count = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b !== 10 && b !== 13) continue;
    if (++count >= limit) return { count, at: i };
    if (b === 13 && bytes[i + 1] === 10) i++;
  }
  return { count, at: -1 };
}

/**
 * lineBreaks(bytes, limit).count, four bytes at a time where the text has no CR: the count of
 * LF bytes in a 32-bit word is the count of its zero bytes once XORed with 0x0a0a0a0a.
 */
export function countLineBreaks(bytes: Uint8Array, limit: number): number {
  if (bytes.length < 64 || bytes.indexOf(13) >= 0) return lineBreaks(bytes, limit).count;
  let count = 0;
  let i = 0;
  const n = bytes.length;
  // Up to the first 4-byte aligned offset, the word view, then the tail.
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) if (bytes[i] === 10) count++;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (n - i) >>> 2);
  for (let k = 0; k < words.length; k++) {
    const x = words[k]! ^ 0x0a0a0a0a;
    // High bit of each byte set when that byte of x is not zero (exact, no borrow across bytes).
    const nonZero = (((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080;
    const zero = ~nonZero & 0x80808080;
    if (zero !== 0) count += Math.imul(zero >>> 7, 0x01010101) >>> 24;
  }
  for (i += words.length * 4; i < n; i++) if (bytes[i] === 10) count++;
  return Math.min(count, limit);
}
