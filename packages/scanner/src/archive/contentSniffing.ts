// Decides what a file is from its bytes (and only then its name): text or binary, Lua or
// not, native code or not. Cheap checks run on every entry, so they look at little.

/** Bytes looked at to decide text versus binary. */
const TEXT_SNIFF_BYTES = 1024;

/** No NUL and at most 5% control characters in the first KiB (bytes ≥ 0x80 count as text: UTF-8). */
export function looksLikeText(head: Uint8Array): boolean {
  const n = Math.min(head.length, TEXT_SNIFF_BYTES);
  if (n === 0) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b === 0) return false;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) || b === 0x7f) control++;
  }
  return control <= n * 0.05;
}

export type ExecutableFormat = 'ELF' | 'PE' | 'Mach-O';

export function executableFormat(head: Uint8Array): ExecutableFormat | undefined {
  if (head.length < 4) return undefined;
  const b0 = head[0]!;
  const b1 = head[1]!;
  const b2 = head[2]!;
  const b3 = head[3]!;
  if (b0 === 0x7f && b1 === 0x45 && b2 === 0x4c && b3 === 0x46) return 'ELF';
  const be = ((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0;
  if (
    be === 0xfeedface ||
    be === 0xfeedfacf ||
    be === 0xcefaedfe ||
    be === 0xcffaedfe ||
    be === 0xcafebabe
  ) {
    return 'Mach-O';
  }
  if (b0 === 0x4d && b1 === 0x5a) {
    // "MZ" alone could start a text file; a real PE points at "PE\0\0", or at least is not text.
    if (head.length >= 0x40) {
      const peOffset = head[0x3c]! | (head[0x3d]! << 8) | (head[0x3e]! << 16) | (head[0x3f]! << 24);
      if (peOffset > 0 && peOffset + 4 <= head.length) {
        if (
          head[peOffset] === 0x50 &&
          head[peOffset + 1] === 0x45 &&
          head[peOffset + 2] === 0 &&
          head[peOffset + 3] === 0
        ) {
          return 'PE';
        }
      }
    }
    if (!looksLikeText(head)) return 'PE';
  }
  return undefined;
}

/** gmsv_/gmcl_ modules by name, or anything under `lua/bin/` (GB-011). */
export function isBinaryModuleName(path: string): boolean {
  const lower = path.toLowerCase();
  if (/(^|\/)lua\/bin\/./.test(lower)) return true;
  return /(^|\/)gm(sv|cl)_[^/]*\.(dll|so|dylib)$/.test(lower);
}

/**
 * What follows the last dot of the name's last segment, in lower case; '' for none, or for a
 * name whose only dot starts it. Read from the end: `lastIndexOf` is a call into V8's runtime,
 * two per file.
 */
export function extensionOf(path: string): string {
  for (let at = path.length - 1; at >= 0; at--) {
    const c = path.charCodeAt(at);
    if (c === 0x2f /* / */) return '';
    if (c === 0x2e /* . */) {
      return at === 0 || path.charCodeAt(at - 1) === 0x2f ? '' : path.slice(at + 1).toLowerCase();
    }
  }
  return '';
}

// Calls that only make sense as code (call syntax required: a readme naming RunString is not
// code). Alone they are enough: these are what GB-014 loaders hide.
const CODE_EXECUTION_CALL =
  /\b(RunString|RunStringEx|CompileString|CompileFile|loadstring|BroadcastLua|SendLua|RunConsoleCommand|setfenv|getfenv)(\s*\(|\[=*\[|")|\bgame\.ConsoleCommand\s*\(|\bhttp\.(Fetch|Post)\s*\(|\bdebug\.getregistry\s*\(|\b_G\s*\[/;
const CODE_EXECUTION_CALL_AT = new RegExp(CODE_EXECUTION_CALL.source, 'y');
/**
 * A piece of text every CODE_EXECUTION_CALL match holds, and how far after the match's start
 * it sits (`fenv` in `setfenv`, `Fetch` in `http.Fetch`). Each is searched natively, one
 * search per piece: a single regex of all the call words scanned text at a third of the
 * speed. A piece is at most six characters (from seven, V8 sets up a Boyer-Moore table on
 * every search) and starts with the rarest letter that fits: V8 finds a short pattern's first
 * character with memchr and starts memchr again after every false one, so a search costs
 * about one restart per occurrence of that character (`http.` restarted at every `h`, where
 * `Fetch` and `Post` restart at capitals: a quarter as many on the corpus's text files).
 */
const CODE_EXECUTION_PIECES: readonly (readonly [piece: string, offset: number])[] = [
  ['Run', 0], // RunString, RunStringEx, RunConsoleCommand
  ['Broadc', 0],
  ['SendL', 0],
  ['fenv', 3], // setfenv, getfenv
  ['Fetch', 5], // http.Fetch
  ['Post', 5], // http.Post
  ['getreg', 6], // debug.getregistry
  ['dstr', 3], // loadstring
];

/** Whether CODE_EXECUTION_CALL matches at `start`. */
function isCodeExecutionCallAt(text: string, start: number): boolean {
  CODE_EXECUTION_CALL_AT.lastIndex = start;
  return CODE_EXECUTION_CALL_AT.test(text);
}

/** CODE_EXECUTION_CALL.test(text), tried only where one of its pieces shows. */
export function hasCodeExecutionCall(text: string): boolean {
  for (const [piece, offset] of CODE_EXECUTION_PIECES) {
    for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) {
      if (at >= offset && isCodeExecutionCallAt(text, at - offset)) return true;
    }
  }
  // CompileString, CompileFile and game.ConsoleCommand share one search of their `Co`
  // (two searches would each restart at every `C`), told apart by the letter after it.
  for (let at = text.indexOf('Co'); at !== -1; at = text.indexOf('Co', at + 2)) {
    const next = text.charCodeAt(at + 2);
    if (next === 0x6d /* m */ && isCodeExecutionCallAt(text, at)) return true;
    if (next === 0x6e /* n */ && at >= 5 && isCodeExecutionCallAt(text, at - 5)) return true;
  }
  // `_G`, searched from its `G`: underscores are ten times as common as capital Gs in text
  // (sound and config names), and a one-character search is a plain memchr.
  for (let at = text.indexOf('G', 1); at !== -1; at = text.indexOf('G', at + 1)) {
    if (text.charCodeAt(at - 1) === 0x5f /* _ */ && isCodeExecutionCallAt(text, at - 1)) {
      return true;
    }
  }
  return false;
}

/**
 * One kind of evidence of Lua structure each; prose rarely shows several. Listed cheapest
 * first: most text is decided after a few. A pattern behind a cheap test (a word every match
 * holds) runs only on text that passes it, or only where that word shows.
 */
const LUA_STRUCTURE: ((text: string) => boolean)[] = [
  hasLuaComment,
  hasClosingEnd,
  hasIfThen,
  hasLocalDeclaration,
  hasFunctionDefinition,
  // GMod library call
  (t) =>
    /\.[A-Za-z_]\w*\s*\(/.test(t) &&
    /\b(hook|net|timer|concommand|util|file|string|table|player|ents|sql|surface|draw|vgui)\.[A-Za-z_]\w*\s*\(/.test(
      t,
    ),
  // method call (not a JS object key)
  (t) =>
    /:[A-Za-z_]\w*\s*\(/.test(t) &&
    /(?<![{,]\s*)\b[A-Za-z_]\w*:(?!function\b)[A-Za-z_]\w*\s*\(/.test(t),
];

/** A function definition with a parameter list. */
const FUNCTION_DEFINITION = /\bfunction\s*[\w.:]*\s*\([\w\s,.]*\)/;
const FUNCTION_DEFINITION_AT = new RegExp(FUNCTION_DEFINITION.source, 'y');

/**
 * FUNCTION_DEFINITION.test(text), tried only where `functi` shows: a search for six
 * characters runs from one `f` to the next with memchr (about a third of the regex's time
 * on the corpus's text files), where V8 sets up a Boyer-Moore table for each search of the
 * whole eight-character word, which made a search for `function` slower than the regex.
 */
export function hasFunctionDefinition(text: string): boolean {
  for (let at = text.indexOf('functi'); at !== -1; at = text.indexOf('functi', at + 6)) {
    FUNCTION_DEFINITION_AT.lastIndex = at;
    if (FUNCTION_DEFINITION_AT.test(text)) return true;
  }
  return false;
}

/** if … then on one line, 200 characters apart at most (not a JavaScript promise's .then). */
const IF_THEN = /\bif\b[^\n]{0,200}(?<!\.)\bthen\b/;
const IF_THEN_AT = new RegExp(IF_THEN.source, 'y');

/**
 * IF_THEN.test(text), tried from the `then`s: the regex searched for every `if` of the text
 * and scanned up to 200 characters after each, where a `then` is far rarer. A `then` fits
 * iff the nearest whole-word `if` before it on its line fits: it is the closest, and no line
 * feed can lie between them that does not also lie after a farther one.
 */
export function hasIfThen(text: string): boolean {
  const n = text.length;
  // Searched as `hen`: a search runs from one candidate first letter to the next, and `h`
  // is rarer than `t` in text.
  for (let h = text.indexOf('hen', 1); h !== -1; h = text.indexOf('hen', h + 3)) {
    if (text.charCodeAt(h - 1) !== 0x74) continue;
    const q = h - 1;
    if (q > 0) {
      const before = text.charCodeAt(q - 1);
      if (before === 0x2e || isWordChar(before)) continue;
    }
    if (q + 4 < n && isWordChar(text.charCodeAt(q + 4))) continue;
    // `if` at p: p + 2 < q (a word character follows `if` otherwise), q - p - 2 <= 200.
    for (let p = q - 3; p >= 0 && p >= q - 202; p--) {
      const c = text.charCodeAt(p + 1);
      if (c === 0x0a) break;
      if (
        c === 0x66 &&
        text.charCodeAt(p) === 0x69 &&
        (p === 0 || !isWordChar(text.charCodeAt(p - 1))) &&
        !isWordChar(text.charCodeAt(p + 2))
      ) {
        IF_THEN_AT.lastIndex = p;
        if (IF_THEN_AT.test(text)) return true;
        break;
      }
    }
  }
  return false;
}

/** A local declaration. */
const LOCAL_DECLARATION = /\blocal\s+[A-Za-z_]\w*\s*(=|,)/;
const LOCAL_DECLARATION_AT = new RegExp(LOCAL_DECLARATION.source, 'y');

/**
 * LOCAL_DECLARATION.test(text), tried only where the word `local` starts. Searched as `cal`:
 * a search restarts at every occurrence of its first letter, and `c` is rarer than `l` in
 * text (0.59 as common on the corpus's text files).
 */
export function hasLocalDeclaration(text: string): boolean {
  for (let cal = text.indexOf('cal', 2); cal !== -1; cal = text.indexOf('cal', cal + 3)) {
    const at = cal - 2;
    if (text.charCodeAt(at) !== 0x6c /* l */ || text.charCodeAt(at + 1) !== 0x6f /* o */) continue;
    if (at > 0 && isWordChar(text.charCodeAt(at - 1))) continue;
    LOCAL_DECLARATION_AT.lastIndex = at;
    if (LOCAL_DECLARATION_AT.test(text)) return true;
  }
  return false;
}

/** What `\w` matches (no `u` flag): ASCII letters, digits and `_`. */
function isWordChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f
  );
}

/** What `\s` matches in Latin-1 text: tab, line feed, vertical tab, form feed, return, space, no-break space. */
function isSpace(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0;
}

/**
 * A Lua comment: `--[[` anywhere, or `--` opening a line (after blanks) and followed by
 * neither `-` nor a line feed. Answers as /--\[\[|^\s*--[^\n-]/m does, walking only the `--`.
 */
export function hasLuaComment(text: string): boolean {
  const n = text.length;
  for (let at = text.indexOf('--'); at !== -1; at = text.indexOf('--', at + 1)) {
    if (isLuaCommentAt(text, at)) return true;
    // In a run of dashes only its first `--` (at a line start) and its last (before `[[`)
    // can answer: a line of dashes would otherwise cost one search per dash.
    let end = at + 2;
    while (end < n && text.charCodeAt(end) === 0x2d) end++;
    if (end - 2 > at) {
      at = end - 2;
      if (isLuaCommentAt(text, at)) return true;
    }
  }
  return false;
}

/** Whether the `--` at `at` makes hasLuaComment true. */
function isLuaCommentAt(text: string, at: number): boolean {
  if (text.startsWith('[[', at + 2)) return true;
  if (at + 2 >= text.length) return false;
  const next = text.charCodeAt(at + 2);
  if (next === 0x0a || next === 0x2d) return false;
  // Blanks back to the start of a line (a line feed or return is itself a blank).
  for (let p = at; ; p--) {
    if (p === 0) return true;
    const c = text.charCodeAt(p - 1);
    if (c === 0x0a || c === 0x0d) return true;
    if (!isSpace(c)) return false;
  }
}

/**
 * A closing `end`: after a line start, a blank, `;` or `)`, and followed (past blanks) by
 * `)`, `,`, `;` or a line end. Answers as /(^|[\s;)])end(\s*[),;]|\s*$)/m does.
 */
export function hasClosingEnd(text: string): boolean {
  // Searched as `nd`: a search runs from one candidate first letter to the next, and `e` is
  // the commonest letter of text.
  for (let nd = text.indexOf('nd', 1); nd !== -1; nd = text.indexOf('nd', nd + 2)) {
    if (text.charCodeAt(nd - 1) !== 0x65) continue;
    const at = nd - 1;
    if (at > 0) {
      const before = text.charCodeAt(at - 1);
      if (!isSpace(before) && before !== 0x3b && before !== 0x29) continue;
    }
    for (let j = at + 3; ; j++) {
      if (j === text.length) return true;
      const c = text.charCodeAt(j);
      if (c === 0x0a || c === 0x0d || c === 0x29 || c === 0x2c || c === 0x3b) return true;
      if (!isSpace(c)) break;
    }
  }
  return false;
}

// JavaScript and shell share Lua's keywords; their own syntax asks for more evidence.
const OTHER_LANGUAGE =
  /===|!==|=>|\b(var|const|let)\s+[A-Za-z_$][\w$]*\s*=|^#!\/|^\s*fi\s*$|^\s*esac\s*$/m;

/** Bytes of text looked at by the Lua heuristic. */
const LUA_SNIFF_CHARS = 1024 * 1024;

/**
 * A cheap guess that text is Lua: one code-execution call, or three kinds of Lua structure;
 * text that also shows JavaScript or shell syntax needs both.
 */
export function looksLikeLua(bytes: Uint8Array): boolean {
  const text = Buffer.from(
    bytes.buffer,
    bytes.byteOffset,
    Math.min(bytes.byteLength, LUA_SNIFF_CHARS),
  ).toString('latin1');
  // Each regex runs only while it can still change the answer: most text files are decided
  // after two or three of them.
  if (hasCodeExecutionCall(text)) return !OTHER_LANGUAGE.test(text) || hasLuaStructure(text, 4);
  return hasLuaStructure(text, 3) && !OTHER_LANGUAGE.test(text);
}

/** Whether at least `needed` kinds of Lua structure show in the text. */
function hasLuaStructure(text: string, needed: number): boolean {
  let kinds = 0;
  for (let i = 0; i < LUA_STRUCTURE.length; i++) {
    if (LUA_STRUCTURE[i]!(text) && ++kinds >= needed) return true;
    if (kinds + LUA_STRUCTURE.length - 1 - i < needed) return false;
  }
  return false;
}

export function startsWith(head: Uint8Array, ascii: string): boolean {
  if (head.length < ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (head[i] !== ascii.charCodeAt(i)) return false;
  return true;
}

export function isZipMagic(head: Uint8Array): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))
  );
}
