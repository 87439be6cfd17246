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
 * lineBreaks(bytes, limit).count, four bytes at a time: breaks are LF bytes plus CR bytes
 * less the CR LF pairs, and a byte of a 32-bit word equals b exactly when that byte of the
 * word XORed with b repeated is zero. Most files hold no CR at all (found at memory speed
 * by a native search): their breaks are their LF bytes, a third of the work per word.
 */
export function countLineBreaks(bytes: Uint8Array, limit: number): number {
  const n = bytes.length;
  if (n < 64) return lineBreaks(bytes, limit).count;
  const returns = Buffer.from(bytes.buffer, bytes.byteOffset, n).indexOf(13) !== -1;
  let count = 0;
  let i = 0;
  // Up to the first 4-byte aligned offset, the word view, then the tail.
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) count += breakAt(bytes, i);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, (n - i) >>> 2);
  count += returns ? wordBreaks(words, i > 0 && bytes[i - 1] === 13) : wordLineFeeds(words);
  for (i += words.length * 4; i < n; i++) count += breakAt(bytes, i);
  return Math.min(count, limit);
}

/** Line breaks in the words: LF, CR and CR LF pairs, a pair's CR possibly just before them. */
function wordBreaks(words: Uint32Array, returnBeforeFirst: boolean): number {
  let count = 0;
  // 1 when the byte before the current word is a CR (its pair's LF would be this word's first byte).
  let returnBefore = returnBeforeFirst ? 1 : 0;
  for (let k = 0; k < words.length;) {
    // Each byte lane of `lanes` gains at most 1 per word: summed across lanes every 255 words,
    // before a lane can overflow, instead of a multiply per word.
    const end = Math.min(words.length, k + 255);
    let lanes = 0;
    for (; k < end; k++) {
      const w = words[k]!;
      const lf = zeroBytes(w ^ 0x0a0a0a0a);
      const cr = zeroBytes(w ^ 0x0d0d0d0d);
      // A CR's pair is the LF one lane up (little-endian); a lane can hold an LF or a CR, not both.
      lanes += lf + cr - ((((cr << 8) | returnBefore) & lf) >>> 0);
      returnBefore = cr >>> 24;
    }
    count += laneSum(lanes);
  }
  return count;
}

/** LF bytes in the words (of text without a CR, where every LF is a break of its own). */
function wordLineFeeds(words: Uint32Array): number {
  let count = 0;
  for (let k = 0; k < words.length;) {
    const end = Math.min(words.length, k + 255);
    let lanes = 0;
    for (; k < end; k++) lanes += zeroBytes(words[k]! ^ 0x0a0a0a0a);
    count += laneSum(lanes);
  }
  return count;
}

/** The sum of the four byte lanes of x. */
function laneSum(x: number): number {
  const pairs = (x & 0x00ff00ff) + ((x >>> 8) & 0x00ff00ff);
  return (pairs & 0xffff) + (pairs >>> 16);
}

/** 0x01 in each byte lane of x that is zero, else 0x00 (exact: no borrow across lanes). */
function zeroBytes(x: number): number {
  return ~((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) >>> 7) & 0x01010101;
}

/** Whether the byte at i ends a line break of its own (the LF of a CR LF does not). */
function breakAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b === 13) return 1;
  if (b === 10) return i > 0 && bytes[i - 1] === 13 ? 0 : 1;
  return 0;
}
