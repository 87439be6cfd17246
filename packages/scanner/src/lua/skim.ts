// The skim: one allocation-light pass over a Lua file's bytes that finds every function's
// extent and what each one mentions (by category), without building tokens or a tree. The
// parser then builds trees only for what is worth one and leaves the rest as lazy bodies (see
// `functionBody`); files with nothing worth a tree are not parsed at all.
import { Buffer } from 'node:buffer';
import type { FunctionWatch } from './ast.js';
import {
  baseBefore,
  namedArgumentAt,
  WATCH_BASE,
  WATCH_FIELD,
  WATCH_GLOBAL,
  WATCH_LIBRARY,
  WATCH_NAMED_ARG,
} from './ast.js';

/** One `function … end` of the file as the skim sees it. */
export interface SkimmedFunction {
  /** Offset just past the matching `end` keyword. */
  end: number;
  /** Line of the `end` keyword, and the offset where that line starts. */
  endLine: number;
  endLineStart: number;
  /**
   * Worth a tree: what its own body mentions passes `SkimWatch.worth`, or a nested function's
   * does (the parent must run to create it).
   */
  watched: boolean;
  /** Categories (SkimWatch bits) of what its own body mentions. */
  mask: number;
}

export interface Skim {
  /** Every function, by the offset of its `function` keyword; empty when `balanced` is false. */
  functions: Map<number, SkimmedFunction>;
  /** Something watched, of any category, appears anywhere in the file (top level included). */
  watched: boolean;
  /**
   * The file is worth a tree: its top-level code, or one of its functions, passes
   * `SkimWatch.worth`.
   */
  worth: boolean;
  /** Blocks, strings and comments all close, and no byte outside them is foreign to Lua. */
  balanced: boolean;
  lines: number;
  longestLineLength: number;
  gluaOperatorCount: number;
  cCommentCount: number;
  /**
   * Words of the code (strings and comments excluded; keywords count), and the ones that look
   * machine-made.
   */
  identifiers: number;
  obfuscatedIdentifiers: number;
  /** Paths of the functions the file defines outside any function (`pace.Send`, `Foo:Bar`). */
  defines: string[];
  /** Bloom filter of the code's identifiers (see `mayMention`). */
  words: Uint32Array;
}

// Identifier bytes as the lexer sees them (LuaJIT: every byte >= 0x80 is one).
const IDENT_START = new Uint8Array(256);
const IDENT_PART = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
  IDENT_START[c] = alpha ? 1 : 0;
  IDENT_PART[c] = alpha || (c >= 48 && c <= 57) ? 1 : 0;
}
/** Bytes that cannot start any token: the lexer reports them as stray characters. */
const STRAY = new Uint8Array(256);
for (let c = 0; c < 32; c++)
  if (c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13) STRAY[c] = 1;
for (const c of [36, 63, 64, 92, 96, 127]) STRAY[c] = 1;
/** Bytes that end a run of plain content in a quoted string: quotes, line breaks, `\\`. */
const STRING_STOP = new Uint8Array(256);
for (const c of [10, 13, 34, 39, 92]) STRING_STOP[c] = 1;

/**
 * Byte classes of the skim's main loop: one table read sorts a byte, and the dense values
 * let V8 compile the switch on them as a jump table (a switch on the byte itself became a
 * tree of a dozen comparisons). WORD and DIGIT are the identifier bytes (`>= WORD`).
 */
const PLAIN = 0; // operators that need nothing: `=`, `+`, `,`, `;`…
const SPACE = 1;
const BREAK = 2;
const QUOTE = 3;
const MINUS = 4;
const SLASH = 5;
const OPEN_SQUARE = 6;
const OPEN_PAREN = 7;
const OPEN_BRACE = 8;
const CLOSE = 9;
const BANG = 10;
const DOUBLED = 11; // `&&`, `||`
const TILDE = 12;
const DOT = 13;
const COLON = 14;
const STRAY_BYTE = 15;
const WORD = 16;
const DIGIT = 17;
const CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++)
  CLASS[c] =
    IDENT_START[c] === 1 ? WORD : IDENT_PART[c] === 1 ? DIGIT : STRAY[c] === 1 ? STRAY_BYTE : PLAIN;
for (const c of [32, 9, 11, 12]) CLASS[c] = SPACE;
for (const [c, cls] of [
  [10, BREAK],
  [13, BREAK],
  [34, QUOTE],
  [39, QUOTE],
  [45, MINUS],
  [47, SLASH],
  [91, OPEN_SQUARE],
  [40, OPEN_PAREN],
  [123, OPEN_BRACE],
  [41, CLOSE],
  [93, CLOSE],
  [125, CLOSE],
  [33, BANG],
  [38, DOUBLED],
  [124, DOUBLED],
  [126, TILDE],
  [46, DOT],
  [58, COLON],
] as const)
  CLASS[c] = cls;

// Word tests (SWAR), written out where they are used: `((x - 0x01010101) | 0) & ~x &
// 0x80808080` sets bit 7 of a byte where that byte of `x` is zero, and with 0x0e0e0e0e where it
// is below 14. A borrow may also set it in a byte above such a byte, never in a lower one:
// whether any bit is set, and which byte is the lowest, are exact. `| 0` keeps V8's subtraction
// a 32-bit one (no overflow check, no float). Not functions: V8 checks an inlined module
// function's binding at every call, which is every four bytes here.

