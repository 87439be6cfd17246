// The GLua syntax tree. Shaped like luaparse's (a widely known Lua AST) so that the parser
// and the analysis agree on one vocabulary; every node carries its 1-based start line and
// byte offsets into the source.
import type { Skim } from './skim.js';

export interface Position {
  line: number;
  column: number;
  /** Byte offset into the source. */
  offset: number;
}

export interface Loc {
  start: Position;
  end: Position;
}

/**
 * Where a node is, as plain numbers on the node: position objects per node were a third of
 * the tree's memory, and trees live for a whole scan (see docs/decisions.md).
 */
interface NodeBase {
  /** 1-based line of the node's first byte. */
  line: number;
  /** Byte offset of the node's first byte. */
  offset: number;
  /** Byte offset just past its last byte. */
  endOffset: number;
}

export type Statement =
  | LocalStatement
  | AssignmentStatement
  | CallStatement
  | FunctionDeclaration
  | IfStatement
  | WhileStatement
  | DoStatement
  | RepeatStatement
  | ForNumericStatement
  | ForGenericStatement
  | ReturnStatement
  | BreakStatement
  | ContinueStatement
  | GotoStatement
  | LabelStatement
  | ErrorStatement;

export type Expression =
  | Identifier
  | StringLiteral
  | NumericLiteral
  | BooleanLiteral
  | NilLiteral
  | VarargLiteral
  | FunctionDeclaration
  | TableConstructorExpression
  | BinaryExpression
  | LogicalExpression
  | UnaryExpression
  | MemberExpression
  | IndexExpression
  | CallExpression
  | TableCallExpression
  | StringCallExpression
  | ParenthesizedExpression
  | ErrorExpression;

export type Node = Chunk | Statement | Expression | TableField | IfClauseNode;

export interface Chunk extends NodeBase {
  type: 'Chunk';
  body: Statement[];
}

export interface Identifier extends NodeBase {
  type: 'Identifier';
  name: string;
}

export interface StringLiteral extends NodeBase {
  type: 'StringLiteral';
  /** The decoded bytes as a latin1 string (one char per byte), all escapes applied. */
  value: string;
  // (The literal as written, quotes included, is the source from offset to endOffset.)
  /** True when the literal used escapes (\ddd, \xNN, \u{…}, \z) to hide bytes. */
  escaped: boolean;
}

export interface NumericLiteral extends NodeBase {
  type: 'NumericLiteral';
  value: number;
  raw: string;
}

export interface BooleanLiteral extends NodeBase {
  type: 'BooleanLiteral';
  value: boolean;
  raw: string;
}

export interface NilLiteral extends NodeBase {
  type: 'NilLiteral';
  raw: 'nil';
}

export interface VarargLiteral extends NodeBase {
  type: 'VarargLiteral';
  raw: '...';
}

export interface LocalStatement extends NodeBase {
  type: 'LocalStatement';
  variables: Identifier[];
  init: Expression[];
}

export interface AssignmentStatement extends NodeBase {
  type: 'AssignmentStatement';
  variables: Array<Identifier | MemberExpression | IndexExpression>;
  init: Expression[];
}

export interface CallStatement extends NodeBase {
  type: 'CallStatement';
  expression: CallExpression | TableCallExpression | StringCallExpression;
}

/** Both `function f() end` statements and `function() end` expressions. */
export interface FunctionDeclaration extends NodeBase {
  type: 'FunctionDeclaration';
  /** null for an anonymous function expression. */
  identifier: Identifier | MemberExpression | null;
  isLocal: boolean;
  parameters: Array<Identifier | VarargLiteral>;
  /** Empty while `lazy` is set: read it through `functionBody`, which parses it on demand. */
  body: Statement[];
  /**
   * Set when the parser skipped the body because it mentions nothing the analysis watches
   * (see lua/skim.ts): where the body starts, so that it can be parsed when needed.
   */
  lazy?: LazyBody;
}

/** Where a skipped function body starts: just after the `)` of its parameter list. */
export interface LazyBody {
  src: string;
  /** The same source as bytes, which the lexer reads (see Lexer.bytes). */
  bytes: Uint8Array;
  offset: number;
  line: number;
  lineStart: number;
  /**
   * The file's skim: when the body is parsed, the functions nested in it that the skim found
   * unwatched stay lazy in turn.
   */
  skim: Skim;
  /** The file's local functions by name, as its parser declared them (see Parser.localFunctions). */
  localFunctions: Set<string>;
}

export interface IfClauseNode extends NodeBase {
  type: 'IfClause' | 'ElseifClause' | 'ElseClause';
  /** null for the else clause. */
  condition: Expression | null;
  body: Statement[];
}

export interface IfStatement extends NodeBase {
  type: 'IfStatement';
  clauses: IfClauseNode[];
}

export interface WhileStatement extends NodeBase {
  type: 'WhileStatement';
  condition: Expression;
  body: Statement[];
}

export interface DoStatement extends NodeBase {
  type: 'DoStatement';
  body: Statement[];
}

