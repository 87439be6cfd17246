// The GLua recursive-descent parser: Lua 5.1 + LuaJIT + Garry's Mod syntax into the AST of
// ast.ts. It never throws: syntax errors are recorded and parsing resumes at the next
// plausible statement, and a nesting limit keeps hostile input from exhausting the stack.
import type {
  AssignmentStatement,
  BinaryExpression,
  CallExpression,
  CallStatement,
  Chunk,
  Expression,
  FunctionDeclaration,
  FunctionFacts,
  FunctionWatch,
  Identifier,
  IfClauseNode,
  IndexExpression,
  LexicalFacts,
  LocalStatement,
  MemberExpression,
  ParseResult,
  Statement,
  StringLiteral,
  TableConstructorExpression,
  TableField,
  VarargLiteral,
} from './ast.js';
import {
  baseBefore,
  namedArgumentAt,
  WATCH_BASE,
  WATCH_FIELD,
  WATCH_GLOBAL,
  WATCH_LIBRARY,
  WATCH_NAMED_ARG,
  WATCH_SINK,
} from './ast.js';
import { Diagnostics, Lexer, numeralValue, type Token } from './lexer.js';
import type { Skim } from './skim.js';
import {
  decodeSource,
  type EncodingFacts,
  hasUtf8Bom,
  scanEncoding,
  scanEncodingOfBytes,
} from './source.js';

export interface ParseOptions {
  /** Deepest nesting of blocks and expressions before the parser skips the rest (default 200). */
  maxDepth?: number;
  /** Most errors kept in the result (default 500); later ones are only counted. */
  maxErrors?: number;
  /**
   * Most tokens turned into syntax tree (default 1 000 000, 25x the largest file of the
   * public addon corpus). A tree costs ~150 bytes per token, so this bounds memory on huge
   * payloads; beyond it the result is marked `truncated` and the rest is only lexed.
   */
  maxTokens?: number;
  /** Collect per-function facts (`ParseResult.functions`) watching these names and strings. */
  watch?: FunctionWatch;
  /**
   * The file's skim (same source): bodies of functions it found unwatched are skipped and
   * left lazy (`FunctionDeclaration.lazy`); the lexical facts come from it too.
   */
  skim?: Skim;
  /**
   * The same source already decoded by `decodeSource` (one char per byte) with its encoding
   * facts, when the caller has them: the bytes are then neither copied nor scanned again.
   */
  decoded?: { text: string; encoding: EncodingFacts };
  /** Keep the comments in `ParseResult.comments` (default true; their counts are always kept). */
  comments?: boolean;
  /**
   * Let the lexer reuse its token objects (default true; see Lexer.recycleTokens). Off, every
   * token is a fresh object: the tests compare both trees.
   */
  recycleTokens?: boolean;
}

export const DEFAULT_MAX_TOKENS = 1_000_000;

export const DEFAULT_MAX_DEPTH = 200;
/** Beyond this the JS stack itself could overflow, whatever the caller asks for. */
const HARD_MAX_DEPTH = 1000;

/** FunctionFacts.calls while the function is being parsed; never seen outside. */
const PENDING_CALLS: string[] = [];

/** Thrown inside the parser to unwind a statement that cannot be parsed; never escapes. */
class StatementAbort {
  constructor(readonly message: string) {}
}

/** Thrown when the token budget is spent; unwinds the whole parse, caught in parseChunk. */
class BudgetExceeded {}

/** Where a node starts: the token it starts at, or a node it starts with. */
type Start = Pick<Token, 'line' | 'offset'>;

// Binary operator priorities of Lua 5.1 (left, right); unary operators bind at 8.
const UNARY_PRIORITY = 8;

function leftPriority(t: Token): number {
  if (t.kind === 'Punct') {
    switch (t.value) {
      case '+':
      case '-':
        return 6;
      case '*':
      case '/':
      case '%':
        return 7;
      case '^':
        return 10;
      case '..':
        return 5;
      case '==':
      case '~=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return 3;
      default:
        return 0;
    }
  }
  if (t.kind === 'Keyword') {
    if (t.value === 'and') return 2;
    if (t.value === 'or') return 1;
  }
  return 0;
}

function rightPriority(left: number): number {
  return left; // left-associative except '..' and '^', which the parser folds itself
}

function isBlockEnd(t: Token): boolean {
  if (t.kind === 'EOF') return true;
  if (t.kind !== 'Keyword') return false;
  const v = t.value;
  return v === 'end' || v === 'else' || v === 'elseif' || v === 'until';
}

/** Keywords that plausibly begin a statement: recovery resumes there. */
function isStatementKeyword(t: Token): boolean {
  if (t.kind === 'Punct') return t.value === '::' || t.value === ';';
  if (t.kind !== 'Keyword') return false;
  switch (t.value) {
    case 'local':
    case 'function':
    case 'if':
    case 'while':
    case 'for':
    case 'repeat':
    case 'return':
    case 'break':
    case 'do':
    case 'continue':
      return true;
    default:
      return false;
  }
}

/** Last name of a callee or assignment target (`c` for `a.b:c`, `a["c"]`); undefined if computed. */
function calleeName(e: Expression): string | undefined {
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberExpression') return e.identifier.name;
  if (e.type === 'IndexExpression' && e.index.type === 'StringLiteral') return e.index.value;
  return undefined;
}

/**
 * The path a function is defined or called under, as written: `foo`, `a.b.c`, `a.b:c`
 * (`a["b"]` counts as `a.b`); undefined when computed or longer than 120 characters.
 */
export function pathName(e: Expression): string | undefined {
  let path: string;
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberExpression') {
    const base = pathName(e.base);
    if (base === undefined) return undefined;
    path = base + e.indexer + e.identifier.name;
  } else if (e.type === 'IndexExpression' && e.index.type === 'StringLiteral') {
    const base = pathName(e.base);
    if (base === undefined) return undefined;
    path = base + '.' + e.index.value;
  } else return undefined;
  return path.length <= 120 ? path : undefined;
}

function describe(t: Token): string {
  if (t.kind === 'EOF') return '<eof>';
  if (t.kind === 'String') return 'string';
  const v = t.value.length > 30 ? t.value.slice(0, 30) + '…' : t.value;
  return `'${v}'`;
}

/**
 * A name's slot in `nameSlots`: its length, first and last byte. Most names share none with
 * a watched name, and are then settled without a lookup in the watch's map (which hashes
 * every freshly sliced name: ~5 % of a full parse).
 */
function nameSlot(name: string): number {
  const n = name.length;
  return ((n & 63) << 10) | ((name.charCodeAt(0) & 31) << 5) | (name.charCodeAt(n - 1) & 31);
}

const nameSlotsOf = new WeakMap<FunctionWatch, Int32Array>();

/**
 * The slots (see nameSlot) of a watch list's names, one bit each, set where a watched name
 * may be. (Bits: the 8 KiB table stays in the first-level cache, where one byte per slot
 * took 64 KiB.)
 */
function nameSlots(watch: FunctionWatch): Int32Array {
  let slots = nameSlotsOf.get(watch);
  if (slots === undefined) {
    slots = new Int32Array(2 << 10);
    // (The empty name, `a[""]`, has slot 0: NaN & 31 is 0.)
    for (const name of watch.names.keys()) {
      const slot = nameSlot(name);
      slots[slot >> 5] = slots[slot >> 5]! | (1 << (slot & 31));
    }
    nameSlotsOf.set(watch, slots);
  }
  return slots;
}

/**
 * `setmetatable(t, { __index = function(_, k) … end })` or `{ __index = _G }`: a table whose
 * missing keys are looked up elsewhere, possibly under a computed name (`_G[k:reverse()]`).
 * Which function `D.gnirtSnuR` reaches is known only when the emulator runs.
 */
function isLookupProxy(call: CallExpression): boolean {
  if (call.base.type !== 'Identifier' || call.base.name !== 'setmetatable') return false;
  const mt = call.arguments[1];
  if (mt?.type !== 'TableConstructorExpression') return false;
  for (const field of mt.fields) {
    if (field.type !== 'TableKeyString' || field.key.name !== '__index') continue;
    const v = field.value;
    return v.type === 'FunctionDeclaration' || (v.type === 'Identifier' && v.name === '_G');
  }
  return false;
}

