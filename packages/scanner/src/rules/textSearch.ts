// Text scans shared by the rules: cheap whole-text checks that rule a file out before any
// per-line work, and a one-pass prefilter for many literal needles.
import { rarestByteAt } from '../lua/skim.js';

/** What a line scan reads of a file: its text, and its lines (split on demand). */
export interface ScannedText {
  readonly text: string;
  readonly lines: readonly string[];
}

/** Where the text may be matched, cheapest first: see {@link firstLineMatching}. */
export interface TextHints {
  /** Literals the pattern cannot match without (any one of them). */
  contains?: readonly string[];
  /** A literal every match of the pattern starts with (case included). */
  startsWith?: string;
  /** Finds (and may remember for the run) where a literal occurs in a file's text. */
  positions?: LiteralPositions;
}

/** Finds where a literal occurs in a file's text, e.g. once per run for several rules. */
export interface LiteralPositions {
  positionsOf(file: { readonly text: string }, literal: string): readonly number[];
}

const stickyOf = new WeakMap<RegExp, RegExp>();

function stickyVersion(pattern: RegExp): RegExp {
  let sticky = stickyOf.get(pattern);
  if (!sticky) {
    sticky = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '') + 'y');
    stickyOf.set(pattern, sticky);
  }
  return sticky;
}

/**
 * The leftmost match of `pattern` in the file's text when every match starts with `lead`:
 * the pattern is tried only where `lead` occurs (found at native speed, or given by
 * `positions`), not at every position of the text.
 */
export function execAtLiteral(
  file: { readonly text: string },
  pattern: RegExp,
  lead: string,
  positions?: LiteralPositions,
): RegExpExecArray | null {
  const text = file.text;
  const sticky = stickyVersion(pattern);
  const tryAt = (at: number): RegExpExecArray | null => {
    sticky.lastIndex = at;
    return sticky.exec(text);
  };
  if (positions) {
    for (const at of positions.positionsOf(file, lead)) {
      const m = tryAt(at);
      if (m) return m;
    }
    return null;
  }
  for (let at = text.indexOf(lead); at >= 0; at = text.indexOf(lead, at + 1)) {
    const m = tryAt(at);
    if (m) return m;
  }
  return null;
}

/**
 * 0-based index of the first line on which `pattern` matches, or -1. Most files cannot match,
 * so the whole text is checked first at native speed (a required literal, then the pattern
 * itself, tried only where its leading literal occurs); only then are the lines tested. Exact
 * for patterns without `^`/`$` anchors or lookbehinds, since a match inside a line is also a
 * match inside the text. `pattern` must not be global or sticky.
 */
export function firstLineMatching(
  file: ScannedText,
  pattern: RegExp,
  hints: TextHints = {},
): number {
  const text = file.text;
  if (hints.contains && !hints.contains.some((literal) => text.includes(literal))) return -1;
  const found = hints.startsWith
    ? execAtLiteral(file, pattern, hints.startsWith, hints.positions) !== null
    : pattern.test(text);
  if (!found) return -1;
  return file.lines.findIndex((l) => pattern.test(l));
}

const HASH_BITS = 18;
/** ASCII letters differ from their capitals only by 0x20: or-ing it folds case in 4 bytes at once. */
const FOLD_CASE = 0x20202020;

/** Lua words met everywhere: a needle is looked up by a word of it that is none of these. */
const COMMON_WORDS = [
  'local',
  'function',
  'return',
  'then',
  'elseif',
  'end',
  'while',
  'repeat',
  'until',
  'pairs',
  'ipairs',
  'table',
  'string',
  'self',
  'true',
  'false',
  'nil',
  'not',
  'and',
  'print',
  'hook',
  'timer',
  'panel',
  'player',
  'entity',
  'vector',
  'color',
  'draw',
  'surface',
  'value',
  'this',
];

function hashOf(word: number): number {
  return Math.imul(word | FOLD_CASE, 0x9e3779b1) >>> (32 - HASH_BITS);
}

/** The table's bit for a word (1: the word may be one a needle is looked up by). */
function bitOf(table: Uint32Array, word: number): number {
  const h = hashOf(word);
  return (table[h >>> 5]! >>> (h & 31)) & 1;
}

/** Words read per turn of the scan loop (the bit tests below are written out for 8). */
const WORDS_A_TURN = 8;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The 4 characters of `s` at `at` as the scan reads them from memory (platform byte order). */
function wordAt(s: string, at: number): number {
  const [a, b, c, d] = LITTLE_ENDIAN ? [0, 1, 2, 3] : [3, 2, 1, 0];
  return (
    s.charCodeAt(at + a!) |
    (s.charCodeAt(at + b!) << 8) |
    (s.charCodeAt(at + c!) << 16) |
    (s.charCodeAt(at + d!) << 24)
  );
}

/** How common a 4-character piece of a needle is likely to be in Lua source (lower is rarer). */
function commonness(piece: string): number {
  let score = 0;
  for (let i = 0; i + 3 <= piece.length; i++) {
    const three = piece.slice(i, i + 3);
    if (COMMON_WORDS.some((w) => w.includes(three))) score += 2;
  }
  if ((piece.match(/\s/g)?.length ?? 0) >= 2) score += 4;
  if (/^[a-z]+$/.test(piece)) score += 1;
  return score;
}

