// Pure library functions the analysis can evaluate on constants (string, table, bit, util
// decoders): this is what undoes string.char runs, base64, reversed names and XOR loops.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { lzmaDecompress } from './lzma.js';

import {
  asNumber,
  asString,
  bool,
  holdsIpAddress,
  IP_ADDRESS_TEXT,
  PLAYER_NAME_TEXT,
  type DecodeHow,
  LuaTable,
  mergeTaint,
  MAX_STRING,
  NIL,
  num,
  partialText,
  str,
  quotedTaint,
  type Taint,
  taintOf as taintOfValue,
  textTaint,
  unquoted,
  numericTaint,
  type Value,
  UNKNOWN,
  valuesOf,
} from './values.js';

type Builtin = (args: Value[]) => Value[];

/**
 * A value's taint as these functions hand it on: any cut or change of a text quoted into code
 * (`string.format("%q", s):sub(2, -2)`) can undo the quoting, so it is no longer quoted (see
 * TaintSource.quoted). Joining texts (table.concat, string.format) keeps it.
 */
function taintOf(v: Value): Taint | undefined {
  return unquoted(taintOfValue(v));
}

function taintAll(args: Value[]): Taint | undefined {
  let t: Taint | undefined;
  for (let i = 0; i < args.length; i++) t = mergeTaint(t, taintOf(args[i]!));
  return t;
}

/** Unknown result carrying the taint of the arguments (string functions keep taint). */
function unknownFrom(args: Value[]): Value[] {
  const t = taintAll(args);
  return [t ? { k: 'unk', taint: t } : UNKNOWN];
}

/** How many captures a constant Lua pattern has (`(` not escaped by `%`); 0 if not constant. */
function captureCount(pattern: Value | undefined): number {
  if (pattern?.k !== 'str') return 0;
  const p = pattern.v;
  let n = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '%') i++;
    else if (p[i] === '(') n++;
  }
  return n;
}

function decodedFrom(input: Value, how: DecodeHow): DecodeHow | undefined {
  return input.k === 'str' && input.dec ? input.dec : how;
}

function cap(s: string): string {
  return s.length > MAX_STRING ? s.slice(0, MAX_STRING) : s;
}

function luaIndex(i: number, len: number): number {
  if (i < 0) return Math.max(len + i + 1, 1);
  return i === 0 ? 1 : i;
}

export function luaSub(s: string, i: number, j: number): string {
  const len = s.length;
  const a = luaIndex(i, len);
  let b = j < 0 ? len + j + 1 : Math.min(j, len);
  if (b > len) b = len;
  return a > b ? '' : s.slice(a - 1, b);
}

/**
 * The text of character codes up to `max`, each made into characters by `chars`; unknown
 * (with the codes' taint) when one is not such a code.
 */
function textOfCodes(args: Value[], max: number, chars: (n: number) => string): Value[] {
  const t = taintAll(args);
  const taint = t && textTaint(t);
  let out = '';
  for (let i = 0; i < args.length; i++) {
    const n = asNumber(args[i]!);
    if (n === undefined || n < 0 || n > max || !Number.isInteger(n))
      return [taint ? { k: 'unk', taint } : UNKNOWN];
    out += chars(n);
    if (out.length > MAX_STRING) break;
  }
  return [str(out, 'char', taint)];
}

/** string.char: numbers the attacker chose become their text (see TaintSource.numeric). */
const charOf = (args: Value[]): Value[] => textOfCodes(args, 255, String.fromCharCode);

/** A code point as its UTF-8 bytes, one character per byte as the emulator holds strings. */
const utf8Bytes = (n: number): string =>
  Buffer.from(String.fromCodePoint(n), 'utf8').toString('latin1');
/** `utf8.char(…)`: what `string.char` of the code points' UTF-8 bytes gives. */
const utf8CharOf = (args: Value[]): Value[] => textOfCodes(args, 0x10ffff, utf8Bytes);

/**
 * The code points of a string held as bytes, with the byte position each starts at (what
 * `for pos, code in utf8.codes(s)` visits); undefined when the bytes are not UTF-8.
 */
export function utf8Codes(s: string): Array<[number, number]> | undefined {
  const bytes = Buffer.from(s, 'latin1');
  const text = bytes.toString('utf8');
  if (text.includes('\ufffd') && !s.includes('\u00ef\u00bf\u00bd')) return undefined;
  const out: Array<[number, number]> = [];
  let pos = 1;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out.push([pos, cp]);
    pos += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return out;
}