export class Parser {
  private tok: Token;
  private ahead: Token | null = null;
  /** The last consumed token: node ends are taken from it. */
  private prev: Token;
  private depth = 0;
  private consumed = 0;
  private readonly src: string;
  /** Set when the token budget ran out and the tree covers only the start of the file. */
  truncated = false;
  /** Per-function facts, collected only when a watch list is given. */
  readonly functions: FunctionFacts[] = [];
  /** The innermost function being parsed (null in the main chunk or without a watch list). */
  private fnTop: FunctionFacts | null = null;
  private fnTopIndex = -1;
  watch: FunctionWatch | null = null;
  /** `nameSlots` of the watch list, taken when the first name is judged. */
  private watchedSlots: Int32Array | null = null;
  skim: Skim | null = null;
  /** Variables and fields assigned a sink (with a watch list): callers of them are relevant. */
  readonly aliases: string[] = [];
  /** The same for local variables, which only the file itself can call. */
  readonly localAliases: string[] = [];
  /**
   * Locals holding a function taken from a table under a computed key (`local h =
   * handlers[e.kind]`), with the table's call path (`handlers[]`): calling one (`h(e)`) is a
   * call of that table's functions, as `handlers[e.kind](e)` would be. By name, for the file.
   */
  private indexAliases: Map<string, string> | null = null;
  /**
   * Tables built with named functions in them (`handlers = { run = exec }`), as pairs of the
   * table's path and a function's (see noteTableOfFunctions), with a watch list.
   */
  readonly tables: string[] = [];
  /** The same for tables in local variables. */
  readonly localTables: string[] = [];
  /**
   * Names declared `local` so far in the blocks open outside every function (the chunk, an
   * `if SERVER then` around definitions…), innermost last; null until a block declares one.
   * Only kept with a watch list.
   */
  private readonly topScopes: Array<Set<string> | null> = [];
  /**
   * The lists being built (statements of the blocks, fields of the tables, clauses and
   * parameters open now), as one stack: each list is taken off at its end as an array of its
   * exact size. Pushed onto a fresh array, a list of one (most blocks, `if`s and parameter
   * lists) kept a store of 17 slots for the whole life of the tree. Items above `listTop`
   * are stale.
   */
  private readonly lists: object[] = [];
  private listTop = 0;
  /**
   * The call paths of the functions open now, innermost on top, on the same principle: a
   * nested function's calls are taken off when it ends, so each function's stay contiguous.
   */
  private readonly callPaths: string[] = [];
  /**
   * Names of the file's local functions (`local function f`) declared so far, shared with the
   * parsers of its lazy bodies (LazyBody.localFunctions).
   */
  localFunctions: Set<string> | null = null;
  private callTop = 0;

  constructor(
    private readonly lexer: Lexer,
    private readonly diagnostics: Diagnostics,
    private readonly maxDepth: number,
    private readonly maxTokens: number = DEFAULT_MAX_TOKENS,
    recycleTokens = true,
  ) {
    this.src = lexer.src;
    // The parser lets go of a token within a few reads; a construct that needs its first
    // token again after parsing what follows keeps its line and offset as numbers.
    lexer.recycleTokens = recycleTokens;
    this.tok = lexer.next();
    this.prev = this.tok;
  }

  // ---- token helpers -------------------------------------------------------------------

  private next(): void {
    if (++this.consumed > this.maxTokens) throw new BudgetExceeded();
    const before = this.prev;
    this.prev = this.tok;
    if (this.ahead !== null) {
      this.tok = this.ahead;
      this.ahead = null;
    } else {
      this.tok = this.lexer.next();
    }
    // Punctuation and keywords are never watched: most tokens skip the call.
    const fn = this.fnTop;
    if (fn !== null && !fn.sink) {
      const t = this.prev;
      if (t.kind !== 'Punct' && t.kind !== 'Keyword') this.watchToken(t, before, this.tok, fn);
    }
  }

  /** Notes a watched token `t` (between `before` and `after`) in the function being parsed. */
  private watchToken(t: Token, before: Token, after: Token, fn: FunctionFacts): void {
    const w = this.watch!;
    if (t.kind === 'Name') {
      // The name's slot (see nameSlot) from the source bytes it was sliced from: a byte read
      // costs less than charCodeAt on a fresh (or, from 13 bytes, sliced) string.
      const bytes = this.lexer.bytes;
      const slot =
        (((t.end - t.offset) & 63) << 10) |
        ((bytes[t.offset]! & 31) << 5) |
        (bytes[t.end - 1]! & 31);
      if (((this.watchedSlots ??= nameSlots(w))[slot >> 5]! & (1 << (slot & 31))) === 0) return;
      const name = t.value;
      const flags = w.names.get(name);
      if (flags === undefined) return;
      const isField =
        before !== t && before.kind === 'Punct' && (before.value === '.' || before.value === ':');
      if (flags & WATCH_FIELD && !isField) return;
      if (flags & WATCH_GLOBAL && isField) return;
      if (
        flags & WATCH_LIBRARY &&
        !(
          after.kind === 'Punct' &&
          (after.value === '.' || after.value === ':' || after.value === '[')
        )
      )
        return;
      if (
        flags & WATCH_BASE &&
        !(isField && (w.nameBases?.get(name)?.has(baseBefore(bytes, before.offset)) ?? false))
      )
        return;
      if (
        flags & WATCH_NAMED_ARG &&
        !(after.kind === 'Punct' && after.value === '(' && namedArgumentAt(bytes, after.end))
      )
        return;
      fn.watched = true;
      if (flags & WATCH_SINK) fn.sink = true;
    } else if (t.kind === 'String') {
      if (t.escaped) fn.watched = true;
      if (t.value.length >= 5 && w.string !== undefined) {
        const level = w.string(t.value);
        if (level > 0) fn.watched = true;
        if (level > 1) fn.sink = true;
      }
    } else if (t.kind === 'Number' && t.value.length === 17 && t.value.startsWith('7656119'))
      fn.watched = true;
  }

  /**
   * pathName of a node this parser built: sliced from the source when the node's text is the
   * path itself (names joined by `.` or `:`, nothing between them), as almost every callee's
   * is: one string instead of one per name joined. (`FunctionFacts.calls` records the path
   * of every call in a parsed function.) Any other node is joined by pathName.
   */
  private pathOf(e: Expression): string | undefined {
    if (e.type === 'Identifier') return e.name;
    let length = 0;
    let root: Expression = e;
    while (root.type === 'MemberExpression') {
      length += root.identifier.name.length + 1;
      root = root.base;
    }
    if (root.type !== 'Identifier') return pathName(e);
    length += root.name.length;
    // (A space, comment or bracket anywhere in the text makes it longer than the path.)
    if (length !== e.endOffset - e.offset || length > 120) return pathName(e);
    return this.src.slice(e.offset, e.endOffset);
  }

  /** False for most names that are not watched, without a lookup in the watch's map. */
  private mayBeWatched(name: string): boolean {
    const slots = (this.watchedSlots ??= nameSlots(this.watch!));
    const slot = nameSlot(name);
    return (slots[slot >> 5]! & (1 << (slot & 31))) !== 0;
  }

  /**
   * Names an anonymous function assigned to a variable or field (`x.y = function`), and notes
   * sink aliases (`local rs, fetch = RunString, http.Fetch`, `local f = _G[name]`). `targets`
   * are `local` variables or plain targets of an assignment. (A table constructor's keys
   * name its functions only through the variable it is assigned to: noteTableOfFunctions.)
   */
  private nameFunctions(
    targets: readonly Expression[],
    values: readonly Expression[],
    how: 'local' | 'assign',
  ): void {
    if (this.watch === null) return;
    for (let i = 0; i < values.length && i < targets.length; i++) {
      const v = values[i]!;
      // `local env = getfenv and getfenv() or _G`: either side may be what is kept.
      if (v.type === 'LogicalExpression') {
        if (this.eitherSideHoldsSink(v)) this.noteAlias(targets[i]!, how);
        continue;
      }
      if (v.type === 'IndexExpression' && how === 'local' && targets[i]!.type === 'Identifier') {
        const table = this.pathOf(v.base);
        if (table !== undefined)
          (this.indexAliases ??= new Map()).set((targets[i] as Identifier).name, table + '[]');
      }
      if (
        v.type === 'Identifier' ||
        v.type === 'MemberExpression' ||
        v.type === 'IndexExpression' ||
        v.type === 'CallExpression'
      ) {
        // (The target's path is built only for a sink: most values are not.)
        if (this.mayHoldSink(v)) this.noteAlias(targets[i]!, how);
        continue;
      }
      if (v.type === 'TableConstructorExpression') {
        this.noteTableOfFunctions(targets[i]!, v, how);
        continue;
      }
      if (v.type !== 'FunctionDeclaration') continue;
      const facts = this.factsOf(v);
      const target = targets[i]!;
      if (facts && target.type === 'IndexExpression' && facts.name === undefined) {
        // `handlers[3] = function(e) … end`: one of the functions `handlers[k](e)` may call.
        const table = this.pathOf(target.base);
        if (table !== undefined) facts.name = table + '[]';
        continue;
      }
      const name = calleeName(target);
      if (!facts || name === undefined) continue;
      const path = this.pathOf(target);
      if (path !== undefined && facts.name === undefined) {
        facts.name = path;
        if (how === 'local' || this.isLocalPath(target)) facts.local = true;
      }
      if (target.type !== 'Identifier' && this.fnTop !== null && this.watch.definitions?.has(name))
        this.fnTop.watched = true;
    }
  }

