// Turns raw file bytes into the one-char-per-byte text the lexer works on, and notes the
// byte-level facts of the file (BOM, invalid UTF-8, invisible/bidi characters, line lengths).
import { Buffer, isAscii, isUtf8 } from 'node:buffer';

/** Byte-level facts of a source file that the lexer does not see. */
export interface EncodingFacts {
  invalidUtf8: boolean;
  invisibleCharCount: number;
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Bytes are decoded as latin1 so that every byte sequence survives and offsets stay byte
 * offsets. A JS string is taken to be Unicode text, so it is encoded to UTF-8 first (a pure
 * ASCII string is already its own byte form).
 */
export function decodeSource(input: Uint8Array | string): string {
  if (typeof input === 'string') {
    return NON_ASCII.test(input) ? Buffer.from(input, 'utf8').toString('latin1') : input;
  }
  return Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('latin1');
}

export function hasUtf8Bom(text: string): boolean {
  return text.charCodeAt(0) === 0xef && text.charCodeAt(1) === 0xbb && text.charCodeAt(2) === 0xbf;
}

/** Zero-width, word-joiner and bidirectional-override code points (Trojan Source style). */
function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0xfeff
  );
}

function isContinuation(c: number): boolean {
  return (c & 0xc0) === 0x80;
}

const FIRST_NON_ASCII = /[\x80-\xff]/;

/** Checks the bytes from `start` as UTF-8 and counts invisible/bidi code points. */
export function scanEncoding(text: string, start: number): EncodingFacts {
  const n = text.length;
  let invalidUtf8 = false;
  let invisible = 0;
  // Most Lua is pure ASCII: jump straight to the first byte that needs decoding.
  const first = text.slice(start).search(FIRST_NON_ASCII);
  if (first < 0) return { invalidUtf8, invisibleCharCount: 0 };
  let i = start + first;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      i++;
      continue;
    }
    // Decode one UTF-8 sequence strictly (no overlongs, no surrogates, max U+10FFFF).
    let cp = -1;
    let len = 1;
    if (c >= 0xc2 && c <= 0xdf) {
      const c1 = text.charCodeAt(i + 1);
      if (isContinuation(c1)) {
        cp = ((c & 0x1f) << 6) | (c1 & 0x3f);
        len = 2;
      }
    } else if (c >= 0xe0 && c <= 0xef) {
      const c1 = text.charCodeAt(i + 1);
      const c2 = text.charCodeAt(i + 2);
      if (isContinuation(c1) && isContinuation(c2)) {
        const v = ((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
        if (v >= 0x800 && (v < 0xd800 || v > 0xdfff)) {
          cp = v;
          len = 3;
        }
      }
    } else if (c >= 0xf0 && c <= 0xf4) {
      const c1 = text.charCodeAt(i + 1);
      const c2 = text.charCodeAt(i + 2);
      const c3 = text.charCodeAt(i + 3);
      if (isContinuation(c1) && isContinuation(c2) && isContinuation(c3)) {
        const v = ((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
        if (v >= 0x10000 && v <= 0x10ffff) {
          cp = v;
          len = 4;
        }
      }
    }
    if (cp < 0) invalidUtf8 = true;
    else if (isInvisible(cp)) invisible++;
    i += len;
  }
  return { invalidUtf8, invisibleCharCount: invisible };
}

/**
 * scanEncoding over the raw bytes, at native speed: Node validates the UTF-8 (the same strict
 * rules: no overlongs, no surrogates, nothing above U+10FFFF), and the invisible code points
 * are found by their lead byte. In UTF-8 each of them is E2 80 8B–8F, E2 80 AA–AE,
 * E2 81 A0–A4, E2 81 A6–A9 or EF BB BF; E2 and EF never continue a sequence, so the byte-wise
 * decoder met each such sequence at its own lead byte too, and counted it.
 */
export function scanEncodingOfBytes(bytes: Uint8Array, start: number): EncodingFacts {
  // Most Lua is plain ASCII, which the native check sees at memory speed.
  if (isAscii(bytes)) return { invalidUtf8: false, invisibleCharCount: 0 };
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const invalidUtf8 = !isUtf8(view.subarray(start));
  let invisible = 0;
  for (let i = view.indexOf(0xe2, start); i >= 0; i = view.indexOf(0xe2, i + 1)) {
    const b1 = view[i + 1];
    const b2 = view[i + 2] ?? 0;
    if (
      (b1 === 0x80 && ((b2 >= 0x8b && b2 <= 0x8f) || (b2 >= 0xaa && b2 <= 0xae))) ||
      (b1 === 0x81 && ((b2 >= 0xa0 && b2 <= 0xa4) || (b2 >= 0xa6 && b2 <= 0xa9)))
    )
      invisible++;
  }
  for (let i = view.indexOf(0xef, start); i >= 0; i = view.indexOf(0xef, i + 1))
    if (view[i + 1] === 0xbb && view[i + 2] === 0xbf) invisible++;
  return { invalidUtf8, invisibleCharCount: invisible };
}
