// The GLua lexer: turns the one-char-per-byte source text into tokens on demand, decoding
// every string escape and long bracket, and noting GLua's C-style spellings as it goes.
import type { Comment, ParseError } from './ast.js';

export type TokenKind = 'Name' | 'Keyword' | 'String' | 'Number' | 'Punct' | 'Invalid' | 'EOF';

export interface Token {
  kind: TokenKind;
  /**
   * Name: the name. Keyword: the keyword in Lua spelling (`&&` gives `and`, `||` `or`, `!`
   * `not`). Punct: the operator in Lua spelling (`!=` gives `~=`). String: the decoded bytes
   * as a latin1 string. Number: the literal as written. Invalid: the offending text.
   */
  value: string;
  /** 1-based line and column (columns count bytes) of the first byte. */
  line: number;
  column: number;
  /** Byte offset of the first byte. */
  offset: number;
  /** Byte offset just past the last byte. */
  end: number;
  /** Line of the last byte (a long string spans lines). */
  endLine: number;
  /** The source used GLua's C-style spelling (`!=`, `&&`, `||`, `!`). */
  glua: boolean;
  /** String: the literal used \ddd, \xNN, \u{…} or \z escapes. */
  escaped: boolean;
}

/** Collects syntax errors, dropping exact repeats and capping the list for garbage input. */
export class Diagnostics {
  readonly errors: ParseError[] = [];
  total = 0;
  private lastOffset = -1;
  constructor(private readonly max = 500) {}

  report(message: string, line: number, column: number, offset: number): void {
    if (offset === this.lastOffset) return;
    this.lastOffset = offset;
    this.total++;
    if (this.errors.length < this.max) this.errors.push({ message, line, column, offset });
  }
}

// Identifier bytes: LuaJIT treats every byte >= 0x80 as an identifier character.
// The tables are indexed with a byte read only below the end (`p < n ? bytes[p]! : 0`): past
// the end a read gives undefined (NaN from charCodeAt), and one such index (once per file, at
// its last token) turns V8's keyed load generic for every later read, which made the
// identifier loop several times slower. Testing the end first, rather than reading past it
// and mapping undefined to 0 (`?? 0`), also keeps the hot loads on V8's in-bounds path:
// callgrind counted ~22 % fewer instructions in the lexer's compiled code.
const IDENT_START = new Uint8Array(256);
const IDENT_PART = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
  IDENT_START[c] = alpha ? 1 : 0;
  IDENT_PART[c] = alpha || (c >= 48 && c <= 57) ? 1 : 0;
}

// `goto` is absent on purpose: GLua code uses it as a field name (`ulx.goto`), so the parser
// treats it as a keyword only where a goto statement can start.
// Bytes that always form a one-byte operator token by themselves (comments were skipped
// before, so '-' and '/' here are operators). A table lookup beats a long switch.
const SINGLE_PUNCT: Array<string | undefined> = new Array<string | undefined>(256).fill(undefined);
for (const p of ['(', ')', '{', '}', ']', ';', ',', '+', '-', '*', '/', '%', '^', '#'])
  SINGLE_PUNCT[p.charCodeAt(0)] = p;

const KEYWORDS = [
  'do',
  'if',
  'in',
  'or',
  'and',
  'end',
  'for',
  'nil',
  'not',
  'else',
  'then',
  'true',
  'break',
  'false',
  'local',
  'until',
  'while',
  'elseif',
  'repeat',
  'return',
  'function',
  'continue',
];

// Keywords by length, first and last byte (each & 31): no two share a slot, so a name is
// compared with one keyword at most, and most names with none. The comparison reads the
// name's first and last two or four bytes as two numbers (overlapping for short names), which
// covers every byte of a keyword of up to 8 bytes: two loads instead of a loop over chars.
function keywordSlot(length: number, first: number, last: number): number {
  return (length << 10) | ((first & 31) << 5) | (last & 31);
}
/**
 * 1 + the keyword's index in KEYWORDS, by slot; 0 for none. (Bytes: a table of 9 KiB stays
 * in the first-level cache, where one of strings took 72 KiB.)
 */