  /**
   * A sink kept in one of the game's named lists (`list.Set("Compilers", "expr",
   * CompileString)`): whatever reads a list back (`list.Get(name).expr(code)`) may call it,
   * so reading one is noted as a sink alias.
   */
  private noteKeptInList(callee: Expression, args: readonly Expression[]): void {
    if (
      callee.type !== 'MemberExpression' ||
      callee.base.type !== 'Identifier' ||
      callee.base.name !== 'list' ||
      (callee.identifier.name !== 'Set' && callee.identifier.name !== 'Add')
    )
      return;
    for (let i = 1; i < args.length; i++)
      if (this.mayHoldSink(args[i]!)) {
        if (!this.aliases.includes('list.Get')) this.aliases.push('list.Get', 'list.GetForEdit');
        return;
      }
  }

  /** Whether an operand of nested `and`/`or` (`a and b or c`) may hold a sink. */
  private eitherSideHoldsSink(v: Expression): boolean {
    if (v.type !== 'LogicalExpression') return this.mayHoldSink(v);
    return this.eitherSideHoldsSink(v.left) || this.eitherSideHoldsSink(v.right);
  }

  /** Notes `target` (a variable or field path) as holding a sink. */
  private noteAlias(target: Expression, how: 'local' | 'assign'): void {
    const alias = this.pathOf(target);
    if (alias !== undefined) (how === 'local' ? this.localAliases : this.aliases).push(alias);
  }

  /**
   * A table built with functions in it is called by index (`t[tonumber("1")](code)`,
   * `handlers[net.ReadString()](ply)`): holding a sink, it is an alias itself; holding named
   * functions (`{ run = exec }`), it is noted with each of them, and becomes one of the
   * relevant names when one of them does (Relevance.addTables).
   */
  private noteTableOfFunctions(
    target: Expression,
    table: TableConstructorExpression,
    how: 'local' | 'assign',
  ): void {
    let path: string | undefined;
    for (const field of table.fields) {
      const v = field.value;
      if (this.mayHoldSink(v)) {
        this.noteAlias(target, how);
        return;
      }
      if (v.type === 'FunctionDeclaration') {
        // `local actions = { eval = function(p, s) … end }`: called as `actions.eval(…)`.
        const key =
          field.type === 'TableKeyString'
            ? field.key.name
            : field.type === 'TableKey' && field.key.type === 'StringLiteral'
              ? field.key.value
              : undefined;
        // `local ops = { function(id) … end }`, `{ [1] = function … }`: called as `ops[1](…)`,
        // which the call paths record as `ops[]`.
        const positional =
          field.type === 'TableValue' ||
          (field.type === 'TableKey' && field.key.type === 'NumericLiteral');
        const facts = key === undefined && !positional ? undefined : this.factsOf(v);
        if (facts === undefined || facts.name !== undefined) continue;
        path ??= this.pathOf(target);
        if (path === undefined) return;
        facts.name = key === undefined ? `${path}[]` : `${path}.${key}`;
        if (how === 'local' || this.isLocalPath(target)) facts.local = true;
        continue;
      }
      if (v.type !== 'Identifier' && v.type !== 'MemberExpression') continue;
      const member = this.pathOf(v);
      if (member === undefined) continue;
      path ??= this.pathOf(target);
      if (path === undefined) return;
      (how === 'local' ? this.localTables : this.tables).push(path, member);
    }
  }

  /**
   * Whether a value assigned to a variable or field may be a sink, so that whoever calls that
   * variable is worth emulating: a sink by name (`RunString`, `http.Fetch`), what a sink
   * makes or looks up (`CompileString(code)`, `rawget(_G, name)`), or a global looked up
   * under a computed name (`_G[name]`, `getfenv()[name]`, `G[name]` after `local G = _G`).
   * Which function a computed name reaches is known only when the emulator runs, and the
   * handler that calls the variable names no sink itself.
   */
  private mayHoldSink(v: Expression): boolean {
    let e = v;
    if (e.type === 'IndexExpression' && e.index.type !== 'StringLiteral') {
      e = e.base;
      while (
        e.type === 'MemberExpression' ||
        e.type === 'IndexExpression' ||
        e.type === 'ParenthesizedExpression'
      )
        e = e.type === 'ParenthesizedExpression' ? e.expression : e.base;
      if (e.type === 'Identifier' && this.isAliasName(e.name)) return true;
    }
    if (e.type === 'CallExpression') {
      if (isLookupProxy(e)) return true;
      e = e.base;
    }
    const last = calleeName(e);
    if (last === undefined || !this.mayBeWatched(last)) return false;
    const flags = this.watch!.names.get(last);
    if (flags === undefined || (flags & WATCH_SINK) === 0) return false;
    // (`local getTable = FindMetaTable("Entity").GetTable` is no `concommand.GetTable`.)
    if (flags & WATCH_BASE)
      return (
        e.type === 'MemberExpression' &&
        e.base.type === 'Identifier' &&
        (this.watch!.nameBases?.get(last)?.has(e.base.name) ?? false)
      );
    return true;
  }

  /** Whether `name` was noted as a sink alias earlier in this file (`local G = _G`). */
  private isAliasName(name: string): boolean {
    return this.localAliases.includes(name) || this.aliases.includes(name);
  }

  /**
   * The facts of a function just parsed as a value, found from the end of the list: only the
   * functions nested in it (and earlier values of the same statement) come after them. (A map
   * from every function node cost a hash per function for the few that are assigned.)
   */
  private factsOf(node: FunctionDeclaration): FunctionFacts | undefined {
    const functions = this.functions;
    for (let i = functions.length - 1; i >= 0; i--)
      if (functions[i]!.node === node) return functions[i];
    return undefined;
  }

  /**
   * Whether the path `target` names (`PANEL:Init`, with a path: see pathName) starts with a
   * local declared before it in a block still open outside every function.
   */
  private isLocalPath(target: Expression): boolean {
    // The path's root is looked for only once a block has declared a local: most files'
    // functions are defined where none has. It is the name at the bottom of the target, read
    // from the tree rather than sliced from the path.
    let root: string | undefined;
    for (const scope of this.topScopes) {
      if (scope === null) continue;
      if (root === undefined) {
        if (target.type === 'Identifier') return false;
        let e: Expression = target;
        while (e.type === 'MemberExpression' || e.type === 'IndexExpression') e = e.base;
        if (e.type !== 'Identifier') return false;
        root = e.name;
      }
      if (scope.has(root)) return true;
    }
    return false;
  }

  /**
   * The path a call is recorded under (FunctionFacts.calls): the callee's path; `t[]` for a
   * function taken from the table `t` under a computed key (`handlers[name](…)`), which
   * Relevance links to the functions defined in `t`; `*` for anything else.
   */
  private callPathOf(callee: Expression): string {
    const path = this.pathOf(callee);
    if (path !== undefined) return path;
    // `gmod.GetGamemode():Sync(…)` is `GAMEMODE:Sync(…)`.
    if (
      callee.type === 'MemberExpression' &&
      callee.base.type === 'CallExpression' &&
      this.pathOf(callee.base.base) === 'gmod.GetGamemode'
    )
      return `GAMEMODE${callee.indexer}${callee.identifier.name}`;
    if (callee.type === 'IndexExpression') {
      const table = this.pathOf(callee.base);
      if (table !== undefined) return table + '[]';
    }
    return '*';
  }

  /** Adds an item to the innermost list being built (see `lists`). */
  private add(item: object): void {
    this.lists[this.listTop++] = item;
  }

  /** Notes a call in the function being parsed (`fnTop`). */
  private addCall(path: string): void {
    this.callPaths[this.callTop++] = path;
  }

  /** Notes the call of `callee` (and, through a local taken from a table, the table's). */
  private noteCall(callee: Expression): void {
    this.addCall(this.callPathOf(callee));
    if (this.indexAliases !== null && callee.type === 'Identifier') {
      const table = this.indexAliases.get(callee.name);
      if (table !== undefined) this.addCall(table);
    }
  }