export function base64Decode(text: string): string | undefined {
  const clean = text.replace(/[\s=]/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (clean.length === 0 || /[^A-Za-z0-9+/]/.test(clean)) return undefined;
  try {
    return Buffer.from(clean, 'base64').toString('latin1');
  } catch {
    return undefined;
  }
}

/** A conversion of string.format (`%5.2f`): its flags and its letter. */
const FORMAT_SPEC = /%([-+ #0]*\d*(?:\.\d+)?)([diouxXeEfgGqscaA%])/g;

/**
 * string.format with known arguments, or undefined; with `partial`, the format itself with a
 * player's IP address written as IP_ADDRESS_TEXT where it goes. (Not what is known of each
 * argument: texts made that way, new at each call and up to 2 000 characters long, made the
 * whole scan 5–10 % slower in one process, emulation steps unchanged.) A loop over the
 * conversions rather than a replace callback: the callback was a closure made per call (see
 * SharedViews.callsWhere).
 */
function luaFormat(fmt: string, args: Value[], partial = false): string | undefined {
  let i = 0;
  let out = '';
  let last = 0;
  FORMAT_SPEC.lastIndex = 0;
  for (let m = FORMAT_SPEC.exec(fmt); m !== null; m = FORMAT_SPEC.exec(fmt)) {
    out += fmt.slice(last, m.index);
    last = m.index + m[0].length;
    const conv = m[2]!;
    if (conv === '%') {
      out += '%';
      continue;
    }
    const a = args[i++];
    if (partial) {
      // (`%q` writes a quoted, escaped string: a name in it cannot close it.)
      out +=
        a === undefined
          ? m[0]
          : holdsIpAddress(a)
            ? IP_ADDRESS_TEXT
            : conv === 'q'
              ? m[0]
              : namedIn(a, m[0]);
      continue;
    }
    const piece = a === undefined ? undefined : formatOne(a, m[1]!, conv);
    if (piece === undefined) return undefined;
    out += piece;
  }
  out += fmt.slice(last);
  return partial ? out.slice(0, 200) : out;
}

/**
 * The taint of `string.format(fmt, …)`: its arguments', each `%q` that stands where code
 * stands in the format marked quoted (see TaintSource.quoted). `%q` writes the text as one
 * Lua string literal that gives it back exactly, so in `"local s=%q MsgN(s)"` the text can
 * close nothing. Inside a string or a comment of the format (`"print('%q')"`) the quotes it
 * adds are plain characters, and the text can close what it sits in: not quoted there.
 */
function formatTaint(fmt: string, args: Value[]): Taint | undefined {
  let t = taintOf(args[0]!);
  // (Most formats carry no data from outside: no conversion need be placed then.)
  let tainted = false;
  for (let k = 1; k < args.length && !tainted; k++) tainted = taintOfValue(args[k]!) !== undefined;
  if (!tainted) return t;
  let i = 1;
  let state: LexState = CODE;
  let from = 0;
  FORMAT_SPEC.lastIndex = 0;
  for (let m = FORMAT_SPEC.exec(fmt); m !== null; m = FORMAT_SPEC.exec(fmt)) {
    if (m[2] === '%') continue;
    const a = args[i++];
    if (a === undefined) break;
    const at = taintOfValue(a);
    if (at === undefined) continue;
    state = lexUpTo(fmt, from, m.index, state);
    from = m.index + m[0].length;
    // (What an argument inserts elsewhere, `%s` code or a number, is taken as leaving the
    // format where it was: text that would open a string is a finding of its own already.)
    t = mergeTaint(
      t,
      m[2] === 'q' && state === CODE ? quotedTaint(at) : m[2] === 's' ? at : unquoted(at),
    );
  }
  return t;
}

/**
 * Where a piece of Lua text leaves the lexer: in code, inside a short string (its quote), a
 * long string or comment (`]` and its level of `=`), a line comment or a C-style one.
 */
type LexState = number;
const CODE = 0;
const LINE_COMMENT = 1;
const SINGLE_QUOTE = 2;
const DOUBLE_QUOTE = 3;
/** Inside a C-style comment of GLua (slash-star to star-slash). */
const BLOCK_COMMENT = 4;
/** Long brackets: LONG + level, for both strings and comments (both end the same way). */
const LONG = 16;

/** The lexer's state after `text[from, to)`, started in `state` (GLua's comments included). */
function lexUpTo(text: string, from: number, to: number, state: LexState): LexState {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (state === CODE) {
      if (c === 0x22 || c === 0x27) state = c === 0x22 ? DOUBLE_QUOTE : SINGLE_QUOTE;
      else if (c === 0x5b /* [ */) {
        const level = longBracketLevel(text, i);
        if (level >= 0) {
          state = LONG + level;
          i += level + 2;
          continue;
        }
      } else if (c === 0x2d /* - */ && text.charCodeAt(i + 1) === 0x2d) {
        const level = longBracketLevel(text, i + 2);
        if (level >= 0) {
          state = LONG + level;
          i += level + 4;
          continue;
        }
        state = LINE_COMMENT;
      } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) state = LINE_COMMENT;
      else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
        state = BLOCK_COMMENT;
        i += 2;
        continue;
      }
    } else if (state === BLOCK_COMMENT) {
      if (c === 0x2a && text.charCodeAt(i + 1) === 0x2f) {
        state = CODE;
        i += 2;
        continue;
      }
    } else if (state === LINE_COMMENT) {
      if (c === 0x0a) state = CODE;
    } else if (state === SINGLE_QUOTE || state === DOUBLE_QUOTE) {
      if (c === 0x5c /* \ */) {
        i += 2;
        continue;
      }
      if (c === (state === DOUBLE_QUOTE ? 0x22 : 0x27) || c === 0x0a) state = CODE;
    } else if (c === 0x5d /* ] */) {
      const level = state - LONG;
      let j = i + 1;
      while (j < to && text.charCodeAt(j) === 0x3d /* = */ && j - i - 1 < level) j++;
      if (j - i - 1 === level && text.charCodeAt(j) === 0x5d) {
        state = CODE;
        i = j + 1;
        continue;
      }
    }
    i++;
  }
  return state;
}