interface Candidate {
  /** The needle, lower-cased. */
  needle: string;
  /** Where the looked-up word starts inside the needle (negative: before the needle). */
  offset: number;
  /** Its bit in {@link NeedleFilter.marksIn}. */
  mark: number;
}

/** The bit of {@link NeedleFilter.marksIn} for the filter's own needles (see `mayContain`). */
export const NEEDLE_MARK = 1;

/** The 128 values a byte can take once case-folded (or-ed with 0x20). */
const FOLDED_BYTES = Array.from({ length: 256 }, (_, b) => b).filter((b) => (b & 0x20) !== 0);

/**
 * The words to look a needle up by when it starts at a given place inside an aligned word,
 * and where the first of them starts inside the needle. A whole word of the needle when one
 * fits; else a word holding 3 of its bytes, looked up under each of the 128 folded values of
 * its fourth byte; else none (the needle is too short to be found a word at a time).
 */
function lookupOf(needle: string, first: number): { words: number[]; offset: number } | undefined {
  // `first`: where the first aligned word that starts inside the needle starts.
  if (first + 4 <= needle.length) {
    let best = first;
    for (let at = first + 4; at + 4 <= needle.length; at += 4)
      if (commonness(needle.slice(at, at + 4)) < commonness(needle.slice(best, best + 4)))
        best = at;
    return { words: [wordAt(needle, best)], offset: best };
  }
  const tail = needle.slice(first); // the start of the word the needle ends in
  const head = first === 3 ? needle.slice(0, 3) : undefined; // the end of the word it starts in
  if (tail.length === 3 && (!head || commonness(tail) <= commonness(head)))
    return {
      words: FOLDED_BYTES.map((b) => wordAt(tail + String.fromCharCode(b), 0)),
      offset: first,
    };
  if (head)
    return { words: FOLDED_BYTES.map((b) => wordAt(String.fromCharCode(b) + head, 0)), offset: -1 };
  return undefined;
}

/**
 * `text.includes(needle)`, searched from the needle's byte at `rare`: a native search stops
 * at every occurrence of the needle's first byte, which for `gblk` is a common `g` (twice as
 * many stops as its `k`).
 */
function includesFrom(text: string, needle: string, rare: number): boolean {
  if (rare === 0) return text.includes(needle);
  const ch = needle[rare]!;
  for (let at = text.indexOf(ch, rare); at >= 0; at = text.indexOf(ch, at + 1))
    if (text.startsWith(needle, at - rare)) return true;
  return false;
}

/** The text as bytes, reused from file to file: a byte view and a word view of one buffer. */
let scratch = { bytes: Buffer.alloc(0), words: new Int32Array(0) };

/** Texts above this size get a buffer of their own, so that one huge file is not kept. */
const KEPT_SCRATCH_BYTES = 8 << 20;

/** A scratch buffer of at least `size` bytes (a whole number of words). */
function scratchFor(size: number): typeof scratch {
  if (scratch.bytes.length >= size) return scratch;
  const buffer = new ArrayBuffer(Math.max(1 << 16, 2 * size) & ~3);
  const fresh = { bytes: Buffer.from(buffer), words: new Int32Array(buffer) };
  if (buffer.byteLength <= KEPT_SCRATCH_BYTES) scratch = fresh;
  return fresh;
}

/**
 * Answers whether a text may contain one of the needles (in any case), or one of the
 * exact-case needles as written, exactly: it never says no when one is there. The text is copied as bytes and read one aligned 4-byte word at a
 * time; a table of the case-folded words of every needle (one per place the needle can start
 * in a word) flags the few places to compare in full. A needle of 7 bytes or more holds a whole
 * aligned word wherever it starts; shorter ones hold a whole word or 3 bytes of one, entered
 * under every value of the missing byte, except where they are too short (under 4 bytes, or 4
 * bytes split 2 and 2 across words): those go to one case-insensitive native regex, or, for an
 * exact-case needle, to a native search of it as written (about a third of the regex's cost).
 * Texts must be latin1 (one char per byte, as the analysis reads files): a char above U+00FF
 * would be read as its low byte.
 *
 * Other rules' needles may ride along the same pass (`marks`): each is a bit of the result of
 * {@link marksIn}, set when the text may hold that needle (in any case: a superset of the
 * needle as written, for rules that then match their own pattern). One pass over a text
 * answers them all, where a native search per needle stopped at every common first byte.
 */
export class NeedleFilter {
  /** One bit per hash (32 KiB: it stays in the L1 cache, where a byte table would not). */
  private readonly table = new Uint32Array(1 << (HASH_BITS - 5));
  private readonly candidates = new Map<number, Candidate[]>();
  /** Needles the words cannot find: one case-insensitive native regex. */
  private readonly short: RegExp | undefined;
  /** Exact-case needles the words cannot find: one native search each, from a rare byte. */
  private readonly exactShort: Array<{ needle: string; rare: number; mark: number }> = [];
  /** The marks of all the needles (NEEDLE_MARK for the filter's own). */
  private readonly allMarks: number;