  private callsFrom(base: number): string[] {
    const calls = this.callPaths.slice(base, this.callTop);
    this.callTop = base;
    return calls;
  }

  /** The items added since the list stack stood at `base`, taken off it as an array. */
  private listFrom<T>(base: number): T[] {
    const lists = this.lists;
    const top = this.listTop;
    this.listTop = base;
    // Short lists (most of them) as literals: the same exact arrays, without a call to slice.
    switch (top - base) {
      case 0:
        return [];
      case 1:
        return [lists[base]] as T[];
      case 2:
        return [lists[base], lists[base + 1]] as T[];
      case 3:
        return [lists[base], lists[base + 1], lists[base + 2]] as T[];
      default:
        return lists.slice(base, top) as T[];
    }
  }

  /**
   * `first` and the names after it, each after a comma (`local a, b`, `for k, v in`): built on
   * the list stack at their exact size when there are several.
   */
  private namesFrom(first: Identifier, where: string): Identifier[] {
    if (!this.acceptPunct(',')) return [first];
    const base = this.listTop;
    this.add(first);
    do this.add(this.expectName(where));
    while (this.acceptPunct(','));
    return this.listFrom(base);
  }

  private peek(): Token {
    if (this.ahead === null) this.ahead = this.lexer.next();
    return this.ahead;
  }

  private isPunct(v: string): boolean {
    return this.tok.kind === 'Punct' && this.tok.value === v;
  }

  private isKeyword(v: string): boolean {
    return this.tok.kind === 'Keyword' && this.tok.value === v;
  }

  private acceptPunct(v: string): boolean {
    if (this.isPunct(v)) {
      this.next();
      return true;
    }
    return false;
  }

  private errorAt(t: Token, message: string): void {
    this.diagnostics.report(message, t.line, t.column, t.offset);
  }

  /** A missing token is reported and treated as if it were there, to keep the tree. */
  private expectPunct(v: string, context?: string): void {
    if (this.acceptPunct(v)) return;
    this.errorAt(
      this.tok,
      `'${v}' expected${context ? ` ${context}` : ''} near ${describe(this.tok)}`,
    );
  }

  /** `opener` and `openerLine`: the keyword the missing one closes, and its line. */
  private expectKeyword(v: string, opener?: string, openerLine = 0): void {
    if (this.isKeyword(v)) {
      this.next();
      return;
    }
    const where =
      opener !== undefined && openerLine !== this.tok.line
        ? ` (to close '${opener}' at line ${openerLine})`
        : '';
    this.errorAt(this.tok, `'${v}' expected${where} near ${describe(this.tok)}`);
  }

  private abort(message: string): never {
    this.errorAt(this.tok, message);
    throw new StatementAbort(message);
  }

  // Node positions are three numbers on the node (see NodeBase): a node starts at a token
  // or at another node (`Start`) and ends at the last consumed token. When nothing was
  // consumed since its start (an error placeholder), the node is empty and sits right after
  // the last consumed token, inside its parent.

  private lineFrom(start: Start): number {
    return this.lineAt(start.line, start.offset);
  }

  private offsetFrom(start: Start): number {
    return this.offsetAt(start.offset);
  }

  /** lineFrom for a start kept as two numbers (no object to hold). */
  private lineAt(line: number, offset: number): number {
    const p = this.prev;
    return p.end < offset ? p.endLine : line;
  }

  private offsetAt(offset: number): number {
    const p = this.prev;
    return p.end < offset ? p.end : offset;
  }

  private identifierFrom(t: Token): Identifier {
    return { type: 'Identifier', name: t.value, line: t.line, offset: t.offset, endOffset: t.end };
  }

  private expectName(context: string): Identifier {
    const t = this.tok;
    if (t.kind === 'Name') {
      this.next();
      return this.identifierFrom(t);
    }
    this.abort(`name expected ${context} near ${describe(t)}`);
  }

  // ---- depth limit ---------------------------------------------------------------------

  private tooDeep(): void {
    this.errorAt(
      this.tok,
      `nesting deeper than ${this.maxDepth} levels; the nested part is skipped`,
    );
  }

  /**
   * Skips tokens without recursion, keeping brackets and block keywords balanced, until a
   * token that closes the enclosing construct (or, for an expression, ends it).
   */
  private skipNested(forExpression: boolean): void {
    let open = 0;
    for (;;) {
      const t = this.tok;
      if (t.kind === 'EOF') return;
      if (t.kind === 'Punct') {
        const v = t.value;
        if (v === '(' || v === '[' || v === '{') open++;
        else if (v === ')' || v === ']' || v === '}') {
          if (open === 0) return;
          open--;
        } else if (
          open === 0 &&
          forExpression &&
          (v === ',' || v === ';' || v === '=' || v === '::')
        )
          return;
      } else if (t.kind === 'Keyword') {
        const v = t.value;
        if (v === 'end' || v === 'until') {
          if (open === 0) return;
          open--;
        } else if (v === 'else' || v === 'elseif') {
          if (open === 0) return;
        } else if (
          open === 0 &&
          forExpression &&
          (v === 'then' || v === 'do' || v === 'in' || (isStatementKeyword(t) && v !== 'function'))
        ) {
          return;
        } else if (v === 'function' || v === 'do' || v === 'if' || v === 'repeat') open++;
      }
      this.next();
    }
  }

  // ---- blocks and statements -----------------------------------------------------------

  parseChunk(): Chunk {
    const startLine = this.tok.line;
    const startOffset = this.tok.offset;
    const base = this.listTop;
    try {
      for (;;) {
        this.parseBlockInto();
        if (this.tok.kind === 'EOF') break;
        // A stray 'end'/'until'/'else' at top level: report it, skip it, carry on.
        const t = this.tok;
        this.errorAt(t, `unexpected ${describe(t)}`);
        this.next();
        this.add({
          type: 'ErrorStatement',
          message: `unexpected ${describe(t)}`,
          line: this.lineFrom(t),
          offset: this.offsetFrom(t),
          endOffset: this.prev.end,
        });
      }
    } catch (e) {
      // Keep the complete top-level statements; the statement in progress is dropped. A
      // stack overflow should be impossible under the depth limit, but is contained the same way.
      if (e instanceof BudgetExceeded) {
        this.errorAt(this.tok, `file too large: parsing stopped after ${this.maxTokens} tokens`);
      } else if (e instanceof RangeError) {
        this.errorAt(this.tok, `parser stopped: ${e.message}`);
      } else {
        throw e;
      }
      this.truncated = true;
      this.depth = 0;
    }
    return {
      type: 'Chunk',
      body: this.listFrom<Statement>(base),
      line: startLine,
      offset: startOffset,
      endOffset: this.tok.offset,
    };
  }

  private parseBlock(): Statement[] {
    const base = this.listTop;
    this.parseBlockInto();
    return this.listFrom<Statement>(base);
  }

  /** Parses statements onto the list stack (see `add`). */
  private parseBlockInto(): void {
    const scoped = this.watch !== null && this.fnTop === null;
    if (scoped) this.topScopes.push(null);
    try {
      this.parseStatementsInto();
    } finally {
      if (scoped) this.topScopes.pop();
    }
  }

  /** Notes a local declared outside every function, for isLocalPath. */
  private declareTopLocal(name: string): void {
    if (this.watch === null || this.fnTop !== null || this.topScopes.length === 0) return;
    const last = this.topScopes.length - 1;
    (this.topScopes[last] ??= new Set<string>()).add(name);
  }

  private parseStatementsInto(): void {
    if (++this.depth > this.maxDepth) {
      const line = this.tok.line;
      const offset = this.tok.offset;
      this.tooDeep();
      this.skipNested(false);
      this.add({
        type: 'ErrorStatement',
        message: 'nesting too deep',
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      });
      this.depth--;
      return;
    }
    for (;;) {
      const t = this.tok;
      if (isBlockEnd(t)) break;
      if (t.kind === 'Punct' && t.value === ';') {
        this.next();
        continue;
      }
      // Where the statement starts, as numbers: `t` itself is reused once tokens are read.
      const at = this.consumed;
      const line = t.line;
      const offset = t.offset;
      // What the statement's unfinished inner lists left on the stack goes with it.
      const top = this.listTop;
      try {
        this.add(this.parseStatement());
      } catch (e) {
        this.listTop = top;
        if (!(e instanceof StatementAbort)) throw e;
        this.add(this.recover({ line, offset }, at, e.message));
      }
      // (Nothing consumed: `t` is still the current token.)
      if (this.consumed === at) {
        // Nothing was consumed: drop the token so the loop always progresses.
        this.errorAt(t, `unexpected ${describe(t)}`);
        this.next();
        this.add({
          type: 'ErrorStatement',
          message: `unexpected ${describe(t)}`,
          line: this.lineFrom(t),
          offset: this.offsetFrom(t),
          endOffset: this.prev.end,
        });
      }
    }
    this.depth--;
  }