function fnv(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** FNV-1a as the skim's loops compute it: a signed 32-bit integer (`fnv(…) | 0`). */
function fnv32(text: string): number {
  return fnv(text, 0, text.length) | 0;
}

// Hashes of the keywords that open or close blocks. The main loop compares an identifier's
// hash with these before looking at its bytes, so ordinary names cost a few comparisons.
const H_FUNCTION = fnv32('function');
const H_END = fnv32('end');
const H_DO = fnv32('do');
const H_IF = fnv32('if');
const H_REPEAT = fnv32('repeat');
const H_UNTIL = fnv32('until');

function bytesStartWith(bytes: Uint8Array, at: number, ascii: string): boolean {
  if (at < 0 || at + ascii.length > bytes.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** Bloom filter size for a file: ~2 bits per source byte, so ~1 % false positives. */
function wordBits(length: number): number {
  let bits = 2048;
  while (bits < length * 2 && bits < 1 << 22) bits *= 2;
  return bits;
}

/** Hash of a name for `mayMention` (compute it once per name). */
export function wordHash(name: string): number {
  return fnv(name, 0, name.length);
}

/** Whether the skimmed file may use the name of hash `h` as an identifier (false: it does not). */
export function mayMention(skim: Skim, h: number): boolean {
  const words = skim.words;
  const mask = words.length * 32 - 1;
  const a = h & mask;
  const b = (Math.imul(h, 0x9e3779b1) >>> 0) & mask;
  return (words[a >>> 5]! & (1 << (a & 31))) !== 0 && (words[b >>> 5]! & (1 << (b & 31))) !== 0;
}

/**
 * Offsets where `name` is used in `text` (a superset of its uses: in strings and comments
 * too), at most `max` of them. A bare name (no `.` or `:`) is not matched where it is a
 * field (`x.Remove`, `x:Remove`): a call by path is never a call of the bare name, and common
 * method names would otherwise match everywhere. Definitions (`function PANEL:Init`) and
 * assignment targets (`x.f = …`) are not uses: they neither call nor pass the function, and
 * engine callbacks such as `PANEL:Init` are defined in hundreds of files.
 *
 * `ranges` (`[from, to)` pairs, in text order) limits the search to those parts of the text;
 * a use must lie inside one. What surrounds a use is read in the whole text. Occurrences
 * do not overlap: the search goes on after the end of each one found.
 */
export function wordOffsets(
  text: string,
  name: string,
  ranges?: readonly number[],
  max = 10_000,
): number[] {
  const out: number[] = [];
  const bare = !/[.:]/.test(name);
  // The native search stops at every occurrence of the first byte of what it looks for:
  // it looks for the name from its rarest byte on, and the bytes before are compared after.
  const lead = rarestByteAt(name);
  const tail = lead === 0 ? name : name.slice(lead);
  const head = name.slice(0, lead);
  const count = ranges === undefined ? 2 : ranges.length;
  for (let r = 0; r < count && out.length < max; r += 2) {
    const from = ranges === undefined ? 0 : ranges[r]!;
    const to = ranges === undefined ? text.length : ranges[r + 1]!;
    if (to - from < name.length) continue;
    // A slice shares the text's characters (no copy): the native search stops at its end
    // instead of running on to the next use, which may be anywhere in the rest of the text.
    // The part starts `lead` bytes in, where the tail of a name starting at `from` starts.
    const partFrom = from + lead;
    const part = partFrom === 0 && to === text.length ? text : text.slice(partFrom, to);
    let found = part.indexOf(tail);
    while (found >= 0 && out.length < max) {
      const at = partFrom + found - lead;
      if (lead > 0 && !text.startsWith(head, at)) {
        found = part.indexOf(tail, found + 1);
        continue;
      }
      const before = at > 0 ? text.charCodeAt(at - 1) : 32;
      const end = at + name.length;
      // `| 0`: past the end `charCodeAt` gives NaN, and one NaN index makes V8's loads from
      // the byte table generic (slow) for every later read; NaN | 0 is 0, no identifier byte.
      if (
        IDENT_PART[before] !== 1 &&
        IDENT_PART[text.charCodeAt(end) | 0] !== 1 &&
        !(bare && isFieldAt(text, at)) &&
        !isDefinitionAt(text, at) &&
        !isAssignedAt(text, end)
      )
        out.push(at);
      found = part.indexOf(tail, found + name.length);
    }
  }
  return out;
}

/**
 * Bytes by how often they occur in Lua source, rarest first (a byte in none of these groups is
 * among the most common: lower-case letters, spaces and most punctuation).
 */
const BYTE_RARITY_GROUPS = [
  'QZJXKY6789jq',
  'z345HWUBFV',
  'GMO210NRxIDLA',
  'kPECw:TvS',
  'by_g=,()hmpf.',
];
const BYTE_RARITY = new Uint8Array(256).fill(BYTE_RARITY_GROUPS.length);
BYTE_RARITY_GROUPS.forEach((group, rank) => {
  for (let i = 0; i < group.length; i++) BYTE_RARITY[group.charCodeAt(i)] = rank;
});

/** Where the first of the rarest bytes of `name` is (by BYTE_RARITY). */
export function rarestByteAt(name: string): number {
  let best = 0;
  for (let i = 1; i < name.length; i++)
    if (BYTE_RARITY[name.charCodeAt(i) & 0xff]! < BYTE_RARITY[name.charCodeAt(best) & 0xff]!)
      best = i;
  return best;
}

/** Whether the name at `at` follows the `function` keyword (`function a.b()`). */
function isDefinitionAt(text: string, at: number): boolean {
  let i = at - 1;
  if (i < 0 || !isSpace(text.charCodeAt(i))) return false;
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--;
  return (
    i >= 7 && text.startsWith('function', i - 7) && IDENT_PART[text.charCodeAt(i - 8) | 0] !== 1
  );
}

/** Whether the name ending at `end` is assigned (`x.f = …`, not `x.f == …`). */
function isAssignedAt(text: string, end: number): boolean {
  let i = end;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return text.charCodeAt(i) === 61 && text.charCodeAt(i + 1) !== 61;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether the identifier at `at` follows `.` or `:` (spaces allowed; `..` is concatenation). */
function isFieldAt(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
  const c = i >= 0 ? text.charCodeAt(i) : 0;
  if (c === 58) return text.charCodeAt(i - 1) !== 58; // `::label::` is no method
  return c === 46 && text.charCodeAt(i - 1) !== 46;
}

// Quick-reject filters: one bit per value of a hash's low 16 bits. As bits (8 KiB) rather
// than bytes (64 KiB) the four of them stay in the L1 cache next to the byte tables.
function newFilter(): Uint32Array {
  return new Uint32Array(65536 / 32);
}

function setFilter(filter: Uint32Array, h: number): void {
  filter[(h & 0xffff) >>> 5]! |= 1 << (h & 31);
}

function inFilter(filter: Uint32Array, h: number): boolean {
  return (filter[(h & 0xffff) >>> 5]! & (1 << (h & 31))) !== 0;
}

/** A watch list compiled for the skim: names by hash, string needles by their first 4 bytes. */
export interface SkimWatch {
  names: Map<number, Array<{ name: string; flags: number; category: number }>>;
  /** Quick reject for names: bit set when some watched name's hash has these low 16 bits. */
  nameFilter: Uint32Array;
  /** `nameFilter` and `definitionFilter` together: the one test most identifiers take. */
  identifierFilter: Uint32Array;
  definitions: ReadonlySet<string>;
  /** Hashes of the definitions, to judge short string literals without slicing them. */
  definitionHashes: ReadonlySet<number>;
  /**
   * Generic definition names (`Add`, `Start`…) with the libraries where redefining them counts
   * (`hook.Add`, not `PANEL:Add`); they never count as string literals.
   */
  definitionBases: ReadonlyMap<string, ReadonlySet<string>>;
  /** Names flagged WATCH_BASE, with the tables they count on (FunctionWatch.nameBases). */
  nameBases: ReadonlyMap<string, ReadonlySet<string>>;
  /** Hashes of the names in `definitionBases`. */
  genericDefinitionHashes: ReadonlySet<number>;
  /** Quick reject for definitions, by the low 16 bits of their hashes. */
  definitionFilter: Uint32Array;
  /** Needles looked for inside string literals, by the 32-bit key of their first 4 bytes. */
  needles: Map<number, Array<{ text: string; category: number }>>;
  needleFilter: Uint32Array;
  /** Byte pairs at offsets 0-1, 1-2 and 2-3 of the needles, one bit each (see `needlesIn`). */
  needlePairs: Uint32Array;
  /** Categories of escaped string literals, SteamID64 numerals and watched redefinitions. */
  escapeCategory: number;
  idCategory: number;
  definitionCategory: number;
  /** Whether a function whose own body mentions these categories is worth a tree. */
  worth: (mask: number) => boolean;
  /**
   * Top-level code mentioning this category (handler registrations) is worth a tree even
   * when its handlers are not: the registrations themselves are judged (names removed…).
   */
  registrationCategory: number;
  /** Categories of string literals that are these words, compared lower-cased (by hash). */
  literals: ReadonlyMap<number, number>;
  /** Quick reject for literals, by the low 16 bits of their hashes. */
  literalFilter: Uint32Array;
}

/** How a FunctionWatch's names, strings and devices sort into categories for the skim. */
export interface SkimPolicy {
  /** Category bits of each watched name (names missing here count as `otherCategory`). */
  categories: ReadonlyMap<string, number>;
  otherCategory: number;
  /** Literal words the watch's string judge reacts to, with their category. */
  needles: ReadonlyArray<readonly [string, number]>;
  escapeCategory: number;
  idCategory: number;
  definitionCategory: number;
  worth: (mask: number) => boolean;
  registrationCategory: number;
  /** Whole string literals (net message names…) that count, compared lower-cased. */
  literals?: ReadonlyArray<readonly [string, number]>;
  /** Definitions that count only on these library tables (see SkimWatch.definitionBases). */
  definitionBases?: ReadonlyMap<string, readonly string[]>;
}

/** Compiles a FunctionWatch and the policy sorting it into categories for the skim. */
export function compileSkimWatch(watch: FunctionWatch, policy: SkimPolicy): SkimWatch {
  const names = new Map<number, Array<{ name: string; flags: number; category: number }>>();
  const nameFilter = newFilter();
  for (const [name, flags] of watch.names) {
    const h = fnv(name, 0, name.length);
    setFilter(nameFilter, h);
    const list = names.get(h) ?? [];
    list.push({ name, flags, category: policy.categories.get(name) ?? policy.otherCategory });
    names.set(h, list);
  }
  const byKey = new Map<number, Array<{ text: string; category: number }>>();
  const needleFilter = newFilter();
  const needlePairs = new Uint32Array(65536 / 32);
  for (const [text, category] of policy.needles) {
    if (text.length < 4) throw new Error(`skim needle too short: ${text}`);
    const key =
      ((text.charCodeAt(0) << 24) |
        (text.charCodeAt(1) << 16) |
        (text.charCodeAt(2) << 8) |
        text.charCodeAt(3)) >>>
      0;
    setFilter(needleFilter, key ^ (key >>> 16));
    for (let k = 0; k < 3; k++) {
      // Little-endian, as `nextNeedlePair` reads them.
      const pair = (text.charCodeAt(k) & 0xff) | ((text.charCodeAt(k + 1) & 0xff) << 8);
      needlePairs[pair >>> 5]! |= 1 << (pair & 31);
    }
    const list = byKey.get(key) ?? [];
    list.push({ text, category });
    byKey.set(key, list);
  }
  const definitions = watch.definitions ?? new Set<string>();
  const definitionHashes = new Set([...definitions].map((d) => fnv(d, 0, d.length)));
  const definitionBases = new Map<string, ReadonlySet<string>>();
  for (const [name, bases] of policy.definitionBases ?? [])
    definitionBases.set(name, new Set(bases));
  const genericDefinitionHashes = new Set(
    [...definitionBases.keys()].map((d) => fnv(d, 0, d.length)),
  );
  const literals = literalHashes(policy.literals ?? []);
  const literalFilter = newFilter();
  for (const h of literals.keys()) setFilter(literalFilter, h);
  const definitionFilter = newFilter();
  for (const h of definitionHashes) setFilter(definitionFilter, h);
  const identifierFilter = nameFilter.map((bits, i) => bits | definitionFilter[i]!);
  return {
    names,
    nameFilter,
    identifierFilter,
    definitions,
    definitionHashes,
    definitionBases,
    nameBases: watch.nameBases ?? new Map<string, ReadonlySet<string>>(),
    genericDefinitionHashes,
    definitionFilter,
    needles: byKey,
    needleFilter,
    needlePairs,
    escapeCategory: policy.escapeCategory,
    idCategory: policy.idCategory,
    definitionCategory: policy.definitionCategory,
    worth: policy.worth,
    registrationCategory: policy.registrationCategory,
    literals,
    literalFilter,
  };
}

/** Literal words by the hash of their lower-cased bytes (longer ones could not match). */
function literalHashes(words: ReadonlyArray<readonly [string, number]>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [word, category] of words) {
    const lower = word.toLowerCase();
    if (lower.length === 0 || lower.length > MAX_LITERAL) continue;
    const h = fnv(lower, 0, lower.length);
    out.set(h, (out.get(h) ?? 0) | category);
  }
  return out;
}

/**
 * The path of a defined function, `[from, to)` in the bytes, without the white space the
 * source may put around its `.` and `:`. Most paths have none: the regex only runs then.
 */
function definedPath(src: Buffer, from: number, to: number): string {
  const path = src.toString('latin1', from, to);
  for (let i = from; i < to; i++) {
    const c = src[i]!;
    // What `\s` matches in latin1 text: tab to carriage return, space and no-break space.
    if ((c >= 9 && c <= 13) || c === 32 || c === 160) return path.replace(/\s+/g, '');
  }
  return path;
}

/**
 * Bytes with ASCII upper case lowered. A table read rather than a range test: in mixed-case
 * literals (`PlayerInitialSpawn`) the test went either way from byte to byte, and mispredicted.
 */
const ASCII_LOWER = new Uint8Array(256);
for (let c = 0; c < 256; c++) ASCII_LOWER[c] = c >= 65 && c <= 90 ? c + 32 : c;

/** Longest string literal compared with `SkimWatch.literals`. */
const MAX_LITERAL = 64;

/** A machine-generated name: `_0x3fa2`, `lIlIlIlI`, or 22+ letters with few vowels. */
function isObfuscatedWord(text: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  if (length >= 5 && text[start]! === 95 && text[start + 1]! === 48 && text[start + 2]! === 120) {
    let hex = true;
    for (let i = start + 3; i < end && hex; i++) {
      const c = text[i]! | 0x20;
      hex = (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
    }
    if (hex) return true;
  }
  if (length >= 8) {
    let confusable = true;
    for (let i = start; i < end && confusable; i++) {
      const c = text[i]!;
      confusable = c === 108 || c === 73 || c === 79 || c === 48 || c === 95;
    }
    if (confusable) return true;
  }
  if (length >= 22) {
    // Long names of real code (`AdditiveVolumeFraction`) are made of words; random letters
    // have few vowels (about 1 in 5, against 2 in 5 for English words).
    let vowels = 0;
    for (let i = start; i < end; i++) {
      const c = text[i]! | 0x20;
      if (c < 97 || c > 122) return false;
      if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121) vowels++;
    }
    return vowels * 4 < length;
  }
  return false;
}

/**
 * The shortest machine-made name (see isObfuscatedWord) by its first byte: `_0x…` from 5
 * bytes, confusable letters (`lIlI…`) from 8, any other from 22. One table read, whose test
 * is almost always false, replaces length tests that go either way.
 */
const MADE_FROM = new Uint8Array(256).fill(22);
MADE_FROM[95] = 5;
for (const c of [108, 73, 79, 48]) MADE_FROM[c] = 8;

/**
 * Deeper nesting than this is left to the parser, whose depth limit (200, counting blocks and
 * expressions) then reports it.
 */
const MAX_NESTING = 150;

/** Functions recorded per file (real files have a few thousand; this bounds hostile ones). */
const MAX_FUNCTIONS = 200_000;

// Block kinds on the skim's stack.
const FN = 1;
const BLOCK = 2;
const REPEAT = 3;

/** Skims Lua source bytes from `start` (after a BOM). Never throws. */
export function skimLua(source: Uint8Array | string, watch: SkimWatch, start = 0): Skim {
  const bytes =
    typeof source === 'string'
      ? Buffer.from(source, 'latin1')
      : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  return new Skimmer(bytes, watch).run(start);
}

/**
 * The first of `j`, `j + 3`, `j + 6`… up to `last` where the byte pair is one of the needles'
 * (`SkimWatch.needlePairs`), or -1. A loop of its own: with the rare work on a pair found kept
 * out of it, V8 keeps its values in registers (inlined with that work, it spilled them and
 * took ~60 instructions a pair).
 */
function nextNeedlePair(view: DataView, pairs: Uint32Array, j: number, last: number): number {
  for (; j <= last; j += 3) {
    const pair = view.getUint16(j, true); // little-endian: src[j] | (src[j + 1] << 8)
    if ((pairs[pair >>> 5]! & (1 << (pair & 31))) !== 0) return j;
  }
  return -1;
}

/**
 * The skim's state. A class rather than closures: V8 optimises monomorphic method calls,
 * while fresh closures per file deoptimise the hot loop ("wrong call target").
 */
class Skimmer {
  private readonly n: number;
  private line = 1;
  private lineStart = 0;
  private longest = 0;
  private balanced = true;
  private fileWatched = false;
  /** Categories mentioned by top-level code (outside every function). */
  private topMask = 0;
  private anyFunctionWatched = false;
  /** Functions open around the current byte, innermost last. */
  private readonly openFns: SkimmedFunction[] = [];
  /** The bytes as 32-bit words at any offset (see `lineEnd`). */
  private readonly view: DataView;

  constructor(
    private readonly src: Buffer,
    private readonly watch: SkimWatch,
  ) {
    this.n = src.length;
    this.view = new DataView(src.buffer, src.byteOffset, src.length);
  }

  /** The byte at i, or -1 past the end (a read past the end would deoptimise V8's code). */
  private at(i: number): number {
    return i < this.n ? this.src[i]! : -1;
  }

  /** Notes categories in the innermost open function (or `depthFromTop` levels out). */
  private markWatched(depthFromTop: number, category: number): void {
    this.fileWatched = true;
    const i = this.openFns.length - 1 - depthFromTop;
    if (i >= 0) this.openFns[i]!.mask |= category;
    else this.topMask |= category;
  }

  /**
   * Offset of the first CR or LF byte in [p, end), or `end`. Comments run to the end of their
   * line (~44 bytes on average): four bytes a read while none of them is a break, as a byte
   * loop reads one (a native search costs more than that per call).
   */
  private lineEnd(p: number, end: number): number {
    const src = this.src;
    const view = this.view;
    while (p + 4 <= end) {
      const x = view.getInt32(p, true);
      const lf = x ^ 0x0a0a0a0a;
      const cr = x ^ 0x0d0d0d0d;
      const stops = (((lf - 0x01010101) | 0) & ~lf) | (((cr - 0x01010101) | 0) & ~cr);
      if ((stops & 0x80808080) !== 0) break;
      p += 4;
    }
    while (p < end && src[p]! !== 10 && src[p]! !== 13) p++;
    return p;
  }

  private breakAt(p: number): number {
    const length = p - this.lineStart;
    if (length > this.longest) this.longest = length;
    if (this.src[p]! === 13 && this.at(p + 1) === 10) p++;
    p++;
    this.line++;
    this.lineStart = p;
    return p;
  }

  private countBreaks(from: number, to: number): void {
    for (let p = this.lineEnd(from, to); p < to; p = this.lineEnd(p, to)) p = this.breakAt(p);
  }

  /**
   * The categories of the watched needles that start in string content [from, to) (at
   * least 4 bytes long: a needle's first 4 bytes end inside it).
   */
  private needlesIn(from: number, to: number): number {
    const view = this.view;
    const pairs = this.watch.needlePairs;
    const last = to - 2;
    let found = 0;
    // Whatever a needle's start, its first 4 bytes hold one of these every-third-byte pairs
    // at their offset 0, 1 or 2 (and the pair ends before `to`). So one pair in three is read,
    // and only the starts next to a pair that some needle has at that offset are looked at.
    for (let j = nextNeedlePair(view, pairs, from, last); j >= 0;) {
      found |= this.needlesStartingNear(j, from, to);
      j = nextNeedlePair(view, pairs, j + 3, last);
    }
    return found;
  }

  /** The categories of the needles starting at `j`, `j - 1` or `j - 2`, inside [from, to). */
  private needlesStartingNear(j: number, from: number, to: number): number {
    const view = this.view;
    const filter = this.watch.needleFilter;
    // Ternaries rather than Math.min and Math.max, which V8 computed here in floating point.
    const last = j < to - 4 ? j : to - 4;
    let found = 0;
    for (let i = j - 2 > from ? j - 2 : from; i <= last; i++) {
      // The first 4 bytes, big-endian, as a signed 32-bit integer (see the identifier hash in
      // `run`).
      const k = view.getInt32(i);
      const f = k ^ (k >>> 16);
      if ((filter[(f & 0xffff) >>> 5]! & (1 << (f & 31))) !== 0)
        found |= this.needlesEndingAt(i + 3, k >>> 0);
    }
    return found;
  }

  /** The categories of the needles whose first 4 bytes, `key`, end at `p`. */
  private needlesEndingAt(p: number, key: number): number {
    const list = this.watch.needles.get(key);
    if (!list) return 0;
    let found = 0;
    for (const needle of list)
      if (bytesStartWith(this.src, p - 3, needle.text)) found |= needle.category;
    return found;
  }

  /**
   * Judges a string literal's raw content: escapes, needles, or a watched definition name.
   * Needles are looked for in the whole content; strings of MAX_LITERAL bytes or fewer are
   * hashed lower-cased (literals), those of 24 or fewer as they are (definitions).
   */
  private judgeString(from: number, to: number, escaped: boolean): void {
    const watch = this.watch;
    if (escaped) this.markWatched(0, watch.escapeCategory);
    const length = to - from;
    if (length <= 0) return;
    const found = length >= 5 ? this.needlesIn(from, to) : 0;
    if (length > MAX_LITERAL) {
      if (found !== 0) this.markWatched(0, found);
      return;
    }
    const src = this.src;
    const view = this.view;
    const asciiLower = ASCII_LOWER;
    let lower = 0x811c9dc5 | 0;
    let plain = 0x811c9dc5 | 0;
    // Four bytes a read (little-endian: the first byte lowest), then the last ones.
    let p = from;
    if (length <= 24) {
      for (; p + 4 <= to; p += 4) {
        const x = view.getInt32(p, true);
        const c0 = x & 0xff;
        const c1 = (x >>> 8) & 0xff;
        const c2 = (x >>> 16) & 0xff;
        const c3 = x >>> 24;
        lower = Math.imul(lower ^ asciiLower[c0]!, 16777619);
        lower = Math.imul(lower ^ asciiLower[c1]!, 16777619);
        lower = Math.imul(lower ^ asciiLower[c2]!, 16777619);
        lower = Math.imul(lower ^ asciiLower[c3]!, 16777619);
        plain = Math.imul(plain ^ c0, 16777619);
        plain = Math.imul(plain ^ c1, 16777619);
        plain = Math.imul(plain ^ c2, 16777619);
        plain = Math.imul(plain ^ c3, 16777619);
      }
      for (; p < to; p++) {
        const c = src[p]!;
        lower = Math.imul(lower ^ asciiLower[c]!, 16777619);
        plain = Math.imul(plain ^ c, 16777619);
      }
    } else if (watch.literals.size > 0) {
      for (; p + 4 <= to; p += 4) {
        const x = view.getInt32(p, true);
        lower = Math.imul(lower ^ asciiLower[x & 0xff]!, 16777619);
        lower = Math.imul(lower ^ asciiLower[(x >>> 8) & 0xff]!, 16777619);
        lower = Math.imul(lower ^ asciiLower[(x >>> 16) & 0xff]!, 16777619);
        lower = Math.imul(lower ^ asciiLower[x >>> 24]!, 16777619);
      }
      for (; p < to; p++) lower = Math.imul(lower ^ asciiLower[src[p]!]!, 16777619);
    }
    // The quick filters take the int32 hashes (same low bits); the maps and sets, keyed by
    // uint32, are only asked when a filter lets a hash through.
    if (watch.literals.size > 0 && inFilter(watch.literalFilter, lower)) {
      const category = watch.literals.get(lower >>> 0);
      if (category !== undefined) this.markWatched(0, category);
    }
    if (found !== 0) this.markWatched(0, found);
    // `meta["IsAdmin"] = …` redefines as surely as `meta.IsAdmin = …`.
    else if (length >= 3 && length <= 24 && inFilter(watch.definitionFilter, plain)) {
      const h = plain >>> 0;
      if (watch.definitionHashes.has(h) && !watch.genericDefinitionHashes.has(h))
        this.markWatched(0, watch.definitionCategory);
    }
  }

  /** Position after a long bracket `[==[ … ]==]` whose opening `[` is at p with `level` `=`. */
  private longBracket(p: number, level: number, isString: boolean): number {
    const n = this.n;
    const contentStart = p + level + 2;
    const closer = level === 0 ? ']]' : ']' + '='.repeat(level) + ']';
    let closeAt = this.src.indexOf(closer, contentStart, 'latin1');
    if (closeAt < 0) {
      this.balanced = false;
      closeAt = n;
    }
    this.countBreaks(contentStart, closeAt);
    const found =
      isString && closeAt - contentStart >= 5 ? this.needlesIn(contentStart, closeAt) : 0;
    if (found !== 0) this.markWatched(0, found);
    return Math.min(n, closeAt + closer.length);
  }

  /**
   * Whether the field name starting at `s` (after `.` or `:`) hangs off one of the library
   * tables where redefining `name` counts: the identifier just before the separator.
   */
  private onLibrary(s: number, name: string): boolean {
    return this.onBase(s, this.watch.definitionBases.get(name));
  }

  /** Whether the field name starting at `s` (after `.` or `:`) hangs off one of `bases`. */
  private onBase(s: number, bases: ReadonlySet<string> | undefined): boolean {
    if (bases === undefined) return false;
    const src = this.src;
    let j = s - 1;
    while (j >= 0 && (src[j] === 32 || src[j] === 9)) j--;
    if (j < 0 || (src[j] !== 46 && src[j] !== 58)) return false;
    return bases.has(baseBefore(src, j));
  }

  /**
   * Judges an identifier [s, p) of hash `hu` that passed a quick filter: a watched name, or a
   * watched definition (`function a.b:IsAdmin()`, `a.IsAdmin = f`).
   */
  private watchedName(s: number, p: number, hu: number, isField: boolean, inFunctionName: boolean) {
    const src = this.src;
    const n = this.n;
    const watch = this.watch;
    // Next significant byte (line breaks skipped; they are counted when the loop gets there).
    let q = p;
    while (q < n) {
      const d = src[q]!;
      if (d === 32 || d === 9 || d === 10 || d === 13) q++;
      else break;
    }
    const next = q < n ? src[q]! : 0;
    const list = inFilter(watch.nameFilter, hu) ? watch.names.get(hu) : undefined;
    if (list) {
      for (const { name, flags, category } of list) {
        if (name.length !== p - s || !bytesStartWith(src, s, name)) continue;
        if (flags & WATCH_FIELD && !isField) continue;
        if (flags & WATCH_GLOBAL && isField) continue;
        if (flags & WATCH_LIBRARY && !(next === 46 || next === 58 || next === 91)) continue;
        if (flags & WATCH_BASE && !(isField && this.onBase(s, watch.nameBases.get(name)))) continue;
        if (flags & WATCH_NAMED_ARG && !(next === 40 && namedArgumentAt(src, q + 1))) continue;
        this.markWatched(0, category);
      }
    }
    if (isField) {
      // `function a.b:IsAdmin()` defines inside the enclosing function; `a.IsAdmin = f`
      // inside the current one.
      const defining = inFunctionName || (next === 61 && this.at(q + 1) !== 61);
      const name = defining && watch.definitionHashes.has(hu) ? src.toString('latin1', s, p) : '';
      if (
        watch.definitions.has(name) &&
        (!watch.genericDefinitionHashes.has(hu) || this.onLibrary(s, name))
      ) {
        // The enclosing function defines it; the definition's own body is judged too.
        this.markWatched(inFunctionName ? 1 : 0, watch.definitionCategory);
        if (inFunctionName) this.markWatched(0, watch.definitionCategory);
      }
    }
  }

  /** Level of a long bracket opening at p (`[`, `=`*, `[`), or -1 if there is none. */
  private levelAt(p: number): number {
    const n = this.n;
    const src = this.src;
    if (p >= n || src[p]! !== 91) return -1;
    let level = 0;
    p++;
    while (p < n && src[p]! === 61) {
      level++;
      p++;
    }
    return p < n && src[p]! === 91 ? level : -1;
  }

  /**
   * Position after the quoted string whose quote `c` is at p, judged. Escapes skip a byte; a
   * raw line break or the end leaves it open. Out of the main loop: strings are one token in
   * thirty, and the main loop is cheaper the fewer values it has to keep.
   */
  private quoted(p: number, c: number): number {
    const src = this.src;
    const n = this.n;
    const stringStop = STRING_STOP;
    const view = this.view;
    // The quote in every byte of a word.
    const quotes = Math.imul(c, 0x01010101);
    // `| 0` here and on breakAt's results: q stays an untagged integer through the loops
    // (a tagged one is shifted and tested at every turn).
    const s = (p + 1) | 0;
    let q = s;
    let escaped = false;
    let closed = false;
    for (;;) {
      // Plain content: four bytes a read while none of them can stop it (no quote of this
      // string's kind, backslash or control byte below 14, which takes in CR and LF), then one
      // table read per byte; the byte it stops at is judged below.
      while (q + 4 <= n) {
        const x = view.getInt32(q, true);
        const quote = x ^ quotes;
        const backslash = x ^ 0x5c5c5c5c;
        const stops =
          (((x - 0x0e0e0e0e) | 0) & ~x) |
          (((quote - 0x01010101) | 0) & ~quote) |
          (((backslash - 0x01010101) | 0) & ~backslash);
        if ((stops & 0x80808080) !== 0) break;
        q += 4;
      }
      while (q < n && stringStop[src[q]!]! === 0) q++;
      if (q >= n) break;
      const d = src[q]!;
      if (d === c) {
        closed = true;
        break;
      }
      if (d === 10 || d === 13) break;
      if (d === 92) {
        const e = this.at(q + 1);
        if (e === 10 || e === 13) {
          q = this.breakAt(q + 1) | 0;
          continue;
        }
        if (e === 122) {
          // \z skips the following whitespace, line breaks included.
          escaped = true;
          q += 2;
          for (;;) {
            const w = src[q]!;
            if (w === 10 || w === 13) q = this.breakAt(q) | 0;
            else if (w === 32 || w === 9 || w === 11 || w === 12) q++;
            else break;
          }
          continue;
        }
        if (e === 120 || e === 117 || (e >= 48 && e <= 57)) escaped = true;
        q += 2;
        continue;
      }
      q++;
    }
    if (!closed) this.balanced = false;
    this.judgeString(s, Math.min(q, n), escaped);
    return closed ? q + 1 : q;
  }

  run(start: number): Skim {
    const src = this.src;
    const n = this.n;
    const view = this.view;
    const watch = this.watch;
    const functions = new Map<number, SkimmedFunction>();
    const words = new Uint32Array(wordBits(n) / 32);
    const wordMask = words.length * 32 - 1;
    // Tables in locals: a module-level one is reloaded and checked for every byte.
    const classOf = CLASS;
    const madeFrom = MADE_FROM;
    const nameFilter = watch.nameFilter;
    const identifierFilter = watch.identifierFilter;
    const openFns = this.openFns;
    this.lineStart = start;
    let glua = 0;
    let cComments = 0;
    let identifiers = 0;
    let obfuscated = 0;
    // Open blocks (FN, BLOCK, REPEAT); functions also sit in openFns.
    const kinds: number[] = [];
    /** Set right after a `function` keyword until its `(`: names there are being defined. */
    let inFunctionName = false;
    /** Where the name of the function being defined starts and ends (see `defines`). */
    let nameStart = -1;
    let nameEnd = -1;
    const defines: string[] = [];
    /** Last significant byte before the current token (46 '.', 58 ':', 0 otherwise). */
    let prevSig = 0;
    /** Open brackets of any kind: with the blocks, how deep the parser would have to go. */
    let brackets = 0;
    // `| 0`: an untyped parameter would make p a tagged value through the whole main loop.
    let p = start | 0;
    // A first line starting with '#' (a shebang) is not Lua.
    if (src[p]! === 35) p = this.lineEnd(p, n) | 0;

    while (p < n) {
      let c = src[p]!;
      let cls = classOf[c]!;
      // A line break, then indentation, then a token: the common case goes on to the token
      // without going round the main loop between them.
      if (cls === BREAK) {
        p = this.breakAt(p);
        if (p >= n) break;
        c = src[p]!;
        cls = classOf[c]!;
      }
      if (cls === SPACE) {
        // Spaces come in runs: skip them, then judge the byte after.
        do {
          p++;
          if (p >= n) break;
          c = src[p]!;
          cls = classOf[c]!;
        } while (cls === SPACE);
        if (p >= n) break;
      }
      if (cls === BREAK) {
        p = this.breakAt(p);
        continue;
      }
      if (cls === WORD) {
        const s = p;
        // FNV-1a kept as a signed 32-bit integer: a uint32 (`>>> 0`) outside V8's small
        // integers would be boxed as a heap number whenever it leaves a register.
        let h = Math.imul(0x811c9dc5 ^ c, 16777619);
        p++;
        // Four bytes a read: V8 checks the byte array and reloads its data pointer at every
        // read, so one 32-bit read (little-endian: the first byte lowest) costs a quarter of
        // four byte reads. The last bytes of the file are read one at a time: a read past the
        // end throws, and a read past the end of `src` deoptimises the whole function in V8.
        for (;;) {
          if (p + 4 > n) {
            while (p < n && classOf[src[p]!]! >= WORD) h = Math.imul(h ^ src[p++]!, 16777619);
            break;
          }
          const x = view.getInt32(p, true);
          const d0 = x & 0xff;
          if (classOf[d0]! < WORD) break;
          h = Math.imul(h ^ d0, 16777619);
          const d1 = (x >>> 8) & 0xff;
          if (classOf[d1]! < WORD) {
            p += 1;
            break;
          }
          h = Math.imul(h ^ d1, 16777619);
          const d2 = (x >>> 16) & 0xff;
          if (classOf[d2]! < WORD) {
            p += 2;
            break;
          }
          h = Math.imul(h ^ d2, 16777619);
          const d3 = x >>> 24;
          if (classOf[d3]! < WORD) {
            p += 3;
            break;
          }
          h = Math.imul(h ^ d3, 16777619);
          p += 4;
        }
        const len = p - s;
        // Keywords that open or close blocks, found by hash and confirmed by their bytes; the
        // other keywords need nothing here.
        if (h === H_END || h === H_FUNCTION || h === H_IF || h === H_DO) {
          if (len === 8 && bytesStartWith(src, s, 'function')) {
            const record: SkimmedFunction = {
              end: -1,
              endLine: 0,
              endLineStart: 0,
              watched: false,
              mask: 0,
            };
            // Past the cap the file is left to the parser, whose token budget bounds it.
            if (functions.size < MAX_FUNCTIONS) functions.set(s, record);
            else this.balanced = false;
            kinds.push(FN);
            openFns.push(record);
            inFunctionName = true;
            nameStart = -1;
            prevSig = 0;
            continue;
          }
          if (len === 3 && c === 101 && src[s + 1]! === 110 && src[s + 2]! === 100) {
            const kind = kinds.pop();
            if (kind === undefined || kind === REPEAT) this.balanced = false;
            if (kind === FN) {
              const record = openFns.pop()!;
              record.end = p;
              record.endLine = this.line;
              record.endLineStart = this.lineStart;
              if (watch.worth(record.mask)) record.watched = true;
              if (record.watched) this.anyFunctionWatched = true;
              if (record.watched && openFns.length > 0) openFns[openFns.length - 1]!.watched = true;
            }
            prevSig = 0;
            continue;
          }
          if (
            len === 2 &&
            ((c === 100 && src[s + 1]! === 111) || (c === 105 && src[s + 1]! === 102))
          ) {
            kinds.push(BLOCK);
            prevSig = 0;
            continue;
          }
        } else if (h === H_REPEAT || h === H_UNTIL) {
          if (len === 6 && bytesStartWith(src, s, 'repeat')) {
            kinds.push(REPEAT);
            prevSig = 0;
            continue;
          }
          if (len === 5 && bytesStartWith(src, s, 'until')) {
            if (kinds.pop() !== REPEAT) this.balanced = false;
            prevSig = 0;
            continue;
          }
        }
        identifiers++;
        if (inFunctionName) {
          if (nameStart < 0) nameStart = s;
          nameEnd = p;
        }
        // The Bloom filter's two bits (the ones `mayMention` tests).
        const wa = h & wordMask;
        const wb = Math.imul(h, 0x9e3779b1) & wordMask;
        words[wa >>> 5]! |= 1 << (wa & 31);
        words[wb >>> 5]! |= 1 << (wb & 31);
        if (len >= madeFrom[c]! && isObfuscatedWord(src, s, p)) obfuscated++;
        const isField = prevSig !== 0;
        prevSig = 0;
        // Most identifiers are neither watched nor a watched definition: one test that is
        // almost always false (a test of isField first would go either way, and mispredict).
        const bit = 1 << (h & 31);
        const slot = (h & 0xffff) >>> 5;
        if ((identifierFilter[slot]! & bit) !== 0) {
          if ((nameFilter[slot]! & bit) !== 0 || isField)
            this.watchedName(s, p, h >>> 0, isField, inFunctionName);
        }
        continue;
      }
      if (cls === DIGIT) {
        const s = p;
        const exponentMark = c === 48 && p + 1 < n && (src[p + 1]! | 0x20) === 120 ? 112 : 101;
        while (p < n) {
          const d = src[p]!;
          if (IDENT_PART[d] === 1 || d === 46) p++;
          else if ((d === 43 || d === 45) && (src[p - 1]! | 0x20) === exponentMark) p++;
          else break;
        }
        if (p - s === 17 && bytesStartWith(src, s, '7656119'))
          this.markWatched(0, watch.idCategory);
        prevSig = 0;
        continue;
      }
      // The byte after an operator is read from the locals (`p + 1 < n`, then `src`), not through
      // `this.at`, which loads and checks the skimmer's fields at each use.
      switch (cls) {
        case QUOTE:
          p = this.quoted(p, c) | 0;
          prevSig = 0;
          continue;
        case MINUS:
          if (p + 1 < n && src[p + 1]! === 45) {
            const level = this.levelAt(p + 2);
            if (level >= 0) p = this.longBracket(p + 2, level, false) | 0;
            else p = this.lineEnd(p + 2, n) | 0;
            continue;
          }
          break;
        case SLASH: {
          // GLua's C-style comments
          const c1 = p + 1 < n ? src[p + 1]! : -1;
          if (c1 === 47) {
            cComments++;
            p = this.lineEnd(p + 2, n) | 0;
            continue;
          }
          if (c1 === 42) {
            cComments++;
            let closeAt = src.indexOf('*/', p + 2, 'latin1');
            if (closeAt < 0) {
              this.balanced = false;
              closeAt = n;
            }
            this.countBreaks(p + 2, closeAt);
            p = Math.min(n, closeAt + 2) | 0;
            continue;
          }
          break;
        }
        case OPEN_SQUARE: {
          // A long string, or an index
          const level = this.levelAt(p);
          if (level >= 0) {
            p = this.longBracket(p, level, true) | 0;
            prevSig = 0;
            continue;
          }
          if (++brackets + kinds.length > MAX_NESTING) this.balanced = false;
          break;
        }
        case OPEN_PAREN:
          // `function a.b:c(` outside any other function: a definition other files may call.
          if (inFunctionName && nameStart >= 0 && openFns.length === 1 && defines.length < 10_000)
            defines.push(definedPath(src, nameStart, nameEnd));
          inFunctionName = false;
          if (++brackets + kinds.length > MAX_NESTING) this.balanced = false;
          break;
        case OPEN_BRACE:
          if (++brackets + kinds.length > MAX_NESTING) this.balanced = false;
          break;
        case CLOSE: // ')', '}', ']'
          if (--brackets < 0) this.balanced = false;
          break;
        case BANG: // '!' and '!='
          glua++;
          if (p + 1 < n && src[p + 1]! === 61) p++;
          break;
        case DOUBLED: // '&&' and '||'
          if (p + 1 < n && src[p + 1]! === c) {
            glua++;
            p++;
          } else this.balanced = false;
          break;
        case TILDE: // '~='
          if (!(p + 1 < n && src[p + 1]! === 61)) this.balanced = false;
          break;
        case DOT:
          if (p + 1 < n && src[p + 1]! === 46) {
            // `..` and `...` are operators, not field access.
            p += p + 2 < n && src[p + 2]! === 46 ? 3 : 2;
            prevSig = 0;
          } else {
            prevSig = 46;
            p++;
          }
          continue;
        case COLON:
          prevSig = 58;
          p++;
          continue;
        case STRAY_BYTE:
          this.balanced = false;
          break;
      }
      prevSig = 0;
      p++;
    }
    if (n - this.lineStart > this.longest) this.longest = n - this.lineStart;
    if (kinds.length > 0 || brackets !== 0) this.balanced = false;
    return {
      functions: this.balanced ? functions : new Map(),
      watched: this.fileWatched,
      defines,
      worth:
        this.anyFunctionWatched ||
        watch.worth(this.topMask) ||
        (this.topMask & watch.registrationCategory) !== 0,
      balanced: this.balanced,
      lines: this.line,
      longestLineLength: this.longest,
      gluaOperatorCount: glua,
      cCommentCount: cComments,
      identifiers,
      obfuscatedIdentifiers: obfuscated,
      words,
    };
  }
}