  /**
   * `needles` are found in any case; `exactCase` ones need only be found as written (the words
   * find them in any case too, which is a superset). Both answer {@link mayContain} (the bit
   * NEEDLE_MARK of `marksIn`); `marks` are other needles, each with its own bit, found in any
   * case.
   */
  constructor(
    needles: readonly string[],
    exactCase: readonly string[] = [],
    marks: ReadonlyArray<readonly [string, number]> = [],
  ) {
    const short: string[] = [];
    const folded = new Set(needles.map((n) => n.toLowerCase()));
    const exact = new Set(exactCase.filter((n) => !folded.has(n.toLowerCase())));
    const all: Array<readonly [string, number]> = [
      ...[...folded, ...exact].map((n) => [n, NEEDLE_MARK] as const),
      ...marks,
    ];
    let allMarks = 0;
    for (const [needle, mark] of all) {
      if (needle.length === 0) continue;
      allMarks |= mark;
      const raw = needle.toLowerCase();
      // Needles with a character above U+00FF cannot be read as bytes: the regex takes them.
      // So do the few that no word covers wherever they start (such as 4 bytes split 2 and 2):
      // folding every word for a native byte search of them costs more than the regex.
      const lookups = [...raw].some((ch) => ch.charCodeAt(0) > 0xff)
        ? [undefined]
        : [0, 1, 2, 3].map((first) => lookupOf(raw, first));
      if (lookups.includes(undefined)) {
        // (A mark is found as written: a superset is all its rule needs.)
        if (mark !== NEEDLE_MARK || exact.has(needle))
          this.exactShort.push({ needle, rare: rarestByteAt(needle), mark });
        else short.push(raw);
        continue;
      }
      for (const lookup of lookups) {
        for (const word of lookup!.words) {
          const h = hashOf(word);
          this.table[h >>> 5]! |= 1 << (h & 31);
          const list = this.candidates.get(h) ?? [];
          list.push({ needle: raw, offset: lookup!.offset, mark });
          this.candidates.set(h, list);
        }
      }
    }
    this.allMarks = allMarks;
    this.short = short.length
      ? new RegExp(short.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'i')
      : undefined;
  }

  mayContain(text: string): boolean {
    return (this.marksIn(text, NEEDLE_MARK) & NEEDLE_MARK) !== 0;
  }

  /**
   * The marks of the needles the text may contain (NEEDLE_MARK for the filter's own). The
   * pass ends once every mark of `wanted` is found: marks outside it may then be missing.
   */
  marksIn(text: string, wanted = this.allMarks): number {
    let found = this.short?.test(text) ? NEEDLE_MARK : 0;
    for (const { needle, rare, mark } of this.exactShort)
      if ((found & mark) === 0 && includesFrom(text, needle, rare)) found |= mark;
    if ((found & wanted) === wanted) return found;
    const len = text.length;
    if (len < 4 || this.candidates.size === 0) return found;
    // Zeros after the text fill the last turn's words; a needle is never matched past `len`.
    const { bytes, words } = scratchFor(len + 4 * WORDS_A_TURN);
    bytes.write(text, 0, len, 'latin1');
    bytes.fill(0, len, len + 4 * WORDS_A_TURN);
    const table = this.table;
    const count = (len + 3) >>> 2;
    // Eight words a turn, one branch for all in the common case where none hits: V8 checks the
    // arrays' maps and reloads their data pointers once a turn, not once a word.
    for (let i = 0; i < count; i += WORDS_A_TURN) {
      const hits =
        bitOf(table, words[i]!) |
        bitOf(table, words[i + 1]!) |
        bitOf(table, words[i + 2]!) |
        bitOf(table, words[i + 3]!) |
        bitOf(table, words[i + 4]!) |
        bitOf(table, words[i + 5]!) |
        bitOf(table, words[i + 6]!) |
        bitOf(table, words[i + 7]!);
      if (hits === 0) continue;
      for (let j = i; j < i + WORDS_A_TURN; j++) {
        if (bitOf(table, words[j]!) === 0) continue;
        found |= this.marksAt(bytes, len, j * 4, hashOf(words[j]!), found);
        if ((found & wanted) === wanted) return found;
      }
    }
    return found;
  }

  /**
   * The marks of the candidate needles (other than those `found` already) really in the text
   * around the word at `at` (case-folded).
   */
  private marksAt(bytes: Buffer, len: number, at: number, h: number, found: number): number {
    let marks = 0;
    for (const { needle, offset, mark } of this.candidates.get(h)!) {
      if ((found & mark) !== 0) continue;
      const start = at - offset;
      if (start < 0 || start + needle.length > len) continue;
      let j = 0;
      while (j < needle.length && (bytes[start + j]! | 0x20) === (needle.charCodeAt(j) | 0x20)) j++;
      if (j === needle.length) marks |= mark;
    }
    return marks;
  }
}