/** The level of the long bracket opening at `text[i]` (`[[` 0, `[==[` 2), or -1. */
function longBracketLevel(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x5b) return -1;
  let j = i + 1;
  while (text.charCodeAt(j) === 0x3d) j++;
  return text.charCodeAt(j) === 0x5b ? j - i - 1 : -1;
}

/** A player's name where an argument holds one, else the conversion as written. */
function namedIn(a: Value, conversion: string): string {
  return a.k === 'unk' && a.partial?.includes(PLAYER_NAME_TEXT) ? PLAYER_NAME_TEXT : conversion;
}

/** One argument as the conversion `%<flags><conv>` writes it, or undefined if not known. */
function formatOne(a: Value, flags: string, conv: string): string | undefined {
  if (conv === 's' || conv === 'q') {
    const s = asString(a);
    if (s === undefined) return undefined;
    return conv === 'q' ? JSON.stringify(s) : s;
  }
  const n = asNumber(a);
  if (n === undefined) return undefined;
  if (conv === 'c') return String.fromCharCode(n & 255);
  if (conv === 'x') return Math.trunc(n).toString(16);
  if (conv === 'X') return Math.trunc(n).toString(16).toUpperCase();
  if (conv === 'd' || conv === 'i') return String(Math.trunc(n));
  const prec = /\.(\d+)/.exec(flags);
  return prec ? n.toFixed(Number(prec[1])) : String(n);
}

/** Some argument from `from` on is a string the emulator decoded. */
function decodedArgument(args: readonly Value[], from: number): boolean {
  for (let i = from; i < args.length; i++) {
    const a = args[i]!;
    if (a.k === 'str' && a.dec) return true;
  }
  return false;
}

function tableArg(v: Value | undefined): LuaTable | undefined {
  return v && v.k === 'table' ? v.t : undefined;
}

function concatTable(args: Value[]): Value[] {
  const t = tableArg(args[0]);
  if (!t) return unknownFrom(args);
  const sep = args[1] ? asString(args[1]) : '';
  if (sep === undefined) return unknownFrom(args);
  const from = args[2] ? (asNumber(args[2]) ?? 1) : 1;
  const to = args[3] ? (asNumber(args[3]) ?? t.length()) : t.length();
  const parts: string[] = [];
  let taint: Taint | undefined;
  let dec: DecodeHow | undefined;
  let size = 0;
  let known = true;
  // (Past an unknown entry, a few dozen more at most: a long list of unknown lines would
  // otherwise be walked whole for a partial text cut at 2 000 characters.)
  let after = 0;
  for (let i = from; i <= to; i++) {
    if (!known && ++after > 64) break;
    const v = t.get(num(i));
    const s = asString(v);
    taint = mergeTaint(taint, taintOfValue(v));
    if (s === undefined) {
      // The text is not known, but what is known of it is kept (`«IPAddress»` in a batch),
      // and so are the known entries after it (a `lua_run` line after a setting's).
      known = false;
      parts.push(partialText(v));
      size += 3;
    } else {
      if (v.k === 'str' && v.dec) dec = v.dec;
      parts.push(s);
      size += s.length;
    }
    if (size > (known ? MAX_STRING : 2000)) break;
  }
  if (!known) {
    const partial = parts.join(sep).slice(0, 2000);
    return [taint ? { k: 'unk', taint, partial } : { k: 'unk', partial }];
  }
  // Entries stored under keys nobody knew (`t[i] = net.ReadString()` in a loop): the text
  // is not known, but what it carries is.
  if (t.someUnknown) {
    taint = mergeTaint(taint, t.unknownTaint);
    return [taint ? { k: 'unk', taint } : UNKNOWN];
  }
  // (Joined pieces of what a file or a sender gave, lines split and joined again, are that
  // data, not a text the code hides in pieces.)
  return [str(cap(parts.join(sep)), dec ?? (taint === undefined ? 'table' : undefined), taint)];
}

/**
 * `util.TableToJSON(t)` and the like: text nobody can read here, carrying what the table
 * holds, nested tables included (a list of `{ path, file.Read(path) }` records uploaded as
 * JSON). Bounded: a few levels, a few thousand values.
 */
function serializeTable(args: Value[]): Value[] {
  const root = args[0];
  if (root?.k !== 'table') return unknownFrom(args.slice(0, 1));
  let taint: Taint | undefined;
  let ipAddress = false;
  const seen = new Set<LuaTable>();
  const stack: Array<[LuaTable, number]> = [[root.t, 0]];
  let budget = 4000;
  while (stack.length > 0 && budget > 0) {
    const [t, depth] = stack.pop()!;
    if (seen.has(t)) continue;
    seen.add(t);
    taint = mergeTaint(taint, t.unknownTaint);
    // (Read through entries(): a handler that serialises a table the addon fills later, a
    // report posted from a timer, runs again once it is filled: see Emulator.drain.)
    for (const v of t.entries().values()) {
      if (--budget <= 0) break;
      if (v.k === 'table') {
        if (depth < 4) stack.push([v.t, depth + 1]);
      } else {
        taint = mergeTaint(taint, taintOf(v));
        if (holdsIpAddress(v)) ipAddress = true;
      }
    }
  }
  // A player's IP address in the table still shows in the text (a webhook's JSON body).
  if (ipAddress) return [{ k: 'unk', taint, partial: `«?»${IP_ADDRESS_TEXT}«?»` }];
  return [taint ? { k: 'unk', taint } : UNKNOWN];
}

