// Text scans shared by the rules: cheap whole-text checks that rule a file out before any
// per-line work, and a one-pass prefilter for many literal needles.

/** What a line scan reads of a file: its text, and its lines (split on demand). */
export interface ScannedText {
  readonly text: string;
  readonly lines: readonly string[];
}

/**
 * 0-based index of the first line on which `pattern` matches, or -1. Most files cannot match,
 * so the text is checked first at native speed: it must contain one of `anyOf` (literals the
 * pattern cannot match without), then the pattern must match the whole text; only then are
 * the lines tested. Exact for patterns without `^`/`$` anchors or lookbehinds, since a match
 * inside a line is also a match inside the text. `pattern` must not be global or sticky.
 */
export function firstLineMatching(
  file: ScannedText,
  pattern: RegExp,
  anyOf: readonly string[] = [],
): number {
  const text = file.text;
  if (anyOf.length && !anyOf.some((literal) => text.includes(literal))) return -1;
  if (!pattern.test(text)) return -1;
  return file.lines.findIndex((l) => pattern.test(l));
}

const KEY_BITS = 24;
const KEY_MASK = (1 << KEY_BITS) - 1;

/** Lower-cased byte folded to 6 bits: four of them make a 24-bit key of the last 4 bytes. */
const FOLD = new Uint8Array(65536);
for (let c = 0; c < 65536; c++) {
  const l = c >= 65 && c <= 90 ? c + 32 : c;
  FOLD[c] = (l ^ (l >> 6)) & 63;
}

function keyOf(n: string): number {
  let k = 0;
  for (let i = 0; i < 4; i++) k = ((k << 6) | FOLD[n.charCodeAt(i)]!) & KEY_MASK;
  return k;
}

/**
 * Answers whether a text may contain one of the needles (case-insensitively): a table of the
 * needles' first four bytes is probed at every position, and candidates are checked in full.
 */
export class NeedleFilter {
  private readonly table = new Uint8Array(1 << KEY_BITS);
  private readonly byKey = new Map<number, string[]>();
  private readonly short: string[] = [];

  constructor(needles: readonly string[]) {
    for (const raw of needles) {
      const n = raw.toLowerCase();
      if (n.length < 4) {
        if (n.length > 0) this.short.push(n);
        continue;
      }
      const k = keyOf(n);
      this.table[k] = 1;
      const list = this.byKey.get(k) ?? [];
      list.push(n);
      this.byKey.set(k, list);
    }
  }

  mayContain(text: string): boolean {
    if (this.short.length && this.short.some((n) => text.toLowerCase().includes(n))) return true;
    const len = text.length;
    const table = this.table;
    let k = 0;
    for (let i = 0; i < len; i++) {
      k = ((k << 6) | FOLD[text.charCodeAt(i)]!) & KEY_MASK;
      if (i >= 3 && table[k] === 1 && this.check(text, i - 3, k)) return true;
    }
    return false;
  }

  private check(text: string, start: number, k: number): boolean {
    for (const n of this.byKey.get(k) ?? []) {
      if (
        start + n.length <= text.length &&
        text.slice(start, start + n.length).toLowerCase() === n
      )
        return true;
    }
    return false;
  }
}