  /**
   * Skips to a plausible statement start and returns the placeholder for what was skipped
   * (the statement started at `from`, when `at` tokens had been consumed).
   */
  private recover(from: Start, at: number, message: string): Statement {
    let first = true;
    for (;;) {
      const t = this.tok;
      if (t.kind === 'EOF' || isBlockEnd(t)) break;
      if (!first || this.consumed !== at) {
        if (isStatementKeyword(t)) break;
        if (t.kind === 'Name' && t.line > this.prev.line) break;
      }
      first = false;
      this.next();
    }
    return {
      type: 'ErrorStatement',
      message,
      line: this.lineFrom(from),
      offset: this.offsetFrom(from),
      endOffset: this.prev.end,
    };
  }

  private parseStatement(): Statement {
    const t = this.tok;
    if (t.kind === 'Keyword') {
      switch (t.value) {
        case 'local':
          return this.parseLocal();
        case 'function':
          return this.parseFunctionStatement();
        case 'if':
          return this.parseIf();
        case 'while':
          return this.parseWhile();
        case 'for':
          return this.parseFor();
        case 'repeat':
          return this.parseRepeat();
        case 'do': {
          const line = t.line;
          const offset = t.offset;
          this.next();
          const body = this.parseBlock();
          this.expectKeyword('end', 'do', line);
          return {
            type: 'DoStatement',
            body,
            line: this.lineAt(line, offset),
            offset: this.offsetAt(offset),
            endOffset: this.prev.end,
          };
        }
        case 'return':
          return this.parseReturn();
        case 'break':
          this.next();
          return {
            type: 'BreakStatement',
            line: this.lineFrom(t),
            offset: this.offsetFrom(t),
            endOffset: this.prev.end,
          };
        case 'continue':
          this.next();
          return {
            type: 'ContinueStatement',
            line: this.lineFrom(t),
            offset: this.offsetFrom(t),
            endOffset: this.prev.end,
          };
        default:
          break;
      }
    } else if (t.kind === 'Name' && t.value === 'goto' && this.peek().kind === 'Name') {
      this.next();
      const label = this.expectName("after 'goto'");
      return {
        type: 'GotoStatement',
        label,
        line: this.lineFrom(t),
        offset: this.offsetFrom(t),
        endOffset: this.prev.end,
      };
    } else if (t.kind === 'Punct' && t.value === '::') {
      this.next();
      const label = this.expectName('in label');
      this.expectPunct('::', 'to close the label');
      return {
        type: 'LabelStatement',
        label,
        line: this.lineFrom(t),
        offset: this.offsetFrom(t),
        endOffset: this.prev.end,
      };
    }
    return this.parseExpressionStatement();
  }

  private parseExpressionStatement(): Statement {
    // The most common statement: its start kept as numbers, not as a copied token.
    const line = this.tok.line;
    const offset = this.tok.offset;
    const at = this.consumed;
    const target = this.parseSuffixedExpression();
    if (this.isPunct('=') || this.isPunct(',')) {
      const first = this.assignable(target);
      let variables: AssignmentStatement['variables'] = [first];
      if (this.acceptPunct(',')) {
        // (Several targets: built on the list stack, at their exact size.)
        const base = this.listTop;
        this.add(first);
        do this.add(this.assignable(this.parseSuffixedExpression()));
        while (this.acceptPunct(','));
        variables = this.listFrom(base);
      }
      this.expectPunct('=', 'in assignment');
      const init = this.parseExpressionList();
      this.nameFunctions(variables, init, 'assign');
      return {
        type: 'AssignmentStatement',
        variables,
        init,
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      };
    }
    if (
      target.type === 'CallExpression' ||
      target.type === 'TableCallExpression' ||
      target.type === 'StringCallExpression'
    ) {
      const node: CallStatement = {
        type: 'CallStatement',
        expression: target,
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      };
      return node;
    }
    // (Nothing consumed: the current token is still the statement's.)
    if (this.consumed === at) this.abort(`unexpected ${describe(this.tok)}`);
    this.abort(`syntax error near ${describe(this.tok)}`);
  }

  private assignable(e: Expression): Identifier | MemberExpression | IndexExpression {
    if (
      e.type === 'Identifier' ||
      e.type === 'IndexExpression' ||
      (e.type === 'MemberExpression' && e.indexer === '.')
    )
      return e;
    this.abort(`cannot assign to this expression near ${describe(this.tok)}`);
  }