const KEYWORD_BY_SLOT = new Uint8Array(9 << 10);
/** Each keyword's first and last two (length < 4) or four bytes, little-endian. */
const KEYWORD_HEAD = new Int32Array(KEYWORDS.length);
const KEYWORD_TAIL = new Int32Array(KEYWORDS.length);
KEYWORDS.forEach((kw, i) => {
  const b = Buffer.from(kw, 'latin1');
  KEYWORD_BY_SLOT[keywordSlot(kw.length, kw.charCodeAt(0), kw.charCodeAt(kw.length - 1))] = i + 1;
  KEYWORD_HEAD[i] = kw.length < 4 ? b.readInt16LE(0) : b.readInt32LE(0);
  KEYWORD_TAIL[i] = kw.length < 4 ? b.readInt16LE(kw.length - 2) : b.readInt32LE(kw.length - 4);
});

/**
 * Keyword lookup on the source bytes themselves (`view` is over them), so that names are
 * sliced only when needed (`start` and `len` are a name's, within the bytes).
 */
function keywordAt(bytes: Uint8Array, view: DataView, start: number, len: number): string | null {
  if (len < 2 || len > 8) return null;
  const i = KEYWORD_BY_SLOT[keywordSlot(len, bytes[start]!, bytes[start + len - 1]!)]! - 1;
  if (i < 0) return null;
  if (len < 4) {
    if (view.getInt16(start, true) !== KEYWORD_HEAD[i]) return null;
    if (view.getInt16(start + len - 2, true) !== KEYWORD_TAIL[i]) return null;
  } else {
    if (view.getInt32(start, true) !== KEYWORD_HEAD[i]) return null;
    if (view.getInt32(start + len - 4, true) !== KEYWORD_TAIL[i]) return null;
  }
  return KEYWORDS[i]!;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

/** Parses a numeral's text (suffixes already removed) the way LuaJIT would, or NaN. */
export function parseNumeral(text: string): number {
  if (text.length > 1 && text.charCodeAt(0) === 48 && (text.charCodeAt(1) | 0x20) === 120) {
    let i = 2;
    let mantissa = 0;
    let digits = 0;
    let scale = 0;
    let seenDot = false;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 46) {
        if (seenDot) return NaN;
        seenDot = true;
        continue;
      }
      const h = hexValue(c);
      if (h < 0) break;
      mantissa = mantissa * 16 + h;
      digits++;
      if (seenDot) scale -= 4;
    }
    if (digits === 0) return NaN;
    let exponent = 0;
    if (i < text.length) {
      if ((text.charCodeAt(i) | 0x20) !== 112) return NaN;
      const expText = text.slice(i + 1);
      if (!/^[+-]?\d+$/.test(expText)) return NaN;
      exponent = Number(expText);
    } else if (seenDot === false && digits > 0) {
      return mantissa;
    }
    return mantissa * Math.pow(2, exponent + scale);
  }
  // Decimal: digits, optional fraction, optional exponent; JS's Number accepts more
  // (e.g. "Infinity", "0b1"), so check the shape first. (A loop over the chars rather than a
  // regex: this runs for every numeral that is not a plain integer, and the regex call was
  // most of its cost.)
  const n = text.length;
  let i = 0;
  let digits = 0;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  digits = i;
  if (i < n && text.charCodeAt(i) === 46) {
    i++;
    const fractionStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    digits += i - fractionStart;
  }
  if (digits === 0) return NaN;
  if (i < n && (text.charCodeAt(i) | 0x20) === 101) {
    i++;
    if (i < n && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++;
    const exponentStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i === exponentStart) return NaN;
  }
  if (i !== n) return NaN;
  return Number(text);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The value of a Number token's text, as LuaJIT reads it (NaN for a malformed numeral). */