/**
 * `util.JSONToTable` of a known text: the table it describes (a list of name pieces in JSON
 * is a decoder's input like any other). Known text that carries taint (a file the addon
 * ships, read back) gives its texts that taint. Text not known gives what it carries.
 * Bounded: 64 KiB of text, 4 levels, 2 000 values.
 */
function jsonToTable(args: Value[]): Value[] {
  const a = args[0];
  if (a?.k !== 'str' || a.v.length > 65_536) return unknownFrom(args.slice(0, 1));
  const taint = a.taint;
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.v);
  } catch {
    return [NIL];
  }
  let budget = 2000;
  const toValue = (x: unknown, depth: number): Value => {
    if (--budget < 0) return UNKNOWN;
    if (typeof x === 'string') return str(x, undefined, taint);
    if (typeof x === 'number') return num(x);
    if (typeof x === 'boolean') return bool(x);
    if (x === null || typeof x !== 'object' || depth >= 4) return x === null ? NIL : UNKNOWN;
    const t = new LuaTable();
    if (Array.isArray(x)) x.forEach((v, i) => t.set(num(i + 1), toValue(v, depth + 1)));
    else for (const [k, v] of Object.entries(x)) t.set(str(k), toValue(v, depth + 1));
    return { k: 'table', t };
  };
  const v = toValue(parsed, 0);
  return [v.k === 'table' ? v : NIL];
}

function unpackTable(args: Value[]): Value[] {
  const t = tableArg(args[0]);
  // (An unknown table, such as net.ReadTable()'s, unpacks to what it carries.)
  if (!t) return unknownFrom(args.slice(0, 1));
  const from = args[1] ? (asNumber(args[1]) ?? 1) : 1;
  const to = args[2] ? (asNumber(args[2]) ?? t.length()) : t.length();
  const out: Value[] = [];
  for (let i = from; i <= to && out.length < 100_000; i++) out.push(t.get(num(i)));
  if (t.someUnknown) out.push(t.unknownTaint ? { k: 'unk', taint: t.unknownTaint } : UNKNOWN);
  return out;
}

/**
 * `table.Copy(t)`: a copy of a known table, so that what the code then takes from the copy
 * (`local fn = table.remove(step, 1)`, then `fn(unpack(step))`) is known. The game copies
 * nested tables too; here they are shared, which reading them cannot tell apart.
 */
function copyTable(args: Value[]): Value[] {
  const t = tableArg(args[0]);
  if (!t) return unknownFrom(args.slice(0, 1));
  const copy = new LuaTable();
  if (t.hash.size > 0) copy.hash = new Map(t.hash);
  copy.border = t.border;
  copy.someUnknown = t.someUnknown;
  copy.unknownTaint = t.unknownTaint;
  return [{ k: 'table', t: copy }];
}

function bitOp(f: (a: number, b: number) => number): Builtin {
  return (args) => {
    const ns = args.map(asNumber);
    if (ns.length === 0 || ns.some((n) => n === undefined)) return unknownFrom(args);
    let acc = ns[0]! | 0;
    for (let i = 1; i < ns.length; i++) acc = f(acc, ns[i]! | 0);
    return [num(acc)];
  };
}

/**
 * Lua's type names of the values the emulation knows for sure. An API value is a function or
 * a library table, and an unknown value anything.
 */
const TYPE_NAMES: Partial<Record<Value['k'], string>> = {
  str: 'string',
  num: 'number',
  bool: 'boolean',
  table: 'table',
  fn: 'function',
};

const TYPE_ANSWERS = [[bool(false)], [bool(true)]] as const;

/** `istable(v)` and its kin, answered when the type of `v` is known (see `type`). */
function isType(name: string): Builtin {
  return (args) => {
    const t = args[0] === undefined ? undefined : TYPE_NAMES[args[0].k];
    return t === undefined ? [UNKNOWN] : [...TYPE_ANSWERS[t === name ? 1 : 0]];
  };
}

/** A one-number function of the math library, evaluated on a known number. */
function mathFn(f: (n: number) => number): Builtin {
  return (args) => {
    const n = args[0] ? asNumber(args[0]) : undefined;
    return n === undefined ? unknownFrom(args) : [num(f(n))];
  };
}

function hexDigest(algorithm: string, s: string): string {
  return createHash(algorithm).update(Buffer.from(s, 'latin1')).digest('hex');
}

function stringFn(f: (s: string, args: Value[]) => Value[] | undefined): Builtin {
  return (args) => {
    const s = args[0] ? asString(args[0]) : undefined;
    if (s === undefined) return unknownFrom(args);
    return f(s, args) ?? unknownFrom(args);
  };
}

/** Lua's character classes (`%a`…) as the inside of a JS character class. */
const LUA_CLASS_RANGES: Record<string, string> = {
  a: 'A-Za-z',
  d: '0-9',
  l: 'a-z',
  s: '\\t-\\r ',
  u: 'A-Z',
  w: 'A-Za-z0-9',
  x: 'A-Fa-f0-9',
  p: '!-\\/:-@\\[-`{-~',
  c: '\\x00-\\x1f\\x7f',
  // (Lua 5.1's class for the zero byte, which its patterns cannot write as `\0`.)
  z: '\\x00',
};