  private parseLocal(): Statement {
    const line = this.tok.line;
    const offset = this.tok.offset;
    this.next();
    if (this.isKeyword('function')) {
      const fnLine = this.tok.line;
      const fnOffset = this.tok.offset;
      this.next();
      const name = this.expectName("after 'local function'");
      this.declareTopLocal(name.name);
      (this.localFunctions ??= new Set<string>()).add(name.name);
      return this.parseFunctionBody(line, offset, name, true, fnLine, fnOffset);
    }
    const variables = this.namesFrom(this.expectName("after 'local'"), "after ','");
    let init: Expression[] = [];
    if (this.acceptPunct('=')) init = this.parseExpressionList();
    this.nameFunctions(variables, init, 'local');
    // (In scope from the next statement on, as in Lua: `local x = x` reads the global.)
    for (const v of variables) this.declareTopLocal(v.name);
    const node: LocalStatement = {
      type: 'LocalStatement',
      variables,
      init,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
    return node;
  }

  private parseFunctionStatement(): Statement {
    const fnLine = this.tok.line;
    const fnOffset = this.tok.offset;
    this.next();
    let name: Identifier | MemberExpression = this.expectName("after 'function'");
    const nameStart: Start = name;
    while (this.isPunct('.') || this.isPunct(':')) {
      const indexer = this.tok.value as '.' | ':';
      this.next();
      const identifier = this.expectName(`after '${indexer}'`);
      name = {
        type: 'MemberExpression',
        indexer,
        identifier,
        base: name,
        line: this.lineFrom(nameStart),
        offset: this.offsetFrom(nameStart),
        endOffset: this.prev.end,
      };
      if (indexer === ':') break;
    }
    return this.parseFunctionBody(fnLine, fnOffset, name, false, fnLine, fnOffset);
  }

  /**
   * Parameters and body, from '(' to 'end'. The node starts at `line`, `offset` (`local` or
   * `function`); `fnLine`, `fnOffset` are where its `function` keyword is. (Numbers, not the
   * tokens: the lexer reuses its token objects.)
   */
  private parseFunctionBody(
    line: number,
    offset: number,
    identifier: Identifier | MemberExpression | null,
    isLocal: boolean,
    fnLine: number,
    fnOffset: number,
  ): FunctionDeclaration {
    if (this.watch === null)
      return this.parseFunctionRest(line, offset, identifier, isLocal, fnLine, fnOffset);
    const outer = this.fnTop;
    const name = identifier ? calleeName(identifier) : undefined;
    // `function meta:IsAdmin()` inside a function: the definition itself is what matters.
    if (
      outer !== null &&
      identifier?.type === 'MemberExpression' &&
      name !== undefined &&
      this.watch.definitions?.has(name)
    )
      outer.watched = true;
    const outerIndex = this.fnTopIndex;
    // In FunctionFacts' order, `name` and `local` written empty: a field added later gave the
    // record a shape V8 dropped between scans (see CallSlot in ast.ts).
    const facts: FunctionFacts = {
      node: null as unknown as FunctionDeclaration,
      parent: outerIndex,
      name: undefined,
      local: undefined,
      watched: false,
      sink: false,
      // (Replaced by the calls' list when the function ends, see `callPaths`.)
      calls: PENDING_CALLS,
    };
    const path = identifier ? this.pathOf(identifier) : undefined;
    if (identifier !== null && path !== undefined) {
      facts.name = path;
      if (isLocal || this.isLocalPath(identifier)) facts.local = true;
    }
    this.fnTopIndex = this.functions.length;
    this.functions.push(facts);
    this.fnTop = facts;
    const callBase = this.callTop;
    try {
      const node = this.parseFunctionRest(line, offset, identifier, isLocal, fnLine, fnOffset);
      facts.node = node;
      return node;
    } finally {
      facts.calls = this.callsFrom(callBase);
      this.fnTop = outer;
      this.fnTopIndex = outerIndex;
      if (outer !== null) {
        if (facts.watched) outer.watched = true;
        if (facts.sink) outer.sink = true;
      }
    }
  }

  private parseFunctionRest(
    line: number,
    offset: number,
    identifier: Identifier | MemberExpression | null,
    isLocal: boolean,
    fnLine: number,
    fnOffset: number,
  ): FunctionDeclaration {
    const base = this.listTop;
    this.expectPunct('(', 'to open the parameter list');
    if (!this.isPunct(')')) {
      for (;;) {
        const t = this.tok;
        if (t.kind === 'Name') {
          this.next();
          this.add(this.identifierFrom(t));
        } else if (t.kind === 'Punct' && t.value === '...') {
          this.next();
          this.add({
            type: 'VarargLiteral',
            raw: '...',
            line: this.lineFrom(t),
            offset: this.offsetFrom(t),
            endOffset: this.prev.end,
          });
          break;
        } else {
          this.abort(`parameter expected near ${describe(t)}`);
        }
        if (!this.acceptPunct(',')) break;
      }
    }
    this.expectPunct(')', 'to close the parameter list');
    const parameters = this.listFrom<Identifier | VarargLiteral>(base);
    const skim = this.skim;
    const skimmed = skim?.functions.get(fnOffset);
    let body: Statement[] = [];
    let lazy: FunctionDeclaration['lazy'];
    if (
      skim &&
      skimmed &&
      !skimmed.watched &&
      this.prev.kind === 'Punct' &&
      this.prev.value === ')'
    ) {
      // Nothing watched inside: jump to its `end` and keep where the body starts.
      const close = this.prev;
      lazy = {
        src: this.src,
        bytes: this.lexer.bytes,
        offset: close.end,
        line: close.endLine,
        lineStart: close.offset - close.column + 1,
        skim,
        localFunctions: (this.localFunctions ??= new Set<string>()),
      };
      this.lexer.pos = skimmed.end - 3;
      this.lexer.line = skimmed.endLine;
      this.lexer.lineStart = skimmed.endLineStart;
      this.ahead = null;
      this.tok = this.lexer.next();
    } else body = this.parseBlock();
    this.expectKeyword('end', 'function', fnLine);
    const node: FunctionDeclaration = {
      type: 'FunctionDeclaration',
      identifier,
      isLocal,
      parameters,
      body,
      // Always present (undefined once parsed), so that every function node has one shape.
      lazy,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
    return node;
  }

  /**
   * Parses a lazy function body (the lexer placed just after its `)`), up to its `end`.
   * With a watch list, `own` receives the facts of the body itself and `functions` those of
   * the functions nested in it (parents -1 mean `own`).
   */
  parseLazyBody(own: FunctionFacts): Statement[] {
    if (this.watch === null) return this.parseLazyBlock();
    this.fnTop = own;
    this.fnTopIndex = -1;
    try {
      return this.parseLazyBlock();
    } finally {
      own.calls = this.callsFrom(0);
    }
  }

  private parseLazyBlock(): Statement[] {
    const body = this.parseBlock();
    if (!this.isKeyword('end')) this.errorAt(this.tok, `'end' expected near ${describe(this.tok)}`);
    return body;
  }

  private parseIf(): Statement {
    const line = this.tok.line;
    const offset = this.tok.offset;
    const base = this.listTop;
    let clauseLine = line;
    let clauseOffset = offset;
    let kind: IfClauseNode['type'] = 'IfClause';
    this.next();
    for (;;) {
      const condition = this.parseExpression();
      this.expectKeyword('then', 'if', line);
      const body = this.parseBlock();
      this.add({
        type: kind,
        condition,
        body,
        line: this.lineAt(clauseLine, clauseOffset),
        offset: this.offsetAt(clauseOffset),
        endOffset: this.prev.end,
      });
      if (!this.isKeyword('elseif')) break;
      clauseLine = this.tok.line;
      clauseOffset = this.tok.offset;
      kind = 'ElseifClause';
      this.next();
    }
    if (this.isKeyword('else')) {
      const elseLine = this.tok.line;
      const elseOffset = this.tok.offset;
      this.next();
      const body = this.parseBlock();
      this.add({
        type: 'ElseClause',
        condition: null,
        body,
        line: this.lineAt(elseLine, elseOffset),
        offset: this.offsetAt(elseOffset),
        endOffset: this.prev.end,
      });
    }
    const clauses = this.listFrom<IfClauseNode>(base);
    this.expectKeyword('end', 'if', line);
    return {
      type: 'IfStatement',
      clauses,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
  }

  private parseWhile(): Statement {
    const line = this.tok.line;
    const offset = this.tok.offset;
    this.next();
    const condition = this.parseExpression();
    this.expectKeyword('do', 'while', line);
    const body = this.parseBlock();
    this.expectKeyword('end', 'while', line);
    return {
      type: 'WhileStatement',
      condition,
      body,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
  }

  private parseRepeat(): Statement {
    const line = this.tok.line;
    const offset = this.tok.offset;
    this.next();
    const body = this.parseBlock();
    this.expectKeyword('until', 'repeat', line);
    const condition = this.parseExpression();
    return {
      type: 'RepeatStatement',
      condition,
      body,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
  }

  private parseFor(): Statement {
    const line = this.tok.line;
    const offset = this.tok.offset;
    this.next();
    const first = this.expectName("after 'for'");
    if (this.acceptPunct('=')) {
      const from = this.parseExpression();
      this.expectPunct(',', "in numeric 'for'");
      const to = this.parseExpression();
      const step = this.acceptPunct(',') ? this.parseExpression() : null;
      this.expectKeyword('do', 'for', line);
      const body = this.parseBlock();
      this.expectKeyword('end', 'for', line);
      return {
        type: 'ForNumericStatement',
        variable: first,
        start: from,
        end: to,
        step,
        body,
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      };
    }
    const variables = this.namesFrom(first, "in 'for'");
    this.expectKeyword('in', 'for', line);
    const iterators = this.parseExpressionList();
    this.expectKeyword('do', 'for', line);
    const body = this.parseBlock();
    this.expectKeyword('end', 'for', line);
    return {
      type: 'ForGenericStatement',
      variables,
      iterators,
      body,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
  }

  private parseReturn(): Statement {
    const line = this.tok.line;
    const offset = this.tok.offset;
    this.next();
    let args: Expression[] = [];
    if (!isBlockEnd(this.tok) && !this.isPunct(';')) args = this.parseExpressionList();
    this.acceptPunct(';');
    return {
      type: 'ReturnStatement',
      arguments: args,
      line: this.lineAt(line, offset),
      offset: this.offsetAt(offset),
      endOffset: this.prev.end,
    };
  }

  // ---- expressions ---------------------------------------------------------------------

  private parseExpressionList(): Expression[] {
    // Lists of one or two (most argument lists) are built at their size: pushing onto a
    // one-element list grows its store to 17 slots, for the whole life of the tree.
    const first = this.parseExpression();
    if (!this.acceptPunct(',')) return [first];
    const second = this.parseExpression();
    if (!this.isPunct(',')) return [first, second];
    // Longer ones go through the list stack (see `lists`).
    const base = this.listTop;
    this.add(first);
    this.add(second);
    while (this.acceptPunct(',')) this.add(this.parseExpression());
    return this.listFrom(base);
  }

  parseExpression(): Expression {
    return this.parseSubExpression(0);
  }

  /** Operators binding tighter than `limit`, Lua's precedence climbing. */
  private parseSubExpression(limit: number): Expression {
    // Where the expression starts, as numbers: the token object is reused as tokens are read.
    const t = this.tok;
    const line = t.line;
    const offset = t.offset;
    if (++this.depth > this.maxDepth) {
      this.tooDeep();
      this.skipNested(true);
      this.depth--;
      return {
        type: 'ErrorExpression',
        message: 'nesting too deep',
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      };
    }
    let left: Expression;
    if (
      (t.kind === 'Keyword' && t.value === 'not') ||
      (t.kind === 'Punct' && (t.value === '-' || t.value === '#'))
    ) {
      const operator = t.value as 'not' | '-' | '#';
      const glua = t.glua;
      this.next();
      const argument = this.parseSubExpression(UNARY_PRIORITY);
      left = {
        type: 'UnaryExpression',
        operator,
        argument,
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      };
      if (glua) left.glua = true;
    } else {
      left = this.parseSimpleExpression();
    }
    for (;;) {
      const op = this.tok;
      const priority = leftPriority(op);
      if (priority <= limit) break;
      const operator = op.value;
      if (operator === '..' || operator === '^') {
        // Right-associative chains are collected in a loop and folded from the right, so a
        // long "a" .. "b" .. … chain costs no recursion.
        // (The operands wait on the list stack: no array per chain.)
        const base = this.listTop;
        this.add(left);
        while (this.tok.kind === 'Punct' && this.tok.value === operator) {
          this.next();
          this.add(this.parseSubExpression(priority));
        }
        const operands = this.lists as Expression[];
        const top = this.listTop;
        this.listTop = base;
        let right = operands[top - 1]!;
        for (let i = top - 2; i >= base; i--) {
          const l = operands[i]!;
          // `"Run" .. "String"`: a name split to dodge text search.
          if (this.fnTop !== null && l.type === 'StringLiteral' && right.type === 'StringLiteral')
            this.fnTop.watched = true;
          right = {
            type: 'BinaryExpression',
            operator: operator as '..' | '^',
            left: l,
            right,
            line: l.line,
            offset: l.offset,
            endOffset: right.endOffset,
          };
        }
        left = right;
        continue;
      }
      const logical = op.kind === 'Keyword';
      const glua = op.glua;
      this.next();
      const right = this.parseSubExpression(rightPriority(priority));
      if (logical) {
        left = {
          type: 'LogicalExpression',
          operator: operator as 'and' | 'or',
          left,
          right,
          line: this.lineAt(line, offset),
          offset: this.offsetAt(offset),
          endOffset: this.prev.end,
        };
      } else {
        const node: BinaryExpression = {
          type: 'BinaryExpression',
          operator: operator as BinaryExpression['operator'],
          left,
          right,
          line: this.lineAt(line, offset),
          offset: this.offsetAt(offset),
          endOffset: this.prev.end,
        };
        left = node;
      }
      if (glua) (left as BinaryExpression).glua = true;
    }
    this.depth--;
    return left;
  }

  private parseSimpleExpression(): Expression {
    const t = this.tok;
    switch (t.kind) {
      case 'Number': {
        // (Read before the next token is lexed; the offset says whether it is this one's.)
        const lexer = this.lexer;
        const value = lexer.numberAt === t.offset ? lexer.numberValue : numeralValue(t.value);
        this.next();
        return {
          type: 'NumericLiteral',
          value,
          raw: t.value,
          line: this.lineFrom(t),
          offset: this.offsetFrom(t),
          endOffset: this.prev.end,
        };
      }
      case 'String':
        this.next();
        return this.stringFrom(t);
      case 'Keyword':
        switch (t.value) {
          case 'nil':
            this.next();
            return {
              type: 'NilLiteral',
              raw: 'nil',
              line: this.lineFrom(t),
              offset: this.offsetFrom(t),
              endOffset: this.prev.end,
            };
          case 'true':
          case 'false':
            this.next();
            return {
              type: 'BooleanLiteral',
              value: t.value === 'true',
              raw: t.value,
              line: this.lineFrom(t),
              offset: this.offsetFrom(t),
              endOffset: this.prev.end,
            };
          case 'function': {
            const line = t.line;
            const offset = t.offset;
            this.next();
            return this.parseFunctionBody(line, offset, null, false, line, offset);
          }
          default:
            break;
        }
        break;
      case 'Punct':
        if (t.value === '...') {
          this.next();
          return {
            type: 'VarargLiteral',
            raw: '...',
            line: this.lineFrom(t),
            offset: this.offsetFrom(t),
            endOffset: this.prev.end,
          };
        }
        if (t.value === '{') return this.parseTable();
        break;
      default:
        break;
    }
    return this.parseSuffixedExpression();
  }

  private stringFrom(t: Token): StringLiteral {
    return {
      type: 'StringLiteral',
      value: t.value,
      escaped: t.escaped,
      line: t.line,
      offset: t.offset,
      endOffset: t.end,
    };
  }

  private parsePrimaryExpression(): Expression {
    const t = this.tok;
    if (t.kind === 'Name') {
      this.next();
      return this.identifierFrom(t);
    }
    if (t.kind === 'Punct' && t.value === '(') {
      const line = t.line;
      const offset = t.offset;
      this.next();
      const expression = this.parseExpression();
      this.expectPunct(')', 'to close the parenthesis');
      return {
        type: 'ParenthesizedExpression',
        expression,
        line: this.lineAt(line, offset),
        offset: this.offsetAt(offset),
        endOffset: this.prev.end,
      };
    }
    // Not an expression: leave the token for the statement level to judge.
    this.errorAt(t, `unexpected ${describe(t)} in expression`);
    return {
      type: 'ErrorExpression',
      message: `unexpected ${describe(t)}`,
      line: this.lineFrom(t),
      offset: this.offsetFrom(t),
      endOffset: this.prev.end,
    };
  }

  private parseSuffixedExpression(): Expression {
    let base = this.parsePrimaryExpression();
    if (base.type === 'ErrorExpression') return base;
    // The primary expression starts where its first token did (a name, or a parenthesis).
    const start: Start = base;
    for (;;) {
      const t = this.tok;
      if (t.kind === 'Punct') {
        switch (t.value) {
          case '.': {
            this.next();
            const identifier = this.expectName("after '.'");
            base = {
              type: 'MemberExpression',
              indexer: '.',
              identifier,
              base,
              line: this.lineFrom(start),
              offset: this.offsetFrom(start),
              endOffset: this.prev.end,
            };
            continue;
          }
          case '[': {
            this.next();
            const index = this.parseExpression();
            this.expectPunct(']', 'to close the index');
            base = {
              type: 'IndexExpression',
              base,
              index,
              line: this.lineFrom(start),
              offset: this.offsetFrom(start),
              endOffset: this.prev.end,
            };
            continue;
          }
          case ':': {
            this.next();
            const identifier = this.expectName("after ':'");
            const callee: MemberExpression = {
              type: 'MemberExpression',
              indexer: ':',
              identifier,
              base,
              line: this.lineFrom(start),
              offset: this.offsetFrom(start),
              endOffset: this.prev.end,
              emuMethod: undefined,
            };
            base = this.parseCallArguments(callee, start, true);
            continue;
          }
          case '(':
          case '{':
            base = this.parseCallArguments(base, start, false);
            continue;
          default:
            return base;
        }
      }
      if (t.kind === 'String') {
        base = this.parseCallArguments(base, start, false);
        continue;
      }
      return base;
    }
  }

  private parseCallArguments(base: Expression, start: Start, method: boolean): Expression {
    const t = this.tok;
    if (t.kind === 'String') {
      this.next();
      if (this.fnTop !== null) this.noteCall(base);
      return {
        type: 'StringCallExpression',
        base,
        argument: this.stringFrom(t),
        line: this.lineFrom(start),
        offset: this.offsetFrom(start),
        endOffset: this.prev.end,
        emuApi: undefined,
      };
    }
    if (this.fnTop !== null && t.kind === 'Punct' && (t.value === '{' || t.value === '('))
      this.noteCall(base);
    if (t.kind === 'Punct' && t.value === '{') {
      const table = this.parseTable();
      return {
        type: 'TableCallExpression',
        base,
        arguments: table,
        line: this.lineFrom(start),
        offset: this.offsetFrom(start),
        endOffset: this.prev.end,
        emuApi: undefined,
      };
    }
    if (t.kind === 'Punct' && t.value === '(') {
      this.next();
      const args = this.isPunct(')') ? [] : this.parseExpressionList();
      this.expectPunct(')', 'to close the argument list');
      if (this.watch !== null) this.noteKeptInList(base, args);
      // A local function handed over by name (`query(sql, runMigrations)`) is called by the
      // callee with what it holds: recorded as `&name`, which Relevance links to the file's
      // local function of that name.
      const locals = this.localFunctions;
      if (this.fnTop !== null && locals !== null)
        for (let i = 0; i < args.length; i++) {
          const a = args[i]!;
          if (a.type === 'Identifier' && locals.has(a.name)) this.addCall(`&${a.name}`);
        }
      return {
        type: 'CallExpression',
        base,
        arguments: args,
        line: this.lineFrom(start),
        offset: this.offsetFrom(start),
        endOffset: this.prev.end,
        emuApi: undefined,
      };
    }
    if (method) this.abort(`function arguments expected near ${describe(t)}`);
    return base;
  }

  private parseTable(): TableConstructorExpression {
    const openLine = this.tok.line;
    const openOffset = this.tok.offset;
    this.next();
    const base = this.listTop;
    if (++this.depth > this.maxDepth) {
      this.tooDeep();
      this.skipNested(false);
    } else {
      while (!this.isPunct('}')) {
        // Where the field starts, as numbers: the token object is reused as tokens are read.
        const t = this.tok;
        const line = t.line;
        const offset = t.offset;
        if (t.kind === 'Punct' && t.value === '[') {
          this.next();
          const key = this.parseExpression();
          this.expectPunct(']', 'to close the key');
          this.expectPunct('=', 'after the key');
          const value = this.parseExpression();
          this.add({
            type: 'TableKey',
            key,
            value,
            line: this.lineAt(line, offset),
            offset: this.offsetAt(offset),
            endOffset: this.prev.end,
          });
        } else if (t.kind === 'Name' && this.peek().kind === 'Punct' && this.peek().value === '=') {
          // (The key is read before the value, while its token is still the name's.)
          const key = this.identifierFrom(t);
          this.next();
          this.next();
          const value = this.parseExpression();
          this.add({
            type: 'TableKeyString',
            key,
            value,
            line: this.lineAt(line, offset),
            offset: this.offsetAt(offset),
            endOffset: this.prev.end,
          });
        } else {
          const at = this.consumed;
          const value = this.parseExpression();
          this.add({
            type: 'TableValue',
            value,
            line: this.lineAt(line, offset),
            offset: this.offsetAt(offset),
            endOffset: this.prev.end,
          });
          if (this.consumed === at) break; // not an expression at all: stop, '}' is reported below
        }
        if (!this.acceptPunct(',') && !this.acceptPunct(';')) break;
      }
    }
    this.depth--;
    const fields = this.listFrom<TableField>(base);
    if (!this.isPunct('}')) {
      const where = openLine !== this.tok.line ? ` (to close '{' at line ${openLine})` : '';
      this.errorAt(this.tok, `'}' expected${where} near ${describe(this.tok)}`);
    } else this.next();
    return {
      type: 'TableConstructorExpression',
      fields,
      line: this.lineAt(openLine, openOffset),
      offset: this.offsetAt(openOffset),
      endOffset: this.prev.end,
    };
  }
}

export function emptyFacts(): LexicalFacts {
  return {
    gluaOperatorCount: 0,
    cCommentCount: 0,
    longestLineLength: 0,
    invisibleCharCount: 0,
    hasBom: false,
    invalidUtf8: false,
  };
}

/** Drops the facts of functions whose parse was abandoned, renumbering parents. */
function keptFunctions(all: FunctionFacts[]): FunctionFacts[] {
  // Most parses abandon none: the list is kept as it is, without the renumbering table (a
  // typed array per parse, and most lazy bodies are parsed for a handful of functions).
  let abandoned = false;
  for (let i = 0; i < all.length; i++) if (all[i]!.node === null) abandoned = true;
  if (!abandoned) return all;
  const remap = new Int32Array(all.length);
  const kept: FunctionFacts[] = [];
  for (let i = 0; i < all.length; i++) {
    const f = all[i]!;
    const parent = f.parent >= 0 ? remap[f.parent]! : -1;
    if (f.node === null) {
      remap[i] = parent;
      continue;
    }
    remap[i] = kept.length;
    f.parent = parent;
    kept.push(f);
  }
  return kept;
}

/** Parses GLua source (bytes or text) into a syntax tree; never throws on any input. */
export function parseLua(source: Uint8Array | string, options: ParseOptions = {}): ParseResult {
  const text = options.decoded?.text ?? decodeSource(source);
  const hasBom = hasUtf8Bom(text);
  const encoding =
    options.decoded?.encoding ??
    (typeof source === 'string'
      ? scanEncoding(text, hasBom ? 3 : 0)
      : scanEncodingOfBytes(source, hasBom ? 3 : 0));
  const diagnostics = new Diagnostics(options.maxErrors ?? 500);
  // (The lexer reads the bytes themselves when they are the text's: see Lexer.bytes.)
  const bytes = typeof source === 'string' ? undefined : source;
  const lexer = new Lexer(text, diagnostics, hasBom ? 3 : 0, true, bytes);
  if (options.comments === false) lexer.keepComments = false;
  const maxDepth = Math.max(1, Math.min(options.maxDepth ?? DEFAULT_MAX_DEPTH, HARD_MAX_DEPTH));
  const parser = new Parser(
    lexer,
    diagnostics,
    maxDepth,
    Math.max(1, options.maxTokens ?? DEFAULT_MAX_TOKENS),
    options.recycleTokens ?? true,
  );
  if (options.watch) parser.watch = options.watch;
  if (options.skim) parser.skim = options.skim;
  let chunk: Chunk;
  try {
    chunk = parser.parseChunk();
  } catch (e) {
    // Last line of defence (e.g. a stack overflow in a pathological case): keep the promise
    // of never throwing, and say so in the errors.
    const message = e instanceof Error ? e.message : String(e);
    diagnostics.report(`parser stopped: ${message}`, lexer.line, 1, lexer.pos);
    chunk = { type: 'Chunk', body: [], line: 1, offset: 0, endOffset: 0 };
  }
  // The lexer measures lines as it goes; make sure it has seen the whole source (the skim
  // has, when bodies were skipped).
  const skim = options.skim;
  if (!skim) while (lexer.next().kind !== 'EOF');
  const errors = diagnostics.errors;
  const result: ParseResult = {
    chunk,
    errors,
    comments: lexer.comments,
    lines: skim ? skim.lines : lexer.line,
    facts: {
      gluaOperatorCount: skim ? skim.gluaOperatorCount : lexer.gluaOperatorCount,
      cCommentCount: skim ? skim.cCommentCount : lexer.cCommentCount,
      longestLineLength: skim ? skim.longestLineLength : lexer.longestLineLength,
      invisibleCharCount: encoding.invisibleCharCount,
      hasBom,
      invalidUtf8: encoding.invalidUtf8,
    },
  };
  if (options.watch) {
    result.functions = keptFunctions(parser.functions);
    result.aliases = parser.aliases;
    result.localAliases = parser.localAliases;
    result.tables = parser.tables;
    result.localTables = parser.localTables;
  }
  if (diagnostics.total > errors.length) result.errorCount = diagnostics.total;
  if (parser.truncated || lexer.commentsDropped > 0) result.truncated = true;
  return result;
}

/**
 * The body of a function, parsed now if the parser left it lazy (and kept on the node). Any
 * code that reads a function's statements goes through here.
 */
export function functionBody(node: FunctionDeclaration): Statement[] {
  if (node.lazy !== undefined) node.body = parseLazy(node, null).body;
  return node.body;
}

/**
 * Parses a lazy body now, with a watch list when per-function facts are wanted: `own` gets
 * the facts of the body itself, `functions` those of nested functions (parent -1 = own).
 */
export function parseLazy(
  node: FunctionDeclaration,
  watch: FunctionWatch | null,
): {
  body: Statement[];
  own: FunctionFacts;
  functions: FunctionFacts[];
  aliases: string[];
  localAliases: string[];
  tables: string[];
  localTables: string[];
} {
  const lazy = node.lazy;
  const own: FunctionFacts = {
    node,
    parent: -1,
    name: undefined,
    local: undefined,
    watched: false,
    sink: false,
    calls: [],
  };
  if (lazy === undefined)
    return {
      body: node.body,
      own,
      functions: [],
      aliases: [],
      localAliases: [],
      tables: [],
      localTables: [],
    };
  node.lazy = undefined;
  const diagnostics = new Diagnostics(50);
  const lexer = new Lexer(lazy.src, diagnostics, lazy.offset, false, lazy.bytes);
  lexer.keepComments = false;
  lexer.line = lazy.line;
  lexer.lineStart = lazy.lineStart;
  const parser = new Parser(lexer, diagnostics, DEFAULT_MAX_DEPTH, DEFAULT_MAX_TOKENS);
  parser.watch = watch;
  // Its nested functions the skim found unwatched stay lazy, as they would in the file.
  parser.skim = lazy.skim;
  parser.localFunctions = lazy.localFunctions;
  let body: Statement[];
  try {
    body = parser.parseLazyBody(own);
  } catch {
    // The whole file parsed before; only a budget or the stack can stop this one.
    body = [];
  }
  node.body = body;
  return {
    body,
    own,
    functions: watch ? keptFunctions(parser.functions) : [],
    aliases: parser.aliases,
    localAliases: parser.localAliases,
    tables: parser.tables,
    localTables: parser.localTables,
  };
}