export function numeralValue(raw: string): number {
  // Fast path: plain decimal integers, the bulk of numeric tables in payloads.
  if (raw.length < 16) {
    let v = 0;
    let k = 0;
    for (; k < raw.length; k++) {
      const d = raw.charCodeAt(k) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (k === raw.length) return v;
  }
  // LuaJIT suffixes: LL / ULL (64-bit integers) and i (imaginary); most numerals end in a
  // digit and skip the lowered copy below.
  const last = raw.charCodeAt(raw.length - 1) | 0x20;
  if (last !== 108 && last !== 105) return parseNumeral(raw);
  let body = raw;
  const lower = raw.length > 1 ? raw.toLowerCase() : raw;
  if (lower.endsWith('ull')) body = raw.slice(0, -3);
  else if (lower.endsWith('ll')) body = raw.slice(0, -2);
  else if (lower.endsWith('i')) body = raw.slice(0, -1);
  const value = parseNumeral(body);
  if (body !== raw && body.length > 0 && (lower.endsWith('ll') || lower.endsWith('ull'))) {
    const hex = lower.startsWith('0x');
    // 64-bit integer literals take no fraction or exponent.
    if (body.includes('.') || (!hex && /[eE]/.test(body)) || (hex && /[pP]/.test(body))) return NaN;
  }
  return value;
}

/**
 * Tokens in a lexer's ring when it recycles them (a power of two). The parser holds a token
 * for at most three reads (a `::label::` statement's first token), so 8 leaves a margin; each
 * parse makes its own ring, and 16 tokens were ~6 MB of a scan pass's allocation.
 */
export const RECYCLED_TOKENS = 8;

function newToken(
  kind: TokenKind,
  value: string,
  line: number,
  column: number,
  offset: number,
  end: number,
  endLine: number,
): Token {
  return { kind, value, line, column, offset, end, endLine, glua: false, escaped: false };
}

/** Comments kept per file; a file with more is a generated or hostile payload anyway. */
export const MAX_COMMENTS = 100_000;

/**
 * Where one character next occurs in a source, at or after a position (the source's length
 * when it does not). The last search is kept: most files have no CR at all, and a search per
 * comment would then read to the end of the file each time; since the lexer moves forward,
 * every search covers new text. (Searched again if it ever moved back.)
 */
class NextOccurrence {
  private next = -1;
  private searchedFrom = 0;

  constructor(
    private readonly src: string,
    private readonly char: string,
  ) {}

  from(from: number): number {
    if (this.next < from || from < this.searchedFrom) {
      const q = this.src.indexOf(this.char, from);
      this.next = q < 0 ? this.src.length : q;
      this.searchedFrom = from;
    }
    return this.next;
  }
}

/**
 * What the lexers of one source can share: its bytes, their DataView and the next-character
 * searches. A file's lazy bodies are parsed one after the other, each by a new lexer; each
 * made a DataView (a costly constructor) and searched from its start for the next CR (to the
 * end of the file when it has none) and backslash again.
 */
class SourceScan {
  readonly view: DataView;
  readonly cr: NextOccurrence;
  readonly lf: NextOccurrence;
  readonly backslash: NextOccurrence;

  constructor(
    readonly src: string,
    readonly bytes: Uint8Array,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.cr = new NextOccurrence(src, '\r');
    this.lf = new NextOccurrence(src, '\n');
    this.backslash = new NextOccurrence(src, '\\');
  }
}

/**
 * What is shared, by the bytes object given (the same object: the same source). Weakly held,
 * so that nothing of a scan outlives its file's bytes: a module-level "last source" would keep
 * a 50 MB file alive in an idle worker after its scan.
 */
const scansByBytes = new WeakMap<Uint8Array, SourceScan>();

function sharedScan(src: string, bytes: Uint8Array | undefined): SourceScan {
  if (bytes === undefined || bytes.length !== src.length)
    return new SourceScan(src, Buffer.from(src, 'latin1'));
  const known = scansByBytes.get(bytes);
  if (known !== undefined && known.src === src) return known;
  const scan = new SourceScan(src, bytes);
  scansByBytes.set(bytes, scan);
  return scan;
}

export class Lexer {
  /** Position of the next unread byte, and line bookkeeping for columns. */
  pos: number;
  line = 1;
  lineStart: number;
  readonly comments: Comment[] = [];
  gluaOperatorCount = 0;
  cCommentCount = 0;
  /**
   * The value of the last Number token read, and its offset: the parser takes it from here
   * instead of reading the numeral again (not on the token: see readNumber).
   */
  numberValue = NaN;
  numberAt = -1;
  /** Comments beyond MAX_COMMENTS are counted here instead of kept, to bound memory. */
  commentsDropped = 0;
  /** Keep comment objects (the analysis only needs their counts, which are always kept). */
  keepComments = true;
  /** Longest line seen so far, in bytes; complete once EOF has been returned. */
  longestLineLength = 0;
  /**
   * Hand out tokens from a small ring of objects reused in turn instead of a fresh object
   * each. Only for a reader that lets go of a token within RECYCLED_TOKENS - 4 reads (the
   * parser, which keeps the line and offset it needs later as numbers); `tokenize` keeps
   * every token and leaves this off. Tokens are a quarter of what a scan allocates.
   */
  get recycleTokens(): boolean {
    return this.ring !== null;
  }
  set recycleTokens(on: boolean) {
    // The ring is made here, not on the first token: `make` then tests one field. (A plain
    // loop: `Array.from` over an array-like cost more than the whole of some short parses.)
    // Each parse makes its own. A ring handed from parse to parse saved 6 MB of allocation
    // per scan pass but made the whole scan slower (it lives in the old generation, so every
    // fresh name or string stored into its tokens goes through the write barrier).
    if (on === (this.ring !== null)) return;
    if (!on) {
      this.ring = null;
      return;
    }
    const ring: Token[] = [];
    for (let i = 0; i < RECYCLED_TOKENS; i++) ring.push(newToken('EOF', '', 0, 0, 0, 0, 0));
    this.ring = ring;
  }
  private ring: Token[] | null = null;
  private ringAt = 0;
  private readonly n: number;
  /**
   * The source as bytes (`src` has one char per byte): the loops over characters read these,
   * since a typed-array read costs less than `charCodeAt` (lexing ~25 % faster). The hot
   * loops read a byte only below the end and take 0 past it: a NUL byte, which starts no
   * token, trivia or string end, and the end is tested by offset.
   */
  readonly bytes: Uint8Array;
  /** The same bytes, to read a name's first and last bytes as numbers (see keywordAt). */
  private readonly view: DataView;
  /** Closing brackets by level, made on the first long bracket (most lexers meet none). */
  private closers: Map<number, string> | null = null;
  /** The next CR, LF and backslash (see NextOccurrence). */
  private readonly cr: NextOccurrence;
  private readonly lf: NextOccurrence;
  private readonly backslash: NextOccurrence;

  /** `bytes`: the same source as bytes, when the caller has them (else they are copied). */
  constructor(
    readonly src: string,
    readonly diagnostics: Diagnostics,
    start = 0,
    atFileStart = true,
    bytes?: Uint8Array,
  ) {
    this.n = src.length;
    const shared = sharedScan(src, bytes);
    this.bytes = shared.bytes;
    this.view = shared.view;
    this.cr = shared.cr;
    this.lf = shared.lf;
    this.backslash = shared.backslash;
    this.pos = start;
    this.lineStart = start;
    // A first line starting with '#' (a shebang) is not Lua.
    if (atFileStart && src.charCodeAt(start) === 35) {
      let p = start;
      while (p < this.n) {
        const c = src.charCodeAt(p);
        if (c === 10 || c === 13) break;
        p++;
      }
      this.pos = p;
    }
  }

  /** Reports at a byte of the line being read, unless the caller knows the position. */
  private error(
    message: string,
    offset: number,
    line = this.line,
    column = offset - this.lineStart + 1,
  ): void {
    this.diagnostics.report(message, line, column, offset);
  }

  /** Consumes a line break at pos (CRLF counts as one) and starts a new line. */
  private newline(): void {
    this.pos = this.lineBreakAt(this.pos);
  }

  /**
   * Records the line break at p (CRLF counts as one) and returns the offset after it. Line
   * lengths are measured here so that no separate pass over the source is needed.
   */
  private lineBreakAt(p: number): number {
    const length = p - this.lineStart;
    if (length > this.longestLineLength) this.longestLineLength = length;
    if (this.bytes[p] === 13 && this.bytes[p + 1] === 10) p++;
    p++;
    this.line++;
    this.lineStart = p;
    return p;
  }

  /** Records the line breaks in [from, to). */
  private countLineBreaks(from: number, to: number): void {
    const bytes = this.bytes;
    for (let p = from; p < to; p++) {
      const c = bytes[p];
      if (c === 10 || c === 13) p = this.lineBreakAt(p) - 1;
    }
  }

  /** Level of a long bracket opening at p (`[`, `=`*, `[`), or -1 if there is none. */
  private longBracketLevel(p: number): number {
    if (this.src.charCodeAt(p) !== 91) return -1;
    let level = 0;
    p++;
    while (this.src.charCodeAt(p) === 61) {
      level++;
      p++;
    }
    return this.src.charCodeAt(p) === 91 ? level : -1;
  }

  private closerOf(level: number): string {
    const closers = (this.closers ??= new Map<number, string>());
    let s = closers.get(level);
    if (s === undefined) {
      s = ']' + '='.repeat(level) + ']';
      closers.set(level, s);
    }
    return s;
  }

  /**
   * Reads a long bracket whose opening starts at pos; returns the content, or null when it
   * is never closed (everything to the end of the file is then consumed).
   */
  /** The content of a long bracket (empty when not `wanted`), null when it does not close. */
  private readLongBracket(level: number, what: string, wanted = true): string | null {
    const openAt = this.pos;
    const openLine = this.line;
    const openColumn = openAt - this.lineStart + 1;
    this.pos += level + 2;
    // A line break right after the opening bracket is not part of the content.
    const first = this.src.charCodeAt(this.pos);
    if (first === 10 || first === 13) this.newline();
    const contentStart = this.pos;
    const closer = this.closerOf(level);
    let closeAt = this.src.indexOf(closer, contentStart);
    const unterminated = closeAt < 0;
    if (unterminated) closeAt = this.n;
    // Count the line breaks inside so that later positions stay right.
    this.countLineBreaks(contentStart, closeAt);
    if (unterminated) {
      this.pos = this.n;
      this.error(`unfinished long ${what}`, openAt, openLine, openColumn);
      return null;
    }
    this.pos = closeAt + closer.length;
    return wanted ? this.src.slice(contentStart, closeAt) : '';
  }

  /** Skips whitespace and comments; returns at the first byte of a token (or the end). */
  private skipTrivia(): void {
    const bytes = this.bytes;
    // A local cursor keeps the hot whitespace loop in registers.
    let p = this.pos;
    const n = bytes.length;
    for (;;) {
      const c = p < n ? bytes[p]! : 0;
      if (c === 32 || c === 9) {
        p++;
        continue;
      }
      switch (c) {
        case 10:
        case 13:
          p = this.lineBreakAt(p);
          continue;
        case 11:
        case 12:
          p++;
          continue;
        case 45: // '-'
          if (bytes[p + 1] !== 45) break;
          this.pos = p;
          this.readLuaComment();
          p = this.pos;
          continue;
        case 47: {
          // '/': GLua's C-style comments
          const c1 = bytes[p + 1];
          if (c1 !== 47 && c1 !== 42) break;
          this.pos = p;
          if (c1 === 47) this.readLineComment(2, 'c-line');
          else this.readCBlockComment();
          p = this.pos;
          continue;
        }
        default:
          break;
      }
      this.pos = p;
      return;
    }
  }

  private startLoc(): { line: number; column: number; offset: number } {
    return { line: this.line, column: this.pos - this.lineStart + 1, offset: this.pos };
  }

  private endLoc(): { line: number; column: number; offset: number } {
    return { line: this.line, column: this.pos - this.lineStart + 1, offset: this.pos };
  }

  private readLineComment(prefix: number, style: 'lua-line' | 'c-line'): void {
    // (A line comment stays on its line: its start is known at the end too.)
    const src = this.src;
    const startOffset = this.pos;
    const from = this.pos + prefix;
    // The comment ends at the next LF or CR: native searches (kept between comments, see
    // NextOccurrence), much faster than a loop over the bytes on comments of a few dozen bytes.
    let p = this.lf.from(from);
    const cr = this.cr.from(from);
    if (cr < p) p = cr;
    this.pos = p;
    if (style === 'c-line') this.cCommentCount++;
    if (!this.keepComments) return;
    const start = {
      line: this.line,
      column: startOffset - this.lineStart + 1,
      offset: startOffset,
    };
    this.keepComment({ value: src.slice(from, p), style, loc: { start, end: this.endLoc() } });
  }

  private readLuaComment(): void {
    const level = this.longBracketLevel(this.pos + 2);
    if (level < 0) {
      this.readLineComment(2, 'lua-line');
      return;
    }
    const start = this.startLoc();
    this.pos += 2;
    const value = this.readLongBracket(level, 'comment', this.keepComments);
    if (!this.keepComments) return;
    this.keepComment({
      value: value ?? this.src.slice(start.offset + level + 4),
      style: 'lua-block',
      loc: { start, end: this.endLoc() },
    });
  }

  private readCBlockComment(): void {
    const start = this.startLoc();
    const contentStart = this.pos + 2;
    let closeAt = this.src.indexOf('*/', contentStart);
    const unterminated = closeAt < 0;
    if (unterminated) closeAt = this.n;
    this.countLineBreaks(contentStart, closeAt);
    this.pos = unterminated ? this.n : closeAt + 2;
    if (unterminated) this.error('unfinished /* comment', start.offset, start.line, start.column);
    this.cCommentCount++;
    if (!this.keepComments) return;
    this.keepComment({
      value: this.src.slice(contentStart, closeAt),
      style: 'c-block',
      loc: { start, end: this.endLoc() },
    });
  }

  private keepComment(comment: Comment): void {
    if (this.comments.length < MAX_COMMENTS) this.comments.push(comment);
    else this.commentsDropped++;
  }

  private make(
    kind: TokenKind,
    value: string,
    line: number,
    column: number,
    offset: number,
  ): Token {
    const ring = this.ring;
    if (ring === null) return newToken(kind, value, line, column, offset, this.pos, this.line);
    const t = ring[(this.ringAt = (this.ringAt + 1) & (RECYCLED_TOKENS - 1))]!;
    t.kind = kind;
    t.value = value;
    t.line = line;
    t.column = column;
    t.offset = offset;
    t.end = this.pos;
    t.endLine = this.line;
    t.glua = false;
    t.escaped = false;
    return t;
  }

  private punct(
    value: string,
    length: number,
    line: number,
    column: number,
    offset: number,
  ): Token {
    this.pos += length;
    return this.make('Punct', value, line, column, offset);
  }

  private gluaOp(
    kind: TokenKind,
    value: string,
    length: number,
    line: number,
    column: number,
    offset: number,
  ): Token {
    this.pos += length;
    this.gluaOperatorCount++;
    const t = this.make(kind, value, line, column, offset);
    t.glua = true;
    return t;
  }

  /** Reads the next token; at the end of input returns EOF tokens forever. */
  next(): Token {
    // Only whitespace, '-' and '/' can begin trivia; skip the call for the common token
    // that directly follows another.
    const bytes = this.bytes;
    const n = bytes.length;
    const first = this.pos < n ? bytes[this.pos]! : 0;
    if (first <= 32 || first === 45 || first === 47) this.skipTrivia();
    const src = this.src;
    const offset = this.pos;
    const line = this.line;
    const column = offset - this.lineStart + 1;
    const c = offset < n ? bytes[offset]! : 0;
    if (IDENT_START[c] === 1) {
      // Two bytes a round (names average about seven bytes), then the odd one.
      let p = offset + 1;
      while (p + 1 < n && (IDENT_PART[bytes[p]!]! & IDENT_PART[bytes[p + 1]!]!) === 1) p += 2;
      if (p < n && IDENT_PART[bytes[p]!] === 1) p++;
      this.pos = p;
      const kw = keywordAt(bytes, this.view, offset, p - offset);
      if (kw !== null) return this.make('Keyword', kw, line, column, offset);
      return this.make('Name', src.slice(offset, p), line, column, offset);
    }
    const single = SINGLE_PUNCT[c];
    if (single !== undefined) {
      this.pos = offset + 1;
      return this.make('Punct', single, line, column, offset);
    }
    const c1 = offset + 1 < n ? bytes[offset + 1]! : 0;
    switch (c) {
      case 48:
      case 49:
      case 50:
      case 51:
      case 52:
      case 53:
      case 54:
      case 55:
      case 56:
      case 57:
        return this.readNumber(line, column, offset);
      case 46: // '.'
        if (c1 === 46) {
          if (src.charCodeAt(offset + 2) === 46) return this.punct('...', 3, line, column, offset);
          return this.punct('..', 2, line, column, offset);
        }
        if (c1 >= 48 && c1 <= 57) return this.readNumber(line, column, offset);
        return this.punct('.', 1, line, column, offset);
      case 34:
      case 39:
        return this.readQuoted(c, line, column, offset);
      case 91: {
        // '['
        const level = this.longBracketLevel(offset);
        if (level < 0) return this.punct('[', 1, line, column, offset);
        const value = this.readLongBracket(level, 'string');
        return this.make(
          'String',
          value ?? src.slice(offset + level + 2, this.n),
          line,
          column,
          offset,
        );
      }
      case 61:
        return c1 === 61
          ? this.punct('==', 2, line, column, offset)
          : this.punct('=', 1, line, column, offset);
      case 126:
        if (c1 === 61) return this.punct('~=', 2, line, column, offset);
        break;
      case 60:
        return c1 === 61
          ? this.punct('<=', 2, line, column, offset)
          : this.punct('<', 1, line, column, offset);
      case 62:
        return c1 === 61
          ? this.punct('>=', 2, line, column, offset)
          : this.punct('>', 1, line, column, offset);
      case 33: // '!'
        if (c1 === 61) return this.gluaOp('Punct', '~=', 2, line, column, offset);
        return this.gluaOp('Keyword', 'not', 1, line, column, offset);
      case 38: // '&'
        if (c1 === 38) return this.gluaOp('Keyword', 'and', 2, line, column, offset);
        break;
      case 124: // '|'
        if (c1 === 124) return this.gluaOp('Keyword', 'or', 2, line, column, offset);
        break;
      case 58:
        return c1 === 58
          ? this.punct('::', 2, line, column, offset)
          : this.punct(':', 1, line, column, offset);
      case 43:
        return this.punct('+', 1, line, column, offset);
      case 45:
        return this.punct('-', 1, line, column, offset);
      case 42:
        return this.punct('*', 1, line, column, offset);
      case 47:
        return this.punct('/', 1, line, column, offset);
      case 37:
        return this.punct('%', 1, line, column, offset);
      case 94:
        return this.punct('^', 1, line, column, offset);
      case 35:
        return this.punct('#', 1, line, column, offset);
      case 40:
        return this.punct('(', 1, line, column, offset);
      case 41:
        return this.punct(')', 1, line, column, offset);
      case 123:
        return this.punct('{', 1, line, column, offset);
      case 125:
        return this.punct('}', 1, line, column, offset);
      case 93:
        return this.punct(']', 1, line, column, offset);
      case 59:
        return this.punct(';', 1, line, column, offset);
      case 44:
        return this.punct(',', 1, line, column, offset);
      default:
        if (offset >= this.n) {
          if (offset - this.lineStart > this.longestLineLength)
            this.longestLineLength = offset - this.lineStart;
          return this.make('EOF', '', line, column, offset);
        }
    }
    // Any other byte cannot start a token; a run of them is reported once.
    let p = offset + 1;
    while (p < this.n && this.isStray(src.charCodeAt(p))) p++;
    this.pos = p;
    this.error(`unexpected character '${describeByte(c)}'`, offset);
    return this.make('Invalid', src.slice(offset, p), line, column, offset);
  }

  /** Bytes that can never start a token (used to group runs of binary garbage). */
  private isStray(c: number): boolean {
    return (
      (c < 32 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13) ||
      c === 36 ||
      c === 63 ||
      c === 64 ||
      c === 92 ||
      c === 96 ||
      c === 127
    );
  }

  private readNumber(line: number, column: number, offset: number): Token {
    const src = this.src;
    const hex = src.charCodeAt(offset) === 48 && (src.charCodeAt(offset + 1) | 0x20) === 120;
    const exponentMark = hex ? 112 : 101; // 'p' or 'e'
    const bytes = this.bytes;
    const n = bytes.length;
    let p = offset;
    // Like LuaJIT, take every identifier byte and dot, and a sign right after the exponent
    // mark, then judge the whole text.
    for (;;) {
      const c = p < n ? bytes[p]! : 0;
      if (IDENT_PART[c] === 1 || c === 46) p++;
      else if ((c === 43 || c === 45) && (src.charCodeAt(p - 1) | 0x20) === exponentMark) p++;
      else break;
    }
    this.pos = p;
    const raw = src.slice(offset, p);
    // The value is not kept on the token: a numeric field that sometimes holds a double made
    // V8 migrate every number token's object to a new shape (the parser asks numeralValue).
    const value = numeralValue(raw);
    this.numberValue = value;
    this.numberAt = offset;
    if (Number.isNaN(value)) this.error(`malformed number near '${raw.slice(0, 40)}'`, offset);
    return this.make('Number', raw, line, column, offset);
  }

  private readQuoted(quote: number, line: number, column: number, offset: number): Token {
    const src = this.src;
    // Most literals hold no escape and no line break: their closing quote is found by a
    // native search, and the nearest backslash and line breaks are known from searches kept
    // between literals (see NextOccurrence).
    const close = src.indexOf(quote === 34 ? '"' : "'", offset + 1);
    if (
      close >= 0 &&
      close < this.backslash.from(offset + 1) &&
      close < this.lf.from(offset + 1) &&
      close < this.cr.from(offset + 1)
    ) {
      this.pos = close + 1;
      return this.make('String', src.slice(offset + 1, close), line, column, offset);
    }
    const bytes = this.bytes;
    let p = offset + 1;
    let segmentStart = p;
    let parts: string[] | null = null;
    let escaped = false;
    let closed = false;
    const n = bytes.length;
    for (;;) {
      const c = p < n ? bytes[p]! : 0;
      if (c === quote) {
        closed = true;
        break;
      }
      if (c === 10 || c === 13 || p >= this.n) break;
      if (c !== 92) {
        p++;
        continue;
      }
      // An escape: flush the plain run before it.
      if (parts === null) parts = [];
      if (p > segmentStart) parts.push(src.slice(segmentStart, p));
      const escAt = p;
      p++;
      const e = src.charCodeAt(p);
      switch (e) {
        case 97:
          parts.push('\x07');
          p++;
          break;
        case 98:
          parts.push('\b');
          p++;
          break;
        case 102:
          parts.push('\f');
          p++;
          break;
        case 110:
          parts.push('\n');
          p++;
          break;
        case 114:
          parts.push('\r');
          p++;
          break;
        case 116:
          parts.push('\t');
          p++;
          break;
        case 118:
          parts.push('\v');
          p++;
          break;
        case 92:
        case 34:
        case 39:
          parts.push(src[p]!);
          p++;
          break;
        case 10:
        case 13:
          // A backslash before a line break keeps the line break.
          parts.push('\n');
          this.pos = p;
          this.newline();
          p = this.pos;
          break;
        case 120: {
          // \xNN: exactly two hex digits
          const h1 = hexValue(src.charCodeAt(p + 1));
          const h2 = hexValue(src.charCodeAt(p + 2));
          if (h1 < 0 || h2 < 0) {
            this.error('invalid escape sequence \\x', escAt);
            parts.push('x');
            p++;
          } else {
            parts.push(String.fromCharCode(h1 * 16 + h2));
            p += 3;
          }
          escaped = true;
          break;
        }
        case 122: {
          // \z skips the following whitespace, line breaks included
          p++;
          for (;;) {
            const w = src.charCodeAt(p);
            if (w === 10 || w === 13) {
              this.pos = p;
              this.newline();
              p = this.pos;
            } else if (w === 32 || w === 9 || w === 11 || w === 12) p++;
            else break;
          }
          escaped = true;
          break;
        }
        case 117: {
          // \u{XXX}: the code point encoded as UTF-8 bytes
          let q = p + 1;
          let cp = 0;
          let digits = 0;
          if (src.charCodeAt(q) === 123) {
            q++;
            for (;;) {
              const h = hexValue(src.charCodeAt(q));
              if (h < 0) break;
              cp = cp * 16 + h;
              digits++;
              q++;
            }
          }
          if (digits === 0 || src.charCodeAt(q) !== 125 || cp > 0x7fffffff) {
            this.error('invalid escape sequence \\u', escAt);
            parts.push('u');
            p++;
          } else {
            parts.push(utf8Bytes(cp));
            p = q + 1;
          }
          escaped = true;
          break;
        }
        default:
          if (e >= 48 && e <= 57) {
            let v = e - 48;
            p++;
            for (let k = 0; k < 2; k++) {
              const d = src.charCodeAt(p);
              if (d < 48 || d > 57) break;
              v = v * 10 + (d - 48);
              p++;
            }
            if (v > 255) {
              this.error('decimal escape too large', escAt);
              v &= 255;
            }
            parts.push(String.fromCharCode(v));
            escaped = true;
          } else if (p >= this.n) {
            // backslash at the very end: the string is unfinished, handled below
          } else {
            // LuaJIT rejects unknown escapes; keep the byte so the text stays readable.
            this.error(`invalid escape sequence '\\${describeByte(e)}'`, escAt);
            parts.push(src[p]!);
            p++;
          }
      }
      segmentStart = p;
    }
    let value: string;
    if (parts === null) value = src.slice(segmentStart, p);
    else {
      if (p > segmentStart) parts.push(src.slice(segmentStart, p));
      value = parts.length === 1 ? parts[0]! : parts.join('');
    }
    if (closed) p++;
    else this.error('unfinished string', offset, line, column);
    this.pos = p;
    const t = this.make('String', value, line, column, offset);
    t.escaped = escaped;
    return t;
  }
}

function describeByte(c: number): string {
  return c >= 33 && c < 127 ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`;
}

/** UTF-8 bytes of a code point (up to 6 bytes for LuaJIT's extended range), as latin1. */
function utf8Bytes(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000)
    return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  if (cp < 0x200000)
    return String.fromCharCode(
      0xf0 | (cp >> 18),
      0x80 | ((cp >> 12) & 0x3f),
      0x80 | ((cp >> 6) & 0x3f),
      0x80 | (cp & 0x3f),
    );
  if (cp < 0x4000000)
    return String.fromCharCode(
      0xf8 | (cp >> 24),
      0x80 | ((cp >> 18) & 0x3f),
      0x80 | ((cp >> 12) & 0x3f),
      0x80 | ((cp >> 6) & 0x3f),
      0x80 | (cp & 0x3f),
    );
  return String.fromCharCode(
    0xfc | Math.floor(cp / 0x40000000),
    0x80 | ((cp >> 24) & 0x3f),
    0x80 | ((cp >> 18) & 0x3f),
    0x80 | ((cp >> 12) & 0x3f),
    0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f),
  );
}