/** A character of a Lua pattern, written to stand for itself in a JS regex (or inside a class). */
function literalForRegExp(c: string, inClass: boolean): string {
  if (inClass) return '\\^-]['.includes(c) ? '\\' + c : c;
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? '\\' + c : c;
}

/**
 * Lua pattern → JS RegExp (global), for the patterns decoders and name builders use: classes
 * (`%a`, `%x`…, negated in upper case), sets (`[^.]`, `[%w_]`, `[a-f]`), `.`, the quantifiers
 * `* + - ?`, captures and `^`/`$` anchors. Undefined for what has no JS match (`%b`, `%f`,
 * position captures `()`) or an ill-formed pattern: the caller then knows nothing rather than
 * something wrong.
 */
export function luaPatternToRegExp(p: string): RegExp | undefined {
  if (p.length > 200) return undefined;
  let out = '';
  let i = 0;
  // `^` anchors only at the start, `$` only at the end; elsewhere both are plain characters.
  if (p[0] === '^') {
    out += '^';
    i = 1;
  }
  // Whether the last thing written is a single character class, which a quantifier may follow:
  // after a capture's bracket or the anchor, Lua reads `-`, `*`, `+` and `?` as characters.
  let quantifiable = false;
  for (; i < p.length; i++) {
    const c = p[i]!;
    const wasQuantifiable = quantifiable;
    quantifiable = true;
    if (c === '%') {
      const n = p[++i];
      if (n === undefined || n === 'b' || n === 'f') return undefined;
      const range = LUA_CLASS_RANGES[n.toLowerCase()];
      if (range !== undefined) out += n === n.toLowerCase() ? `[${range}]` : `[^${range}]`;
      else if (n >= '1' && n <= '9') out += '\\' + n;
      else out += literalForRegExp(n, false);
    } else if (c === '[') {
      // A set: `]` right after `[` or `[^` is one of its characters.
      let set = '[';
      let j = i + 1;
      if (p[j] === '^') {
        set += '^';
        j++;
      }
      let first = true;
      for (; j < p.length && (p[j] !== ']' || first); j++) {
        first = false;
        const d = p[j]!;
        if (d === '%') {
          const n = p[++j];
          if (n === undefined) return undefined;
          const range = LUA_CLASS_RANGES[n];
          // (A negated class inside a set has no JS spelling but for the few below.)
          if (range !== undefined) set += range;
          else if (n === 'D' || n === 'S') set += '\\' + n;
          else if (LUA_CLASS_RANGES[n.toLowerCase()] !== undefined) return undefined;
          else set += literalForRegExp(n, true);
        } else if (p[j + 1] === '-' && p[j + 2] !== undefined && p[j + 2] !== ']') {
          set += `${literalForRegExp(d, true)}-${literalForRegExp(p[j + 2]!, true)}`;
          j += 2;
        } else set += literalForRegExp(d, true);
      }
      if (j >= p.length) return undefined;
      out += set + ']';
      i = j;
    } else if (c === '.') out += '[\\s\\S]';
    else if (wasQuantifiable && (c === '-' || c === '*' || c === '+' || c === '?')) {
      out += c === '-' ? '*?' : c;
      quantifiable = false;
    } else if (c === '(') {
      if (p[i + 1] === ')') return undefined;
      out += '(';
      quantifiable = false;
    } else if (c === ')') {
      out += ')';
      quantifiable = false;
    } else if (c === '$' && i === p.length - 1) out += '$';
    else out += literalForRegExp(c, false);
  }
  try {
    return new RegExp(out, 'g');
  } catch {
    return undefined;
  }
}

/**
 * `string.find` on a known text (a hand-written decoder looking each character up in its
 * alphabet): start, end and captures, or nil; undefined when the pattern is beyond the
 * translation (`%b`, `%f`, position captures).
 */