export interface RepeatStatement extends NodeBase {
  type: 'RepeatStatement';
  condition: Expression;
  body: Statement[];
}

export interface ForNumericStatement extends NodeBase {
  type: 'ForNumericStatement';
  variable: Identifier;
  start: Expression;
  end: Expression;
  step: Expression | null;
  body: Statement[];
}

export interface ForGenericStatement extends NodeBase {
  type: 'ForGenericStatement';
  variables: Identifier[];
  iterators: Expression[];
  body: Statement[];
}

export interface ReturnStatement extends NodeBase {
  type: 'ReturnStatement';
  arguments: Expression[];
}

export interface BreakStatement extends NodeBase {
  type: 'BreakStatement';
}

/** GLua's `continue`. */
export interface ContinueStatement extends NodeBase {
  type: 'ContinueStatement';
}

export interface GotoStatement extends NodeBase {
  type: 'GotoStatement';
  label: Identifier;
}

export interface LabelStatement extends NodeBase {
  type: 'LabelStatement';
  label: Identifier;
}

/** Placeholder the parser leaves where it skipped unparsable tokens while recovering. */
export interface ErrorStatement extends NodeBase {
  type: 'ErrorStatement';
  message: string;
}

export interface ErrorExpression extends NodeBase {
  type: 'ErrorExpression';
  message: string;
}

export type TableField = TableKey | TableKeyString | TableValue;

/** `[key] = value` */
export interface TableKey extends NodeBase {
  type: 'TableKey';
  key: Expression;
  value: Expression;
}

/** `name = value` */
export interface TableKeyString extends NodeBase {
  type: 'TableKeyString';
  key: Identifier;
  value: Expression;
}

/** positional `value` */
export interface TableValue extends NodeBase {
  type: 'TableValue';
  value: Expression;
}

export interface TableConstructorExpression extends NodeBase {
  type: 'TableConstructorExpression';
  fields: TableField[];
}

/**
 * Operators are normalised to Lua spelling: GLua's `!=` becomes `~=`, `&&` `and`, `||` `or`,
 * `!` `not`. `glua` records that the source used the C-style spelling (a GB-030 fingerprint).
 */
export interface BinaryExpression extends NodeBase {
  type: 'BinaryExpression';
  operator: '+' | '-' | '*' | '/' | '%' | '^' | '..' | '==' | '~=' | '<' | '<=' | '>' | '>=';
  left: Expression;
  right: Expression;
  glua?: boolean;
}

export interface LogicalExpression extends NodeBase {
  type: 'LogicalExpression';
  operator: 'and' | 'or';
  left: Expression;
  right: Expression;
  glua?: boolean;
}

export interface UnaryExpression extends NodeBase {
  type: 'UnaryExpression';
  operator: 'not' | '-' | '#';
  argument: Expression;
  glua?: boolean;
}

/** `base.name` or `base:name` (the latter only as a call's base). */
export interface MemberExpression extends NodeBase {
  type: 'MemberExpression';
  indexer: '.' | ':';
  identifier: Identifier;
  base: Expression;
  /** For `:`: the analysis's answers for the method name, written empty (see CallSlot). */
  emuMethod?: unknown;
}

/** `base[index]` */
export interface IndexExpression extends NodeBase {
  type: 'IndexExpression';
  base: Expression;
  index: Expression;
}

/**
 * A slot the analysis keeps its answers for a call in (the emulator's ApiInfo of the callee):
 * the parser writes it empty, so that a node given an answer keeps the shape it was made
 * with. A field added to a node later gave it a shape that only lived as long as the tree;
 * V8 dropped it between scans, and the code walking trees was compiled again (docs/performance.md).
 */
interface CallSlot {
  emuApi?: unknown;
}

export interface CallExpression extends NodeBase, CallSlot {
  type: 'CallExpression';
  base: Expression;
  arguments: Expression[];
}

/** `f{...}` */
export interface TableCallExpression extends NodeBase, CallSlot {
  type: 'TableCallExpression';
  base: Expression;
  arguments: TableConstructorExpression;
}

/** `f"..."` */
export interface StringCallExpression extends NodeBase, CallSlot {
  type: 'StringCallExpression';
  base: Expression;
  argument: StringLiteral;
}

/** `(expr)`: kept because parentheses truncate multiple results to one in Lua. */
export interface ParenthesizedExpression extends NodeBase {
  type: 'ParenthesizedExpression';
  expression: Expression;
}

export interface Comment {
  /** Comment text without the delimiters. */
  value: string;
  style: 'lua-line' | 'lua-block' | 'c-line' | 'c-block';
  loc: Loc;
}

export interface ParseError {
  message: string;
  line: number;
  column: number;
  offset: number;
}

