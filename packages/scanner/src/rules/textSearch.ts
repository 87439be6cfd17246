// A one-pass prefilter for many literal needles over whole files: cheaper than testing each
// needle (or each line) separately, and exact as a "may contain" test.

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