function findKnown(args: Value[]): Value[] | undefined {
  const subject = args[0];
  const pattern = args[1] ? asString(args[1]) : undefined;
  if (subject?.k !== 'str' || pattern === undefined) return undefined;
  const s = subject.v;
  let init = args[2] ? asNumber(args[2]) : 1;
  if (init === undefined || !Number.isInteger(init)) return undefined;
  if (init < 0) init = Math.max(1, s.length + init + 1);
  if (init === 0) init = 1;
  const plain = args[3]?.k === 'bool' ? args[3].v : args[3] !== undefined && args[3].k !== 'nil';
  if (plain || !/[\^$*+?.([%-]/.test(pattern)) {
    const at = s.indexOf(pattern, init - 1);
    return at < 0 ? [NIL] : [num(at + 1), num(at + pattern.length)];
  }
  if (/%[bf]|\(\)/.test(pattern)) return undefined;
  const anchored = pattern.startsWith('^');
  const re = luaPatternToRegExp(anchored ? pattern.slice(1) : pattern);
  if (!re) return undefined;
  const r = new RegExp(re.source, anchored ? 'y' : 'g');
  r.lastIndex = init - 1;
  const m = r.exec(s);
  if (!m) return [NIL];
  const caps = valuesOf(m.slice(1), (c) =>
    c === undefined ? NIL : str(c, undefined, subject.taint),
  );
  return [num(m.index + 1), num(m.index + m[0].length), ...caps];
}

/**
 * `string.match` of a known text with a known pattern: what findKnown finds, as match gives
 * it (the captures, or the whole match), nil when nothing matches.
 */
function matchKnown(args: Value[]): Value[] | undefined {
  const found = findKnown(args.slice(0, 3));
  if (found === undefined || found.length === 1) return found;
  if (found.length > 2) return found.slice(2);
  const subject = args[0] as Extract<Value, { k: 'str' }>;
  const from = (found[0] as Extract<Value, { k: 'num' }>).v;
  const to = (found[1] as Extract<Value, { k: 'num' }>).v;
  return [str(subject.v.slice(from - 1, to), undefined, subject.taint)];
}

/**
 * `Color(r, g, b, a)` of known numbers: the colour object, whose fields a decoder may read
 * back as character codes (`string.char(c.r, c.g, c.b)` over a palette).
 */
function colorOf(args: Value[]): Value[] {
  const t = new LuaTable();
  const names = ['r', 'g', 'b', 'a'];
  for (let i = 0; i < 4; i++) {
    const n = args[i] === undefined ? (i === 3 ? 255 : undefined) : asNumber(args[i]!);
    if (n === undefined) return [UNKNOWN];
    t.setName(names[i]!, num(n));
  }
  return [{ k: 'table', t }];
}

/**
 * `util.KeyValuesToTable(text, escapes, preserveKeyCase)`: Valve's KeyValues text (a vehicle
 * script, a VMT) as the table of its root block, keys lower-cased unless asked otherwise,
 * values kept as text. Undefined when the text is not such a block.
 */
function keyValuesOf(args: Value[]): Value[] {
  const text = args[0] ? asString(args[0]) : undefined;
  if (text === undefined) return unknownFrom(args.slice(0, 1));
  const preserve = args[2]?.k === 'bool' && args[2].v;
  const taint = taintOf(args[0]!);
  // Tokens: quoted strings, braces, bare words; `//` comments to the end of the line.
  const tokens = text.match(/"[^"]*"|[{}]|\/\/[^\n]*|[^\s{}"]+/g) ?? [];
  let i = 0;
  const block = (depth: number): LuaTable | undefined => {
    const t = new LuaTable();
    while (i < tokens.length) {
      let tok = tokens[i++]!;
      if (tok.startsWith('//')) continue;
      if (tok === '}') return t;
      if (tok === '{') return undefined;
      let key = tok.startsWith('"') ? tok.slice(1, -1) : tok;
      if (!preserve) key = key.toLowerCase();
      while (i < tokens.length && tokens[i]!.startsWith('//')) i++;
      tok = tokens[i++] ?? '';
      if (tok === '{') {
        if (depth > 32) return undefined;
        const inner = block(depth + 1);
        if (inner === undefined) return undefined;
        t.setName(key, { k: 'table', t: inner });
      } else if (tok === '}' || tok === '') return undefined;
      else t.setName(key, str(tok.startsWith('"') ? tok.slice(1, -1) : tok, undefined, taint));
    }
    return depth === 0 ? t : undefined;
  };
  const root = block(0);
  if (root === undefined) return unknownFrom(args.slice(0, 1));
  // The root block's own table: `"vehicle" { … }` gives what is inside the braces.
  const first = root.hash.values().next().value as Value | undefined;
  return [first?.k === 'table' ? first : { k: 'table', t: root }];
}

/**
 * ULX's stock commands by category, as `ulx.cmdsByCategory` lists them (each entry a command
 * object whose `cmd` is its console name). An addon that hands a group "the Rcon category"
 * names no powerful command itself; the emulator reads this instead of the unknown global.
 * The harmless categories are listed too: a preset giving the staff "Teleport" and "Fun" then
 * grants known, harmless commands rather than unknown ones.
 */
const ULX_CATEGORIES: Record<string, readonly string[]> = {
  Chat: ['psay', 'asay', 'tsay', 'csay', 'thetime', 'gimp', 'mute', 'gag'],
  Fun: [
    'slap',
    'whip',
    'slay',
    'sslay',
    'ignite',
    'unigniteall',
    'playsound',
    'freeze',
    'god',
    'hp',
    'armor',
    'cloak',
    'blind',
    'jail',
    'jailtp',
    'ragdoll',
    'maul',
    'strip',
  ],
  Menus: ['motd'],
  Rcon: ['rcon', 'luarun', 'exec', 'cexec', 'ent'],
  Teleport: ['bring', 'goto', 'send', 'teleport', 'return'],
  'User Management': [
    'usermanagementhelp',
    'adduser',
    'adduserid',
    'removeuser',
    'removeuserid',
    'userallow',
    'userallowid',
    'userdeny',
    'userdenyid',
    'addgroup',
    'renamegroup',
    'setgroupcantarget',
    'removegroup',
    'groupallow',
    'groupdeny',
  ],
  Utility: [
    'who',
    'version',
    'map',
    'kick',
    'ban',
    'banid',
    'unban',
    'noclip',
    'spectate',
    'debuginfo',
    'resettodefaults',
  ],
  Voting: ['vote', 'stopvote', 'votekick', 'voteban', 'votemap', 'veto'],
};

/** A fresh `ulx.cmdsByCategory` of the categories above, for one scan to read and change. */
export function ulxCommandsByCategory(): LuaTable {
  const byCategory = new LuaTable();
  for (const [category, names] of Object.entries(ULX_CATEGORIES)) {
    const list = new LuaTable();
    for (let i = 0; i < names.length; i++) {
      const command = new LuaTable();
      command.setName('cmd', str(`ulx ${names[i]!}`));
      command.setName('category', str(category));
      list.set(num(i + 1), { k: 'table', t: command });
    }
    byCategory.set(str(category), { k: 'table', t: list });
  }
  return byCategory;
}