export interface ParseResult {
  chunk: Chunk;
  errors: ParseError[];
  comments: Comment[];
  /** Number of lines in the source. */
  lines: number;
  /** Source facts the lexer notices on the way (GB-030/031 fingerprints). */
  facts: LexicalFacts;
  /** Total number of syntax errors, present only when more were found than `errors` keeps. */
  errorCount?: number;
  /**
   * True when the file was too big to keep whole: the tree stops after the parser's token
   * budget, or the comment list was capped. Facts and `lines` still cover the whole file.
   */
  truncated?: boolean;
  /** Per-function facts, in source order of the `function` keyword; set when `watch` was given. */
  functions?: FunctionFacts[];
  /** Paths assigned a sink name (`rs = RunString`); set when `watch` was given. */
  aliases?: string[];
  /** Local variables assigned a sink name (`local rs = RunString`): only this file sees them. */
  localAliases?: string[];
  /**
   * Tables built with named functions in them, as pairs of the table's path and a function's
   * (`handlers = { run = exec }` gives `handlers`, `exec`); set when `watch` was given.
   */
  tables?: string[];
  /** The same for tables in local variables. */
  localTables?: string[];
}

/** What the parser notes about each function for the analysis to decide what to emulate. */
export interface FunctionFacts {
  node: FunctionDeclaration;
  /** Index of the enclosing function in `functions`, -1 for the main chunk. */
  parent: number;
  /** The path the function is declared or assigned under (`a.b:foo` for `function a.b:foo()`). */
  name?: string;
  /**
   * Only this file can call it by that path: a local (`local function f`, `local f =
   * function`) or a field of a local table declared before it at the top level (`function
   * PANEL:Init()` after `local PANEL = {}`).
   */
  local?: boolean;
  /** Its body (nested functions included) mentions a watched name or string. */
  watched: boolean;
  /** …one of which is a sink name (`FunctionWatch.sinks`): its callers matter too. */
  sink: boolean;
  /**
   * Paths of the callees its own body calls: `x.Bar` for `x.Bar()`, `x:Bar` for `x:Bar()`, `*`
   * when computed, `&f` for a local function `f` handed to a call by name (`query(sql, f)`).
   */
  calls: string[];
}

/** Names and strings that make the function around them "watched" (see FunctionFacts). */
export interface FunctionWatch {
  /**
   * Identifiers, field and method names, each with WATCH_* flags saying where the name counts
   * and whether it is a sink.
   */
  names: ReadonlyMap<string, number>;
  /** Names of methods/fields whose definition (`function a.b:Name()`) inside a function counts. */
  definitions?: ReadonlySet<string>;
  /** For names flagged WATCH_BASE: the tables they count on (`GetTable` on `concommand`). */
  nameBases?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Judges string literals of 5 bytes or more: 0 no, 1 watched, 2 sink (escaped literals such
   * as `\x41` are always watched).
   */
  string?: (value: string) => 0 | 1 | 2;
}

/** The name is a sink: sets `FunctionFacts.sink` too. */
export const WATCH_SINK = 1;
/** Counts only as a field or method (`string.char`, `x:SteamID`), not as a plain variable. */
export const WATCH_FIELD = 2;
/** Counts only as a library (`file.Read`, `sql.Query`), followed by `.`, `:` or `[`. */
export const WATCH_LIBRARY = 4;
/** Counts only as a plain name (`RunString`), not as a field of something else. */
export const WATCH_GLOBAL = 8;
/**
 * Counts only as a field of one of the tables `FunctionWatch.nameBases` lists for it
 * (`concommand.GetTable`, not `ent:GetTable`).
 */
export const WATCH_BASE = 16;

/**
 * Counts only when called with a first argument that is not a literal text
 * (`GetConVar(name)`, not `GetConVar("hostname")`).
 */
export const WATCH_NAMED_ARG = 32;

/**
 * Whether the call whose `(` ends just before `p` starts its arguments with something other
 * than a literal text or nothing (white space skipped): `GetConVar(name)`.
 */
export function namedArgumentAt(src: Uint8Array, p: number): boolean {
  let r = p;
  const n = src.length;
  while (r < n) {
    const c = src[r]!;
    if (c === 32 || c === 9 || c === 10 || c === 13) r++;
    else break;
  }
  if (r >= n) return false;
  const c = src[r]!;
  return c !== 34 && c !== 39 && c !== 91 && c !== 41;
}

/**
 * The identifier just before the `.` or `:` that ends at `sep` (spaces and tabs skipped), as
 * latin1 text; '' when there is none.
 */
export function baseBefore(src: Uint8Array, sep: number): string {
  let j = sep - 1;
  while (j >= 0 && (src[j] === 32 || src[j] === 9)) j--;
  const end = j + 1;
  while (j >= 0) {
    const c = src[j]!;
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) j--;
    else break;
  }
  let out = '';
  for (let i = j + 1; i < end; i++) out += String.fromCharCode(src[i]!);
  return out;
}

export interface LexicalFacts {
  /** Uses of C-style operators (`!=`, `&&`, `||`, `!`) and comments. */
  gluaOperatorCount: number;
  cCommentCount: number;
  longestLineLength: number;
  /** Count of invisible or bidirectional Unicode characters in the source. */
  invisibleCharCount: number;
  hasBom: boolean;
  invalidUtf8: boolean;
}