export const BUILTINS: Record<string, Builtin> = {
  Color: colorOf,
  'util.KeyValuesToTable': keyValuesOf,
  'string.char': charOf,
  'utf8.char': utf8CharOf,
  'string.byte': stringFn((s, args) => {
    const i = args[1] ? (asNumber(args[1]) ?? 1) : 1;
    const j = args[2] ? (asNumber(args[2]) ?? i) : i;
    const sub = luaSub(s, i, j);
    return valuesOf([...sub].slice(0, 100_000), (c) => num(c.charCodeAt(0)));
  }),
  'string.reverse': stringFn((s, args) => [
    str([...s].reverse().join(''), decodedFrom(args[0]!, 'reverse'), taintOf(args[0]!)),
  ]),
  'string.rep': stringFn((s, args) => {
    const n = args[1] ? asNumber(args[1]) : undefined;
    if (n === undefined || n * s.length > MAX_STRING) return undefined;
    return [str(s.repeat(Math.max(0, n)), undefined, taintOf(args[0]!))];
  }),
  'string.sub': stringFn((s, args) => {
    const i = args[1] ? (asNumber(args[1]) ?? 1) : 1;
    const j = args[2] ? (asNumber(args[2]) ?? -1) : -1;
    const a = args[0]!;
    return [str(luaSub(s, i, j), a.k === 'str' ? a.dec : undefined, taintOf(a))];
  }),
  'string.lower': stringFn((s, args) => [
    str(s.toLowerCase(), (args[0] as { dec?: DecodeHow }).dec, taintOf(args[0]!)),
  ]),
  'string.upper': stringFn((s, args) => [
    str(s.toUpperCase(), (args[0] as { dec?: DecodeHow }).dec, taintOf(args[0]!)),
  ]),
  'string.len': stringFn((s) => [num(s.length)]),
  'string.Trim': stringFn((s, args) => [str(s.trim(), undefined, taintOf(args[0]!))]),
  'string.format': stringFn((s, args) => {
    const taint = formatTaint(s, args);
    const r = luaFormat(s, args.slice(1));
    if (r === undefined) {
      return [{ k: 'unk', taint, partial: luaFormat(s, args.slice(1), true) }];
    }
    const dec = decodedArgument(args, 1) || /%c/.test(s) ? 'format' : undefined;
    return [str(r, dec, taint)];
  }),
  'string.find': (args) => findKnown(args) ?? [UNKNOWN],
  // Evaluated on a known text (a loader picking char codes out of a comment it read); else
  // each capture is a piece of the text, with its taint (`local cmd, rest =
  // text:match("^(%S+)%s*(.*)$")`).
  'string.match': (args) => {
    const known = matchKnown(args);
    if (known !== undefined) return known;
    const [piece] = unknownFrom(args.slice(0, 1));
    const pieces: Value[] = [];
    for (let i = Math.max(1, captureCount(args[1])); i > 0; i--) pieces.push(piece!);
    return pieces;
  },
  'string.gsub': stringFn((s, args) => {
    const pat = args[1] ? asString(args[1]) : undefined;
    const rep = args[2];
    if (pat === undefined || !rep) return undefined;
    const re = luaPatternToRegExp(pat);
    if (!re) return undefined;
    if (rep.k === 'str')
      return [
        str(
          s.replace(re, () => rep.v),
          undefined,
          taintOf(args[0]!),
        ),
      ];
    if (rep.k === 'table') {
      // A lookup table (`s:gsub(".", map)`, a substitution alphabet): each match is replaced
      // by its entry, kept when there is none; an entry not known leaves the result unknown.
      let unknown = false;
      const out = s.replace(re, (m: string, ...rest: unknown[]) => {
        const first = typeof rest[0] === 'string' ? rest[0] : m;
        const v = rep.t.get(str(first));
        if (v.k === 'str') return v.v;
        if (v.k === 'num') return String(v.v);
        if (v.k === 'nil' || (v.k === 'bool' && !v.v)) return m;
        unknown = true;
        return m;
      });
      if (unknown) return undefined;
      return [str(out, 'table', taintOf(args[0]!))];
    }
    return undefined; // function replacements are run by the emulator (hex decoders)
  }),
  'table.concat': concatTable,
  'util.TableToJSON': serializeTable,
  'util.JSONToTable': jsonToTable,
  'util.TableToKeyValues': serializeTable,
  unpack: unpackTable,
  'table.unpack': unpackTable,
  'table.Copy': copyTable,
  'bit.bxor': bitOp((a, b) => a ^ b),
  'bit.band': bitOp((a, b) => a & b),
  'bit.bor': bitOp((a, b) => a | b),
  'bit.lshift': bitOp((a, b) => a << b),
  'bit.rshift': bitOp((a, b) => a >>> b),
  'bit.bnot': (args) => {
    const n = args[0] ? asNumber(args[0]) : undefined;
    return n === undefined ? [UNKNOWN] : [num(~n)];
  },
  'math.floor': (args) => {
    const n = args[0] ? asNumber(args[0]) : undefined;
    return n === undefined ? unknownFrom(args) : [num(Math.floor(n))];
  },
  'math.abs': (args) => {
    const n = args[0] ? asNumber(args[0]) : undefined;
    return n === undefined ? unknownFrom(args) : [num(Math.abs(n))];
  },
  // GMod's `math.Round(n, decimals)`. Of a number the attacker chose, still a number they
  // chose (which string.char makes into their text), not a sanitised value.
  'math.Round': (args) => {
    const n = args[0] ? asNumber(args[0]) : undefined;
    const places = args[1] ? (asNumber(args[1]) ?? 0) : 0;
    if (n !== undefined) {
      const scale = 10 ** Math.max(0, Math.min(places, 15));
      return [num(Math.floor(n * scale + 0.5) / scale)];
    }
    const t = args[0] ? taintOf(args[0]) : undefined;
    return [t ? { k: 'unk', taint: numericTaint(t) } : UNKNOWN];
  },
  'math.ceil': mathFn(Math.ceil),
  'math.sqrt': mathFn(Math.sqrt),
  'math.exp': mathFn(Math.exp),
  'math.log': mathFn(Math.log),
  'math.sin': mathFn(Math.sin),
  'math.cos': mathFn(Math.cos),
  'math.rad': mathFn((n) => (n * Math.PI) / 180),
  'math.deg': mathFn((n) => (n * 180) / Math.PI),
  'math.fmod': (args) => {
    const a = args[0] ? asNumber(args[0]) : undefined;
    const b = args[1] ? asNumber(args[1]) : undefined;
    return a === undefined || b === undefined ? [UNKNOWN] : [num(a % b)];
  },
  tonumber: (args) => {
    const s = args[0];
    if (!s) return [NIL];
    const base = args[1] ? asNumber(args[1]) : undefined;
    if (base !== undefined && s.k === 'str') {
      const n = parseInt(s.v.trim(), base);
      return [Number.isNaN(n) ? NIL : num(n)];
    }
    const n = asNumber(s);
    if (n !== undefined) return [num(n)];
    if (s.k !== 'unk') return [NIL];
    // A number carries no text of the attacker's, until string.char makes it one.
    return [s.taint ? { k: 'unk', taint: numericTaint(s.taint) } : UNKNOWN];
  },
  // A walk of _G or of a table that keeps only its texts (`type(k) == "string" and …`).
  // Nil is left unknown: a value the emulation has not seen set is often set elsewhere, and
  // `if type(cfg) ~= "table" then return end` must not end the run there.
  type: (args) => {
    const name = args[0] === undefined ? undefined : TYPE_NAMES[args[0].k];
    return [name === undefined ? UNKNOWN : str(name)];
  },
  // As `type` (`istable(rows) and rows[1]`).
  istable: isType('table'),
  isstring: isType('string'),
  isnumber: isType('number'),
  isbool: isType('boolean'),
  isfunction: isType('function'),
  tostring: (args) => {
    const a = args[0];
    if (!a) return [UNKNOWN];
    const s = asString(a);
    if (s !== undefined) return [str(s, a.k === 'str' ? a.dec : undefined, taintOf(a))];
    if (a.k === 'bool') return [str(a.v ? 'true' : 'false')];
    if (a.k === 'nil') return [str('nil')];
    return unknownFrom(args);
  },
  'util.Base64Decode': stringFn((s, args) => {
    const d = base64Decode(s);
    return d === undefined ? undefined : [str(d, 'base64', taintOf(args[0]!))];
  }),
  'util.Base64Encode': stringFn((s) => [str(Buffer.from(s, 'latin1').toString('base64'))]),
  // GMod's LZMA (util.Compress's output): code shipped compressed, often inside base64.
  'util.Decompress': stringFn((s, args) => {
    const out = lzmaDecompress(Buffer.from(s, 'latin1'), MAX_STRING);
    if (out === undefined) return undefined;
    const text = Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('latin1');
    return [str(text, 'decompress', taintOf(args[0]!))];
  }),
  // Hashes of known text: a backdoor can look a global up by the hash of its name, so that
  // the name is written nowhere (`util.CRC(k) == "2906964782"` in a walk of _G).
  'util.CRC': stringFn((s) => [str(String(crc32(Buffer.from(s, 'latin1'))))]),
  'util.MD5': stringFn((s) => [str(hexDigest('md5', s))]),
  'util.SHA1': stringFn((s) => [str(hexDigest('sha1', s))]),
  'util.SHA256': stringFn((s) => [str(hexDigest('sha256', s))]),
  'string.ToTable': stringFn((s) => {
    const t = new LuaTable();
    [...s].slice(0, 100_000).forEach((c, i) => t.set(num(i + 1), str(c)));
    return [{ k: 'table', t }];
  }),
  'string.Explode': (args) => {
    const sep = args[0] ? asString(args[0]) : undefined;
    const s = args[1] ? asString(args[1]) : undefined;
    if (sep === undefined || s === undefined) return unknownFrom(args);
    const t = new LuaTable();
    s.split(sep)
      .slice(0, 100_000)
      .forEach((p, i) => t.set(num(i + 1), str(p, undefined, taintOf(args[1]!))));
    return [{ k: 'table', t }];
  },
};

/** String methods reachable through `("…"):name(…)`. */
export const STRING_METHODS = new Set([
  ...Object.keys(BUILTINS)
    .filter((k) => k.startsWith('string.'))
    .map((k) => k.slice(7)),
  // An iterator factory the emulator handles itself (a generic `for` over the matches).
  'gmatch',
]);
