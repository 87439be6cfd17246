// A bounded abstract interpreter over the GLua syntax tree. It never runs anything for real:
// API functions are symbolic references, calls to them are recorded as events, attacker data
// is an unknown value carrying taint, and unknown branches are all explored. This one engine
// does constant folding, decoding loops, alias resolution, taint and guard tracking at once.
import type { Realm } from '@sentinelle/contracts';
import type {
  CallExpression,
  Expression,
  FunctionDeclaration,
  Identifier,
  IndexExpression,
  MemberExpression,
  Node,
  Statement,
  StringCallExpression,
  StringLiteral,
  TableCallExpression,
  TableConstructorExpression,
} from '../lua/ast.js';
import { functionBody, parseLua, pathName } from '../lua/index.js';
import { selectedLiterals } from './sqlLiterals.js';
import { pushChildren } from '../lua/walk.js';
import {
  ADMITTED,
  CONSOLE_SINKS,
  CONNECTION_CALLBACKS,
  DATABASE_CONNECTS,
  DATABASE_QUERIES,
  isRemoteHost,
  NUMBER_RESULTS,
  PLAYER_PICKERS,
  CORE_GLOBALS,
  isRecordedApi,
  codeArgIndex,
  EXEC_SINKS,
  FILE_WRITE_SINKS,
  IDENTITY_OVERRIDES,
  MODERATION_OVERRIDES,
  PERMISSION_CHECKS,
  PLAYER_KEY_HOOKS,
  PLAYER_METHODS,
  PRIVILEGE_SINKS,
  SANITIZERS,
  SOURCE_CALLS,
} from './api.js';
import {
  BUILTINS,
  luaPatternToRegExp,
  STRING_METHODS,
  ulxCommandsByCategory,
  utf8Codes,
} from './builtins.js';
import {
  ARITHMETIC_OPERATORS,
  classifyCondition,
  configName,
  PLACEHOLDER_ID,
  IDENTITY_METHODS,
  isAdminCheckName,
  type OperandFacts,
  type ConditionClass,
  containsAdminCheck,
  endsWithExit,
  exitsForRanked,
  STEAMID_LITERAL,
  identityIn,
  callerGateIn,
  identityTriggersIn,
  isCall,
  unwrap,
} from './guards.js';
import type {
  AddonAnalysis,
  CallEvent,
  Ctx,
  CtxFrame,
  IndexEvent,
  OverrideEvent,
} from './types.js';
import {
  type Access,
  asNumber,
  asString,
  type DecodeHow,
  type FnValue,
  isTruthy,
  LuaTable,
  MAX_STRING,
  mergeTaint,
  NIL,
  num,
  numericTaint,
  holdsCodeRecord,
  holdsSentData,
  IP_ADDRESS_TEXT,
  PLAYER_NAME_TEXT,
  taintSource,
  apiValue,
  unknowns,
  valuesOf,
  partialText,
  Scope,
  stringOfKey,
  tableKey,
  type ApiValue,
  apiName,
  bool,
  TRUE,
  memberName,
  str,
  type TableValue,
  type Taint,
  type TaintSource,
  taintOf,
  textOf,
  type Value,
  UNKNOWN,
  withTaint,
  type CoroutineState,
} from './values.js';

/** Where the code being emulated comes from: a file, or a payload decoded inside one. */
export interface FileContext {
  path: string;
  realm: Realm;
  depth: number;
  /** Payload code: every event is reported at this line of `path`. */
  anchorLine?: number;
  payloadLines?: string[];
  steps: number;
  budget: number;
  /** The budget ran out: the file was not explored in full (see `shallow`). */
  exhausted: boolean;
  /**
   * Past the budget, the rest of the file and its handlers are still walked, shallowly:
   * loops stop after the iteration under way, and a function called with known arguments
   * runs once at most (calls carrying unknown or attacker data, or a decoded string, still
   * run once per signature). A padding loop must not hide the code after it (see tick).
   */
  shallow: boolean;
}

/**
 * The context of a branch that runs in one realm only (`if SERVER then … end` in a shared
 * file). It behaves as an object made with `Object.create(outer)` and its own `realm` did,
 * which is what it replaces: the branch counts its steps on its own from the outer count at
 * its start, its `exhausted` is its own, and it is shallow once it or the outer context is.
 * (Contexts made with Object.create gave every file's context a shape of its own, and every
 * read of a context, one per step at least, went through V8's slowest property look-up.)
 */
class RealmBranch implements FileContext {
  readonly path: string;
  readonly depth: number;
  readonly anchorLine: number | undefined;
  readonly payloadLines: string[] | undefined;
  steps: number;
  readonly budget: number;
  exhausted: boolean;
  /** Set when the branch itself went past the budget (only ever set to true, as `shallow`). */
  private ownShallow = false;
  constructor(
    private readonly outer: FileContext,
    public realm: Realm,
  ) {
    this.path = outer.path;
    this.depth = outer.depth;
    this.anchorLine = outer.anchorLine;
    this.payloadLines = outer.payloadLines;
    // (Nothing ticks between the branch's making and its first step, so this is the outer
    // count that the first step would have read through the prototype.)
    this.steps = outer.steps;
    this.budget = outer.budget;
    this.exhausted = outer.exhausted;
  }
  get shallow(): boolean {
    return this.ownShallow || this.outer.shallow;
  }
  set shallow(value: boolean) {
    this.ownShallow = value;
  }
}

/** The context of `fc` run in `realm` (a file included from code of the other realm). */
export function inRealm(fc: FileContext, realm: Realm): FileContext {
  return new RealmBranch(fc, realm);
}

type Signal =
  { type: 'return'; values: Value[] } | { type: 'break' } | { type: 'continue' } | undefined;

/**
 * The result of most calls, shared: no array of values is changed once made (argument
 * lists, results and events only ever read them), and this one is frozen to make sure.
 */
const UNKNOWN_RESULT: Value[] = Object.freeze([UNKNOWN]) as unknown as Value[];
/** What a rank check answers (see UnknownValue.granted). */
const GRANTED_RESULT: Value[] = Object.freeze([
  Object.freeze({ k: 'unk', granted: true }),
]) as unknown as Value[];

/**
 * What a connection hands its callbacks, when `conn` is a database module's connection, a
 * query made on one or a websocket: the far end's rows or text, with the connection's taint
 * (see SOURCE_CALLS).
 */
function receivedOn(conn: Value | undefined): Value | undefined {
  if (conn?.k !== 'unk' || conn.taint === undefined) return undefined;
  for (const s of conn.taint)
    if (s.kind === 'sql' || s.kind === 'http') return { k: 'unk', taint: conn.taint };
  return undefined;
}

/**
 * A player's identity (`SteamID`, `IPAddress`…), as a method or an event hands it. An IP
 * address shows in the text it is joined into (`sid .. "|" .. ip`), so that the batch a timer
 * sends later still says what it holds (see dataexfiltration).
 */
function identityValue(identity: string, taint: Taint | undefined, realm: Realm): Value {
  if (identity === 'IPAddress') return { k: 'unk', identity, taint, partial: IP_ADDRESS_TEXT };
  // So does a player's name, which the player chooses: pasted into code the server sends to
  // clients, it is theirs to write (see client_code_push). Not on a client, where names fill
  // every HUD and the texts made with them cost 5–10 % of the scan; `GetName` is an entity's too.
  if ((identity === 'Nick' || identity === 'Name') && realm !== 'client')
    return { k: 'unk', identity, taint, partial: PLAYER_NAME_TEXT };
  return taint ? { k: 'unk', identity, taint } : { k: 'unk', identity };
}

const walkedParameters = new WeakMap<FunctionDeclaration, number>();

/**
 * Whether a function walks its parameter `i` with `pairs` (`for k, v in pairs(t)`): a bit
 * per parameter, found once per function. Its body is parsed for it if it was left lazy.
 */
function walksParameter(node: FunctionDeclaration, i: number): boolean {
  let bits = walkedParameters.get(node);
  if (bits === undefined) {
    bits = 0;
    const names = node.parameters.map((p) => (p.type === 'Identifier' ? p.name : ''));
    const stack: Node[] = [...functionBody(node)];
    let budget = 20_000;
    while (stack.length > 0 && budget-- > 0) {
      const n = stack.pop()!;
      if (n.type === 'ForGenericStatement') {
        const it = n.iterators[0];
        const arg = it?.type === 'CallExpression' ? it.arguments[0] : undefined;
        if (
          it?.type === 'CallExpression' &&
          it.base.type === 'Identifier' &&
          (it.base.name === 'pairs' || it.base.name === 'SortedPairs') &&
          arg?.type === 'Identifier'
        ) {
          const at = names.indexOf(arg.name);
          if (at >= 0 && at < 31) bits |= 1 << at;
        }
      }
      pushChildren(stack, n);
    }
    walkedParameters.set(node, bits);
  }
  return i < 31 && (bits & (1 << i)) !== 0;
}

/** What a store of kept state holds under `key`, as a call's results; none when nothing. */
function keptValue(store: LuaTable, key: string): Value[] | undefined {
  const v = store.getName(key);
  return v.k === 'nil' ? undefined : [v];
}

/** Whether any of the values carries taint. */
function carriesTaint(values: readonly Value[]): boolean {
  for (let i = 0; i < values.length; i++) if (taintOf(values[i]!) !== undefined) return true;
  return false;
}

/** Whether a value carries text from outside (not only a number the sender chose). */
function isSentText(v: Value | undefined): boolean {
  const t = v === undefined ? undefined : taintOf(v);
  return t !== undefined && t.some((s) => !s.numeric);
}

/**
 * Whether a value came from what a player sent: a player picked by `net.ReadEntity()`, a
 * console command's words, chat text.
 */
function pickedBySender(v: Value | undefined): boolean {
  return v?.k === 'unk' && v.taint !== undefined && v.taint.some((s) => PLAYER_SENT.has(s.kind));
}

/** Shared: a signal is only read, never changed. */
const BREAK: Signal = Object.freeze({ type: 'break' });
const CONTINUE: Signal = Object.freeze({ type: 'continue' });

class BudgetExceeded extends Error {}

/** A SteamID64 written as a number. */
const STEAMID64_NUMBER = /^7656119\d{10}$/;
/** What a hash of an ID is written as: CRC32 in decimal, or MD5/SHA-1/SHA-256 in hex. */
const HASH_LITERAL = /^(\d{6,10}|[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/i;

/**
 * Whether a table's keys or values (its first 500) are literal SteamIDs, placeholders aside,
 * or, with `hashes`, what a hash of an ID is written as.
 */
function holdsLiteralIds(t: LuaTable, hashes: boolean, identity?: string): boolean {
  // Looked up by a 32-bit ID (`T[tonumber(ply:UniqueID())]`, `T[ply:AccountID()]`), a table
  // of such numbers written in the addon is a list of players too.
  const short = identity === 'UniqueID' || identity === 'AccountID';
  let n = 0;
  for (const [k, val] of t.hash) {
    if (n++ >= 500) break;
    const ks = stringOfKey(k) ?? (typeof k === 'number' ? String(k) : undefined);
    const vs = val.k === 'str' ? val.v : val.k === 'num' ? String(val.v) : undefined;
    if (isIdLiteral(ks, hashes) || isIdLiteral(vs, hashes)) return true;
    if (short && (SHORT_ID.test(ks ?? '') || SHORT_ID.test(vs ?? ''))) return true;
  }
  return false;
}

/** A UniqueID or AccountID written as a number: a 32-bit integer of six digits or more. */
const SHORT_ID = /^[1-9]\d{5,9}$/;

function isIdLiteral(text: string | undefined, hashes: boolean): boolean {
  return (
    text !== undefined &&
    !PLACEHOLDER_ID.test(text) &&
    (STEAMID_LITERAL.test(text) ||
      STEAMID64_NUMBER.test(text) ||
      (hashes && HASH_LITERAL.test(text)))
  );
}

/** The first text a table holds, if any. */
function firstText(t: LuaTable): string | undefined {
  for (const item of t.hash.values()) if (item.k === 'str') return item.v;
  return undefined;
}

/**
 * What a helper's body is judged with when a condition hands it an identity (see
 * Emulator.identityGateOf): its parameter holds that identity, and a name holds the constant
 * of its closure (`local PREFIX = "10.66."`) or, as the variable of a loop over a list of
 * texts (`for _, prefix in ipairs(RANGES)`), the list's first text.
 */
class HelperParameter implements OperandFacts {
  constructor(
    private readonly fn: FnValue,
    private readonly param: string,
    private readonly identity: string,
    private readonly globals: LuaTable,
  ) {}

  identityOf(e: Expression): string | undefined {
    return e.type === 'Identifier' && e.name === this.param ? this.identity : undefined;
  }

  constantOf(e: Expression): string | undefined {
    // `NETS[i]` in a loop over the list: its first text.
    if (e.type === 'IndexExpression' && e.base.type === 'Identifier') {
      const t = this.valueOf(e.base.name);
      return t?.k === 'table' ? firstText(t.t) : undefined;
    }
    if (e.type !== 'Identifier') return undefined;
    const v = this.valueOf(e.name);
    if (v?.k === 'str') return v.v;
    if (v?.k === 'num' && Number.isInteger(v.v)) return String(v.v);
    const list = this.listLoopedBy(e.name);
    return list === undefined ? undefined : firstText(list);
  }

  private valueOf(name: string): Value | undefined {
    if (name === this.param) return undefined;
    return this.fn.scope.lookup(name)?.value ?? this.globals.getName(name);
  }

  /** The table a `for _, name in ipairs(list)` of the helper's body goes over, if known. */
  private listLoopedBy(name: string): LuaTable | undefined {
    const stack: Node[] = [...functionBody(this.fn.node)];
    let budget = 2000;
    while (stack.length > 0 && budget-- > 0) {
      const n = stack.pop()!;
      if (n.type === 'ForGenericStatement' && n.variables.some((v) => v.name === name)) {
        const it = n.iterators[0];
        if (it?.type !== 'CallExpression' || it.base.type !== 'Identifier') return undefined;
        if (it.base.name !== 'ipairs' && it.base.name !== 'pairs') return undefined;
        const over = it.arguments[0];
        const t = over?.type === 'Identifier' ? this.valueOf(over.name) : undefined;
        return t?.k === 'table' ? t.t : undefined;
      }
      if (n.type !== 'FunctionDeclaration') pushChildren(stack, n, false);
    }
    return undefined;
  }
}

// Small searches written as loops where a scan runs them often: an arrow made inside a method
// is a new closure per call, whose compiled code V8 drops once every instance of it is gone
// (see SharedViews.callsWhere).

/** A value carries what a web host sent. */
function carriesWebReply(v: Value): boolean {
  const t = taintOf(v);
  if (t === undefined) return false;
  for (let i = 0; i < t.length; i++) if (t[i]!.kind === 'http') return true;
  return false;
}

/** Some value carries attacker data. */
function anyTainted(values: readonly Value[]): boolean {
  for (let i = 0; i < values.length; i++) if (taintOf(values[i]!) !== undefined) return true;
  return false;
}

/** Some table was written after the write clock `clock`. */
function changedSince(tables: readonly LuaTable[], clock: number): boolean {
  for (let i = 0; i < tables.length; i++) if (tables[i]!.changedAt > clock) return true;
  return false;
}

/** The closure of `node` among `list`, if any. */
function closureOf(list: readonly FnValue[], node: FunctionDeclaration): FnValue | undefined {
  for (let i = 0; i < list.length; i++) if (list[i]!.node === node) return list[i];
  return undefined;
}

/** A taint source marked escaped (made whole, see taintSource: a spread copy's shape died between scans). */
function escapedSource(s: TaintSource): TaintSource {
  return taintSource(s.kind, s.label, s.file, s.line, true, undefined, s.quoted);
}

/** A value's text when it is a known string (a handler or command name). */
function constName(v: Value | undefined): string | undefined {
  return v ? asString(v) : undefined;
}

/** The first argument that is a string the emulator decoded (not plain text in the source). */
function decodedArgument(args: readonly Value[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.k === 'str' && a.dec !== undefined) return a.v;
  }
  return undefined;
}

/** Whether assigning `b` over `a` changes nothing the emulation could tell apart. */
function sameState(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'str':
    case 'num':
    case 'bool':
      return a.v === (b as typeof a).v && taintOf(a) === taintOf(b);
    case 'nil':
      return true;
    case 'unk':
      return a.taint === (b as typeof a).taint && a.partial === (b as typeof a).partial;
    default:
      return false;
  }
}

const noLiteralIdTable = (): boolean => false;

/** A field's name as the text of the string value `str(name)` would make of it. */
function fieldName(name: string): string {
  return name.length > MAX_STRING ? name.slice(0, MAX_STRING) : name;
}

/**
 * `b[key]` for a base that is neither a table nor an API value, given the key's text when the
 * key is a string: what `a.b` reads on such a base without a value made for the key.
 */
function indexOther(b: Value, key: string | undefined): Value {
  if (b.k === 'str') {
    // ("x"):method — string methods resolve to the string library.
    if (key !== undefined && STRING_METHODS.has(key))
      return apiValue(apiName('string.', key), 'direct');
    return NIL;
  }
  if (b.k === 'unk') {
    // `player.GetAll()[i]`: one of every player.
    if (b.everyone && key === undefined) return EVERY_PLAYER;
    // `files[i]` of what game.MountGMA mounted from a download: one of those files.
    if (b.downloaded && key === undefined) return { k: 'unk', taint: b.taint, downloaded: true };
    if (key !== undefined && WATCHED_PLAYER_METHODS.has(key)) {
      const v: Value = { k: 'unk', method: apiName('Player:', key) };
      return b.taint ? withTaint(v, b.taint) : v;
    }
    return withTaint({ k: 'unk' }, b.taint);
  }
  return UNKNOWN;
}

/** Calls that hand back the identity they are given, as a number or as text. */
const IDENTITY_WRAPPERS = new Set([
  'tonumber',
  'tostring',
  'string.lower',
  'string.upper',
  'string.Trim',
  // A hash of the ID still tells one player from the others (`util.CRC(ply:SteamID())`).
  'util.CRC',
  'util.MD5',
  'util.SHA1',
  'util.SHA256',
  'util.Base64Encode',
]);

/** An admin mod's tables of bans, users and groups (see OverrideEvent.cleared). */
const MODERATION_RECORDS = /^ULib\.(bans|ucl\.(users|groups|authed))(\.|$)/;

function isEmptyTable(v: Value): boolean {
  return v.k === 'table' && v.t.hash.size === 0 && !v.t.someUnknown;
}

/** Metamethods run by operators other than `..` (see Emulator.operatorMetamethod). */
const ARITHMETIC_METAMETHODS: Record<string, string> = {
  '+': '__add',
  '-': '__sub',
  '*': '__mul',
  '/': '__div',
  '%': '__mod',
  '^': '__pow',
};
const OPERATOR_METAMETHODS = ['__lt', '__le', '__eq', ...Object.values(ARITHMETIC_METAMETHODS)];

/**
 * The APIs every addon's web requests and database connections go through (see
 * Emulator.replacedRequests): a replacement is handed their URLs, keys and passwords.
 */
const REQUEST_APIS = new Set([
  'http.Fetch',
  'http.Post',
  'HTTP',
  'mysqloo.connect',
  'tmysql.initialize',
  'tmysql.Initialize',
  'tmysql.Connect',
]);

/** A console line that runs Lua on the server, in a file's text (see maybeRescan). */
const LUA_RUN_LINE = /^[ \t]*(lua_run|ulx[ \t]+luarun)[ \t]+(.+)$/m;

/** `self:GetClientInfo(name)` of an STool (see evalCall). */
const TOOL_CLIENT_INFO: ApiValue = apiValue('Tool:GetClientInfo', 'direct');
/**
 * What an STool instance's `self` gives for a field its class does not define (unknown, as
 * for any class instance): its own object, so that `self:GetOwner()` is told apart.
 */
const TOOL_INSTANCE_FIELD: Value = { k: 'unk' };
/** `self:GetOwner()` of an STool: the player whose convars `self:GetClientInfo` reads. */
const TOOL_OWNER_RESULT: Value[] = Object.freeze([
  Object.freeze({ k: 'unk', actor: 'tool owner' }),
]) as unknown as Value[];

/** The class tables a file under entities/, weapons/ or effects/ fills (see runChunk). */
const CLASS_TABLES = new Set(['ENT', 'SWEP', 'TOOL', 'EFFECT']);

/**
 * The engine's methods of entities and weapons the emulator follows when called on a class's
 * `self` (CALL_API_SWITCH): CallOnClient, and the NetworkVars players may edit.
 */
const ENGINE_ENTITY_METHODS = new Set(['CallOnClient', 'NetworkVar', 'NetworkVarNotify']);

/** The terms of `a and b and …` (parentheses dropped), in order. */
function andTerms(e: Expression, out: Expression[]): void {
  const u = unwrap(e);
  if (u.type === 'LogicalExpression' && u.operator === 'and') {
    andTerms(u.left, out);
    andTerms(u.right, out);
  } else out.push(u);
}

/** Fields of a table looked at for the taint of a loop's entries (see restTaints). */
const MAX_ROW_FIELDS = 32;

/**
 * The taint of the keys and of the values of `entries` from the `from`-th on, a value's own
 * or its fields' when it is a table (a row of a file read): what a widened loop's variables
 * stand for.
 */
function restTaints(entries: Array<[Value, Value]>, from: number): (Taint | undefined)[] {
  let keys: Taint | undefined;
  let values: Taint | undefined;
  for (let i = from; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    keys = mergeTaint(keys, taintOf(k));
    if (v.k !== 'table') {
      values = mergeTaint(values, taintOf(v));
      continue;
    }
    let fields = 0;
    for (const field of v.t.entries().values()) {
      if (fields++ >= MAX_ROW_FIELDS) break;
      values = mergeTaint(values, taintOf(field));
    }
  }
  return [keys, values];
}

/** The folder of a Helix plugin made of several files (`plugins/radio/sv_plugin.lua`). */
const PLUGIN_FOLDER = /(?:^|\/)plugins\/[^/]+\/(?=[^/]+$)/i;

/** The folder of an entity or weapon made of several files (`entities/sent_sign/init.lua`). */
const CLASS_FOLDER = /(?:^|\/)(?:entities|weapons)\/[^/]+\/(?=[^/]+$)/i;

/** APIs that give every player on the server (see UnknownValue.everyone). */
const EVERY_PLAYER_APIS = new Set(['player.GetAll', 'player.GetHumans', 'player.Iterator']);
const EVERY_PLAYER: Value = Object.freeze({ k: 'unk', everyone: true }) as Value;
const EVERY_PLAYER_RESULT: Value[] = Object.freeze([EVERY_PLAYER]) as unknown as Value[];

/**
 * Player methods whose calls the rules watch: read off an unknown object (`local f =
 * ply.SetUserGroup`, `ply[k]`), they are remembered so that calling them is still seen.
 */
const WATCHED_PLAYER_METHODS = new Set(
  [...PLAYER_METHODS].filter((m) => isRecordedApi(apiName('Player:', m))),
);

/**
 * The scope a block runs in: a new one when the block declares locals of its own, else the
 * enclosing one. A scope no local is declared in only lengthens every look-up through it;
 * most blocks (an `if` branch, a loop body) declare none.
 */
function blockScope(body: readonly Statement[], scope: Scope): Scope {
  for (let i = 0; i < body.length; i++) {
    const st = body[i]!;
    if (st.type === 'LocalStatement' || (st.type === 'FunctionDeclaration' && st.isLocal))
      return new Scope(scope);
  }
  return scope;
}

/** An expression that gives all its values at the end of a list (a call, `...`). */
function givesValues(e: Expression): boolean {
  return (
    e.type === 'CallExpression' ||
    e.type === 'StringCallExpression' ||
    e.type === 'TableCallExpression' ||
    e.type === 'VarargLiteral'
  );
}

/**
 * The expression of a list that gives one value at most (`= 1`, `= a.b`, no `= f()` nor
 * `= ...`), null for an empty list, undefined for any other list: what evalList would give
 * as `[value]` or `[]`, for the statements that read the first value alone.
 */
function oneValue(exprs: readonly Expression[]): Expression | null | undefined {
  if (exprs.length === 0) return null;
  if (exprs.length === 1 && !givesValues(exprs[0]!)) return exprs[0]!;
  return undefined;
}

/**
 * The first name of a dotted API name (`http` of `http.Fetch`), what `split('.')[0]` gives,
 * without the array and strings of a split: most names assigned into (`ENT`) have no dot.
 */
function rootName(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

/** The file spent twice its budget, shallow walk included: nothing more of it runs. */
function stopped(fc: FileContext): boolean {
  return fc.steps > fc.budget * 2;
}

function realmOfCondition(e: Expression): Realm | undefined {
  while (e.type === 'ParenthesizedExpression') e = e.expression;
  if (e.type === 'Identifier')
    // (CLIENT_DLL and GAME_DLL: the same flags under the engine's older names.)
    return e.name === 'SERVER' || e.name === 'GAME_DLL'
      ? 'server'
      : e.name === 'CLIENT' || e.name === 'CLIENT_DLL'
        ? 'client'
        : undefined;
  if (e.type === 'UnaryExpression' && e.operator === 'not') {
    const inner = realmOfCondition(e.argument);
    return inner === 'server' ? 'client' : inner === 'client' ? 'server' : undefined;
  }
  return undefined;
}

const MAX_CALL_DEPTH = 48;
/**
 * Yields one coroutine run collects, and loop turns it takes. Past either, the run's loops
 * stop: a body that does its work in slices (a render target drawn a row at a time, work
 * paced over frames) would otherwise run its loops to the file's budget, and a generator of
 * names or a walker over handlers yields and turns far less.
 */
const MAX_YIELDS = 64;
const MAX_COROUTINE_TURNS = 2000;
/** `SteamID` for `Player:SteamID` or `?:SteamID` (an identity method, see IDENTITY_METHODS). */
function identityMethodOf(name: string): string | undefined {
  const colon = name.indexOf(':');
  if (colon < 0) return undefined;
  const m = name.slice(colon + 1);
  return IDENTITY_METHODS.has(m) ? m : undefined;
}

/**
 * Whether a condition holds exactly when a player (not the server console) is there:
 * `IsValid(ply)`, `ply:IsValid()`, `ply:IsPlayer()`, `ply ~= NULL`, or several of these
 * joined by `and`.
 */
function playerPresent(e: Expression): boolean {
  while (e.type === 'ParenthesizedExpression') e = e.expression;
  if (e.type === 'LogicalExpression')
    return e.operator === 'and' && playerPresent(e.left) && playerPresent(e.right);
  if (e.type === 'BinaryExpression')
    return (
      e.operator === '~=' &&
      ((e.right.type === 'Identifier' && e.right.name === 'NULL') ||
        (e.left.type === 'Identifier' && e.left.name === 'NULL'))
    );
  if (e.type !== 'CallExpression') return false;
  const callee = e.base;
  if (callee.type === 'Identifier') return callee.name === 'IsValid' && e.arguments.length === 1;
  return (
    callee.type === 'MemberExpression' &&
    callee.indexer === ':' &&
    (callee.identifier.name === 'IsValid' || callee.identifier.name === 'IsPlayer') &&
    e.arguments.length === 0
  );
}

/**
 * Whether a helper answers no (false or nothing) whenever a player is there, so that `if not
 * helper(ply) then return end` lets only the server console through: its body starts with
 * `if IsValid(ply) then … return false end`, or is `return not IsValid(ply)`.
 */
function refusesPlayers(fn: FunctionDeclaration): boolean {
  const first = functionBody(fn)[0];
  if (first?.type === 'ReturnStatement') {
    const e = first.arguments.length === 1 ? unwrap(first.arguments[0]!) : undefined;
    return e?.type === 'UnaryExpression' && e.operator === 'not' && playerPresent(e.argument);
  }
  if (first?.type !== 'IfStatement' || first.clauses.length !== 1) return false;
  const clause = first.clauses[0]!;
  const last = clause.body[clause.body.length - 1];
  if (!clause.condition || !playerPresent(clause.condition) || last?.type !== 'ReturnStatement')
    return false;
  const answer = last.arguments[0];
  return (
    answer === undefined ||
    answer.type === 'NilLiteral' ||
    (answer.type === 'BooleanLiteral' && !answer.value)
  );
}

/** Methods of an entity class the engine calls when a player uses or touches the entity. */
const PLAYER_TRIGGERED_ENTITY_METHODS = new Set([
  'Use',
  'AcceptInput',
  'StartTouch',
  'Touch',
  'EndTouch',
]);

/**
 * Hooks handed text a player chose: the argument's position, its kind and a label. A chat
 * line is chat, whichever hook sees it; the password a connecting client typed and the model
 * or class a player asks to spawn (`gm_spawn`, the spawn menu) are the client's own settings,
 * like a client convar.
 */
const HOOK_SENT_TEXT: Record<string, readonly [number, TaintSource['kind'], string]> = {
  PlayerSay: [1, 'chat', 'chat text (PlayerSay)'],
  PlayerSayTransform: [1, 'chat', 'chat text (PlayerSayTransform)'],
  OnPlayerChat: [1, 'chat', 'chat text (OnPlayerChat)'],
  // (On a client: what the player types into the chat box, key by key, sent or not.)
  ChatTextChanged: [0, 'chat', 'text typed into the chat box (ChatTextChanged)'],
  PlayerCanSeePlayersChat: [0, 'chat', 'chat text (PlayerCanSeePlayersChat)'],
  CheckPassword: [3, 'clientinfo', 'password a connecting client typed (CheckPassword)'],
  PlayerSpawnObject: [1, 'clientinfo', 'model a player asked to spawn (PlayerSpawnObject)'],
  PlayerSpawnProp: [1, 'clientinfo', 'model a player asked to spawn (PlayerSpawnProp)'],
  PlayerSpawnRagdoll: [1, 'clientinfo', 'model a player asked to spawn (PlayerSpawnRagdoll)'],
  PlayerSpawnEffect: [1, 'clientinfo', 'model a player asked to spawn (PlayerSpawnEffect)'],
  PlayerSpawnVehicle: [1, 'clientinfo', 'model a player asked to spawn (PlayerSpawnVehicle)'],
  PlayerSpawnSENT: [1, 'clientinfo', 'class a player asked to spawn (PlayerSpawnSENT)'],
  PlayerSpawnNPC: [1, 'clientinfo', 'class a player asked to spawn (PlayerSpawnNPC)'],
  PlayerSpawnSWEP: [1, 'clientinfo', 'weapon a player asked for (PlayerSpawnSWEP)'],
  PlayerGiveSWEP: [1, 'clientinfo', 'weapon a player asked for (PlayerGiveSWEP)'],
};

/** DarkRP's setting of ranks given by SteamID on joining (see assign). */
const DEFAULT_PLAYER_GROUPS = apiValue('DarkRP.DefaultPlayerGroups', 'table_field');

/** Where the server keeps what players upload: their sprays and custom content. */
const PLAYER_UPLOADS = /^(download\/)?user_custom\//i;
/** The engine's log files, under the game folder: `logs/L1126000.log`, `console.log`. */
const SERVER_LOGS = /^(logs\/|console\.log$)/i;

/** Methods of (D)HTML panels the page's own text reaches, with what that text is. */
const HTML_PAGE_CALLBACKS = new Map([
  ['ConsoleMessage', 'what the web page logs'],
  ['OnChangeTitle', "the web page's title"],
]);

/**
 * What a method of an HTML panel the addon made is handed by its page (HTML_PAGE_CALLBACKS),
 * or undefined. (Not a panel class's, `PANEL:ConsoleMessage`: the game's own DHTML class
 * handles its pages' messages, running Lua only for pages it was told to trust.)
 */
function pageCallback(id: MemberExpression): string | undefined {
  if (id.indexer !== ':' || (id.base.type === 'Identifier' && id.base.name === 'PANEL'))
    return undefined;
  return HTML_PAGE_CALLBACKS.get(id.identifier.name);
}

/** The identities some hooks hand over, by argument position. */
const HOOK_IDENTITIES: Record<string, ReadonlyArray<string | undefined>> = {
  PlayerAuthed: [undefined, 'SteamID', 'UniqueID'],
  CheckPassword: ['SteamID64', 'IPAddress', undefined, undefined, 'Nick'],
  NetworkIDValidated: ['Nick', 'SteamID'],
};

/** A short list of names (`{ "RunString", "CompileString" }`): values a lookup picks from. */
function holdsNamesOnly(t: LuaTable): boolean {
  const n = t.hash.size;
  if (n === 0 || n > 16 || t.someUnknown) return false;
  for (const v of t.hash.values())
    if (v.k !== 'str' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.v)) return false;
  return true;
}

/**
 * The text a player sent in the table some game events hand their hooks: field, kind, label
 * (`player_say` fires for every chat line, even one the gamemode swallows).
 */
const GAME_EVENT_SENT_TEXT: Record<string, readonly [string, TaintSource['kind'], string]> = {
  player_say: ['text', 'chat', 'chat text (player_say event)'],
};

/** The identities in the table some game events hand their hooks, by field. */
const GAME_EVENT_IDENTITIES: Record<string, ReadonlyArray<readonly [string, string]>> = {
  player_connect: [
    ['networkid', 'SteamID'],
    ['address', 'IPAddress'],
    ['name', 'Nick'],
  ],
  player_connect_client: [
    ['networkid', 'SteamID'],
    ['name', 'Nick'],
  ],
  player_activate: [['userid', 'UserID']],
  player_say: [['userid', 'UserID']],
  player_disconnect: [
    ['networkid', 'SteamID'],
    ['name', 'Nick'],
  ],
  player_changename: [
    ['oldname', 'Nick'],
    ['newname', 'Nick'],
  ],
};

/**
 * Whether a table holds a function or an API function among its first values. (A tainted
 * key reads big tables too, a language table in a loop say: their values are not all read.)
 */
function holdsFunctions(t: LuaTable): boolean {
  let n = 0;
  for (const v of t.hash.values()) {
    if (v.k === 'fn' || v.k === 'api') return true;
    if (++n >= 64) return false;
  }
  return false;
}

/** How far down a chain of `__index` tables a missing key is looked for (see fallbackField). */
const MAX_FALLBACK_LINKS = 8;
/** How many functions of a table one call under an attacker's key runs (see callEveryChoice). */
const MAX_CHOICES = 16;

/** Engine libraries and functions that always exist (truthy), beyond CORE_GLOBALS. */
const KNOWN_LIBRARIES = new Set([
  'LocalPlayer',
  'Material',
  'Model',
  'ents',
  'effects',
  'list',
  'cam',
  'mesh',
  'system',
  'coroutine',
  'navmesh',
  'physenv',
  'constraint',
  'construct',
  'duplicator',
  'undo',
  'cleanup',
  'gamemode',
  'baseclass',
  'spawnmenu',
  'language',
  'notification',
  'killicon',
  'usermessage',
  'umsg',
  'achievements',
  'ai',
  'hammer',
  'drive',
  'frame_blend',
  'matproxy',
  'motionsensor',
  'presets',
  'saverestore',
  'search',
  'serverlist',
  'sql',
  'utf8',
  'widgets',
  'isnumber',
  'isbool',
  'isvector',
  'isangle',
  'isentity',
  'ispanel',
  'ColorAlpha',
  'ScrW',
  'ScrH',
  'FrameTime',
  'RealTime',
  'Format',
  'Msg',
  'MsgN',
  'ErrorNoHalt',
  'PrintTable',
  'PrintMessage',
  'ServerLog',
  'CreateConVar',
  'CreateClientConVar',
  'AddCSLuaFile',
  'EmitSound',
  'Lerp',
  'LerpVector',
  'DamageInfo',
  'EffectData',
  'Sound',
  'SoundDuration',
  'VGUIRect',
  'Derma_Message',
  'Derma_Query',
  'DermaMenu',
  'CurTime',
  'HSVToColor',
  'ColorToHSV',
  'SortedPairs',
  'SortedPairsByMemberValue',
  'RandomPairs',
  'IsFirstTimePredicted',
  'GetGlobalInt',
  'GetGlobalString',
  'GetGlobalBool',
  'SetGlobalInt',
  'SetGlobalString',
  'SetGlobalBool',
  'collectgarbage',
  'rawequal',
  'assert',
  'gcinfo',
  'newproxy',
  'module',
  'package',
  'Either',
  'UTIL',
]);
const MAX_LOOP = 200_000;
/** Iterations of a loop whose body has unknown branches before it is left (see iterate). */
const UNCERTAIN_LOOP = 16;
/**
 * Iterations in a row that learn nothing new after which a loop with unknown branches is
 * left, its remaining iterations explored once with unknown loop variables (see iterate).
 */
const QUIET_ITERATIONS = 2;

/** A loop under way (see Emulator.iterate). */
interface LoopState {
  /** The file's steps when the loop started: one loop spends at most half the budget. */
  since: number;
  /** Iterations in a row that changed nothing that outlives them. */
  quiet: number;
  /** Locals declared and tables made before the current iteration started. */
  declaredFloor: number;
  tableFloor: number;
}

interface Deferred {
  fn: FnValue;
  args: Value[];
  ctx: Ctx;
  fc: FileContext;
  /**
   * Which closure of a callback registered under the same label this is, 0 for the first
   * (see defer): the others hold upvalues of their own.
   */
  again: number;
}

/** APIs that register a handler or a name: reported at the addon's own call site. */
const REGISTRATIONS = new Set([
  'net.Receive',
  'util.AddNetworkString',
  'concommand.Add',
  'hook.Add',
  'timer.Create',
]);

/**
 * What the emulator needs to know about an API name when it is called: the answers of the
 * tables and sets of api.ts and builtins.ts, looked up once per name. Names are interned
 * (see apiName), so one map look-up replaces a dozen of them per call.
 */
interface ApiInfo {
  /** The name these answers are for. */
  name: string;
  builtin: ((args: Value[]) => Value[]) | undefined;
  gsub: boolean;
  recorded: boolean;
  /** A name in callApi's own switch. */
  special: boolean;
  /** A name in dispatchCallbacks' switch (its callbacks take their own parameters). */
  callbacks: boolean;
  /** Its arguments may carry code to analyse again (see maybeRescan). */
  rescan: boolean;
  source: (typeof SOURCE_CALLS)[string] | undefined;
  /** Returns a compiled function (CompileString, loadstring…). */
  compiler: boolean;
  sanitizer: boolean;
  /** Still recorded past the cap on call events (see recordCall). */
  strong: boolean;
  registration: boolean;
  /**
   * As a global, a name the engine does not provide (nor a constant-like `ALL_CAPS` name):
   * its value may well be nil. (Kept with the rest of the name's answers, so that a global
   * read and the call of it on a first visit share one look-up by name.)
   */
  free: boolean;
  /** Which identity of a player a method call gives (`Player:SteamID` → `SteamID`). */
  identity: string | undefined;
  /** A number read off the network (NUMBER_RESULTS). */
  numberFrom: 'net' | undefined;
  /** Finds a player by what it is given (PLAYER_PICKERS). */
  picksPlayer: boolean;
  /** Every player on the server (EVERY_PLAYER_APIS). */
  everyPlayer: boolean;
  /** Checks a player's rank or permission (`Player:IsSuperAdmin`): its answer is a guard. */
  rankCheck: boolean;
  /** Reads or writes a value kept by key on an entity or the game (see stateAccessOf). */
  state: StateAccess;
  /**
   * The console command whose Lua callback this is, read from `concommand.GetTable()`
   * (see consoleCallback).
   */
  consoleCommand: string | undefined;
}

/**
 * What `concommand.GetTable()` gives: the Lua callbacks of every console command by name.
 * `concommand.GetTable().ulx` is ULX's own dispatcher.
 */
const CONSOLE_CALLBACKS = 'concommand.GetTable()';
const CONSOLE_CALLBACK_PREFIX = `${CONSOLE_CALLBACKS}.`;
/** Entries of a list `table.sort` puts in order (see Emulator.sortValues). */
const MAX_SORTED = 64;
/** Words of a console command called through its callback that are looked at. */
const MAX_CONSOLE_WORDS = 32;

/** What a call does with the values kept by key (see Emulator.keptState). */
const enum StateAccess {
  None = 0,
  /** `ent:SetNWString(key, v)`, `SetGlobalString(key, v)`… */
  SetNetworked = 1,
  /** `ent:GetNWString(key, default)`, `GetGlobalString(key)`… */
  GetNetworked = 2,
  /** `ent:SetKeyValue(key, v)` */
  SetKeyValue = 3,
  /** `ent:GetKeyValues()` */
  GetKeyValues = 4,
  /** `cookie.Set(key, v)`: the client's own store, kept across sessions */
  SetCookie = 5,
  /** `cookie.GetString(key, default)`, `cookie.GetNumber(key, default)` */
  GetCookie = 6,
  /** `util.SetPData(id, key, v)`, `ply:SetPData(key, v)`: the server's SQLite, kept across restarts */
  SetPData = 7,
  /** `util.GetPData(id, key, default)`, `ply:GetPData(key, default)` */
  GetPData = 8,
  /** `list.Set(list, key, v)`, `list.Add(list, v)`: the game's named lists */
  SetList = 9,
  /** `list.Get(list)`, `list.GetForEdit(list)` */
  GetList = 10,
  /** `util.AddNetworkString(name)`: the engine's string table, which every client receives */
  AddNetworkString = 11,
  /** `util.NetworkIDToString(id)` */
  NetworkString = 12,
}

/**
 * Where keptState keeps what the names of network strings made at run time carried, under a
 * key no Lua name can be: a client reading the table by number may read any of them.
 */
const NETWORK_STRING_NAMES = '\0network strings';

/** Networked and global variables, as methods of an unknown object or as globals. */
const NETWORKED_VARIABLE =
  /^(?:\?:)?(Set|Get)(?:NW2?|Networked|Global2?)(?:String|Var|Int|Float|Bool|Entity|Angle|Vector)$/;

function stateAccessOf(name: string): StateAccess {
  if (name === '?:SetKeyValue') return StateAccess.SetKeyValue;
  if (name === '?:GetKeyValues') return StateAccess.GetKeyValues;
  if (name === 'cookie.Set') return StateAccess.SetCookie;
  if (name === 'cookie.GetString' || name === 'cookie.GetNumber') return StateAccess.GetCookie;
  if (name === 'util.SetPData' || name === 'Player:SetPData') return StateAccess.SetPData;
  if (name === 'util.GetPData' || name === 'Player:GetPData') return StateAccess.GetPData;
  if (name === 'list.Set' || name === 'list.Add') return StateAccess.SetList;
  if (name === 'list.Get' || name === 'list.GetForEdit') return StateAccess.GetList;
  if (name === 'util.AddNetworkString') return StateAccess.AddNetworkString;
  if (name === 'util.NetworkIDToString') return StateAccess.NetworkString;
  const m = NETWORKED_VARIABLE.exec(name);
  if (m === null) return StateAccess.None;
  return m[1] === 'Set' ? StateAccess.SetNetworked : StateAccess.GetNetworked;
}

/** The methods of a ULX command object the emulator follows (see Emulator.ulxCommand). */
const ULX_ADD_PARAM = 'ULib.cmds.TranslateCommand:addParam';
const ULX_DEFAULT_ACCESS = 'ULib.cmds.TranslateCommand:defaultAccess';

/** A ULX command's handler, waiting in drain's queue, and its context without a rank check. */
interface UlxCommand {
  d: Deferred;
  open: Ctx;
}

/** The methods of a SAM command builder the emulator follows (see Emulator.samCommand). */
const SAM_SET_PERMISSION = 'sam.command:SetPermission';
const SAM_ADD_ARG = 'sam.command:AddArg';
const SAM_ON_EXECUTE = 'sam.command:OnExecute';
/** Any other method of the builder: it hands the builder back for the next one. */
const SAM_CHAINED = 'sam.command:chained';

/** A SAM command being built (`sam.command.new("x"):SetPermission(…):AddArg(…):OnExecute(fn)`). */
interface SamCommand {
  name: string | undefined;
  /** What the handler is handed after the calling player, as AddArg declares it. */
  params: Value[];
  /** The rank SetPermission gives the command by default ('' before any SetPermission). */
  rank: string | undefined;
  d: Deferred | undefined;
  open: Ctx;
}

/** SAM argument types whose value is the caller's own words (a rank is any rank's name). */
const SAM_TEXT_ARGS = new Set(['text', 'rank']);

/**
 * Every name of callApi's own switch, and below every name of dispatchCallbacks' switch: the
 * switches are entered only for names listed here (a string switch compares the name with
 * each case in turn). A case added to a switch must be added to its list too.
 */
const CALL_API_SWITCH = new Set([
  'concommand.GetTable',
  'table.sort',
  'debug.getupvalue',
  '?:CallOnClient',
  '?:NetworkVar',
  '?:NetworkVarNotify',
  'ents.Create',
  'gmod.GetGamemode',
  'getfenv',
  'debug.getfenv',
  'setfenv',
  'debug.setfenv',
  'debug.getregistry',
  'FindMetaTable',
  'rawget',
  'setmetatable',
  'getmetatable',
  'select',
  'table.insert',
  'table.remove',
  'pcall',
  'xpcall',
  'include',
  'ipairs',
  'pairs',
  'SortedPairs',
  'RandomPairs',
  'string.gmatch',
  'utf8.codes',
  'language.GetPhrase',
  'AddCSLuaFile',
  'coroutine.wrap',
  'coroutine.create',
  'coroutine.resume',
  'coroutine.yield',
  'ulx.command',
  'ULib.cmds.TranslateCommand',
  ULX_ADD_PARAM,
  ULX_DEFAULT_ACCESS,
  'sam.command.new',
  SAM_SET_PERMISSION,
  SAM_ADD_ARG,
  SAM_ON_EXECUTE,
  SAM_CHAINED,
  'ix.command.Add',
  'FAdmin.Commands.AddCommand',
  'serverguard.command.Add',
  'rawset',
  'game.MountGMA',
]);

const CALLBACK_SWITCH = new Set([
  'usermessage.Hook',
  'sound.PlayURL',
  'sound.PlayFile',
  'CAMI.PlayerHasAccess',
  'CAMI.SteamIDHasAccess',
  'http.Fetch',
  'http.Post',
  'HTTP',
  'CHTTP',
  'reqwest',
  'steamworks.Download',
  'steamworks.DownloadUGC',
  'steamworks.FileInfo',
  'net.Receive',
  'concommand.Add',
  'hook.Add',
  'DarkRP.defineChatCommand',
  'duplicator.RegisterEntityModifier',
  'file.AsyncRead',
  '?:AddFunction',
  'hook.Run',
  'hook.Call',
  'gamemode.Call',
  'timer.Simple',
  'timer.Create',
  'timer.Adjust',
  'cvars.AddChangeCallback',
  'net.ReadStream',
]);

const apiInfos = new Map<string, ApiInfo>();

function apiInfo(name: string): ApiInfo {
  let info = apiInfos.get(name);
  if (info !== undefined) return info;
  // (The same expressions as before this table existed, `in` and plain-object look-ups
  // included, so that every name gets the same answers.)
  const exec = name in EXEC_SINKS;
  const consoleCommand = name.startsWith(CONSOLE_CALLBACK_PREFIX)
    ? name.slice(CONSOLE_CALLBACK_PREFIX.length)
    : undefined;
  info = {
    name,
    builtin: BUILTINS[name],
    gsub: name === 'string.gsub',
    recorded: isRecordedApi(name),
    special: CALL_API_SWITCH.has(name) || consoleCommand !== undefined,
    callbacks: CALLBACK_SWITCH.has(name),
    rescan: exec || FILE_WRITE_SINKS.has(name) || CONSOLE_SINKS.has(name),
    source: SOURCE_CALLS[name],
    compiler:
      exec &&
      (name === 'CompileString' ||
        name === 'loadstring' ||
        name === 'load' ||
        name === 'CompileFile'),
    sanitizer: SANITIZERS.has(name),
    strong: exec || CONSOLE_SINKS.has(name) || PRIVILEGE_SINKS.has(name),
    registration: REGISTRATIONS.has(name),
    free: !CORE_GLOBALS.has(name) && !/^[A-Z_]+$/.test(name) && !KNOWN_LIBRARIES.has(name),
    // (Answered here once per name: at every call of an unknown API, a slice of the name and
    // a look-up of a fresh string in a plain object cost about 1 % of the whole scan.)
    identity: identityMethodOf(name),
    numberFrom: Object.hasOwn(NUMBER_RESULTS, name) ? NUMBER_RESULTS[name] : undefined,
    picksPlayer: PLAYER_PICKERS.has(name),
    everyPlayer: EVERY_PLAYER_APIS.has(name),
    rankCheck: isAdminCheckName(name.slice(name.search(/[^.:]*$/))),
    state: stateAccessOf(name),
    consoleCommand,
  };
  // Hostile code can make endless distinct names: the table stays bounded.
  if (apiInfos.size < 100_000) apiInfos.set(name, info);
  return info;
}

/** What a method name means called on a string or on an unknown object (see evalCall). */
class MethodNames {
  readonly string: boolean;
  readonly player: boolean;
  private stringName: string | undefined;
  private unknownName: string | undefined;
  constructor(readonly method: string) {
    this.string = STRING_METHODS.has(method);
    this.player = PLAYER_METHODS.has(method);
  }
  private stringInfo: ApiInfo | undefined;
  private unknownInfo: ApiInfo | undefined;
  /** `string.sub` for `s:sub()`. */
  inString(): string {
    return (this.stringName ??= apiName('string.', this.method));
  }
  /** `Player:SteamID` for a player method, `?:SetPos` for any other. */
  onUnknown(): string {
    return (this.unknownName ??= apiName(this.player ? 'Player:' : '?:', this.method));
  }
  /** The ApiInfo of inString(), kept here to save callApi its look-up. */
  inStringInfo(): ApiInfo {
    return (this.stringInfo ??= apiInfo(this.inString()));
  }
  /** The ApiInfo of onUnknown(). */
  onUnknownInfo(): ApiInfo {
    return (this.unknownInfo ??= apiInfo(this.onUnknown()));
  }
  /**
   * The callee inString() names, made once: evalCall hands it to callApi alone, which only
   * reads it (it is never stored nor returned), so no two calls can tell they shared it.
   */
  inStringCallee(): ApiValue {
    return (this.stringCallee ??= apiValue(this.inString(), 'direct'));
  }
  /** The callee onUnknown() names, made once (see inStringCallee). */
  onUnknownCallee(): ApiValue {
    return (this.unknownCallee ??= apiValue(this.onUnknown(), 'direct'));
  }
  private stringCallee: ApiValue | undefined;
  private unknownCallee: ApiValue | undefined;
}

const methodNameTable = new Map<string, MethodNames>();

/**
 * Whether a name partly known (`"PartyMode_«?»_Start"`, see UnknownValue.partial) may be
 * `name`: its known start and end are the name's. Otherwise it may be any name.
 */
function mayName(partial: string | undefined, name: string): boolean {
  // (A partial text without an unknown part stands for a default, `verb or "deny"`: the
  // value may be anything else.)
  if (partial === undefined || !partial.includes('«?»')) return true;
  const pieces = partial.split('«?»');
  return name.startsWith(pieces[0]!) && name.endsWith(pieces[pieces.length - 1]!);
}

/**
 * What a global named by the attacker may be (`_G[net.ReadString()]`): called, it stands for
 * the worst of them, RunString (see Emulator.callEveryChoice). Never written to.
 */
const ANY_GLOBAL = new LuaTable();
ANY_GLOBAL.setName('RunString', apiValue('RunString', 'decoded'));
ANY_GLOBAL.readOnly = true;

/** Handlers whose reads of the addon's state are kept for a second look (see Emulator.drain). */
const MAX_READERS = 5000;

/** Registrations of one callback run at most (see Emulator.defer). */
const MAX_REGISTRATIONS = 6;
/** Closures of one callback, each with upvalues of its own, that run under one label. */
const MAX_SCOPES = 4;

/**
 * What a variable holds after a branch that may not have run assigned it `next`: the value
 * before may still be there. Attacker data stays attacker data through a default filled in
 * (`if tbl == "" then tbl = "inv" end`); otherwise the branch's value is kept, as before.
 */
function keepTaint(before: Value, next: Value): Value {
  const taint = taintOf(before);
  if (taint === undefined || before === next) return next;
  const text = textOf(next);
  return {
    k: 'unk',
    taint: mergeTaint(taint, taintOf(next)),
    ...(text !== undefined ? { partial: text } : {}),
  };
}

/** `x == "lit"` (or `~=`): the string literal and the other side. */
function literalComparison(
  e: Expression,
  operator: '==' | '~=',
): { literal: StringLiteral; other: Expression } | undefined {
  if (e.type !== 'BinaryExpression' || e.operator !== operator) return undefined;
  if (e.right.type === 'StringLiteral') return { literal: e.right, other: e.left };
  if (e.left.type === 'StringLiteral') return { literal: e.left, other: e.right };
  return undefined;
}

/** One hook.Run of the addon's own event with attacker data (see dispatchCallbacks). */
interface HookRun {
  args: Value[];
  fc: FileContext;
  ctx: Ctx;
}

/** What a workshop item's details are labelled, as its publisher's text (see steamworks.FileInfo). */
const FILE_INFO_RESULT = 'steamworks.FileInfo result';

/** Taint kinds a player sends (see passwordBypassOf). */
const PLAYER_SENT = new Set(['concommand', 'chat', 'net']);

/**
 * Whether `body` tests the name `name` for equality with what may be a sink's name: a
 * computed text (`"Run" .. "String"`, a decoder's result) or the literal name of one of
 * GLOBALS_SEARCHED (not inside nested functions). A listing that skips some names
 * (`k ~= "_G"`, `k == "_R"`) searches for none. The name may be hashed or changed first
 * (`util.CRC(k) == "2906964782"`, `k:lower() == x`): then any text is what is looked for.
 */
function comparesName(body: readonly Statement[], name: string): boolean {
  const stack: Node[] = [...body];
  for (let budget = 5000; stack.length > 0 && budget > 0; budget--) {
    const n = stack.pop()!;
    if (n.type === 'BinaryExpression' && n.operator === '==') {
      const { left, right } = n;
      if (isName(left, name) || isName(right, name)) {
        const other = isName(left, name) ? right : left;
        if (other.type !== 'StringLiteral' || GLOBALS_SEARCHED.includes(other.value)) return true;
      }
      if (transformsName(left, name) || transformsName(right, name)) return true;
    }
    if (n.type !== 'FunctionDeclaration') pushChildren(stack, n, false);
  }
  return false;
}

function isName(e: Expression, name: string): boolean {
  return e.type === 'Identifier' && e.name === name;
}

/** `util.CRC(k)`, `hash(k)`, `k:lower()`: a text made from the name (not `type(k)`). */
function transformsName(e: Expression, name: string): boolean {
  if (e.type !== 'CallExpression') return false;
  const base = e.base;
  if (base.type === 'MemberExpression' && base.indexer === ':') return isName(base.base, name);
  const first = e.arguments[0];
  return (
    first !== undefined &&
    isName(first, name) &&
    !(base.type === 'Identifier' && (base.name === 'type' || base.name === 'TypeID'))
  );
}

/** The globals a loop over `pairs(_G)` is given (see execForGeneric). */
const GLOBALS_SEARCHED = [
  'RunString',
  'RunStringEx',
  'CompileString',
  'CompileFile',
  'loadstring',
  'BroadcastLua',
  'RunConsoleCommand',
  'http',
  'HTTP',
];

/**
 * The members a loop over a library (`pairs(http)`) is given when it compares their names,
 * as GLOBALS_SEARCHED for `_G`: a name looked up one level at a time.
 */
const MEMBERS_SEARCHED: ReadonlyMap<string, readonly string[]> = new Map([
  ['http', ['Fetch', 'Post']],
  ['game', ['ConsoleCommand']],
]);

/** Libraries and functions that compute and reach nothing outside the values they are given. */
const PURE_LIBRARIES = /^(math|string|bit|utf8)(\.[A-Za-z_]\w*)?$/;
const PURE_FUNCTIONS = new Set([
  'tonumber',
  'tostring',
  'type',
  'pairs',
  'ipairs',
  'select',
  'unpack',
  'next',
  'isnumber',
  'isstring',
  'istable',
  'Color',
  'Vector',
  'Angle',
  'CurTime',
  'RealTime',
  'SysTime',
  'os.time',
  'os.date',
  'os.clock',
  'table.concat',
  'table.insert',
  'table.remove',
  'table.sort',
  'table.Count',
]);

/**
 * An environment that gives compiled code nothing but numbers, texts and pure functions:
 * no function of the addon's (it may call anything), no metatable (an `__index` to _G
 * hands every global over), no entry the emulation does not know.
 */
function isSandbox(v: Value | undefined, depth: number): boolean {
  if (v?.k !== 'table' || depth > 2) return false;
  const t = v.t;
  if (
    t.someUnknown ||
    t.fallback ||
    t.callable ||
    t.newindex ||
    t.concat ||
    t.operators ||
    t.missing
  )
    return false;
  const entries = t.entries();
  if (entries.size > 1000) return false;
  for (const value of entries.values()) {
    switch (value.k) {
      case 'num':
      case 'str':
      case 'bool':
      case 'nil':
        continue;
      case 'api':
        if (PURE_LIBRARIES.test(value.name) || PURE_FUNCTIONS.has(value.name)) continue;
        return false;
      case 'table':
        if (isSandbox(value, depth + 1)) continue;
        return false;
      default:
        return false;
    }
  }
  return true;
}

/** Entity methods that feed an entity's inputs or keyvalues (see Emulator.entityInput). */
const ENTITY_INPUTS = new Set(['Fire', 'Input', 'SetKeyValue']);

/**
 * Answers the emulator keeps on the tree's nodes, set on a node's first visit, so that a
 * call evaluated again (a loop, a function called often) skips the look-ups by name.
 */
interface CallSite {
  /** The ApiInfo of the API this call last reached (usually the same each time). */
  emuApi?: ApiInfo;
}
interface MethodSite {
  /** The MethodNames of `a:method()`'s method. */
  emuMethod?: MethodNames;
}

/** One look-up per method call where the sets and the interned names took three. */
function methodNames(method: string): MethodNames {
  let r = methodNameTable.get(method);
  if (r === undefined) {
    r = new MethodNames(method);
    // Hostile code can make endless distinct names: the table stays bounded.
    if (methodNameTable.size < 100_000) methodNameTable.set(method, r);
  }
  return r;
}

/**
 * The calls a function already ran with (see callFunction): by file and function offset, the
 * signatures of calls with unknown arguments, and apart from them the decoded payloads handed
 * to it. Keyed by file and offset so that a call hashes its short signature, not a new key
 * with the whole path in it.
 */
class CallMemo {
  private readonly signatures = new Map<string, Map<number, Set<string>>>();
  private readonly decoded = new Set<string>();
  /** Distinct entries held. */
  size = 0;

  /** Adds a signature of the function at `offset` of `path`; false when it was there already. */
  addSignature(offset: number, path: string, signature: string): boolean {
    let byOffset = this.signatures.get(path);
    if (byOffset === undefined) {
      byOffset = new Map();
      this.signatures.set(path, byOffset);
    }
    let set = byOffset.get(offset);
    if (set === undefined) {
      set = new Set();
      byOffset.set(offset, set);
    }
    if (set.has(signature)) return false;
    set.add(signature);
    this.size++;
    return true;
  }

  /** Adds a decoded payload's key; false when it was there already. */
  addDecoded(key: string): boolean {
    if (this.decoded.has(key)) return false;
    this.decoded.add(key);
    this.size++;
    return true;
  }
}

/**
 * What the analysis answers about the addon beyond the file being emulated. One object with
 * methods rather than closures set per scan (see AddonRun in index.ts for why).
 */
export interface EmulatorHost {
  /**
   * Loads the not-yet-loaded files that define a function path (`pace.Send`); true when some
   * were loaded.
   */
  loadDefinition(path: string): boolean;
  /**
   * Loads the not-yet-loaded settings files that build tables under the global `name`
   * (`Name.Rows = { … }`); true when some were loaded.
   */
  loadSettings(name: string): boolean;
  /**
   * Runs the top level of the file `include(path)` names from the file `from`, if it is
   * one of the addon's parsed files not run yet, as the game runs it there: what it
   * defines exists from then on for the code after the include. Gives what the file
   * returns, the first time or again later.
   */
  includeFile(path: string, from: FileContext, wantResult: boolean): Value[] | undefined;
  /**
   * The text of a non-Lua file the addon ships, as `file.Read(path, where)` would read it in
   * the game (`GAME` and `MOD` from the addon's root, `DATA` under data/ and data_static/),
   * or undefined. A path with unknown parts (`«?»`, the map's name say) reads one of the
   * shipped files it matches.
   */
  readAddonFile(path: string, where: string | undefined): string | undefined;
  /** Net message names whose handlers are emulated in full (known backdoor names). */
  exhaustiveNetName(name: string): boolean;
  /**
   * The phrase the addon's translation files (`resource/localization/<lang>/*.properties`)
   * give a key, what `language.GetPhrase(key)` shows; undefined when none does.
   */
  phrase(key: string): string | undefined;
}

/** What drainHandlers keeps across its rounds: the step guard, and the handlers that read state. */
interface DrainState {
  guard: number;
  /** Handlers that read the addon's state, with what they read and the write clock after. */
  readers: Array<{ d: Deferred; tables: LuaTable[]; clock: number }>;
}

export class Emulator implements OperandFacts {
  readonly globals = new LuaTable();
  private ctx: Ctx = [];
  private uncertain = 0;
  private callDepth = 0;
  private handlerSeq = 0;
  private readonly deferred: Deferred[] = [];
  /**
   * Closures made, in order, each with its file (`home`): drain runs those never called. The
   * first of each function only: drain runs a function once, whichever closure of it, so
   * the panels a loop makes (one `DoClick` each) are not new to a loop's progress.
   */
  private readonly closures: FnValue[] = [];
  private readonly closureNodes = new Set<FunctionDeclaration>();
  /** What the analysis answers about the addon's other files (see EmulatorHost). */
  host: EmulatorHost | null = null;
  /**
   * The call under way is a statement of its own (`include("x.lua")`), its result dropped.
   * (Approximate: still set while its arguments are evaluated.)
   */
  private resultUnused = false;
  /** Calls into functions of other files under way, outermost first (see recordCall). */
  private readonly callSites: Array<{ fc: FileContext; line: number }> = [];
  /** Realm of the calling code while a shared file's function runs (see callFunction). */
  private realmHint: Realm | null = null;
  private readonly invoked = new Set<FunctionDeclaration>();
  private memo = new CallMemo();
  private readonly runCount = new Map<FunctionDeclaration, number>();
  private readonly decodedSeen = new Set<string>();
  private readonly gmTable = new LuaTable();
  /** Functions that cannot produce an event the rules read (see relevance.ts). */
  skippable: ReadonlySet<FunctionDeclaration> = new Set();
  /**
   * A `__call` or `__newindex` reaching a sink was stored in a table (`Class.__call =
   * function(self, src) CompileString(src)() end`): from then on no function is skipped, since
   * a constructor that looks harmless (`setmetatable(obj, Class)`) makes the objects that run
   * it. Rare in real addons, so the extra runs cost nothing measurable.
   */
  private sinkMetamethods = false;
  /** Functions that reach a sink (Relevance.reachesSink): the only ones worth a second run. */
  reachesSink: ReadonlySet<FunctionDeclaration> = new Set();

  constructor(
    readonly out: Pick<
      AddonAnalysis,
      'calls' | 'indexes' | 'overrides' | 'decodedStrings' | 'payloads'
    >,
    readonly maxPayloadDepth: number,
    readonly clientFiles: Set<string>,
  ) {
    this.gmTable.apiName = 'GM';
  }

  // ---------------------------------------------------------------- entry points

  /** Runs a file's top level; what it returns (`return { … }` of a module file), if anything. */
  runChunk(body: Statement[], fc: FileContext): Value[] | undefined {
    const scope = new Scope(null);
    const folder = CLASS_FOLDER.exec(fc.path)?.[0];
    const plugin = PLUGIN_FOLDER.exec(fc.path)?.[0]?.toLowerCase();
    for (const name of ['ENT', 'SWEP', 'TOOL', 'EFFECT', 'PLUGIN', 'SCHEMA']) {
      // A Helix plugin's files (sh_plugin.lua, sv_plugin.lua…) all fill one PLUGIN table,
      // the global the framework sets while it loads them. (Its client half shares it too:
      // a method still runs in its own file's realm.)
      let t = plugin !== undefined && name === 'PLUGIN' ? this.plugins.get(plugin) : undefined;
      if (t === undefined) {
        t = new LuaTable();
        t.apiName = name;
        if (plugin !== undefined && name === 'PLUGIN') this.plugins.set(plugin, t);
      }
      scope.declare(name, { k: 'table', t });
      if (folder !== undefined && (name === 'ENT' || name === 'SWEP')) {
        const halves = this.classHalves.get(folder);
        if (halves === undefined) this.classHalves.set(folder, [{ t, realm: fc.realm }]);
        else if (halves.length < 8) halves.push({ t, realm: fc.realm });
      }
    }
    const savedCtx = this.ctx;
    const savedUncertain = this.uncertain;
    const savedKey = this.decodingKey;
    this.decodingKey = 0;
    try {
      const sig = this.execBlock(body, scope, fc);
      return sig?.type === 'return' ? sig.values : undefined;
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      fc.exhausted = true;
      return undefined;
    } finally {
      this.ctx = savedCtx;
      this.uncertain = savedUncertain;
      this.decodingKey = savedKey;
    }
  }

  /** Every file's top-level code has run: the handlers are running (see drain). */
  private draining = false;

  /** Runs registered callbacks, then every function never called, each once. */
  drain(isCancelled?: () => boolean): void {
    LuaTable.stateFloor = LuaTable.clock;
    LuaTable.tracking = true;
    this.draining = true;
    try {
      this.drainHandlers(isCancelled);
    } finally {
      this.draining = false;
      LuaTable.tracking = false;
      LuaTable.reads = null;
    }
  }

  private drainHandlers(isCancelled?: () => boolean): void {
    const state: DrainState = { guard: 0, readers: [] };
    const readers = state.readers;
    this.runDeferred(state, isCancelled);
    for (let i = 0; i < this.closures.length && state.guard++ < 200_000; i++) {
      const fn = this.closures[i]!;
      const fc = fn.home!;
      if (this.invoked.has(fn.node) || stopped(fc)) continue;
      const id0 = fn.node.identifier;
      // (Handed text someone else chose, whatever they call: chat, or a web page's.)
      const sentText =
        id0 &&
        id0.type === 'MemberExpression' &&
        (id0.identifier.name === 'PlayerSay' || pageCallback(id0) !== undefined);
      if (!sentText && this.skippable.has(fn.node) && !this.replacedRequests.has(fn.node)) continue;
      if (isCancelled?.()) return;
      const { args, ctx } = this.gamemodeHookCall(fn, fc);
      this.invokeTop(fn, args, ctx, fc);
      this.runDeferred(state, isCancelled);
    }
    // A handler that reaches a sink and read the addon's state before a later one stored
    // attacker data in it (an HTTP reply kept for a timer that runs it, a receiver's queue a
    // Think hook compiles) runs once more, as the game would run it again: its earlier calls
    // are no answer now.
    // (Not on a client: there the state comes from the server. The exceptions are the
    // client's own cookie store, whose cache is run on its next join, and a web reply kept
    // in a networked variable, which the server sets for every client to read.)
    // (Loops, not callbacks: see SharedViews.callsWhere on closures made per scan.)
    const again: DrainState['readers'] = [];
    for (const r of readers) {
      if (!this.reachesSink.has(r.d.fn.node)) continue;
      const changed =
        r.d.fc.realm === 'client'
          ? (r.tables.includes(this.cookies) && this.cookies.changedAt > r.clock) ||
            (r.tables.includes(this.networked) && this.networkedFromWebAt > r.clock)
          : changedSince(r.tables, r.clock);
      if (changed) again.push(r);
    }
    if (again.length === 0) return;
    this.memo = new CallMemo();
    for (const { d } of again) {
      if (isCancelled?.()) return;
      if (stopped(d.fc)) continue;
      this.invokeTop(d.fn, d.args, d.ctx, d.fc, d.again);
      this.runDeferred(state, isCancelled);
    }
  }

  /**
   * Runs the handlers deferred so far, and those they defer in turn. A method rather than a
   * closure of drainHandlers: see EmulatorHost.
   */
  private runDeferred(state: DrainState, isCancelled?: () => boolean): void {
    const readers = state.readers;
    while (this.deferred.length && state.guard++ < 100_000) {
      if (isCancelled?.()) return;
      const d = this.deferred.shift()!;
      if (stopped(d.fc)) continue;
      const tables: LuaTable[] = [];
      LuaTable.reads = tables;
      LuaTable.readRun++;
      // (The clock before the run: what a handler stores for its own next run, a request
      // loop's answers gathered until the last one, counts as a later handler's would.)
      const clock = LuaTable.writes;
      try {
        this.invokeTop(d.fn, d.args, d.ctx, d.fc, d.again);
      } finally {
        LuaTable.reads = null;
      }
      if (tables.length > 0 && readers.length < MAX_READERS) readers.push({ d, tables, clock });
    }
  }

  /**
   * The arguments and context a never-called function runs with from drain. A method
   * (`function GM:PlayerSay(ply, text)`) takes its object first, as a call with `:` would
   * hand it. A gamemode hook declared as a method (`GM:PlayerSay`, `GAMEMODE:PlayerAuthed`)
   * receives what the game hands that hook, as `hook.Add` does: the chat text, or a joining
   * player's identities.
   */
  private gamemodeHookCall(fn: FnValue, fc: FileContext): { args: Value[]; ctx: Ctx } {
    const id = fn.node.identifier;
    const params = fn.node.parameters;
    const isMethod = id?.type === 'MemberExpression' && id.indexer === ':';
    const args: Value[] = [];
    if (isMethod) args.push(this.instanceOf(fn, id));
    for (let i = 0; i < params.length; i++) args.push(UNKNOWN);
    // A replaced http.Fetch, http.Post or HTTP is handed every addon's requests.
    const replaced = this.replacedRequests.get(fn.node);
    if (replaced !== undefined) {
      const what = replaced.startsWith('http') || replaced === 'HTTP' ? 'request' : 'connection';
      const request = this.taintValue(
        'requests',
        `every addon's ${replaced} ${what} (${replaced} replaced)`,
        fc,
        fn.node.line,
      );
      for (let i = 0; i < args.length; i++) args[i] = request;
      return {
        args,
        ctx: [this.frame('handler', `${replaced} replaced`, fc, fn.node.line, replaced, replaced)],
      };
    }
    if (id?.type !== 'MemberExpression' || id.base.type !== 'Identifier') return { args, ctx: [] };
    const owner = id.base.name;
    const hook = id.identifier.name;
    // A replaced `concommand.Run(ply, cmd, args, argStr)` is the dispatcher of every Lua
    // console command: it gets what any player types in their console.
    if (owner === 'concommand' && hook === 'Run' && !isMethod) {
      const words = this.taintValue(
        'concommand',
        'arguments of any console command',
        fc,
        fn.node.line,
      );
      for (let i = 1; i < args.length; i++) args[i] = words;
      return {
        args,
        ctx: [this.frame('handler', 'concommand.Run', fc, fn.node.line, 'concommand.Add', '*')],
      };
    }
    // An entity's Use, touch and input methods run for whichever player presses E on it or
    // walks into it: what they do, any player can set off.
    if (owner === 'ENT' && PLAYER_TRIGGERED_ENTITY_METHODS.has(hook))
      return {
        args,
        ctx: [this.frame('handler', `ENT:${hook}`, fc, fn.node.line, `ENT:${hook}`, hook)],
      };
    // An HTML panel's `ConsoleMessage` (`console.log` of the page) and `OnChangeTitle`: text
    // the page chooses, and the page is what the web host serves.
    const pageText = pageCallback(id);
    if (pageText !== undefined && params.length > 0 && this.opensWebPages()) {
      args[1] = this.taintValue('http', `${pageText} (${hook})`, fc, fn.node.line);
      return {
        args,
        ctx: [this.frame('handler', `DHTML:${hook}`, fc, fn.node.line, `DHTML:${hook}`, hook)],
      };
    }
    if (owner !== 'GM' && owner !== 'GAMEMODE') {
      // (A PlayerSay method of any table is still handed chat text: a gamemode's table may
      // go by another name.)
      if (hook !== 'PlayerSay') return { args, ctx: [] };
    }
    const first = isMethod ? 1 : 0;
    let handled = false;
    const sent = HOOK_SENT_TEXT[hook];
    if (sent && sent[0] < params.length) {
      args[first + sent[0]] = this.taintValue(sent[1], sent[2], fc, fn.node.line);
      handled = true;
    }
    const ids = HOOK_IDENTITIES[hook];
    if (ids)
      ids.forEach((identity, i) => {
        if (identity && i < params.length) {
          args[first + i] = identityValue(identity, undefined, fc.realm);
          handled = true;
        }
      });
    if (PLAYER_KEY_HOOKS.has(hook)) handled = true;
    const ctx: Ctx = handled
      ? [this.frame('handler', hook, fc, fn.node.line, `hook.Add:${hook}`, hook)]
      : [];
    return { args, ctx };
  }

  /**
   * Whether the addon opened a web page in a panel (`html:OpenURL("https://…")`): what such a
   * page logs is the web host's text. (Not the game's own pages, `asset://` ones, nor HTML
   * the addon sets itself.) Asked only of the rare page callbacks an addon defines.
   */
  private opensWebPages(): boolean {
    for (const c of this.out.calls) {
      if (c.api !== '?:OpenURL') continue;
      // (A URL not known, such as one from the addon's settings, counts as the web's.)
      const url = c.args[1]?.k === 'str' ? c.args[1].v : undefined;
      if (url === undefined || /^https?:/i.test(url)) return true;
    }
    return false;
  }

  /**
   * The `self` a never-called method of an entity class runs with (`function SWEP:Deploy()`):
   * an object holding what the file put in the class's table (`SWEP.OnSkin = RunString`), its
   * other fields unknown and what the method stores on it dropped (run-time state). Other
   * methods get an unknown object.
   */
  private instanceOf(fn: FnValue, id: MemberExpression): Value {
    if (id.base.type !== 'Identifier') return UNKNOWN;
    // The gamemode has one table: `self` in `GM:PlayerButtonDown` is GM itself.
    if (id.base.name === 'GM' || id.base.name === 'GAMEMODE')
      return { k: 'table', t: this.gmTable };
    if (!CLASS_TABLES.has(id.base.name)) return UNKNOWN;
    const cls = fn.scope.lookup(id.base.name)?.value;
    if (cls?.k !== 'table' || cls.t.hash.size === 0) return UNKNOWN;
    const t = new LuaTable();
    t.hash = new Map(cls.t.hash);
    // An entity's files each fill their own ENT (shared.lua's fields, init.lua's methods):
    // an instance has those of every file of its folder loaded in the same realm.
    const folder = fn.home ? CLASS_FOLDER.exec(fn.home.path)?.[0] : undefined;
    const realm = fn.home?.realm;
    for (const half of (folder && this.classHalves.get(folder)) || [])
      if (
        half.t !== cls.t &&
        (half.realm === 'shared' || realm === 'shared' || half.realm === realm)
      )
        for (const [k, v] of half.t.hash) if (!t.hash.has(k)) t.hash.set(k, v);
    t.missing = id.base.name === 'TOOL' ? TOOL_INSTANCE_FIELD : UNKNOWN;
    t.readOnly = true;
    return { k: 'table', t };
  }

  private invokeTop(fn: FnValue, args: Value[], ctx: Ctx, fc: FileContext, again = 0): void {
    const saved = this.ctx;
    const savedU = this.uncertain;
    this.ctx = ctx;
    this.uncertain = 0;
    this.decodingKey = 0;
    this.topAgain = again;
    try {
      this.callFunction(fn, args, fc);
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      fc.exhausted = true;
    } finally {
      this.ctx = saved;
      this.uncertain = savedU;
      this.topAgain = 0;
    }
  }

  /** Which closure of one run already the handler invokeTop runs is (see Deferred.again). */
  private topAgain = 0;

  // ---------------------------------------------------------------- helpers

  /**
   * Counts steps against the file's budget. Past it the file goes shallow instead of
   * stopping, so that code after a costly (or deliberately padded) part is still seen; a
   * shallow walk costs about one step per statement, and twice the budget is the hard stop.
   */
  private tick(fc: FileContext, n = 1): void {
    fc.steps += n;
    if (fc.steps > fc.budget) {
      if (stopped(fc)) throw new BudgetExceeded();
      fc.shallow = true;
      fc.exhausted = true;
    }
  }

  private lineOf(fc: FileContext, line: number): number {
    return fc.anchorLine ?? line;
  }

  private decodedLine(fc: FileContext, line: number): string | undefined {
    if (!fc.payloadLines) return undefined;
    return (fc.payloadLines[line - 1] ?? '').trim().slice(0, 400);
  }

  /** The realm code of `fc` runs in: its file's, or its caller's when the file is shared. */
  private realmOf(fc: FileContext): Realm {
    return fc.realm === 'shared' && this.realmHint !== null ? this.realmHint : fc.realm;
  }

  /**
   * An override event with every field written, in OverrideEvent's order (`decoded`, `fn` and
   * `cleared` too when there are none): spread from a base event with fields added, events
   * took shapes V8 dropped between scans (see taintSource).
   */
  private overrideEvent(
    fc: FileContext,
    line: number,
    target: string,
    fn: FnValue | undefined,
    cleared?: true,
  ): OverrideEvent {
    if (fn !== undefined && REQUEST_APIS.has(target)) this.replacedRequests.set(fn.node, target);
    return {
      file: fc.path,
      line: this.lineOf(fc, line),
      realm: this.realmOf(fc),
      ctx: this.ctx,
      payloadDepth: fc.depth,
      decoded: this.decodedLine(fc, line),
      target,
      fn: fn?.node,
      cleared,
      // (Asked only of what a moderation function or a permission check is replaced with:
      // walking every override cost 3 % of a corpus pass.)
      spares:
        fn !== undefined &&
        (MODERATION_OVERRIDES.test(target) ||
          PERMISSION_CHECKS.test(target) ||
          IDENTITY_OVERRIDES.test(target))
          ? this.sparedBy(fn)
          : undefined,
      callerGate:
        fn !== undefined && MODERATION_OVERRIDES.test(target)
          ? callerGateIn(fn.node, (callee) => {
              const v = this.peek(callee, fn.scope);
              return v?.k === 'fn' ? v.node : undefined;
            })
          : undefined,
    };
  }

  /**
   * The literal identity comparison an override makes, itself or through the helpers it calls
   * (`if shielded(self) then return end`, `shielded` looking the ID up in a table of
   * literal IDs), judged in the scope the override closes over.
   */
  private sparedBy(fn: FnValue): string | undefined {
    const saved = this.judgeScope;
    this.judgeScope = fn.scope;
    try {
      return identityTriggersIn(
        fn.node,
        (e, id) => this.isLiteralIdTable(e, fn.scope, id),
        this,
      )[0];
    } finally {
      this.judgeScope = saved;
    }
  }

  /** An index event, made whole like overrideEvent. */
  private indexEvent(
    fc: FileContext,
    line: number,
    base: string,
    key: string | undefined,
    keyDecoded: boolean,
    plainKey: true | undefined,
    resolved: string | undefined,
  ): IndexEvent {
    return {
      file: fc.path,
      line: this.lineOf(fc, line),
      realm: this.realmOf(fc),
      ctx: this.ctx,
      payloadDepth: fc.depth,
      decoded: this.decodedLine(fc, line),
      base,
      key,
      keyDecoded,
      plainKey,
      resolved,
    };
  }

  private frame(
    kind: CtxFrame['kind'],
    label: string,
    fc: FileContext,
    line: number,
    api?: string,
    name?: string,
  ): CtxFrame {
    // One shape for every frame (see taintSource); net.Receive sets fnOffset and exhaustive.
    return {
      kind,
      label,
      api: api || undefined,
      name,
      id: kind === 'handler' ? ++this.handlerSeq : undefined,
      fnOffset: undefined,
      exhaustive: undefined,
      file: fc.path,
      line: this.lineOf(fc, line),
    };
  }

  /** The current context with a handler frame on top: what a registered callback runs under. */
  private underHandler(
    label: string,
    fc: FileContext,
    line: number,
    api?: string,
    name?: string,
  ): Ctx {
    return [...this.ctx, this.frame('handler', label, fc, line, api, name)];
  }

  private taintValue(
    kind: TaintSource['kind'],
    label: string,
    fc: FileContext,
    line: number,
    numeric = false,
  ): Value {
    const source = taintSource(
      kind,
      label,
      fc.path,
      this.lineOf(fc, line),
      undefined,
      numeric || undefined,
    );
    return { k: 'unk', taint: [source] };
  }

  /** The attacker-controlled body an HTTP request to `url` hands its success callback. */
  private httpBody(url: Value | undefined, fc: FileContext, line: number): Value {
    return this.taintValue(
      'http',
      `HTTP body of ${partialText(url ?? UNKNOWN).slice(0, 120)}`,
      fc,
      line,
    );
  }

  private recordDecoded(v: Value, fc: FileContext, line: number): void {
    if (v.k !== 'str' || !v.dec || v.v.length < 3) return;
    const key = `${fc.path}:${line}:${v.v.slice(0, 200)}`;
    if (this.decodedSeen.has(key) || this.decodedSeen.size > 50_000) return;
    this.decodedSeen.add(key);
    // (Built whole rather than spread from base's object: a spread copy's shape dies with the
    // last event of a scan, and with it the feedback of the rules reading the events, whose
    // optimised code then gave way at a later scan (xor_decoding) and was compiled again. One
    // literal, `decoded` always present, keeps one shape for as long as the code lives.)
    this.out.decodedStrings.push({
      file: fc.path,
      line: this.lineOf(fc, line),
      realm: this.realmOf(fc),
      ctx: this.ctx,
      payloadDepth: fc.depth,
      decoded: this.decodedLine(fc, line),
      text: v.v.slice(0, 4000),
      how: v.dec,
    });
  }

  /**
   * Guards, triggers and settings in an unknown condition. Most conditions are judged on
   * their tree alone, without asking what a table or function holds: those are judged once.
   */
  private judge(cond: Expression, scope: Scope): ConditionClass {
    const known = this.judged.get(cond);
    if (known !== undefined) return known;
    this.stateAsked = false;
    this.judgeScope = scope;
    const cls = classifyCondition(
      cond,
      this.literalIdTableHere,
      this.adminCheckFnHere,
      this.permissionAnswerHere,
      this,
    );
    this.judgeScope = null;
    if (!this.stateAsked) this.judged.set(cond, cls);
    return cls;
  }

  /**
   * The scope of the condition being judged, and the two questions judge asks about it, made
   * once: two closures per condition judged were most of what judging allocated.
   */
  private judgeScope: Scope | null = null;
  private readonly literalIdTableHere = (e: Expression, identity?: string): boolean =>
    this.isLiteralIdTable(e, this.judgeScope!, identity);
  private readonly adminCheckFnHere = (e: Expression): boolean =>
    this.isAdminCheckFn(e, this.judgeScope!);
  /**
   * Whether a name in the condition holds a permission answer. Asked only once a permission
   * check handed one out in this addon: asking what a name holds keeps the condition from
   * being judged once for all its runs (see judge).
   */
  private readonly permissionAnswerHere = (e: Identifier): boolean => {
    if (!this.permissionAnswers) return false;
    const v = this.peek(e, this.judgeScope!);
    if (v?.k !== 'unk' || v.granted !== true) return false;
    // (Only a yes keeps the condition from being judged once for all its runs: a name that
    // holds no answer holds none at its other runs either, but for odd code.)
    this.stateAsked = true;
    return true;
  };
  /** A permission check handed its callback an answer (see permissionAnswerHere). */
  private permissionAnswers = false;

  // What the condition being judged compares (OperandFacts): the emulator answers itself,
  // with methods rather than an object of arrow functions made per emulator (see EmulatorHost).

  identityOf(e: Expression): string | undefined {
    const v = this.peek(e, this.judgeScope!);
    if (v?.k !== 'unk' || v.identity === undefined) return undefined;
    // (As permissionAnswerHere: only a found identity makes the judgement depend on state.)
    this.stateAsked = true;
    return v.identity;
  }

  identityGateOf(callee: Expression, args: readonly Expression[]): string | undefined {
    const v = this.peek(callee, this.judgeScope!);
    if (v?.k !== 'fn') return undefined;
    // (As identityOf: only a found gate makes the judgement depend on state. Every call in a
    // condition to a function of the addon's own is asked about.)
    let gate = this.identityGateMemo.get(v.node);
    if (gate === undefined) {
      const scope = v.scope;
      gate = identityTriggersIn(v.node, (e, id) => this.isLiteralIdTable(e, scope, id))[0] ?? '';
      this.identityGateMemo.set(v.node, gate);
    }
    if (gate) {
      this.stateAsked = true;
      return gate;
    }
    // Handed an identity, the helper may compare its parameter (`inRange(ply:IPAddress())`).
    const params = v.node.parameters;
    for (let i = 0; i < args.length && i < params.length; i++) {
      const param = params[i]!;
      const identity = param.type === 'Identifier' ? identityIn(args[i]!, this) : undefined;
      if (identity === undefined) continue;
      const key = `${i}\0${identity}`;
      let memo = this.parameterGateMemo.get(v.node);
      if (memo === undefined) this.parameterGateMemo.set(v.node, (memo = new Map()));
      let found = memo.get(key);
      if (found === undefined) {
        const facts = new HelperParameter(v, (param as Identifier).name, identity, this.globals);
        const scope = v.scope;
        found =
          identityTriggersIn(v.node, (e, id) => this.isLiteralIdTable(e, scope, id), facts)[0] ??
          '';
        memo.set(key, found);
      }
      if (found) {
        this.stateAsked = true;
        return found;
      }
    }
    return undefined;
  }

  chosenBySender(e: Identifier): boolean {
    if (!pickedBySender(this.peek(e, this.judgeScope!))) return false;
    // (As identityOf: only a found pick makes the judgement depend on state.)
    this.stateAsked = true;
    return true;
  }

  constantOf(e: Expression): string | undefined {
    this.stateAsked = true;
    const v = this.peek(e, this.judgeScope!);
    if (v?.k === 'str') return v.v;
    return v?.k === 'num' && Number.isInteger(v.v) ? (v.raw ?? String(v.v)) : undefined;
  }

  /** The literal identity comparison a helper's body makes, '' for none (see identityGateOf). */
  private readonly identityGateMemo = new Map<FunctionDeclaration, string>();
  /** The same for a helper handed an identity, by parameter index and identity. */
  private readonly parameterGateMemo = new Map<FunctionDeclaration, Map<string, string>>();
  private readonly judged = new WeakMap<Expression, ConditionClass>();
  /** The condition being judged asked what the emulation knows (see judge). */
  private stateAsked = false;

  /** Whether `e` reads a table that holds literal SteamIDs. */
  private isLiteralIdTable(e: Expression, scope: Scope, identity?: string): boolean {
    this.stateAsked = true;
    const v = this.peek(e, scope);
    return v?.k === 'table' && holdsLiteralIds(v.t, false, identity);
  }

  gateOf(name: Identifier): string | undefined {
    const v = this.peek(name, this.judgeScope!);
    if (v?.k !== 'unk' || v.gate === undefined) return undefined;
    this.stateAsked = true;
    return v.gate;
  }

  private readonly settingMemo = new WeakMap<Expression, string | undefined>();

  /**
   * The owner's setting a condition reads (`Config.X`), judged on the condition's tree alone
   * (no table holds literal IDs): the same for every run of it, so judged once per condition.
   */
  private settingIn(cond: Expression): string | undefined {
    let r = this.settingMemo.get(cond);
    if (r === undefined && !this.settingMemo.has(cond)) {
      r = classifyCondition(cond, noLiteralIdTable).config;
      this.settingMemo.set(cond, r);
    }
    return r;
  }

  private readonly adminCheckMemo = new Map<FunctionDeclaration, boolean>();

  /**
   * Whether `e` reads a function whose body checks the player's rank, or a rank check kept
   * in a local (`local isSA = PLY.IsSuperAdmin`).
   */
  private isAdminCheckFn(e: Expression, scope: Scope): boolean {
    const v = this.peek(e, scope);
    if (v?.k === 'api') return apiInfo(v.name).rankCheck;
    const checks = v?.k === 'fn' && this.checksRank(v.node);
    // Every call of a condition is asked about (`IsValid(ply)`, `ply:Alive()`): a no made the
    // condition judged again at each of its runs (three judgements in four on the corpus).
    // As identityOf, only a yes depends on state, and a callee not defined yet, before the
    // handlers run (a helper of a file run later).
    if (checks || ((v === undefined || v.k === 'nil') && !this.draining)) this.stateAsked = true;
    return checks;
  }

  /** Whether a function's body checks the player's rank (or refuses players). */
  private checksRank(node: FunctionDeclaration): boolean {
    let r = this.adminCheckMemo.get(node);
    if (r === undefined) {
      // (A check for the server console only lets fewer through than any rank.)
      r = containsAdminCheck(node) || refusesPlayers(node);
      this.adminCheckMemo.set(node, r);
    }
    return r;
  }

  /** Side-effect-free look-up of a variable or field chain (for condition classification). */
  private peek(e: Expression, scope: Scope): Value | undefined {
    if (e.type === 'Identifier') return scope.lookup(e.name)?.value ?? this.globals.getName(e.name);
    if (e.type === 'MemberExpression') {
      const b = this.peek(e.base, scope);
      return b?.k === 'table' ? b.t.getName(e.identifier.name) : undefined;
    }
    if (e.type === 'IndexExpression') {
      const b = this.peek(e.base, scope);
      if (b?.k !== 'table') return undefined;
      const i = e.index;
      const k =
        i.type === 'StringLiteral'
          ? str(i.value)
          : i.type === 'NumericLiteral'
            ? num(i.value)
            : this.peek(i, scope);
      return k && (k.k === 'str' || k.k === 'num') ? b.t.get(k) : undefined;
    }
    return undefined;
  }

  // ---------------------------------------------------------------- statements

  private execBlock(body: readonly Statement[], scope: Scope, fc: FileContext): Signal {
    const savedCtx = this.ctx;
    try {
      for (let i = 0; i < body.length; i++) {
        const st = body[i]!;
        const sig = this.execStatement(st, scope, fc);
        if (sig) {
          if (this.uncertain > 0) {
            if (sig.type === 'return' && this.collecting) this.possible ??= sig.values;
            if (sig.type !== 'continue') this.exitSeen = true;
            continue;
          }
          return sig;
        }
        // `if not ply:IsSuperAdmin() then return end`: the rest of the block is guarded.
        if (st.type === 'IfStatement' && st.clauses.length === 1 && st.clauses[0]!.condition) {
          const c = st.clauses[0]!;
          // `if SERVER then return end` in a shared file: the rest runs on the other side.
          if (fc.realm === 'shared' && endsWithExit(c.body)) {
            const exits = realmOfCondition(c.condition!);
            if (exits) fc = new RealmBranch(fc, exits === 'server' ? 'client' : 'server');
          }
          if (endsWithExit(c.body) && this.lastCondUnknown) {
            // `if not ply:IsAdmin() and args[1] ~= "7f3a" then return end`: whoever sends the
            // word skips the check. A secret trigger, not a guard.
            const password = this.passwordBypassOf(c.condition!, scope);
            if (password !== undefined) {
              this.ctx = [
                ...this.ctx,
                this.frame('trigger', `"${password}" skips the check`, fc, st.line),
              ];
              continue;
            }
            const cls = this.judge(c.condition!, scope);
            // `if IsValid(ply) then return end`: only the server console goes on. (Not an exit
            // for the ranked, `if ply:GetUserGroup() == group then return end`: the rest is
            // for everyone else.)
            const guard = exitsForRanked(c.condition!)
              ? ''
              : (cls.guard ?? (playerPresent(c.condition!) ? 'server console only' : ''));
            if (guard) this.ctx = [...this.ctx, this.frame('guard', guard, fc, st.line)];
            if (cls.trigger)
              this.ctx = [...this.ctx, this.frame('trigger', cls.trigger, fc, st.line)];
            if (cls.config) this.ctx = [...this.ctx, this.frame('config', cls.config, fc, st.line)];
          } else if (endsWithExit(c.body)) {
            // `if not Config.VPNCheck then return end` with the setting read as on: the rest
            // is still the owner's to turn off, as in a branch a setting opens (execIf).
            const setting = this.settingIn(c.condition!);
            if (setting) this.ctx = [...this.ctx, this.frame('config', setting, fc, st.line)];
          }
        }
      }
      return undefined;
    } finally {
      this.ctx = savedCtx;
    }
  }

  private lastCondUnknown = false;

  /**
   * `if not IsValid(ply) then … end`: the branch runs when no player called, from the server
   * console (a console command's caller), as `if IsValid(ply) then return end` makes the rest
   * of a block. Not when the player tested is one a message named (`net.ReadEntity()`): any
   * sender can name no one.
   */
  private consoleBranch(cond: Expression, scope: Scope): boolean {
    const e = unwrap(cond);
    if (e.type !== 'UnaryExpression' || e.operator !== 'not') return false;
    const inner = unwrap(e.argument);
    if (inner.type !== 'CallExpression' || !playerPresent(inner)) return false;
    const subject = inner.base.type === 'MemberExpression' ? inner.base.base : inner.arguments[0];
    return subject?.type === 'Identifier' && !pickedBySender(this.peek(subject, scope));
  }

  /**
   * The literal an early exit's condition lets the attacker through with: one of its `and`
   * terms compares what a player sends (command arguments, chat text, a net read) with a
   * literal (`args[1] ~= "7f3a"`) and another checks rank or permission (`not
   * ply:IsAdmin()`), so sending that literal skips the check. A word with no check beside
   * it (`if args[1] ~= "!setrank" then return end`, `if t ~= "!rtv" and t ~= "rtv" then
   * return end`) names a command: what follows is for whoever types it, judged as such.
   */
  private passwordBypassOf(cond: Expression, scope: Scope): string | undefined {
    const e = unwrap(cond);
    if (e.type !== 'LogicalExpression' || e.operator !== 'and') return undefined;
    const terms: Expression[] = [];
    andTerms(e, terms);
    let password: string | undefined;
    let checked = false;
    for (const t of terms) {
      const word = this.sentWordOf(t, scope);
      if (word !== undefined) password ??= word;
      else if (!checked && this.judge(t, scope).guard !== undefined) checked = true;
    }
    return checked ? password : undefined;
  }

  /** The word `term` compares what a player sent with (`args[1] ~= "7f3a"`), if it does. */
  private sentWordOf(term: Expression, scope: Scope): string | undefined {
    const e = unwrap(term);
    const cmp = literalComparison(e, '~=');
    if (cmp === undefined || cmp.literal.value.length < 3) return undefined;
    const literal = cmp.literal;
    let sent = cmp.other;
    // `args[1]`, `text:lower()`… down to the variable holding what was sent.
    for (;;) {
      if (sent.type === 'IndexExpression' || sent.type === 'MemberExpression') sent = sent.base;
      else if (sent.type === 'CallExpression' && sent.base.type === 'MemberExpression')
        sent = sent.base.base;
      else if (sent.type === 'ParenthesizedExpression') sent = sent.expression;
      else break;
    }
    if (sent.type !== 'Identifier') return undefined;
    const taint = taintOf(scope.lookup(sent.name)?.value ?? NIL);
    return taint?.some((t) => !t.numeric && PLAYER_SENT.has(t.kind)) ? literal.value : undefined;
  }
  /** A `break`/`return` was reached in an unknown branch: a loop around it may stop there. */
  private exitSeen = false;

  /** Some code ran in an unknown branch (reset per loop iteration). */
  private uncertainSeen = false;

  /** Locals declared before the loop iteration under way (none outside loops). */
  private declaredFloor = 0;
  /**
   * The oldest local (by `born`) given a new value since the loop iteration under way began,
   * among those declared before it. The oldest rather than a count: an inner loop's floor
   * is higher, and its iteration's writes to locals the outer iteration declared are no
   * change for the outer loop (see iterate).
   */
  private oldestLocalWritten = Infinity;

  /**
   * Everything the emulation has learned or changed so far that outlives a loop iteration,
   * as one count: events and findings, functions run or registered. With no write to a
   * local or table made before the iteration (iterate), an iteration that leaves it
   * unchanged leaves the next iteration the same state, loop variables apart.
   */
  private progress(): number {
    const out = this.out;
    return (
      out.calls.length +
      out.indexes.length +
      out.overrides.length +
      out.decodedStrings.length +
      out.payloads.length +
      this.deferred.length +
      this.closures.length +
      this.invoked.size +
      this.memo.size +
      this.callSeen.size +
      this.clientFiles.size
    );
  }

  private startLoop(fc: FileContext): LoopState {
    return { since: fc.steps, quiet: 0, declaredFloor: 0, tableFloor: 0 };
  }

  /** The scope of a new iteration of `loop`, which its loop variables are declared in. */
  private iterationScope(loop: LoopState, scope: Scope): Scope {
    loop.declaredFloor = Scope.declared;
    loop.tableFloor = LuaTable.clock;
    return new Scope(scope);
  }

  /** The scope of a new iteration of a loop with no loop variables (`while`, `repeat`). */
  private bodyIterationScope(loop: LoopState, scope: Scope, body: readonly Statement[]): Scope {
    loop.declaredFloor = Scope.declared;
    loop.tableFloor = LuaTable.clock;
    return blockScope(body, scope);
  }

  /**
   * Explores the iterations of a loop that `iterate` left as converged: the body once more,
   * with the loop variables unknown and its branches uncertain. What a later iteration could
   * do differently depends on the loop variables alone (`if i == 50 then … end`).
   */
  private widenLoop(
    body: Statement[],
    scope: Scope,
    fc: FileContext,
    variables: readonly { name: string }[],
    taints?: readonly (Taint | undefined)[],
  ): void {
    const inner = new Scope(scope);
    for (let i = 0; i < variables.length; i++) {
      const taint = taints?.[i];
      inner.declare(variables[i]!.name, taint ? { k: 'unk', taint } : UNKNOWN);
    }
    this.uncertainBlock(body, inner, fc);
  }

  /**
   * Runs one loop iteration (`n` counts from 1); 'stop' when the loop must stop. The body is
   * explored with what is known; iterating on after a possible exit (`while true do … if x
   * then break end end` with x unknown), or more than a few times over a body with unknown
   * branches (whose effects on the loop state are over-approximated), only burns the budget.
   * A body with unknown branches that learns nothing new for QUIET_ITERATIONS iterations in
   * a row (see `progress`) is 'converged': the next iterations would start from the same
   * state but for the loop variables, which the caller explores once as unknown
   * (`widenLoop`). Nested loops of a drawing routine otherwise run 16 × 16 bodies.
   */
  private iterate(
    body: Statement[],
    scope: Scope,
    fc: FileContext,
    n: number,
    loop: LoopState,
  ): Signal | 'stop' | 'converged' | undefined {
    // One loop may spend at most half the file's budget (`since`: the steps when it started),
    // and none iterates again once the file went shallow: what follows the loop matters more
    // than more of the same iterations.
    if (n > 1 && (fc.shallow || fc.steps - loop.since > fc.budget / 2)) return 'stop';
    if (this.yieldSink !== null && this.coroutineTurns++ >= MAX_COROUTINE_TURNS) return 'stop';
    const exitBefore = this.exitSeen;
    const uncertainBefore = this.uncertainSeen;
    const declaredBefore = this.declaredFloor;
    const localBefore = this.oldestLocalWritten;
    const tableBefore = LuaTable.oldestWritten;
    this.exitSeen = false;
    this.uncertainSeen = false;
    this.declaredFloor = loop.declaredFloor;
    this.oldestLocalWritten = Infinity;
    LuaTable.oldestWritten = Infinity;
    const progressBefore = this.progress();
    try {
      const sig = this.execBlock(body, scope, fc);
      if (sig?.type === 'break') return 'stop';
      if (sig?.type === 'return') return sig;
      if (this.exitSeen) return 'stop';
      if (!this.uncertainSeen) return undefined;
      if (n >= UNCERTAIN_LOOP) return 'stop';
      const quiet =
        this.progress() === progressBefore &&
        this.oldestLocalWritten >= loop.declaredFloor &&
        LuaTable.oldestWritten >= loop.tableFloor;
      loop.quiet = quiet ? loop.quiet + 1 : 0;
      return loop.quiet >= QUIET_ITERATIONS ? 'converged' : undefined;
    } finally {
      this.exitSeen = exitBefore;
      this.uncertainSeen = uncertainBefore || this.uncertainSeen;
      this.declaredFloor = declaredBefore;
      // (What this iteration wrote is written in the enclosing loop's iteration too.)
      this.oldestLocalWritten = Math.min(localBefore, this.oldestLocalWritten);
      LuaTable.oldestWritten = Math.min(tableBefore, LuaTable.oldestWritten);
    }
  }

  private execStatement(st: Statement, scope: Scope, fc: FileContext): Signal {
    this.tick(fc);
    switch (st.type) {
      // (The commonest first: each case is one comparison more for those below it.)
      case 'CallStatement':
        this.resultUnused = true;
        this.evalCall(st.expression, scope, fc);
        this.resultUnused = false;
        return undefined;
      case 'LocalStatement': {
        const variables = st.variables;
        const one = oneValue(st.init);
        if (one !== undefined) {
          // (`local x = 1`: the one value, without a list of values made for it.)
          const v = one === null ? NIL : this.evalExpr(one, scope, fc);
          for (let i = 0; i < variables.length; i++) {
            const name = variables[i]!.name;
            scope.declare(name, this.aliasOf(i === 0 ? v : NIL, name, st.init[i]));
          }
          return undefined;
        }
        const values = this.evalList(st.init, scope, fc);
        for (let i = 0; i < variables.length; i++) {
          const name = variables[i]!.name;
          scope.declare(name, this.aliasOf(values[i] ?? NIL, name, st.init[i]));
        }
        return undefined;
      }
      case 'AssignmentStatement': {
        const variables = st.variables;
        const one = oneValue(st.init);
        if (one !== undefined) {
          // (`x = 1`: as for a local.)
          const v = one === null ? NIL : this.evalExpr(one, scope, fc);
          for (let i = 0; i < variables.length; i++)
            this.assign(variables[i]!, i === 0 ? v : NIL, scope, fc, st.init[i]);
          return undefined;
        }
        const values = this.evalList(st.init, scope, fc);
        for (let i = 0; i < variables.length; i++)
          this.assign(variables[i]!, values[i] ?? NIL, scope, fc, st.init[i]);
        return undefined;
      }
      case 'FunctionDeclaration': {
        const fn = this.makeClosure(st, scope, fc);
        if (st.identifier) {
          if (st.isLocal && st.identifier.type === 'Identifier') {
            scope.declare(st.identifier.name, fn);
            // a local function sees itself (recursion)
            fn.scope = scope;
          } else this.assign(st.identifier, fn, scope, fc, undefined);
        }
        return undefined;
      }
      case 'IfStatement':
        return this.execIf(st, scope, fc);
      case 'WhileStatement': {
        const loop = this.startLoop(fc);
        let n = 0;
        while (n++ < MAX_LOOP) {
          const c = isTruthy(this.evalExpr(st.condition, scope, fc));
          if (c === false) break;
          if (c === undefined) {
            return this.uncertainBlock(st.body, blockScope(st.body, scope), fc);
          }
          // (Converged: the condition reads the same state, so the next iterations are the same.)
          const sig = this.iterate(
            st.body,
            this.bodyIterationScope(loop, scope, st.body),
            fc,
            n,
            loop,
          );
          if (sig === 'stop' || sig === 'converged') break;
          if (sig?.type === 'return') return sig;
        }
        return undefined;
      }
      case 'RepeatStatement': {
        const loop = this.startLoop(fc);
        let n = 0;
        while (n++ < MAX_LOOP) {
          const inner = this.bodyIterationScope(loop, scope, st.body);
          const sig = this.iterate(st.body, inner, fc, n, loop);
          if (sig === 'stop' || sig === 'converged') break;
          if (sig?.type === 'return') return sig;
          const c = isTruthy(this.evalExpr(st.condition, inner, fc));
          if (c !== false) break;
        }
        return undefined;
      }
      case 'DoStatement':
        return this.execBlock(st.body, blockScope(st.body, scope), fc);
      case 'ForNumericStatement':
        return this.execForNumeric(st, scope, fc);
      case 'ForGenericStatement':
        return this.execForGeneric(st, scope, fc);
      case 'ReturnStatement': {
        const values = this.evalList(st.arguments, scope, fc);
        const first = values[0];
        if (first !== undefined && first.k === 'bool' && first.v) this.admitted(fc, st.line);
        return { type: 'return', values };
      }
      case 'BreakStatement':
        return BREAK;
      case 'ContinueStatement':
        return CONTINUE;
      default:
        return undefined;
    }
  }

  /**
   * A `return true` in a CheckPassword hook lets the connecting player in and skips the hooks
   * after it, the admin mod's ban check among them: recorded as an event (ADMITTED), so that
   * the rules see it under whatever gates it (a hard-coded SteamID).
   */
  private admitted(fc: FileContext, line: number): void {
    const ctx = this.ctx;
    for (let i = 0; i < ctx.length; i++) {
      if (ctx[i]!.api === 'hook.Add:CheckPassword') {
        this.recordCall(ADMITTED, apiValue(ADMITTED, 'direct'), [], fc, line, apiInfo(ADMITTED));
        return;
      }
    }
  }

  /** Runs a block whose running is not certain (an unknown branch); its signals are dropped. */
  private uncertainBlock(body: readonly Statement[], scope: Scope, fc: FileContext): Signal {
    this.uncertainSeen = true;
    this.uncertain++;
    try {
      this.execBlock(body, scope, fc);
    } finally {
      this.uncertain--;
    }
    return undefined;
  }

  private execIf(
    st: Extract<Statement, { type: 'IfStatement' }>,
    scope: Scope,
    fc: FileContext,
  ): Signal {
    this.lastCondUnknown = false;
    let anyUnknown = false;
    for (const clause of st.clauses) {
      if (!clause.condition) {
        // `if SERVER then … else … end`: the else branch is the other realm. (The first
        // condition's realm is read here only: most `if`s have no `else` in a shared file.)
        let elseFc = fc;
        if (fc.realm === 'shared') {
          const first = st.clauses[0]!.condition;
          const firstRealm = first ? realmOfCondition(first) : undefined;
          if (firstRealm)
            elseFc = new RealmBranch(fc, firstRealm === 'server' ? 'client' : 'server');
        }
        if (anyUnknown)
          return this.uncertainBlock(clause.body, blockScope(clause.body, scope), elseFc);
        return this.execBlock(clause.body, blockScope(clause.body, scope), elseFc);
      }
      const c = isTruthy(this.evalExpr(clause.condition, scope, fc));
      if (c === false) continue;
      if (c === true && !anyUnknown) {
        // A setting that happens to read as on/off here is still the owner's setting.
        const setting = this.settingIn(clause.condition);
        if (!setting) return this.execBlock(clause.body, blockScope(clause.body, scope), fc);
        const saved = this.ctx;
        this.ctx = [...this.ctx, this.frame('config', setting, fc, clause.line)];
        try {
          return this.execBlock(clause.body, blockScope(clause.body, scope), fc);
        } finally {
          this.ctx = saved;
        }
      }
      anyUnknown = true;
      const cls = this.judge(clause.condition, scope);
      const saved = this.ctx;
      if (cls.guard) this.ctx = [...this.ctx, this.frame('guard', cls.guard, fc, clause.line)];
      else if (this.consoleBranch(clause.condition, scope))
        this.ctx = [...this.ctx, this.frame('guard', 'server console only', fc, clause.line)];
      if (cls.trigger)
        this.ctx = [...this.ctx, this.frame('trigger', cls.trigger, fc, clause.line)];
      if (cls.config) this.ctx = [...this.ctx, this.frame('config', cls.config, fc, clause.line)];
      // `if CLIENT then … end` in a shared file: the branch runs in that realm only.
      let branchFc = fc;
      if (fc.realm === 'shared') {
        const realmCond = realmOfCondition(clause.condition);
        if (realmCond) branchFc = new RealmBranch(fc, realmCond);
      }
      // `if body == "z" then sweep() end`: an order from the web. What it runs is followed
      // whole, helpers the relevance found no use for included (their sink may be a name
      // decoded elsewhere: `p[act[1]]` with act[1] = string.char(66, 97, 110)).
      const order = this.remoteOrderIn(clause.condition, scope);
      if (order) this.remoteOrders++;
      try {
        this.uncertainBlock(clause.body, blockScope(clause.body, scope), branchFc);
      } finally {
        this.ctx = saved;
        if (order) this.remoteOrders--;
      }
      if (c === true) break;
    }
    this.lastCondUnknown = anyUnknown;
    return undefined;
  }

  /** The strings' metatable, once the addon asked for it (see getmetatable). */
  private stringMeta: LuaTable | null = null;
  /**
   * What the addon added to the string library, by `string.run = RunString` or through the
   * strings' metatable (`getmetatable("").__index.run = RunString`): methods of every string.
   */
  private addedToStrings: LuaTable | null = null;
  /** `ulx.cmdsByCategory` when the addon reads it without defining `ulx` (builtins.ts). */
  private ulxCategories: LuaTable | null = null;

  private stringLibrary(): LuaTable {
    if (this.addedToStrings === null) {
      this.addedToStrings = new LuaTable();
      this.addedToStrings.apiName = 'string';
    }
    return this.addedToStrings;
  }

  /** A method the addon added to every string (see addedToStrings), if any. */
  private addedStringMethod(name: string): Value | undefined {
    if (this.addedToStrings === null) return undefined;
    const v = this.addedToStrings.getName(name);
    return v.k === 'fn' || v.k === 'api' ? v : undefined;
  }

  /** Branches under way that a web reply's word opened (see execIf). */
  private remoteOrders = 0;

  /** Whether a condition compares what a web reply says with a literal (`flag == "z"`). */
  private remoteOrderIn(cond: Expression, scope: Scope): boolean {
    const e = unwrap(cond);
    if (e.type === 'LogicalExpression')
      return this.remoteOrderIn(e.left, scope) || this.remoteOrderIn(e.right, scope);
    const other = literalComparison(e, '==')?.other;
    if (other?.type !== 'Identifier') return false;
    const taint = taintOf(scope.lookup(other.name)?.value ?? NIL);
    return taint?.some((t) => t.kind === 'http') ?? false;
  }

  private execForNumeric(
    st: Extract<Statement, { type: 'ForNumericStatement' }>,
    scope: Scope,
    fc: FileContext,
  ): Signal {
    const a = asNumber(this.evalExpr(st.start, scope, fc));
    const b = asNumber(this.evalExpr(st.end, scope, fc));
    const s = st.step ? asNumber(this.evalExpr(st.step, scope, fc)) : 1;
    if (
      a === undefined ||
      b === undefined ||
      s === undefined ||
      s === 0 ||
      Math.abs((b - a) / s) > MAX_LOOP
    ) {
      const inner = new Scope(scope);
      inner.declare(st.variable.name, UNKNOWN);
      return this.uncertainBlock(st.body, inner, fc);
    }
    const loop = this.startLoop(fc);
    let n = 0;
    for (let i = a; s > 0 ? i <= b : i >= b; i += s) {
      const inner = this.iterationScope(loop, scope);
      inner.declare(st.variable.name, num(i));
      const sig = this.iterate(st.body, inner, fc, ++n, loop);
      if (sig === 'stop') break;
      if (sig === 'converged') {
        if (s > 0 ? i + s <= b : i + s >= b) this.widenLoop(st.body, scope, fc, [st.variable]);
        break;
      }
      if (sig?.type === 'return') return sig;
    }
    return undefined;
  }

  private execForGeneric(
    st: Extract<Statement, { type: 'ForGenericStatement' }>,
    scope: Scope,
    fc: FileContext,
  ): Signal {
    const its = this.evalList(st.iterators, scope, fc);
    const f = its[0];
    let entries: Array<[Value, Value]> | undefined;
    // ipairs/pairs/next over a known table are iterated for real (decoding loops).
    if (
      f?.k === 'api' &&
      (f.name === 'ipairs' || f.name === 'pairs' || f.name === 'next' || f.name === 'SortedPairs')
    ) {
      const t = its[1];
      if (t?.k === 'table') {
        entries = [];
        if (f.name === 'ipairs') {
          for (let i = 1; i <= t.t.length() && entries.length < MAX_LOOP; i++)
            entries.push([num(i), t.t.get(num(i))]);
        } else {
          for (const [k, v] of t.t.entries()) {
            if (entries.length >= MAX_LOOP) break;
            const ks = stringOfKey(k);
            const key: Value =
              typeof k === 'number' ? num(k) : ks !== undefined ? str(ks) : UNKNOWN;
            entries.push([key, v]);
          }
        }
      } else if (t && t.k === 'unk' && t.taint) {
        entries = undefined;
      } else if (
        t?.k === 'api' &&
        (t.name === '_G' || MEMBERS_SEARCHED.has(t.name)) &&
        f.name !== 'ipairs' &&
        st.variables[0] !== undefined &&
        comparesName(st.body, st.variables[0].name)
      ) {
        // Every global, searched for a sink by name (`if k == "Run".."String" then v(b)`):
        // the body runs once for each global a backdoor looks for, the way `_G[name]` gives
        // it. Only a body that compares the name: loops over every global in real addons
        // list them (`lua_find`) or wrap them, and a listing that hands each function to
        // debug.getinfo is no detour check. The same for a library's members.
        entries = [];
        const members = MEMBERS_SEARCHED.get(t.name);
        if (members === undefined)
          for (const name of GLOBALS_SEARCHED)
            entries.push([str(name), apiValue(name, 'global_table')]);
        else
          for (const name of members)
            entries.push([str(name), apiValue(`${t.name}.${name}`, 'global_table')]);
      }
    }
    if (f?.k === 'api' && f.name === 'string.gmatch') {
      const s = its[1] ? asString(its[1]) : undefined;
      const p = its[2] ? asString(its[2]) : undefined;
      const re = p !== undefined ? luaPatternToRegExp(p) : undefined;
      if (s !== undefined && re) {
        entries = [];
        // (Each match carries what its subject carried: lines of a file read are its data.)
        const taint = taintOf(its[1]!);
        for (const m of s.matchAll(re)) {
          if (entries.length >= MAX_LOOP) break;
          const caps = m.slice(1);
          entries.push([
            str(caps[0] ?? m[0], undefined, taint),
            caps[1] !== undefined ? str(caps[1], undefined, taint) : NIL,
          ]);
        }
      }
    }
    if (f?.k === 'api' && f.name === 'utf8.codes') {
      // Each character's byte position and code point (fullwidth letters turned back into
      // a name by subtracting their offset, say).
      const s = its[1] ? asString(its[1]) : undefined;
      const codes = s === undefined ? undefined : utf8Codes(s);
      if (codes !== undefined) {
        entries = [];
        for (const [pos, cp] of codes) {
          if (entries.length >= MAX_LOOP) break;
          entries.push([num(pos), num(cp)]);
        }
      }
    }
    // No known entry: the table may be filled in ways the emulator missed (`files or {}`,
    // computed keys), so the body is still explored once with unknown variables.
    if (!entries || entries.length === 0) {
      const inner = new Scope(scope);
      let t = its[1] ? taintOf(its[1]) : undefined;
      // Every global, walked (`for k, v in pairs(_G)`): what the loop reads is the server's
      // memory, other addons' settings and keys included.
      if (its[1]?.k === 'api' && its[1].name === '_G' && f?.k === 'api' && f.name !== 'ipairs')
        t = taintOf(this.taintValue('globals', 'every global (pairs(_G))', fc, st.line));
      for (const v of st.variables) inner.declare(v.name, t ? { k: 'unk', taint: t } : UNKNOWN);
      // `for _, p in ipairs(player.GetAll())`, `for _, p in player.Iterator()`: each player.
      const list = f?.k === 'unk' ? f : its[1];
      if (list?.k === 'unk' && list.everyone && st.variables[1])
        inner.declare(st.variables[1].name, EVERY_PLAYER);
      // `for _, path in ipairs(files)` over what game.MountGMA mounted from a download.
      if (list?.k === 'unk' && list.downloaded && st.variables[1])
        inner.declare(st.variables[1].name, { k: 'unk', taint: list.taint, downloaded: true });
      return this.uncertainBlock(st.body, inner, fc);
    }
    const loop = this.startLoop(fc);
    let n = 0;
    for (const [k, v] of entries) {
      n++;
      const inner = this.iterationScope(loop, scope);
      if (st.variables[0]) inner.declare(st.variables[0].name, k);
      if (st.variables[1]) inner.declare(st.variables[1].name, v);
      const sig = this.iterate(st.body, inner, fc, n, loop);
      if (sig === 'stop') break;
      if (sig === 'converged') {
        // (The entries not run still carry what they carried: rows of a file read, say.)
        if (n < entries.length)
          this.widenLoop(st.body, scope, fc, st.variables, restTaints(entries, n));
        break;
      }
      if (sig?.type === 'return') return sig;
    }
    return undefined;
  }

  private aliasOf(v: Value, name: string, init: Expression | undefined): Value {
    // `local rs = RunString`: the value stays the API, reached through an alias from now on.
    if (
      v.k === 'api' &&
      init &&
      (init.type === 'Identifier' ||
        init.type === 'MemberExpression' ||
        init.type === 'IndexExpression')
    ) {
      return apiValue(
        v.name,
        v.via === 'direct' || v.via === 'global_table' ? 'alias' : v.via,
        name,
      );
    }
    return v;
  }

  private assign(
    target: Identifier | MemberExpression | IndexExpression,
    value: Value,
    scope: Scope,
    fc: FileContext,
    init: Expression | undefined,
  ): void {
    if (target.type === 'Identifier') {
      const ref = scope.lookup(target.name);
      if (ref) {
        let next = this.aliasOf(value, target.name, init);
        if (this.uncertain > 0) next = keepTaint(ref.value, next);
        if (
          ref.born < this.declaredFloor &&
          ref.born < this.oldestLocalWritten &&
          !sameState(ref.value, next)
        )
          this.oldestLocalWritten = ref.born;
        ref.value = next;
        return;
      }
      if (CORE_GLOBALS.has(target.name) && value.k === 'fn') {
        this.out.overrides.push(this.overrideEvent(fc, target.line, target.name, value));
        return;
      }
      if (target.name === 'GM' || target.name === 'GAMEMODE') return;
      const next = this.aliasOf(value, target.name, init);
      this.globals.setName(
        target.name,
        this.uncertain > 0 ? keepTaint(this.globals.getName(target.name), next) : next,
      );
      return;
    }
    const baseV = this.evalExpr(target.base, scope, fc);
    // A field's name is used as it is, without a value made for the key (`key` stays undefined):
    // what setName and the key's text give for it are what `str(name)` would have given.
    let key: Value | undefined;
    let keyText: string | undefined;
    if (target.type === 'MemberExpression') keyText = fieldName(target.identifier.name);
    else {
      key = this.evalExpr(target.index, scope, fc);
      if (key.k === 'str') keyText = key.v;
      // `GAMEMODE.Config.DefaultPlayerGroups[sid] = "superadmin"`: DarkRP sets that group on
      // the player with this SteamID when they join, as SetUserGroup would.
      if (
        target.base.type === 'MemberExpression' &&
        target.base.identifier.name === 'DefaultPlayerGroups' &&
        value.k === 'str'
      )
        this.callApi(DEFAULT_PLAYER_GROUPS, [key, value], fc, target.line, false);
    }
    if (baseV.k === 'table') {
      const newindex = baseV.t.newindex;
      if (newindex !== undefined) {
        // A key the table does not hold yet (or one nobody knows, as a player sends it): its
        // metatable's `__newindex` takes the write.
        const k = key ?? str(keyText!);
        if ((k.k !== 'str' && k.k !== 'num') || baseV.t.get(k).k === 'nil') {
          this.callFunction(newindex, [baseV, k, value], fc, false, target.line);
          return;
        }
      }
      if (key === undefined) baseV.t.setName(keyText!, value);
      else baseV.t.set(key, value);
      // A metamethod that reaches a sink: the constructors that set it on objects must run.
      if (
        value.k === 'fn' &&
        (keyText === '__call' || keyText === '__newindex' || keyText === '__concat') &&
        this.reachesSink.has(value.node)
      )
        this.sinkMetamethods = true;
      if (
        baseV.t.apiName &&
        value.k === 'fn' &&
        keyText !== undefined &&
        CORE_GLOBALS.has(rootName(baseV.t.apiName))
      ) {
        this.out.overrides.push(
          this.overrideEvent(fc, target.line, `${baseV.t.apiName}.${keyText}`, value),
        );
      }
      return;
    }
    // A connection's callback (`function db:onConnected()`, `function q:onSuccess(data)`,
    // `function socket:onMessage(text)`): the module runs it when the connection or the query
    // ends, or a message comes, with what the far end sent.
    const received =
      keyText !== undefined && CONNECTION_CALLBACKS.has(keyText) ? receivedOn(baseV) : undefined;
    if (received !== undefined && value.k === 'fn') {
      const args: Value[] = [baseV];
      if (CONNECTION_CALLBACKS.get(keyText!)) args.push(received);
      const label = `${keyText} (connection)`;
      this.defer(value, args, fc, this.underHandler(label, fc, target.line, 'connection', keyText));
      return;
    }
    if (baseV.k === 'unk' && baseV.entityClass !== undefined && keyText !== undefined) {
      this.entityFields.setName(keyText, value);
      return;
    }
    if (baseV.k === 'api') {
      // `ULib.ucl.users[id] = { group = "superadmin", … }`: a rank given by writing ULib's own
      // record of the user, what ULib.ucl.addUser(id, allow, deny, group) does.
      if (baseV.name === 'ULib.ucl.users' && value.k === 'table')
        this.callApi(
          apiValue('ULib.ucl.addUser', 'direct'),
          [key ?? str(keyText ?? ''), UNKNOWN, UNKNOWN, value.t.getName('group')],
          fc,
          target.line,
          false,
        );
      this.assignApiField(baseV, keyText, value, fc, target.line);
    }
  }

  /** `Lib.field = value` or `rawset(Lib, "field", value)` on an API table (see assign). */
  private assignApiField(
    baseV: ApiValue,
    keyText: string | undefined,
    value: Value,
    fc: FileContext,
    line: number,
  ): void {
    // `ULib.bans[id] = nil`, `ULib.ucl.groups = {}`: an admin mod's records emptied.
    const records = `${baseV.name}.${keyText ?? '[…]'}`;
    if (MODERATION_RECORDS.test(records) && (value.k === 'nil' || isEmptyTable(value))) {
      this.out.overrides.push(this.overrideEvent(fc, line, records, undefined, true));
      return;
    }
    if (keyText === undefined) return;
    const targetName = baseV.name.startsWith('meta:')
      ? `${baseV.name.slice(5)}:${keyText}`
      : `${baseV.name}.${keyText}`;
    const root = baseV.name.startsWith('meta:') ? baseV.name : rootName(baseV.name);
    // A database module's connect replaced (`mysqloo.connect = function(host, user, pass…)`):
    // it is handed every addon's database credentials (see gamemodeHookCall).
    if (value.k === 'fn' && REQUEST_APIS.has(targetName))
      this.replacedRequests.set(value.node, targetName);
    if (
      baseV.name.startsWith('meta:') ||
      CORE_GLOBALS.has(root) ||
      baseV.name === '_G' ||
      baseV.name === '_R'
    ) {
      if (baseV.name === '_G' && !CORE_GLOBALS.has(keyText)) {
        this.globals.set(str(keyText), value);
        return;
      }
      if (baseV.name === 'string') this.stringLibrary().setName(keyText, value);
      // (ULX's commands are its functions: `function ulx.kick(…)`, then `ulx.command(…, ulx.kick)`.)
      if (baseV.name === 'ulx' && value.k === 'fn') this.ulxFunctions.set(keyText, value);
      this.out.overrides.push(
        this.overrideEvent(
          fc,
          line,
          baseV.name === '_G' ? keyText : targetName,
          value.k === 'fn' ? value : undefined,
        ),
      );
      return;
    }
    // An addon global shadowing an unknown API table (`MyAddon.x = …`): promote it.
    if (!baseV.name.includes('.') && !baseV.name.includes(':')) {
      const t = new LuaTable();
      t.apiName = baseV.name;
      if (baseV.free) t.free = true;
      t.setName(keyText, value);
      this.globals.set(str(baseV.name), { k: 'table', t });
    }
  }

  // ---------------------------------------------------------------- expressions

  private evalList(
    exprs: readonly Expression[],
    scope: Scope,
    fc: FileContext,
    first?: Value,
  ): Value[] {
    // The commonest lists are built as literals of their exact size: a list grown by `push`
    // from empty takes room for 16 values.
    const n = exprs.length;
    if (n === 0) return first === undefined ? [] : [first];
    if (n === 1 && !givesValues(exprs[0]!)) {
      const v = this.evalExpr(exprs[0]!, scope, fc);
      return first === undefined ? [v] : [first, v];
    }
    if (n === 1 && first === undefined) {
      // The values themselves: no array of values is ever changed once made.
      const vs = this.lastValues(exprs[0]!, scope, fc);
      return vs.length <= 100_000 ? vs : vs.slice(0, 100_000);
    }
    const lastGives = givesValues(exprs[n - 1]!);
    if (!lastGives) {
      // (Array literals evaluate their elements in order, as the loop below does.)
      if (first === undefined) {
        if (n === 2)
          return [this.evalExpr(exprs[0]!, scope, fc), this.evalExpr(exprs[1]!, scope, fc)];
        if (n === 3)
          return [
            this.evalExpr(exprs[0]!, scope, fc),
            this.evalExpr(exprs[1]!, scope, fc),
            this.evalExpr(exprs[2]!, scope, fc),
          ];
        if (n === 4)
          return [
            this.evalExpr(exprs[0]!, scope, fc),
            this.evalExpr(exprs[1]!, scope, fc),
            this.evalExpr(exprs[2]!, scope, fc),
            this.evalExpr(exprs[3]!, scope, fc),
          ];
      } else if (n === 2)
        return [first, this.evalExpr(exprs[0]!, scope, fc), this.evalExpr(exprs[1]!, scope, fc)];
      else if (n === 3)
        return [
          first,
          this.evalExpr(exprs[0]!, scope, fc),
          this.evalExpr(exprs[1]!, scope, fc),
          this.evalExpr(exprs[2]!, scope, fc),
        ];
    } else if (n === 2 && first === undefined) {
      // `f(x, g())`, and `self` with one call below: a call ending a list mostly gives one value.
      const a = this.evalExpr(exprs[0]!, scope, fc);
      const vs = this.lastValues(exprs[1]!, scope, fc);
      return vs.length === 1 ? [a, vs[0]!] : [a, ...vs.slice(0, 100_000)];
    } else if (n === 1) {
      const vs = this.lastValues(exprs[0]!, scope, fc);
      return vs.length === 1 ? [first!, vs[0]!] : [first!, ...vs.slice(0, 100_000)];
    }
    const out: Value[] = first === undefined ? [] : [first];
    const last = n - 1;
    for (let i = 0; i <= last; i++) {
      const e = exprs[i]!;
      if (i === last && givesValues(e)) {
        // The last expression gives all its values (Lua's multiple results).
        const vs = this.lastValues(e, scope, fc);
        if (vs.length === 1) out.push(vs[0]!);
        else out.push(...vs.slice(0, 100_000));
      } else out.push(this.evalExpr(e, scope, fc));
    }
    return out;
  }

  /** All the values of a call or `...` ending a list. */
  private lastValues(e: Expression, scope: Scope, fc: FileContext): Value[] {
    if (e.type === 'VarargLiteral')
      return scope.lookup('...')?.value.k === 'table' ? this.varargs(scope) : [UNKNOWN];
    return this.evalCall(
      e as CallExpression | StringCallExpression | TableCallExpression,
      scope,
      fc,
    );
  }

  private varargs(scope: Scope): Value[] {
    const t = scope.lookup('...')?.value;
    if (t?.k !== 'table') return [UNKNOWN];
    const out: Value[] = [];
    for (let i = 1; i <= t.t.length(); i++) out.push(t.t.get(num(i)));
    return out;
  }

  evalExpr(e: Expression, scope: Scope, fc: FileContext): Value {
    this.tick(fc);
    switch (e.type) {
      // (The commonest first: each case is one comparison more for those below it.)
      case 'Identifier':
        return this.lookupName(e, scope, fc);
      case 'CallExpression':
      case 'StringCallExpression':
      case 'TableCallExpression':
        return this.evalCall(e, scope, fc)[0] ?? NIL;
      case 'MemberExpression': {
        const b = this.evalExpr(e.base, scope, fc);
        // (A table's field is read by its name, without a value made for the key: what index
        // does for a table and a plain name.)
        if (b.k === 'table') return this.field(b.t, e.identifier.name, fc, e.line);
        if (b.k === 'api') return this.apiMember(b, e, fc, e.line);
        // A field of an entity the addon made (see entityFields).
        if (b.k === 'unk' && b.entityClass !== undefined) {
          const kept = this.entityFields.getName(fieldName(e.identifier.name));
          if (kept.k !== 'nil') return kept;
        }
        return indexOther(b, e.identifier.name);
      }
      // (A literal's value is made at each visit, not kept on its node: most literals are
      // visited once, and a field added to a parsed node costs the node a new shape and
      // storage, more than the value it would save.)
      case 'StringLiteral':
        if (e.escaped) return this.note(str(e.value, 'escape'), fc, e.line);
        return str(e.value);
      case 'NumericLiteral':
        // (A SteamID64 written as a number keeps its digits: a double rounds them.)
        if (e.value > Number.MAX_SAFE_INTEGER && /^\d+$/.test(e.raw))
          return { k: 'num', v: e.value, raw: e.raw };
        return num(e.value);
      case 'BooleanLiteral':
        return bool(e.value);
      case 'NilLiteral':
        return NIL;
      case 'VarargLiteral':
        return this.varargs(scope)[0] ?? NIL;
      case 'FunctionDeclaration':
        return this.makeClosure(e, scope, fc);
      case 'TableConstructorExpression':
        return this.evalTable(e, scope, fc);
      case 'ParenthesizedExpression':
        return this.evalExpr(e.expression, scope, fc);
      case 'IndexExpression':
        return this.evalIndex(e, scope, fc);
      case 'UnaryExpression': {
        const v = this.evalExpr(e.argument, scope, fc);
        if (e.operator === 'not') {
          const t = isTruthy(v);
          return t === undefined ? UNKNOWN : bool(!t);
        }
        if (e.operator === '-') {
          const n = asNumber(v);
          return n === undefined ? UNKNOWN : num(-n);
        }
        if (v.k === 'str') return num(v.v.length);
        if (v.k === 'table') {
          // Filled only under keys not known (`for i = 1, net.ReadUInt(9) do t[i] = … end`):
          // how many entries it holds is not known either, rather than none.
          if (v.t.someUnknown && v.t.length() === 0) return UNKNOWN;
          return num(v.t.length());
        }
        return UNKNOWN;
      }
      case 'LogicalExpression': {
        const l = this.evalExpr(e.left, scope, fc);
        const t = isTruthy(l);
        if (e.operator === 'and') {
          if (t === false) return l;
          const r = this.evalExpr(e.right, scope, fc);
          if (t === true) return r;
          // `local fn = verb and Actions[verb]`: what is called, when anything is, is the
          // right side (the left one, when false or nil, is not called).
          if (r.k === 'fn' || r.k === 'api' || (r.k === 'unk' && r.choices !== undefined)) return r;
          // `allowed && ply:IsSuperAdmin()`: true only when the permission answer is. (What
          // carries data stays data: `ok and net.ReadString()` is the text.)
          const lt = taintOf(l);
          const rt = taintOf(r);
          if (
            lt === undefined &&
            rt === undefined &&
            ((l.k === 'unk' && l.granted) || (r.k === 'unk' && r.granted))
          )
            return GRANTED_RESULT[0]!;
          return withTaint(
            { k: 'unk', ...(textOf(r) ? { partial: textOf(r)! } : {}) },
            mergeTaint(lt, rt),
          );
        }
        if (t === true) return l;
        const r = this.evalExpr(e.right, scope, fc);
        if (t === false) return r;
        // `x or default`: keep whichever side tells us more. (`ply:SteamID64() or ""` is
        // still the player's identity.)
        if (l.k === 'unk' && l.identity !== undefined) return l;
        if (l.k === 'unk' && (r.k === 'str' || r.k === 'num')) {
          // (An empty default stands for nothing known: `args[1] or ""` is any text.)
          const text = textOf(r);
          return withTaint({ k: 'unk', partial: text === '' ? '«?»' : text }, taintOf(l));
        }
        // (A download's paths stay so through `files or {}`, and what is known of a text
        // through `path or nil`: nil tells nothing more. Not a value with nothing known of
        // it, whose nil lets the emulator leave early, `if not x then return end`. Either
        // side may be what comes out, so the right one's data comes along too: `Cache[key] or
        // net.ReadString()`.)
        const keepLeft =
          l.k === 'unk' &&
          (l.taint !== undefined ||
            l.downloaded ||
            r.k === 'unk' ||
            (l.partial !== undefined && (r.k === 'nil' || (r.k === 'bool' && !r.v))));
        return keepLeft ? withTaint(l, taintOf(r)) : withTaint(r, taintOf(l));
      }
      case 'BinaryExpression':
        return this.evalBinary(e, scope, fc);
      default:
        return UNKNOWN;
    }
  }

  /** `b[k]` (kept out of evalExpr, which stays small for the compiler). */
  private evalIndex(e: IndexExpression, scope: Scope, fc: FileContext): Value {
    const b = this.evalExpr(e.base, scope, fc);
    // A key computed for `_G[…]`, the registry or a library (`http[kf("Srgpu")]`): even a
    // helper the relevance found no use for runs (a hand-written decoder), since its answer
    // names what is called. (A budget stop thrown past here leaves the count raised; the
    // entry points reset it.)
    const lookup = b.k === 'api' && e.index.type !== 'StringLiteral';
    if (lookup) this.decodingKey++;
    const k = this.evalExpr(e.index, scope, fc);
    if (lookup) this.decodingKey--;
    // `Known[ply:SteamID()]` over literal IDs or their hashes: whatever it reads is a gate,
    // unless the table is the owner's setting (`GAMEMODE.Config.DefaultPlayerGroups[sid]`).
    if (
      b.k === 'table' &&
      k.k === 'unk' &&
      k.identity !== undefined &&
      holdsLiteralIds(b.t, true) &&
      configName(e.base) === undefined
    )
      return { k: 'unk', gate: `table[${k.identity}()]` };
    const keyDecoded = e.index.type !== 'StringLiteral' || e.index.escaped;
    return this.index(b, k, fc, e.line, keyDecoded);
  }

  private note(v: Value, fc: FileContext, line: number): Value {
    this.recordDecoded(v, fc, line);
    return v;
  }

  /**
   * `a < b` with `__lt` (`a > b` is `b < a`), `a <= b` with `__le` (or `not (b < a)`),
   * `a == b` with `__eq`, and arithmetic with `__add`…: the metamethod of the left operand,
   * else of the right, run with both. Undefined when neither defines it.
   */
  private operatorMetamethod(
    operator: string,
    l: Value,
    r: Value,
    fc: FileContext,
    line: number,
  ): Value | undefined {
    const of = (name: string): FnValue | undefined =>
      (l.k === 'table' ? l.t.operators?.get(name) : undefined) ??
      (r.k === 'table' ? r.t.operators?.get(name) : undefined);
    const call = (f: FnValue, a: Value, b: Value): Value =>
      this.callFunction(f, [a, b], fc, false, line)[0] ?? NIL;
    const not = (v: Value): Value => {
      const t = isTruthy(v);
      return t === undefined ? UNKNOWN : bool(!t);
    };
    switch (operator) {
      case '<':
      case '>': {
        const lt = of('__lt');
        if (lt === undefined) return undefined;
        return operator === '<' ? call(lt, l, r) : call(lt, r, l);
      }
      case '<=':
      case '>=': {
        const [a, b] = operator === '<=' ? [l, r] : [r, l];
        const le = of('__le');
        if (le !== undefined) return call(le, a, b);
        const lt = of('__lt');
        return lt === undefined ? undefined : not(call(lt, b, a));
      }
      case '==':
      case '~=': {
        const eq = l.k === 'table' && r.k === 'table' && l.t !== r.t ? of('__eq') : undefined;
        if (eq === undefined) return undefined;
        const v = call(eq, l, r);
        return operator === '==' ? v : not(v);
      }
      default: {
        const name = ARITHMETIC_METAMETHODS[operator];
        const f = name === undefined ? undefined : of(name);
        return f === undefined ? undefined : call(f, l, r);
      }
    }
  }

  private evalBinary(
    e: Extract<Expression, { type: 'BinaryExpression' }>,
    scope: Scope,
    fc: FileContext,
  ): Value {
    const l = this.evalExpr(e.left, scope, fc);
    const r = this.evalExpr(e.right, scope, fc);
    if (e.operator === '..') {
      // An object whose metatable has `__concat`: joining it to text runs that function.
      const joiner =
        l.k === 'table' && l.t.concat !== undefined
          ? l.t.concat
          : r.k === 'table' && r.t.concat !== undefined
            ? r.t.concat
            : undefined;
      if (joiner !== undefined)
        return this.callFunction(joiner, [l, r], fc, false, e.line)[0] ?? NIL;
      const ls = asString(l);
      const rs = asString(r);
      const taint = mergeTaint(taintOf(l), taintOf(r));
      if (ls !== undefined && rs !== undefined) {
        if (ls.length + rs.length > MAX_STRING)
          return { k: 'unk', taint, partial: ls.slice(0, 200) };
        const dec =
          (l.k === 'str' && l.dec) ||
          (r.k === 'str' && r.dec) ||
          (e.left.type === 'StringLiteral' && e.right.type === 'StringLiteral'
            ? 'concat'
            : undefined);
        return this.note(str(ls + rs, dec || undefined, taint), fc, e.line);
      }
      const partial = (partialText(l) + partialText(r)).slice(0, 2000);
      const u: Value = { k: 'unk', partial };
      return taint ? { ...u, taint } : u;
    }
    // An object whose metatable defines the operator (`__lt` of a version object, `__add`):
    // the comparison or the arithmetic runs that function.
    if (
      (l.k === 'table' && l.t.operators !== undefined) ||
      (r.k === 'table' && r.t.operators !== undefined)
    ) {
      const answer = this.operatorMetamethod(e.operator, l, r, fc, e.line);
      if (answer !== undefined) return answer;
    }
    if (e.operator === '==' || e.operator === '~=') {
      if (l.k === 'unk' || r.k === 'unk') {
        // What a player sent, checked against a value the code computes (`code ==
        // Code(step)`): a secret the sender may know (see execBlockCollect). Not against
        // the entries of a list (`val == type`): a whitelist.
        // (Not against a value made from what was sent: `word ~= string.lower(word)`.)
        if (this.collecting && !this.comparedSent) {
          const sentLeft = pickedBySender(l);
          if (sentLeft !== pickedBySender(r) && isCall(unwrap(sentLeft ? e.right : e.left)))
            this.comparedSent = true;
        }
        return UNKNOWN;
      }
      let eq: boolean;
      if (l.k === 'str' && r.k === 'str') eq = l.v === r.v;
      else if (l.k === 'num' && r.k === 'num') eq = l.v === r.v;
      else if (l.k === 'nil' || r.k === 'nil') eq = l.k === r.k;
      else if (l.k === 'bool' && r.k === 'bool') eq = l.v === r.v;
      else if (l.k === 'table' && r.k === 'table') eq = l.t === r.t;
      else if (l.k !== r.k) eq = false;
      else return UNKNOWN;
      return bool(e.operator === '==' ? eq : !eq);
    }
    const a = asNumber(l);
    const b = asNumber(r);
    if (a === undefined || b === undefined) {
      if (
        (e.operator === '<' || e.operator === '<=' || e.operator === '>' || e.operator === '>=') &&
        l.k === 'str' &&
        r.k === 'str'
      ) {
        const c = l.v < r.v ? -1 : l.v > r.v ? 1 : 0;
        return bool(
          e.operator === '<'
            ? c < 0
            : e.operator === '<='
              ? c <= 0
              : e.operator === '>'
                ? c > 0
                : c >= 0,
        );
      }
      // Arithmetic on a number the attacker sent is still the attacker's number
      // (`ops[net.ReadUInt(2) + 1]` picks a function); a comparison is only a condition.
      if (ARITHMETIC_OPERATORS.has(e.operator)) {
        const taint = mergeTaint(taintOf(l), taintOf(r));
        if (taint !== undefined) return { k: 'unk', taint: numericTaint(taint) };
      }
      return UNKNOWN;
    }
    switch (e.operator) {
      case '+':
        return num(a + b);
      case '-':
        return num(a - b);
      case '*':
        return num(a * b);
      case '/':
        return num(a / b);
      case '%':
        return num(b === 0 ? NaN : a - Math.floor(a / b) * b);
      case '^':
        return num(Math.pow(a, b));
      case '<':
        return bool(a < b);
      case '<=':
        return bool(a <= b);
      case '>':
        return bool(a > b);
      case '>=':
        return bool(a >= b);
      default:
        return UNKNOWN;
    }
  }

  /** The ApiInfo of the global lookupName last made a value of (see evalCall). */
  private nameInfo: ApiInfo | null = null;

  private lookupName(e: Identifier, scope: Scope, fc: FileContext): Value {
    const name = e.name;
    const ref = scope.lookup(name);
    if (ref) return ref.value;
    if (name === 'SERVER' || name === 'CLIENT') {
      const realm = this.realmOf(fc);
      if (realm === 'shared') return UNKNOWN;
      return bool((realm === 'server') === (name === 'SERVER'));
    }
    if (name === 'GM' || name === 'GAMEMODE') return { k: 'table', t: this.gmTable };
    if (name === '_R') return apiValue('_R', 'registry');
    const g = this.globals.getName(name);
    if (g.k !== 'nil') return g;
    // (Looked up by name at each visit rather than kept on the node: see the literals in
    // evalExpr. evalCall takes the answers from `nameInfo` when it calls this very name.)
    const info = apiInfo(name);
    // A global table a settings file fills (`Addon.Rows = { 0x52, … }`), read before that
    // file ran or by code whose file runs first: the game ran the settings at startup.
    if (info.free && this.host !== null && this.host.loadSettings(name)) {
      const loaded = this.globals.getName(name);
      if (loaded.k !== 'nil') return loaded;
    }
    this.nameInfo = info;
    return apiValue(name, 'direct', undefined, info.free);
  }

  /**
   * `a.b` on an API value, by name: what index gives for it. (The member's interned name is
   * looked up at each visit, not kept on the node: seven visits in ten are a node's first,
   * and the kept answer cost each of them an object and a new shape for the node, more than
   * memberName, which keeps the last base's names at hand, costs the other three.)
   */
  private apiMember(b: ApiValue, e: MemberExpression, fc: FileContext, line: number): Value {
    const base = b.name;
    // (The bases index treats otherwise: globals, the registry, metatables.)
    if (base === '_G' || base === '_R' || base.startsWith('meta:') || base === 'package.loaded')
      return this.index(b, str(e.identifier.name), fc, line, false);
    if (this.addedToStrings !== null && base === 'string') {
      const added = this.addedStringMethod(e.identifier.name);
      if (added !== undefined) return added;
    }
    if (base === 'ulx' && e.identifier.name === 'cmdsByCategory')
      return { k: 'table', t: (this.ulxCategories ??= ulxCommandsByCategory()) };
    return apiValue(memberName(base, '.', e.identifier.name), b.via, undefined, b.free);
  }

  private evalTable(e: TableConstructorExpression, scope: Scope, fc: FileContext): Value {
    const t = new LuaTable();
    let i = 1;
    const fields = e.fields;
    for (let idx = 0; idx < fields.length; idx++) {
      const f = fields[idx]!;
      if (f.type === 'TableValue') {
        if (
          idx === fields.length - 1 &&
          (f.value.type === 'CallExpression' ||
            f.value.type === 'VarargLiteral' ||
            f.value.type === 'StringCallExpression')
        ) {
          const vs = this.evalList([f.value], scope, fc);
          for (let j = 0; j < vs.length; j++) t.set(num(i++), vs[j]!);
        } else t.set(num(i++), this.evalExpr(f.value, scope, fc));
      } else if (f.type === 'TableKeyString')
        t.setName(f.key.name, this.evalExpr(f.value, scope, fc));
      else t.set(this.evalExpr(f.key, scope, fc), this.evalExpr(f.value, scope, fc));
    }
    return { k: 'table', t };
  }

  private index(b: Value, k: Value, fc: FileContext, line: number, keyDecoded: boolean): Value {
    if (b.k === 'table') {
      if (k.k === 'unk' && k.taint !== undefined) {
        // A proxy of the globals (`setmetatable(api, { __index = _G })`): the attacker may name
        // any global, as with `_G[name]`.
        const fallback = b.t.fallback;
        if (fallback?.k === 'api') return this.index(fallback, k, fc, line, keyDecoded);
        // The attacker picks which of a table's functions comes out (see callEveryChoice).
        if (holdsFunctions(b.t)) return { k: 'unk', choices: b.t };
        // …or which record (`Actions[key]` over `{ { RunString, … }, { print } }`): the
        // one holding a sink is the attacker's pick, followed as a known table from here.
        const record = this.sinkRecord(b.t);
        if (record !== undefined) return record;
      }
      // One of a few names picked at run time (`names[math.random(#names)]`): any of them,
      // for `_G[…]` to look up each (see index's `_G` case).
      if (k.k === 'unk' && k.taint === undefined && holdsNamesOnly(b.t))
        return { k: 'unk', choices: b.t };
      const v = b.t.get(k);
      if (v === UNKNOWN) {
        // An entry picked by a key the attacker chose (an S-box read with a key from the
        // web): a number of their choosing, whatever the table holds; or an entry stored
        // under a key nobody knows, with what it carried.
        let t = b.t.unknownTaint;
        if (k.k === 'unk' && k.taint !== undefined) t = mergeTaint(t, numericTaint(k.taint));
        if (t !== undefined) return { k: 'unk', taint: t };
      }
      if (v.k === 'nil') {
        if (b.t.fallback !== undefined) return this.fallbackField(b.t, k, fc, line, keyDecoded);
        // A key nothing was written under by name, in a table filled under keys not known
        // (`ret[i] = …` in a loop over a text's length): it may be one of those, with what
        // they carried, rather than nil.
        if (b.t.unknownTaint !== undefined && typeof tableKey(k) === 'number')
          return { k: 'unk', taint: b.t.unknownTaint };
      }
      if (v.k === 'api' && k.k === 'str' && keyDecoded && (k.dec || v.via === 'direct'))
        return apiValue(v.name, 'decoded', v.alias, v.free);
      return v;
    }
    if (b.k === 'api') {
      const key = k.k === 'str' ? k.v : undefined;
      const dynamicBase = b.name === '_G' || b.name === '_R' || b.name.startsWith('meta:');
      if (key === undefined) {
        if (dynamicBase) {
          this.out.indexes.push(
            this.indexEvent(fc, line, b.name, textOf(k) || undefined, true, undefined, undefined),
          );
        }
        // `_G[names[math.random(#names)]]`: whichever name comes out, each global it may be.
        if (b.name === '_G' && k.k === 'unk' && k.choices !== undefined && k.taint === undefined) {
          const picked = new LuaTable();
          let i = 1;
          for (const v of k.choices.hash.values())
            if (v.k === 'str') picked.set(num(i++), this.index(b, v, fc, line, true));
          return { k: 'unk', choices: picked };
        }
        // `_G[net.ReadString()]`: the attacker names the global, RunString as well as any.
        const taint = taintOf(k);
        if (
          b.name === '_G' &&
          taint !== undefined &&
          taint.some((t) => !t.numeric) &&
          mayName(k.k === 'unk' ? k.partial : undefined, 'RunString')
        )
          return { k: 'unk', taint, choices: ANY_GLOBAL };
        return withTaint(UNKNOWN, taint);
      }
      // The loaded modules (`debug.getregistry()._LOADED`, `package.loaded`) hold the
      // globals table itself: `._G.RunString` is `_G.RunString` reached through the registry.
      if (b.name === '_R' && key === '_LOADED') return apiValue('package.loaded', 'registry');
      if (b.name === 'package.loaded') {
        if (key === '_G') return apiValue('_G', 'registry');
        return apiValue(memberName(b.name, '.', key), b.via, undefined, b.free);
      }
      let name: string;
      let via: Access = b.via;
      if (b.name === '_G') {
        name = key;
        via = keyDecoded || (k.k === 'str' && k.dec) ? 'decoded' : 'global_table';
        if (key === '_G') name = '_G';
      } else if (b.name === '_R') {
        name = apiName('meta:', key);
        via = 'registry';
      } else if (b.name.startsWith('meta:')) name = memberName(b.name, 'meta', key);
      else {
        name = memberName(b.name, '.', key);
        if (keyDecoded && k.k === 'str' && k.dec) via = 'decoded';
      }
      if (dynamicBase) {
        this.out.indexes.push(
          this.indexEvent(
            fc,
            line,
            b.name,
            key,
            keyDecoded && !!(k.k === 'str' && (k.dec || keyDecoded)),
            keyDecoded && k.k === 'str' && !k.dec ? true : undefined,
            name,
          ),
        );
      }
      if (b.name === '_G') {
        const g = this.globals.getName(key);
        if (g.k !== 'nil') return g;
      }
      const free =
        b.free || (b.name === '_G' && !CORE_GLOBALS.has(key) && !KNOWN_LIBRARIES.has(key));
      return apiValue(name, via, undefined, free);
    }
    return indexOther(b, k.k === 'str' ? k.v : undefined);
  }

  /**
   * The first of a table's records (among its first values) that holds a recorded API or a
   * function reaching a sink, as a record under an attacker's key may: undefined if none.
   */
  private sinkRecord(t: LuaTable): TableValue | undefined {
    let n = 0;
    for (const v of t.hash.values()) {
      if (++n > 64) return undefined;
      if (v.k !== 'table') continue;
      let m = 0;
      for (const f of v.t.hash.values()) {
        if (++m > 16) break;
        if (
          (f.k === 'api' && isRecordedApi(f.name)) ||
          (f.k === 'fn' && this.reachesSink.has(f.node))
        )
          return v;
      }
    }
    return undefined;
  }

  /** `t.name`, and where its metatable points when `t` has no such field (fallbackField). */
  private field(t: LuaTable, name: string, fc: FileContext, line: number): Value {
    const v = t.getName(name);
    if (v.k !== 'nil') return v;
    if (t.fallback !== undefined) return this.fallbackField(t, str(name), fc, line, false);
    // A record filled only under keys not known (`for k, v in gmatch(text, …) do out[k] = v
    // end` over what a sender or the web gave): any of its fields may be theirs.
    if (t.unknownTaint !== undefined && t.hash.size === 0)
      return { k: 'unk', taint: t.unknownTaint };
    return v;
  }

  /**
   * A key missing from `t`, read where its metatable's `__index` points, as Lua does: down a
   * chain of tables (a few links at most: a class's parents), then an API table such as _G.
   */
  private fallbackField(
    t: LuaTable,
    k: Value,
    fc: FileContext,
    line: number,
    keyDecoded: boolean,
  ): Value {
    let via = t.fallback!;
    for (let link = 0; link < MAX_FALLBACK_LINKS; link++) {
      if (via.k === 'api') return this.index(via, k, fc, line, keyDecoded);
      if (via.k === 'fn') return this.callFunction(via, [{ k: 'table', t }, k], fc, true)[0] ?? NIL;
      const v = via.t.get(k);
      if (v.k !== 'nil' || via.t.fallback === undefined) return v;
      via = via.t.fallback;
    }
    return NIL;
  }

  private makeClosure(node: FunctionDeclaration, scope: Scope, fc: FileContext): FnValue {
    const fn: FnValue = { k: 'fn', node, scope, home: fc, coroutine: undefined };
    if (this.closures.length < 200_000 && !this.closureNodes.has(node)) {
      this.closureNodes.add(node);
      this.closures.push(fn);
    }
    const id = node.identifier;
    if (id !== null && id.type === 'MemberExpression' && id.indexer === ':') {
      // (Kept by name for calls on objects the emulator does not know: see callDeclaredMethods.)
      const name = id.identifier.name;
      const list = this.methodsByName.get(name);
      if (list === undefined) this.methodsByName.set(name, [fn]);
      else if (list.length < MAX_CHOICES && !closureOf(list, node)) list.push(fn);
    }
    return fn;
  }

  /** What the coroutine running now was resumed with (see coroutine.yield). */
  private resumeArgs: Value[] | undefined;
  /** Where the coroutine running now collects what it yields (see resumeCoroutine). */
  private yieldSink: Value[][] | null = null;
  /** Networked and global variables by key (see keptState). */
  private readonly networked = new LuaTable();
  /**
   * When a web reply was last stored in a networked variable (on LuaTable's `writes` clock):
   * the server hands it to every client, and client handlers that read one run again.
   * (Not any attacker data: players' data in networked variables is common, and re-running
   * every client reader for it cost 3 % of the corpus' emulation steps.)
   */
  private networkedFromWebAt = 0;
  /**
   * Fields set on entities the addon made with ents.Create (`holder.cfg = body`), by name,
   * whichever entity: a value parked on an entity for a later handler, as in keptState.
   */
  private readonly entityFields = new LuaTable();
  /** Entity keyvalues by key, as `ent:GetKeyValues()` gives them (see keptState). */
  private readonly keyValues = new LuaTable();
  /**
   * The client's cookie store by key (see keptState): a downloaded payload cached with
   * `cookie.Set` and run from `cookie.GetString` on a later join.
   */
  private readonly cookies = new LuaTable();
  /**
   * Player data by key (see keptState): what a receiver stores with `util.SetPData` is in
   * the server's database for a loader that compiles `util.GetPData` at every start.
   */
  private readonly playerData = new LuaTable();
  /**
   * The game's named lists (see keptState): one file keeps a function in one
   * (`list.Set("Compilers", "expr", CompileString)`) and another calls it from a handler.
   * `list.Get` hands out the list itself rather than the game's copy: what is read is the same.
   */
  private readonly lists = new LuaTable();
  /** Loop turns the coroutine running now has taken (see MAX_COROUTINE_TURNS). */
  private coroutineTurns = 0;

  /** Keys of `_G[…]` being computed (see evalIndex). */
  private decodingKey = 0;

  /** Each Helix plugin's PLUGIN table, by its folder (see runChunk). */
  private readonly plugins = new Map<string, LuaTable>();

  /** The ENT/SWEP tables of each file of an entity's or weapon's folder (see instanceOf). */
  private readonly classHalves = new Map<string, { t: LuaTable; realm: Realm }[]>();

  /**
   * NetworkVars any player may set through the entity editor (see '?:NetworkVar'), by name
   * for the whole addon: two entity classes with a variable of one name are not told apart.
   */
  private readonly editableVars = new Set<string>();

  /**
   * Whether players other than admins may edit an entity's variables: not when the class is
   * AdminOnly (the game's receiver refuses others) or its CanEditVariables checks rank.
   */
  private playersMayEdit(self: Value | undefined): boolean {
    if (self?.k !== 'table') return true;
    if (isTruthy(self.t.getName('AdminOnly')) === true) return false;
    const canEdit = self.t.getName('CanEditVariables');
    return canEdit.k !== 'fn' || !this.checksRank(canEdit.node);
  }

  /** Methods the addon declares (`function ENT:ApplyConfig(s)`), by name. */
  private readonly methodsByName = new Map<string, FnValue[]>();

  /**
   * `ent:ApplyConfig(net.ReadString())` on an entity the emulator knows nothing of: attacker
   * data handed to a method the addon declares under that name (an ENT's, a SWEP's) runs
   * it, as the entity would. Only calls carrying such data, and only methods that can reach
   * something the rules watch.
   */
  private callDeclaredMethods(method: string, args: Value[], fc: FileContext, line: number): void {
    const list = this.methodsByName.get(method);
    if (list === undefined) return;
    let tainted = false;
    for (let i = 1; i < args.length && !tainted; i++) {
      const t = taintOf(args[i]!);
      if (t !== undefined && t.some((src) => !src.numeric)) tainted = true;
    }
    if (!tainted) return;
    for (const fn of list)
      if (!this.skippable.has(fn.node)) this.callFunction(fn, args, fc, false, line);
  }

  /**
   * What an entity's inputs and keyvalues run (`args` start with the entity): a `lua_run`
   * runs its `Code` keyvalue and the data of its `RunPassedCode` input as Lua, a
   * `point_servercommand` runs the data of its `Command` input in the server console, and an
   * input fired with attacker data (`ent:Fire(net.ReadString(), data)`) reaches the addon's
   * own `ENT:AcceptInput(name, activator, caller, data)`.
   */
  private entityInput(method: string, args: Value[], fc: FileContext, line: number): void {
    const self = args[0];
    const cls = self?.k === 'unk' ? self.entityClass : undefined;
    const name = args[1] ? asString(args[1])?.toLowerCase() : undefined;
    if (method === 'SetKeyValue') {
      if (cls === 'lua_run' && name === 'code' && args[2])
        this.entitySink('RunString', args[2], fc, line);
      return;
    }
    // ent:Fire(input, data, delay, activator, caller); ent:Input(input, activator, caller, data)
    const fire = method === 'Fire';
    const data = (fire ? args[2] : args[4]) ?? UNKNOWN;
    const activator = (fire ? args[4] : args[2]) ?? UNKNOWN;
    const caller = (fire ? args[5] : args[3]) ?? UNKNOWN;
    if (name === 'runpassedcode' && (cls === undefined || cls === 'lua_run'))
      this.entitySink('RunString', data, fc, line);
    else if (name === 'command' && (cls === undefined || cls === 'point_servercommand'))
      this.entitySink('game.ConsoleCommand', data, fc, line);
    else if (name === undefined && cls === undefined && isSentText(args[1]) && isSentText(data))
      // The sender names the input of an entity whose class the code does not fix: it can
      // be a `lua_run` fired with `RunPassedCode` and the code as its data.
      this.entitySink('RunString', data, fc, line);
    else if (isSentText(data)) {
      // The addon's ENT:AcceptInput methods run with what was sent, whatever the relevance
      // found (their sink may sit in a class field: `ENT.Handler = CompileString`), each with
      // its class's fields as `self` (see instanceOf).
      for (const fn of this.methodsByName.get('AcceptInput') ?? []) {
        const id = fn.node.identifier;
        const instance = id?.type === 'MemberExpression' ? this.instanceOf(fn, id) : UNKNOWN;
        this.callFunction(
          fn,
          [instance, args[1] ?? UNKNOWN, activator, caller, data],
          fc,
          true,
          line,
        );
      }
    }
  }

  /** The sink an entity's input or keyvalue stands for (see entityInput). */
  private entitySink(api: string, data: Value, fc: FileContext, line: number): void {
    this.callApi(apiValue(api, 'alias'), [data], fc, line, false, apiInfo(api));
  }

  // ---------------------------------------------------------------- calls

  evalCall(
    e: CallExpression | StringCallExpression | TableCallExpression,
    scope: Scope,
    fc: FileContext,
  ): Value[] {
    let callee: Value;
    let args: Value[];
    let self: Value | undefined;
    /** The callee's ApiInfo when evalCall made the callee itself (a method on a string or an unknown). */
    let info: ApiInfo | undefined;
    /** The answers for the global the callee was read as, if it was one (see lookupName). */
    let named: ApiInfo | null = null;
    /** The method's name when it is called on an object nothing is known of. */
    let unknownMethod: string | undefined;
    const line = e.line;
    const baseExpr = e.base;
    if (baseExpr.type === 'MemberExpression' && baseExpr.indexer === ':') {
      self = this.evalExpr(baseExpr.base, scope, fc);
      const m = baseExpr.identifier.name;
      const site = baseExpr as MethodSite;
      const method = (site.emuMethod ??= methodNames(m));
      // (A replaced library method, `function string.Trim(s)`, is the addon's own as well.)
      const added =
        this.addedToStrings !== null &&
        (self.k === 'str' || (self.k === 'unk' && (self.partial !== undefined || self.taint)))
          ? this.addedStringMethod(m)
          : undefined;
      if (added !== undefined) callee = added;
      else if (self.k === 'str' && method.string) {
        callee = method.inStringCallee();
        info = method.inStringInfo();
      } else if (self.k === 'table') {
        callee = this.field(self.t, m, fc, line);
        // The tool base's own method, on an STool's `self` (TOOL) that does not define it.
        // (An object's missing fields read as unknown: see LuaTable.missing.)
        if (m === 'GetClientInfo' && (callee.k === 'nil' || callee === self.t.missing))
          callee = TOOL_CLIENT_INFO;
        else if (m === 'GetOwner' && callee === TOOL_INSTANCE_FIELD) return TOOL_OWNER_RESULT;
        // The engine's methods on an entity's or a weapon's `self` that does not define
        // them: as on any object.
        else if (ENGINE_ENTITY_METHODS.has(m) && callee === self.t.missing) {
          callee = method.onUnknownCallee();
          info = method.onUnknownInfo();
        }
      } else if (self.k === 'api') callee = this.apiMember(self, baseExpr, fc, line);
      else if (
        self.k === 'unk' &&
        (self.partial !== undefined || self.taint) &&
        method.string &&
        !method.player
      ) {
        callee = method.inStringCallee();
        info = method.inStringInfo();
      } else {
        callee = method.onUnknownCallee();
        info = method.onUnknownInfo();
        unknownMethod = m;
      }
    } else {
      callee = this.evalExpr(baseExpr, scope, fc);
      // (Taken before the arguments are evaluated, which may read other globals.)
      named = this.nameInfo;
    }
    // Only callees nothing is known about: known APIs and values need no search.
    const unresolved =
      callee.k === 'nil' || callee.k === 'unk' || (callee.k === 'api' && callee.free === true);
    if (unresolved && this.host !== null) {
      // A function defined in a file not loaded yet (one with nothing worth a tree): load it
      // now, as the game would have at startup, and look the callee up again.
      const path = pathName(baseExpr);
      if (path !== undefined && this.host.loadDefinition(path)) {
        info = undefined;
        if (self === undefined) callee = this.evalExpr(baseExpr, scope, fc);
        else if (self.k === 'table' && baseExpr.type === 'MemberExpression')
          callee = self.t.getName(baseExpr.identifier.name);
      }
    }

    // (A method's `self` comes first in the fresh array of this call's arguments.)
    if (e.type === 'CallExpression') args = this.evalList(e.arguments, scope, fc, self);
    else {
      const arg =
        e.type === 'StringCallExpression'
          ? this.evalExpr(e.argument, scope, fc)
          : this.evalTable(e.arguments, scope, fc);
      args = self ? [self, arg] : [arg];
    }
    if (callee.k === 'api') {
      if (info === undefined) {
        const site = e as CallSite;
        info = site.emuApi;
        if (info === undefined || info.name !== callee.name) {
          // (A global's answers were looked up as lookupName made it: `print(x)` on a first
          // visit. The name tells whether they are this callee's.)
          info = site.emuApi =
            named !== null && named.name === callee.name ? named : apiInfo(callee.name);
        }
      }
      // `setfenv(f, makeEnv())`: the environment a helper builds right there (left unrun, as
      // it reaches no sink) is asked of it now, since what it holds is the question.
      const env = args[1];
      if (
        info.special &&
        env?.k === 'unk' &&
        env.skipped !== undefined &&
        e.type === 'CallExpression' &&
        e.arguments[1]?.type === 'CallExpression' &&
        (callee.name === 'setfenv' || callee.name === 'debug.setfenv')
      ) {
        const { fn, args: made, caller } = env.skipped;
        // (Once per helper: run again, a helper's call memo would answer unknown.)
        let built = this.builtEnvironments.get(fn.node);
        if (built === undefined) {
          built = this.callFunction(fn, made, caller, true)[0] ?? NIL;
          this.builtEnvironments.set(fn.node, built);
        }
        args[1] = built;
      }
      if (unknownMethod !== undefined) {
        if (ENTITY_INPUTS.has(unknownMethod)) this.entityInput(unknownMethod, args, fc, line);
        if (this.methodsByName.size > 0) this.callDeclaredMethods(unknownMethod, args, fc, line);
      }
      return this.callApi(callee, args, fc, line, !!self, info);
    }
    if (callee.k === 'unk' && callee.method !== undefined && self === undefined) {
      // `f(ply, "superadmin")` with f = ply.SetUserGroup: the method, its object first.
      const api: ApiValue = apiValue(callee.method, 'direct');
      return this.callApi(api, args, fc, line, true, apiInfo(api.name));
    }
    return this.callValue(callee, args, fc, line, !!self);
  }

  /**
   * A call of a function taken from a table under a key the attacker sends
   * (`handlers[net.ReadString()](…)`, or through a local holding it): the attacker picks
   * which one runs, so each function the table holds runs with these arguments (the first
   * MAX_CHOICES of them). What comes back is not known.
   */
  private callEveryChoice(table: LuaTable, args: Value[], fc: FileContext, line: number): Value[] {
    let calls = 0;
    for (const v of table.hash.values()) {
      if (v.k !== 'fn' && v.k !== 'api') continue;
      if (++calls > MAX_CHOICES) break;
      this.callValue(v, args, fc, line, false);
    }
    return UNKNOWN_RESULT;
  }

  private callValue(
    callee: Value,
    args: Value[],
    fc: FileContext,
    line: number,
    method: boolean,
  ): Value[] {
    if (callee.k === 'fn') return this.callFunction(callee, args, fc, false, line);
    if (callee.k === 'table') {
      const t = callee.t;
      if (t.apiName) return this.callApi(apiValue(t.apiName, 'direct'), args, fc, line, method);
      if (t.callable !== undefined) {
        // (Built by push: see valuesOf.)
        const withTable: Value[] = [callee];
        for (let i = 0; i < args.length; i++) withTable.push(args[i]!);
        return this.callFunction(t.callable, withTable, fc, false, line);
      }
      return UNKNOWN_RESULT;
    }
    if (callee.k === 'api') return this.callApi(callee, args, fc, line, method);
    if (callee.k === 'unk' && callee.choices !== undefined)
      return this.callEveryChoice(callee.choices, args, fc, line);
    // A getter's result, called: the getter runs now, and what it gave is called.
    if (callee.k === 'unk' && callee.skipped !== undefined) {
      const { fn, args: made, caller } = callee.skipped;
      const got = this.callFunction(fn, made, caller, true)[0] ?? NIL;
      if (got.k === 'unk' && got.skipped !== undefined) return UNKNOWN_RESULT;
      return this.callValue(got, args, fc, line, method);
    }
    // `pcall(ply[m], ply, …)` with m = "Ban": the player method, its object first (see evalCall).
    if (callee.k === 'unk' && callee.method !== undefined) {
      const api: ApiValue = apiValue(callee.method, 'direct');
      return this.callApi(api, args, fc, line, true, apiInfo(api.name));
    }
    // Calling the result of CompileString(...) or of an unknown expression.
    return [withTaint(UNKNOWN, taintOf(callee))];
  }

  /** Whether the current context asks for every call to be emulated (trigger gates, payloads). */
  private exhaustive(): boolean {
    if (this.remoteOrders > 0) return true;
    const ctx = this.ctx;
    for (let i = 0; i < ctx.length; i++) {
      const f = ctx[i]!;
      if (f.kind === 'trigger' || f.kind === 'payload' || f.exhaustive) return true;
    }
    return false;
  }

  callFunction(
    fn: FnValue,
    args: Value[],
    caller: FileContext,
    always = false,
    callLine = -1,
  ): Value[] {
    if (fn.coroutine !== undefined)
      return this.resumeCoroutine(fn, fn.coroutine, args, caller, callLine);
    const fc = fn.home ?? caller;
    if (
      !always &&
      this.decodingKey === 0 &&
      !this.sinkMetamethods &&
      this.skippable.has(fn.node) &&
      !this.exhaustive()
    ) {
      // Nothing in it can reach a sink: unless attacker data flows in, its result is unknown.
      let tainted = false;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (
          ((a.k === 'unk' || a.k === 'str' || a.k === 'num') && a.taint) ||
          // A player's name, which its helper may paste into code (`Build(color, ply:Nick())`).
          (a.k === 'unk' && a.partial === PLAYER_NAME_TEXT) ||
          (a.k === 'api' && isRecordedApi(a.name)) ||
          // The global table, handed to a helper that walks it (`walk(_G)`): what the walk
          // reads is the server's memory (see execForGeneric).
          (a.k === 'api' && a.name === '_G' && walksParameter(fn.node, i)) ||
          // A table holding what was sent (a queue handed to the helper that takes from it), or
          // a player's IP address (a game event's record of a connecting player).
          (a.k === 'table' && holdsSentData(a.t)) ||
          // …or a record read from data that names an entity or function that runs code (a
          // preset's `lua_run` row, handed to the helper that spawns it).
          (a.k === 'table' && holdsCodeRecord(a.t)) ||
          // A callback that can reach a sink, handed to a permission helper: what the helper
          // calls it with is the answer of its rank check (`hasAccess(ply, function(ok) …)`);
          // or handed over with a name, to a registry that keeps it for a dispatcher
          // (`Bot.On("patch", function(d) … end)`, then `handlers[msg.op](msg.d)`).
          (a.k === 'fn' &&
            !this.skippable.has(a.node) &&
            (args[0]?.k === 'str' || this.checksRank(fn.node)))
        ) {
          // Attacker data flows in, or an API the rules watch is handed over (`wrap(net.Receive, …)`).
          tainted = true;
          break;
        }
      }
      if (!tainted) {
        this.invoked.add(fn.node);
        // Relevant callbacks handed to it would have run under the current context.
        for (let i = 0; i < args.length; i++) {
          const a = args[i]!;
          if (a.k === 'fn' && !this.skippable.has(a.node))
            this.defer(a, unknowns(a.node.parameters.length), fc, this.ctx);
        }
        // Its result may be a function another file stored (see UnknownValue.skipped).
        return [{ k: 'unk', skipped: { fn, args, caller } }];
      }
    }
    this.invoked.add(fn.node);
    const runs = (this.runCount.get(fn.node) ?? 0) + 1;
    this.runCount.set(fn.node, runs);
    let allKnown = args.length > 0;
    for (let i = 0; allKnown && i < args.length; i++) if (args[i]!.k === 'unk') allKnown = false;
    // Calls with known arguments (decoders, table builders) run each time, up to a cap, and
    // once at most when the file went shallow. Neither limit may stop a later call that
    // carries unknown or attacker data: those run once per signature (the memo below),
    // however often the function ran before.
    if (allKnown && (runs > 3000 || (runs > 1 && fc.shallow))) {
      // …except for a string the emulator decoded: a hidden payload handed to a runner after
      // thousands of padding calls still runs, once per distinct payload.
      const decoded = decodedArgument(args);
      if (decoded === undefined) return UNKNOWN_RESULT;
      const key = `${fn.node.offset}:${fc.path}:decoded:${decoded.length}:${decoded.slice(0, 200)}`;
      if (!this.memo.addDecoded(key)) return UNKNOWN_RESULT;
    }
    if (!allKnown) {
      // (Built by appending, without the arrays of map/join; the memo takes the function's
      // offset and file apart.)
      let sig = '';
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (i > 0) sig += ',';
        if (a.k !== 'unk') sig += a.k;
        else if (!a.taint) sig += 'u';
        else for (let j = 0; j < a.taint.length; j++) sig += (j > 0 ? '+' : '') + a.taint[j]!.kind;
      }
      sig += ':';
      const ctx = this.ctx;
      for (let i = 0; i < ctx.length; i++) sig += ctx[i]!.kind[0];
      // A handler run for its registration (see defer) is told apart by it: closures of one
      // function registered under several names hold different upvalues.
      if (this.callDepth === 0 && ctx.length > 0) sig += ctx[ctx.length - 1]!.label;
      if (this.callDepth === 0 && this.topAgain > 0) sig += `\0again${this.topAgain}`;
      if (!this.memo.addSignature(fn.node.offset, fc.path, sig)) return UNKNOWN_RESULT;
    }
    if (this.callDepth >= MAX_CALL_DEPTH) return UNKNOWN_RESULT;
    this.callDepth++;
    const savedU = this.uncertain;
    this.uncertain = 0;
    // (A `return` in the callee's unknown branch ends the callee, not a loop of the caller.)
    const savedExit = this.exitSeen;
    // A shared helper runs in the realm of whoever calls it (a client command's handler
    // calling a shared library still runs on the client).
    const savedRealm = this.realmHint;
    if (fc !== caller && fc.realm === 'shared')
      this.realmHint = caller.realm === 'shared' ? savedRealm : caller.realm;
    const crossFile = fc !== caller && callLine >= 0;
    if (crossFile) this.callSites.push({ fc: caller, line: callLine });
    const savedResume = this.resumeArgs;
    try {
      const scope = new Scope(fn.scope);
      const params = fn.node.parameters;
      let a = 0;
      const isMethod =
        fn.node.identifier?.type === 'MemberExpression' && fn.node.identifier.indexer === ':';
      if (isMethod) scope.declare('self', args[a++] ?? NIL);
      for (const p of params) {
        if (p.type === 'VarargLiteral') {
          const t = new LuaTable();
          let i = 1;
          for (; a < args.length; a++) t.set(num(i++), args[a]!);
          scope.declare('...', { k: 'table', t });
        } else scope.declare(p.name, args[a++] ?? NIL);
      }
      const sig = this.execBlockCollect(functionBody(fn.node), scope, fc);
      return sig ?? [NIL];
    } finally {
      this.uncertain = savedU;
      this.exitSeen = savedExit;
      this.realmHint = savedRealm;
      this.resumeArgs = savedResume;
      if (crossFile) this.callSites.pop();
      this.callDepth--;
    }
  }

  /**
   * One resume of a coroutine (a call of what coroutine.wrap made, or coroutine.resume): the
   * body runs as a plain call, with `coroutine.yield()` giving this resume's arguments, and
   * the resume gives the next of the yields collected (see CoroutineState).
   */
  private resumeCoroutine(
    fn: FnValue,
    state: CoroutineState,
    args: Value[],
    caller: FileContext,
    callLine: number,
  ): Value[] {
    const n = state.resumes++;
    const sink: Value[][] = [];
    const outerSink = this.yieldSink;
    const outerResume = this.resumeArgs;
    const outerTurns = this.coroutineTurns;
    this.yieldSink = sink;
    this.resumeArgs = args;
    this.coroutineTurns = 0;
    let returned: Value[];
    try {
      // (A literal in makeClosure's field order, as for coroutine.wrap.)
      const plain: FnValue = {
        k: 'fn',
        node: fn.node,
        scope: fn.scope,
        home: fn.home,
        coroutine: undefined,
      };
      // Run even when relevance found nothing in the body: what it yields is the point (a
      // walker that yields each handler of a table names no sink itself).
      returned = this.callFunction(plain, args, caller, true, callLine);
    } finally {
      this.yieldSink = outerSink;
      this.resumeArgs = outerResume;
      this.coroutineTurns = outerTurns;
    }
    // A run the call memo skipped yields nothing: the earlier run's yields stand.
    if (sink.length > 0 || state.yields === undefined) {
      state.yields = sink;
      state.returned = returned;
    }
    if (n < state.yields.length) return state.yields[n]!;
    return n === state.yields.length ? (state.returned ?? []) : [];
  }

  /** Runs a function body; a `return` inside an unknown branch still yields a value. */
  private execBlockCollect(body: Statement[], scope: Scope, fc: FileContext): Value[] | undefined {
    const savedCollecting = this.collecting;
    const savedPossible = this.possible;
    const savedCompared = this.comparedSent;
    this.collecting = true;
    this.possible = undefined;
    this.comparedSent = false;
    try {
      const sig = this.execBlock(body, scope, fc);
      if (sig?.type !== 'return') return this.possible;
      // `for … do if found then return v end end return nil`: when a value may have been
      // returned on the way, the closing "nothing found" is not the answer of interest.
      // (Not a closing `false` after a `true` on the way: answering unknown to every such
      // check cost 45 % more emulation steps on the corpus.)
      const possible = this.possible as Value[] | undefined;
      const first = sig.values[0];
      if (possible !== undefined && possible[0] !== undefined && possible[0].k !== 'nil')
        if (first === undefined || first.k === 'nil') return possible;
      // A check of what a player sent against a value the code computes (`code ==
      // Code(step)` in a loop, then `return false`): whether it answers true is the
      // sender's to choose, not the closing false. (Only there: answering unknown to every
      // such check cost 45 % more steps.)
      if (
        this.comparedSent &&
        first?.k === 'bool' &&
        possible !== undefined &&
        possible[0]?.k === 'bool' &&
        possible[0].v !== first.v
      ) {
        const values = [...sig.values];
        values[0] = UNKNOWN;
        return values;
      }
      return sig.values;
    } finally {
      this.collecting = savedCollecting;
      this.possible = savedPossible;
      this.comparedSent = savedCompared;
    }
  }

  /**
   * A function body is running (see execBlockCollect): the values of the first `return`
   * reached in an unknown branch are kept in `possible`. (Fields, not a closure per call.)
   */
  private collecting = false;
  private possible: Value[] | undefined = undefined;
  /**
   * What a player sent was compared with an unknown value a call computed, in the function
   * running now (see evalBinary, execBlockCollect).
   */
  private comparedSent = false;

  /**
   * `items` in the order `table.sort` gives them, by the comparator `cmp` (run) or by `<`;
   * undefined when a comparison is not known. A merge sort: a few comparisons per entry.
   */
  private sortValues(
    items: Value[],
    cmp: FnValue | undefined,
    fc: FileContext,
    line: number,
  ): Value[] | undefined {
    let unknown = false;
    const less = (a: Value, b: Value): boolean => {
      if (unknown) return false;
      let answer: boolean | undefined;
      if (cmp !== undefined)
        answer = isTruthy(this.callFunction(cmp, [a, b], fc, true, line)[0] ?? NIL);
      else if (a.k === 'num' && b.k === 'num') answer = a.v < b.v;
      else if (a.k === 'str' && b.k === 'str') answer = a.v < b.v;
      if (answer === undefined) unknown = true;
      return answer === true;
    };
    let list = items;
    for (let width = 1; width < list.length && !unknown; width *= 2) {
      const next: Value[] = [];
      for (let lo = 0; lo < list.length; lo += 2 * width) {
        let i = lo;
        let j = Math.min(lo + width, list.length);
        const mid = j;
        const hi = Math.min(lo + 2 * width, list.length);
        while (i < mid && j < hi) next.push(less(list[j]!, list[i]!) ? list[j++]! : list[i++]!);
        while (i < mid) next.push(list[i++]!);
        while (j < hi) next.push(list[j++]!);
      }
      list = next;
    }
    return unknown ? undefined : list;
  }

  /**
   * A console command's Lua callback called by hand (`concommand.GetTable()[name](NULL, name,
   * args, argStr)`). With no player (NULL or nil) the command runs as the server console,
   * which passes every access check of the admin mods: the same as RunConsoleCommand with
   * these words. With a player it runs with that player's rights, and is left as it is.
   */
  private consoleCallback(
    command: string,
    args: Value[],
  ): { api: Extract<Value, { k: 'api' }>; args: Value[] } | undefined {
    const caller = args[0];
    const console =
      caller === undefined || caller.k === 'nil' || (caller.k === 'api' && caller.name === 'NULL');
    if (!console) return undefined;
    const words: Value[] = [str(command)];
    const list = args[2];
    if (list?.k === 'table') {
      const n = Math.min(list.t.length(), MAX_CONSOLE_WORDS);
      for (let i = 1; i <= n; i++) words.push(list.t.get(num(i)));
    } else if (args[3] !== undefined) words.push(args[3]);
    return {
      api: apiValue('RunConsoleCommand', 'table_field', `${CONSOLE_CALLBACKS}["${command}"]`),
      args: words,
    };
  }

  /**
   * Values an addon keeps on entities or in the game's networked and global variables, by
   * key, for a later handler to read: a downloaded payload stored with `SetNWString`,
   * `SetKeyValue` or `cookie.Set` by one callback and run by a timer. Keys are taken
   * addon-wide (which entity holds the value is rarely known); the stores are tables of the
   * addon's state, so a handler that read one before a later handler filled it runs again
   * (see drain). Gives what a read finds, or undefined to answer as before.
   */
  private keptState(access: StateAccess, name: string, args: Value[]): Value[] | undefined {
    const method = name.charCodeAt(0) === 63; /* ? */
    // (Player data is keyed by its second argument in both forms: the player's ID, or the
    // player the method is called on, comes first.)
    const pdata = access === StateAccess.SetPData || access === StateAccess.GetPData;
    const keyArg = args[method || pdata ? 1 : 0];
    if (access === StateAccess.GetKeyValues) return [{ k: 'table', t: this.keyValues }];
    if (access === StateAccess.AddNetworkString) {
      // Names are the net messages' own, constants nearly always; one made from a web reply
      // is text the server hands every client (a payload spread over network string names).
      const t = args[0] === undefined || args[0].k === 'str' ? undefined : taintOf(args[0]);
      if (t === undefined) return undefined;
      const kept = this.networked.getName(NETWORK_STRING_NAMES);
      this.networked.setName(
        NETWORK_STRING_NAMES,
        withTaint(UNKNOWN, mergeTaint(taintOf(kept), t)),
      );
      if (carriesWebReply(args[0]!)) this.networkedFromWebAt = LuaTable.writes;
      return undefined;
    }
    if (access === StateAccess.NetworkString)
      return keptValue(this.networked, NETWORK_STRING_NAMES);
    const key = keyArg?.k === 'str' ? keyArg.v : undefined;
    if (key === undefined) return undefined;
    switch (access) {
      case StateAccess.SetNetworked: {
        const value = args[method ? 2 : 1] ?? NIL;
        this.networked.setName(key, value);
        if (carriesWebReply(value)) this.networkedFromWebAt = LuaTable.writes;
        return undefined;
      }
      case StateAccess.SetKeyValue:
        // (Keyvalue names are not case-sensitive.)
        this.keyValues.setName(key.toLowerCase(), args[2] ?? NIL);
        return undefined;
      case StateAccess.SetCookie:
        this.cookies.setName(key, args[1] ?? NIL);
        return undefined;
      case StateAccess.GetCookie:
        return keptValue(this.cookies, key);
      case StateAccess.SetPData:
        this.playerData.setName(key, args[2] ?? NIL);
        return undefined;
      case StateAccess.GetPData:
        return keptValue(this.playerData, key);
      case StateAccess.SetList: {
        let list = this.lists.getName(key);
        if (list.k !== 'table') this.lists.setName(key, (list = { k: 'table', t: new LuaTable() }));
        if (name === 'list.Add') list.t.set(num(list.t.length() + 1), args[1] ?? NIL);
        else if (args[1] !== undefined) list.t.set(args[1], args[2] ?? NIL);
        return undefined;
      }
      case StateAccess.GetList:
        return keptValue(this.lists, key);
      default:
        return keptValue(this.networked, key);
    }
  }

  private callApi(
    api: Extract<Value, { k: 'api' }>,
    args: Value[],
    fc: FileContext,
    line: number,
    method: boolean,
    known?: ApiInfo,
  ): Value[] {
    const name = api.name;
    const info = known ?? apiInfo(name);
    // Pure library functions: evaluate, do not record (they are not behaviour).
    const builtin = info.builtin;
    // `tonumber(ply:SteamID64())`: still the player's identity, compared as a number.
    const a0 = args[0];
    if (
      a0 !== undefined &&
      a0.k === 'unk' &&
      a0.identity !== undefined &&
      IDENTITY_WRAPPERS.has(name)
    )
      return [{ k: 'unk', identity: a0.identity }];
    if (builtin && !(info.gsub && (args[2]?.k === 'fn' || args[2]?.k === 'api'))) {
      const r = builtin(args);
      if (r.length > 0) this.recordDecoded(r[0]!, fc, line);
      return r;
    }
    if (info.gsub && args[2]?.k === 'fn') return this.gsubWithFunction(args, fc, line);
    if (info.gsub && args[2]?.k === 'api' && args[0] !== undefined) {
      // `string.gsub(body, "^.+$", RunString)`: the API is called with each match (the text
      // itself stands for them, with its taint).
      const api = args[2];
      const subject = args[0].k === 'str' ? args[0] : withTaint(UNKNOWN, taintOf(args[0]));
      this.callApi(api, [subject], fc, line, false);
      return [withTaint(UNKNOWN, taintOf(args[0])), UNKNOWN];
    }

    if (info.special && info.consoleCommand !== undefined) {
      const asConsole = this.consoleCallback(info.consoleCommand, args);
      if (asConsole !== undefined)
        return this.callApi(asConsole.api, asConsole.args, fc, line, false);
    }
    this.recordCall(name, api, args, fc, line, info);
    if (info.state !== StateAccess.None) {
      const kept = this.keptState(info.state, name, args);
      if (kept !== undefined) return kept;
    }

    if (info.special)
      switch (name) {
        case 'getfenv':
        case 'debug.getfenv':
          return [apiValue('_G', 'global_table')];
        case 'setfenv':
        case 'debug.setfenv': {
          // Compiled text given an environment of pure functions only (a calculator's
          // `setfenv(f, { sqrt = math.sqrt })`) can reach nothing: it is no longer run as
          // code of the server's, wherever the text came from. Only on a certain path.
          const target = args[0];
          const at = target === undefined ? undefined : this.compiledAt.get(target);
          if (at !== undefined && this.uncertain === 0 && isSandbox(args[1], 0)) {
            this.compiledAt.delete(target!);
            this.unconfined.set(at, this.unconfined.get(at)! - 1);
          }
          return [target ?? NIL];
        }
        case 'debug.getregistry':
          return [apiValue('_R', 'registry')];
        case 'FindMetaTable': {
          const n = args[0] ? asString(args[0]) : undefined;
          return [n ? apiValue(`meta:${n}`, 'registry') : UNKNOWN];
        }
        case 'concommand.GetTable':
          return [apiValue(CONSOLE_CALLBACKS, 'registry')];
        case 'debug.getupvalue': {
          // Another addon's callback (one from hook.GetTable(), net.Receivers…): the name
          // and value of what it closes over, its webhook URLs, keys and passwords as well.
          // (An upvalue of the addon's own function is its own business.)
          if (args[0]?.k === 'fn') break;
          const closed = this.taintValue(
            'globals',
            "what another addon's function closes over (debug.getupvalue)",
            fc,
            line,
          );
          return [closed, closed];
        }
        case '?:NetworkVar': {
          // `self:NetworkVar(type, [slot,] name, { Edit = {…} })`: a variable with an editor
          // in the entity's "Edit Properties" menu. The game's `editvariable` receiver sets
          // it for any player the gamemode lets edit: in Sandbox and DarkRP anyone, unless
          // the entity is AdminOnly, the editor is, or its CanEditVariables checks rank.
          const named = args[2]?.k === 'num' ? 3 : 2;
          const name = args[named] ? asString(args[named]!) : undefined;
          const extras = args[named + 1];
          const edit = extras?.k === 'table' ? extras.t.getName('Edit') : undefined;
          if (name === undefined || edit?.k !== 'table') break;
          if (isTruthy(edit.t.getName('AdminOnly')) === true || !this.playersMayEdit(args[0]))
            break;
          if (this.editableVars.size < MAX_CHOICES) this.editableVars.add(name);
          return [NIL];
        }
        case '?:NetworkVarNotify': {
          // `self:NetworkVarNotify(name, fn)`: fn(ent, name, old, new) runs on every change,
          // so on an editable variable with what any player typed into the editor.
          const name = args[1] ? asString(args[1]) : undefined;
          const cb = args[2];
          if (name === undefined || cb?.k !== 'fn' || !this.editableVars.has(name)) break;
          const edited = this.taintValue(
            'net',
            `value any player may edit (NetworkVar ${name})`,
            fc,
            line,
          );
          const label = `change of editable NetworkVar ${name}`;
          this.defer(
            cb,
            [args[0] ?? UNKNOWN, str(name), UNKNOWN, edited],
            fc,
            this.underHandler(label, fc, line, 'net.Receive', 'editvariable'),
          );
          return [NIL];
        }
        case '?:CallOnClient': {
          // `wep:CallOnClient("Receive", data)`: the weapon's method of that name runs on its
          // owner's client with the text, as a net message's receiver does.
          const method = args[1] ? asString(args[1]) : undefined;
          if (method === undefined) break;
          const sent = args[2] ?? NIL;
          for (const fn of this.methodsByName.get(method) ?? []) {
            const home = fn.home!;
            const id = fn.node.identifier;
            if (home.realm === 'server' || id?.type !== 'MemberExpression') continue;
            const label = `Weapon:CallOnClient(${JSON.stringify(method)})`;
            this.defer(
              fn,
              [this.instanceOf(fn, id), sent],
              home,
              this.underHandler(label, fc, line, 'Weapon:CallOnClient', method),
            );
          }
          return [NIL];
        }
        case 'gmod.GetGamemode':
          // The gamemode's table, as GM and GAMEMODE name it.
          return [{ k: 'table', t: this.gmTable }];
        case 'language.GetPhrase': {
          // The addon's own translation of the key, from the .properties files it ships.
          const key = args[0] ? asString(args[0]) : undefined;
          const text = key === undefined || this.host === null ? undefined : this.host.phrase(key);
          if (text !== undefined) return [str(text)];
          break;
        }
        case 'ents.Create': {
          // The class decides what the entity's inputs do (see entityInput).
          const cls = args[0] ? asString(args[0]) : undefined;
          return [cls ? { k: 'unk', entityClass: cls.toLowerCase() } : UNKNOWN];
        }
        case 'rawget': {
          if (args[0] && args[1]) return [this.index(args[0], args[1], fc, line, true)];
          return [UNKNOWN];
        }
        case 'setmetatable': {
          // A missing key is read from `__index` when it is a table: a proxy of _G
          // (`setmetatable({}, { __index = _G }).RunString`), or a class's methods.
          const t = args[0];
          const mt = args[1];
          if (t?.k === 'table' && mt?.k === 'table') {
            const via = mt.t.getName('__index');
            // (A function `__index(t, k)` is called with the key, `_G[k:reverse()]` say.)
            if (via.k === 'table' || via.k === 'api' || via.k === 'fn') t.t.fallback = via;
            // `__call`: the table called as a function (a runner object, a class's constructor).
            const call = mt.t.getName('__call');
            if (call.k === 'fn') t.t.callable = call;
            const newindex = mt.t.getName('__newindex');
            if (newindex.k === 'fn') t.t.newindex = newindex;
            const concat = mt.t.getName('__concat');
            if (concat.k === 'fn') t.t.concat = concat;
            for (const name of OPERATOR_METAMETHODS) {
              const f = mt.t.getName(name);
              if (f.k === 'fn') (t.t.operators ??= new Map()).set(name, f);
            }
          }
          // A helper's result left unrun, given a metatable: no longer what the helper makes.
          if (t?.k === 'unk' && t.skipped !== undefined) return [UNKNOWN];
          return [t ?? NIL];
        }
        case 'getmetatable': {
          // The strings' metatable, whose `__index` is the string library: a function the
          // addon puts there is a method of every string (`("…"):run()`).
          const v = args[0];
          if (v?.k !== 'str' && !(v?.k === 'unk' && (v.partial !== undefined || v.taint)))
            return [UNKNOWN];
          if (this.stringMeta === null) {
            this.stringMeta = new LuaTable();
            this.stringMeta.setName('__index', { k: 'table', t: this.stringLibrary() });
          }
          return [{ k: 'table', t: this.stringMeta }];
        }
        case 'select': {
          const n = args[0] ? asNumber(args[0]) : undefined;
          if (args[0]?.k === 'str' && args[0].v === '#') return [num(args.length - 1)];
          return n === undefined ? [UNKNOWN] : args.slice(n);
        }
        case 'table.sort': {
          // A list of known entries put in order (fragments sorted by their position or
          // time, then joined): the order its comparator gives, or `<`'s.
          const t = args[0];
          const cmp = args[1];
          if (t?.k !== 'table') return [];
          if (cmp?.k === 'unk' && cmp.choices !== undefined) {
            // A comparator someone else picked (`Sorters[feed.order]`, the table falling back
            // to _G): sorting hands it the list's entries, however many the list holds.
            const first = t.t.length() > 0 ? t.t.get(num(1)) : undefined;
            const any = first ?? withTaint(UNKNOWN, t.t.unknownTaint);
            this.callValue(cmp, [any, any], fc, line, false);
            return [];
          }
          if (t.t.someUnknown) return [];
          const n = t.t.length();
          if (n < 2 || n > MAX_SORTED || (cmp !== undefined && cmp.k !== 'fn')) return [];
          const items: Value[] = [];
          for (let i = 1; i <= n; i++) items.push(t.t.get(num(i)));
          const sorted = this.sortValues(items, cmp, fc, line);
          if (sorted !== undefined) for (let i = 0; i < n; i++) t.t.set(num(i + 1), sorted[i]!);
          return [];
        }
        case 'table.insert': {
          const t = args[0];
          if (t?.k === 'table') {
            if (args.length >= 3) {
              const pos = asNumber(args[1]!);
              if (pos !== undefined) {
                for (let i = t.t.length(); i >= pos; i--) t.t.set(num(i + 1), t.t.get(num(i)));
                t.t.set(num(pos), args[2]!);
              }
            } else if (args[1]) t.t.set(num(t.t.length() + 1), args[1]);
          }
          return [];
        }
        case 'table.remove': {
          const t = args[0];
          if (t?.k === 'table') {
            const n = t.t.length();
            const pos = args[1] ? (asNumber(args[1]) ?? n) : n;
            const v = t.t.get(num(pos));
            for (let i = pos; i < n; i++) t.t.set(num(i), t.t.get(num(i + 1)));
            t.t.set(num(n), NIL);
            return [v];
          }
          return [UNKNOWN];
        }
        case 'pcall':
        case 'xpcall': {
          const f = args[0];
          // (Also a player method read off its object, or a function the attacker picks.)
          if (
            f &&
            (f.k === 'fn' ||
              f.k === 'api' ||
              (f.k === 'unk' && (f.method !== undefined || f.choices !== undefined)))
          )
            return [
              TRUE,
              ...this.callValue(f, args.slice(name === 'xpcall' ? 2 : 1), fc, line, false),
            ];
          return [UNKNOWN];
        }
        case 'include': {
          const p = args[0] ? asString(args[0]) : undefined;
          // (What the file returns: `local parts = include("x/parts.lua")`.)
          const returned =
            p !== undefined && this.host !== null
              ? this.host.includeFile(p, fc, !this.resultUnused)
              : undefined;
          return returned !== undefined && returned.length > 0 ? returned : [UNKNOWN];
        }
        // Iterator factories: the generic `for` iterates a known table or string for real.
        case 'ipairs':
        case 'pairs':
        case 'SortedPairs':
        case 'RandomPairs':
          return [apiValue(name === 'ipairs' ? 'ipairs' : 'pairs', 'direct'), args[0] ?? NIL];
        case 'string.gmatch':
          return [apiValue(name, 'direct'), args[0] ?? NIL, args[1] ?? NIL];
        case 'utf8.codes':
          return [apiValue(name, 'direct'), args[0] ?? NIL];
        // A coroutine runs its function; what a resume hands it comes back from yield (a
        // coroutine handed to http.Fetch as its callback gets the body there).
        case 'coroutine.wrap':
        case 'coroutine.create': {
          const f = args[0];
          // (A literal in makeClosure's field order: a spread copy's shape died between scans.)
          return [
            f?.k === 'fn'
              ? {
                  k: 'fn',
                  node: f.node,
                  scope: f.scope,
                  home: f.home,
                  coroutine: { resumes: 0, yields: undefined, returned: undefined },
                }
              : UNKNOWN,
          ];
        }
        case 'coroutine.resume': {
          const c = args[0];
          if (c?.k === 'fn') return [TRUE, ...this.callFunction(c, args.slice(1), fc, false, line)];
          return [UNKNOWN];
        }
        case 'coroutine.yield':
          if (this.yieldSink !== null && this.yieldSink.length < MAX_YIELDS) {
            this.yieldSink.push(args);
            if (this.yieldSink.length === MAX_YIELDS) this.coroutineTurns = MAX_COROUTINE_TURNS;
          }
          return this.resumeArgs ?? UNKNOWN_RESULT;
        case 'AddCSLuaFile': {
          const p = args[0] ? asString(args[0]) : undefined;
          if (p) this.clientFiles.add(p.replace(/\\/g, '/').toLowerCase());
          return [];
        }
        case 'ulx.command':
        case 'ULib.cmds.TranslateCommand':
          return [this.ulxCommand(name === 'ulx.command', args, fc, line)];
        case ULX_ADD_PARAM:
        case ULX_DEFAULT_ACCESS:
          this.ulxCommandSetting(name, args, fc, line);
          return [];
        case 'sam.command.new':
          return [this.samCommand(args)];
        case SAM_SET_PERMISSION:
        case SAM_ADD_ARG:
        case SAM_ON_EXECUTE:
        case SAM_CHAINED:
          this.samCommandStep(name, args, fc, line);
          return [args[0] ?? NIL];
        case 'ix.command.Add':
          this.helixCommand(args, fc, line);
          return [];
        case 'rawset': {
          // rawset(t, k, v): the write without t's __newindex. On a library or a metatable
          // (`rawset(FindMetaTable("Player"), "Ban", fn)`) it replaces what it names, as
          // `t.k = v` would.
          const t = args[0];
          const k = args[1];
          if (t?.k === 'table' && k !== undefined && k.k !== 'nil') t.t.set(k, args[2] ?? NIL);
          else if (t?.k === 'api' && k?.k === 'str')
            this.assignApiField(t, k.v, args[2] ?? NIL, fc, line);
          return [t ?? NIL];
        }
        case 'serverguard.command.Add':
          this.serverGuardCommand(args, fc, line);
          return [];
        case 'game.MountGMA': {
          // (path) → success, the paths of the files it mounted. Mounted from a download,
          // each of those files holds what the item's publisher put there, and the publisher
          // can change it at any time: reading one is reading a web reply.
          const gma = args[0];
          if (gma?.k !== 'unk' || gma.downloaded !== true) return UNKNOWN_RESULT;
          return [UNKNOWN, { k: 'unk', taint: gma.taint, downloaded: true }];
        }
        case 'FAdmin.Commands.AddCommand': {
          // (name, callback(ply, cmd, args)): FAdmin leaves the rank check to the callback. It
          // is a console command (`fadmin name …`), and reported as one.
          const cb = args[1];
          if (cb?.k === 'fn') {
            const n = constName(args[0]);
            const text = this.taintValue(
              'concommand',
              `arguments of FAdmin command ${JSON.stringify(n ?? '?')}`,
              fc,
              line,
            );
            this.defer(
              cb,
              [UNKNOWN, UNKNOWN, text],
              fc,
              this.underHandler(
                `FAdmin command ${JSON.stringify(n ?? '?')}`,
                fc,
                line,
                'concommand.Add',
                n,
              ),
            );
          }
          return [];
        }
      }

    this.dispatchCallbacks(name, args, fc, line, info);
    if (info.rescan) this.maybeRescan(name, args, fc, line);
    if (name === 'RunConsoleCommand' && this.changeCallbacks.size > 0)
      this.convarChanged(args, fc, line);

    const src = info.source;
    if (src) {
      if (src === 'sql') {
        const selected = this.selectedConstants(name, args);
        if (selected !== undefined) return selected;
      }
      const shown = args.slice(method ? 1 : 0, (method ? 1 : 0) + (name === 'file.Read' ? 2 : 1));
      let label = `${name}(`;
      for (let i = 0; i < shown.length; i++) {
        const text = textOf(shown[i]!);
        label +=
          (i > 0 ? ', ' : '') + (text !== undefined ? JSON.stringify(text.slice(0, 80)) : '…');
      }
      label += ')';
      // A database on a host the addon names is its author's: its rows are what they put
      // there, as an HTTP body is (GB-001), not the owner's data.
      if (DATABASE_CONNECTS.has(name)) {
        const host = args[0] ? textOf(args[0]) : undefined;
        if (host !== undefined && isRemoteHost(host))
          return [this.taintValue('http', `${label}, a database on a remote host`, fc, line)];
      }
      // A downloaded file holds what its publisher puts there, as an HTTP body does.
      if (name === 'file.Read' && args[0]?.k === 'unk' && args[0].downloaded)
        return [this.taintValue('http', `${label}, a downloaded file`, fc, line)];
      if (name === 'file.Read' || name === 'file.Open') {
        const a0 = args[0];
        // (A path with an unknown part, `"presets/" .. game.GetMap() .. ".json"`, as the
        // host matches it against the files shipped: see readAddonFile.)
        const path = a0 ? (asString(a0) ?? (a0.k === 'unk' ? a0.partial : undefined)) : undefined;
        const gamePath = args[1] ? asString(args[1]) : undefined;
        // What players upload to the server (sprays, custom content) is kept under
        // download/user_custom/: such a file holds whatever a player put in it.
        if (path !== undefined && PLAYER_UPLOADS.test(path))
          return [this.taintValue('clientinfo', `${label}, a file a player uploaded`, fc, line)];
        // The engine's logs (logs/L*.log, console.log) hold every line players say in chat:
        // text any player writes, read back.
        if (
          path !== undefined &&
          SERVER_LOGS.test(path) &&
          !/^(DATA|LUA)$/i.test(gamePath ?? 'DATA')
        )
          return [this.taintValue('chat', `${label}, a server log (what players say)`, fc, line)];
        // A file the addon ships (a material, a font, a text file): its text is known, so a
        // loader that decodes it (char codes in a comment, XOR) decodes it here too. Still
        // data read from a file, for the rules.
        if (name === 'file.Read' && path !== undefined && this.host !== null) {
          const text = this.host.readAddonFile(path, gamePath);
          if (text !== undefined) {
            const read = this.taintValue(src, label, fc, line);
            return [{ k: 'str', v: text, taint: taintOf(read), dec: undefined }];
          }
        }
      }
      return [this.taintValue(src, label, fc, line)];
    }
    if (info.compiler) {
      // The compiled function: calling it runs the code; keep the code's taint on it.
      const code = args[0];
      // Known code becomes a function of its own, whose `...` are what it is called with
      // (`CompileString(decoded)(net.ReadString())`, the decoded text being `RunString(...)`).
      if (code?.k === 'str' && name !== 'CompileFile') {
        const fn = this.compiledFunction(code.v, fc, line);
        if (fn !== undefined) return [fn];
      }
      const taint = code ? taintOf(code) : undefined;
      const compiled = withTaint({ k: 'unk' }, taint);
      if (taint !== undefined) {
        const site = `${fc.path}:${this.lineOf(fc, line)}`;
        this.compiledAt.set(compiled, site);
        this.unconfined.set(site, (this.unconfined.get(site) ?? 0) + 1);
      }
      return [compiled];
    }
    if (name === 'sql.SQLStr') {
      // Escaped for SQL (no injection) but still the same content: keep it, marked escaped.
      const t = args[0] ? taintOf(args[0]) : undefined;
      if (!t) return [UNKNOWN];
      // (Pushed, not mapped: see withNumeric.)
      const escaped: TaintSource[] = [];
      for (const s of t) escaped.push(escapedSource(s));
      return [{ k: 'unk', taint: escaped }];
    }
    const identity = info.identity;
    if (identity !== undefined) {
      // (A player's name is their own text: the object's taint stays on it.)
      return [identityValue(identity, method && args[0] ? taintOf(args[0]) : undefined, fc.realm)];
    }
    const numberFrom = info.numberFrom;
    if (numberFrom !== undefined) return [this.taintValue(numberFrom, `${name}()`, fc, line, true)];
    if (info.everyPlayer) return EVERY_PLAYER_RESULT;
    // CAMI answers through the callback when one is given, and then returns nothing: after
    // `local ok = CAMI.PlayerHasAccess(ply, priv, cb)`, `if ok == false then return end`
    // stops no one.
    if (
      (name === 'CAMI.PlayerHasAccess' || name === 'CAMI.SteamIDHasAccess') &&
      args[2] !== undefined &&
      args[2].k !== 'nil'
    )
      return [];
    // `local ok = ply:IsSuperAdmin()`, `cb(ply:IsSuperAdmin())`: the answer, tested later, is
    // a rank check as the call itself would be, unless it is about a player the sender
    // picked (see checksPickedPlayer).
    if (info.rankCheck && !pickedBySender(method ? args[0] : undefined) && !carriesTaint(args)) {
      this.permissionAnswers = true;
      return GRANTED_RESULT;
    }
    if (info.sanitizer && !info.picksPlayer) return UNKNOWN_RESULT;
    let t: Taint | undefined;
    // (Indexed loops over values: an iterator over the shared frozen result is not optimised.)
    for (let i = 0; i < args.length; i++) t = mergeTaint(t, taintOf(args[i]!));
    if (t === undefined) return UNKNOWN_RESULT;
    // The player found is one the attacker chose, not text of theirs.
    return [{ k: 'unk', taint: info.picksPlayer ? numericTaint(t) : t }];
  }

  /**
   * What a query reading no table gives (`SELECT CAST(X'…' AS TEXT) AS src`): the literals it
   * selects, decoded by the database as string.char decodes (see sqlLiterals). Not for a
   * query carrying data from outside: that one's rows are not known.
   */
  private selectedConstants(name: string, args: Value[]): Value[] | undefined {
    const q = args[0];
    if (q?.k !== 'str' || q.taint !== undefined) return undefined;
    const columns = selectedLiterals(q.v);
    if (columns === undefined || columns.length === 0) return undefined;
    const how: DecodeHow = /\b(x'|unhex\s*\()/i.test(q.v)
      ? 'hex'
      : /\bchar\s*\(/i.test(q.v)
        ? 'char'
        : 'emulated';
    if (name === 'sql.QueryValue') return [str(columns[0]!.text, how)];
    const row = new LuaTable();
    for (const c of columns) row.set(str(c.name), str(c.text, how));
    if (name === 'sql.QueryRow') return [{ k: 'table', t: row }];
    const rows = new LuaTable();
    rows.set(num(1), { k: 'table', t: row });
    return [{ k: 'table', t: rows }];
  }

  private readonly callSeen = new Set<string>();
  /**
   * Where each function compiled from attacker data was compiled (`file:line`), until it is
   * confined to a sandbox (see isSandbox).
   */
  private readonly compiledAt = new WeakMap<Value, string>();
  /** cvars.AddChangeCallback's callbacks, by the convar they watch (lower-cased). */
  private readonly changeCallbacks = new Map<string, FnValue[]>();
  /** Functions that replace http.Fetch, http.Post or HTTP, by what they replace. */
  private readonly replacedRequests = new Map<FunctionDeclaration, string>();
  /** What each helper that builds a sandbox's environment gave (see evalCall). */
  private readonly builtEnvironments = new WeakMap<FunctionDeclaration, Value>();
  /** By place of compile, the functions compiled there from attacker data not yet confined. */
  private readonly unconfined = new Map<string, number>();

  /**
   * The places (`file:line`) where every function compiled from attacker data was then
   * confined to a sandbox: the rules do not count them as running the text. One run that
   * left its function free (another caller, another path) keeps the place a sink.
   */
  sandboxedCompiles(): Set<string> {
    const out = new Set<string>();
    for (const [site, n] of this.unconfined) if (n === 0) out.add(site);
    return out;
  }
  /** Distinct call events recorded before only the strong ones count (see recordCall). */
  maxCallEvents = 400_000;
  private readonly ctxKeys = new WeakMap<Ctx, string>();

  /** Records a call once per distinct (place, callee, argument shape, context). */
  private recordCall(
    name: string,
    api: Extract<Value, { k: 'api' }>,
    args: Value[],
    fc: FileContext,
    line: number,
    info: ApiInfo,
  ): void {
    // Reaching an API through a callback, a decoded name or the registry is itself evidence.
    if (
      (api.via === 'direct' || api.via === 'alias' || api.via === 'global_table') &&
      !info.recorded
    )
      return;
    // What makes two calls the same event: the first arguments' kinds, texts and taints.
    let shape = '';
    for (let i = 0; i < args.length && i < 6; i++) {
      const a = args[i]!;
      if (i > 0) shape += '|';
      if (a.k === 'str') shape += 's' + a.v.slice(0, 40);
      else if (a.k === 'unk') {
        shape += 'u';
        if (a.taint)
          for (let j = 0; j < a.taint.length; j++)
            shape += (j > 0 ? '+' : '') + a.taint[j]!.kind + a.taint[j]!.line;
      } else if (a.k === 'table')
        // (A request's parameters posted again once they carry what others sent.)
        shape += holdsSentData(a.t) ? 'table+' : 'table';
      else shape += a.k === 'api' ? a.name : a.k;
    }
    let ctxKey = this.ctxKeys.get(this.ctx);
    if (ctxKey === undefined) {
      ctxKey = '';
      for (let i = 0; i < this.ctx.length; i++) {
        const f = this.ctx[i]!;
        ctxKey += (i > 0 ? '/' : '') + f.kind[0]! + f.line + (f.name ?? '');
      }
      this.ctxKeys.set(this.ctx, ctxKey);
    }
    const key = `${fc.path}:${fc.depth}:${this.lineOf(fc, line)}:${name}:${api.via}:${shape}:${ctxKey}`;
    if (this.callSeen.has(key)) return;
    // Distinct events are capped to bound memory. Padding code can make any number of
    // distinct harmless calls, so past the cap only calls that run code, run console
    // commands, change ranks or carry attacker data are still recorded, up to a hard cap
    // four times higher: padding must not crowd a backdoor's call out.
    const seen = this.callSeen.size;
    if (seen >= this.maxCallEvents) {
      if (seen >= this.maxCallEvents * 4) return;
      const strong = info.strong || anyTainted(args);
      if (!strong) return;
    }
    this.callSeen.add(key);
    // A registration made through another file's wrapper (`lib.OnNet(net.Receive, "x", f)`)
    // is reported where the addon names it: the first call into the wrapper.
    const site = info.registration ? this.callSites[0] : undefined;
    const at = site ? site.fc : fc;
    const atLine = site ? site.line : line;
    const decoded = this.decodedLine(at, atLine);
    // Built whole, every field written (`decoded` and `alias` too when there are none), in the
    // order of EventBase's fields then the call's: one object per event, and one shape for
    // every event (see taintSource).
    const ev: CallEvent = {
      file: at.path,
      line: this.lineOf(at, atLine),
      realm: this.realmOf(at),
      ctx: this.ctx,
      payloadDepth: at.depth,
      decoded,
      api: name,
      via: api.via,
      alias: api.alias || undefined,
      args: args.slice(0, 16),
    };
    this.out.calls.push(ev);
  }

  private gsubWithFunction(args: Value[], fc: FileContext, line: number): Value[] {
    const s = args[0] ? asString(args[0]) : undefined;
    const p = args[1] ? asString(args[1]) : undefined;
    const re = p !== undefined ? luaPatternToRegExp(p) : undefined;
    const fn = args[2] as FnValue;
    if (s === undefined || !re) {
      this.defer(fn, [withTaint(UNKNOWN, args[0] ? taintOf(args[0]) : undefined)], fc, this.ctx);
      return [withTaint(UNKNOWN, args[0] ? taintOf(args[0]) : undefined)];
    }
    let out = '';
    let last = 0;
    let n = 0;
    for (const m of s.matchAll(re)) {
      if (n++ > 100_000) break;
      const caps = m.length > 1 ? valuesOf(m.slice(1), (c) => str(c ?? '')) : [str(m[0])];
      const r = this.callFunction(fn, caps, fc, true)[0] ?? NIL;
      const rs = asString(r);
      if (r.k === 'unk') return [UNKNOWN];
      out += s.slice(last, m.index) + (rs ?? m[0]);
      last = m.index! + m[0].length;
      if (out.length > MAX_STRING) break;
    }
    out += s.slice(last);
    const v = str(out, 'hex');
    this.recordDecoded(v, fc, line);
    return [v, num(n)];
  }

  private readonly deferCount = new Map<FunctionDeclaration, number>();
  /**
   * Deferred runs of a callback by the label of its registration, with the scopes of the
   * closures registered (see defer).
   */
  private readonly deferLabels = new Map<string, { runs: number; scopes: Scope[] }>();
  /** The handlers hook.Add gave each event, for the addon's own hook.Run of it. */
  private readonly hookHandlers = new Map<string, Array<FnValue | ApiValue>>();
  /** The addon's hook.Run calls that carried attacker data, by event, for handlers added later. */
  private readonly hookRuns = new Map<string, HookRun[]>();

  private defer(fn: FnValue, args: Value[], fc: FileContext, ctx: Ctx): Deferred | undefined {
    // The same callback registered again (a hook added from a loop or a timer) adds nothing
    // new. Registered under other names from a loop (`net.Receive("menu_" .. name, …)` over a
    // table of routes), each closure holds other upvalues: a few of them run.
    const n = this.deferCount.get(fn.node) ?? 0;
    if (n >= MAX_REGISTRATIONS || this.deferred.length >= 50_000) return undefined;
    const label = ctx.length > 0 ? ctx[ctx.length - 1]!.label : '';
    const key = `${fn.node.offset}\0${fc.path}\0${label}`;
    // A closure made in another call (`http.Fetch(url, function(b) cb(b) end)` in a helper
    // called once with an unknown `cb`, then with the function that runs the reply) holds
    // other upvalues: its run is not the first one's, whatever the arguments. A few such
    // closures run past the two runs of one label (a request helper that each caller hands
    // its own callback: the one that compiles the reply may be the third).
    const same = this.deferLabels.get(key);
    const fresh = same !== undefined && !same.scopes.includes(fn.scope);
    if (same !== undefined && same.runs >= 2 && !(fresh && same.scopes.length < MAX_SCOPES))
      return undefined;
    if (same === undefined) this.deferLabels.set(key, { runs: 1, scopes: [fn.scope] });
    else {
      same.runs++;
      if (fresh) same.scopes.push(fn.scope);
    }
    this.deferCount.set(fn.node, n + 1);
    const again = same === undefined ? 0 : same.scopes.indexOf(fn.scope);
    const d: Deferred = { fn, args, ctx, fc, again };
    this.deferred.push(d);
    return d;
  }

  /** ULX commands made so far, by their command object (see ulxCommand). */
  private readonly ulxCommands = new Map<LuaTable, UlxCommand>();
  /** Functions the addon put in ULX's table, by name (`function ulx.kick(…)`). */
  private readonly ulxFunctions = new Map<string, FnValue>();

  /**
   * A ULX command (`ulx.command(category, "ulx name", fn, "!name")`, or ULib's
   * `TranslateCommand("ulx name", fn, …)` under it): a player ULib grants it to runs it from
   * the console or the chat, and the handler gets the parameters ULib parses from their text,
   * as `addParam` declares them. ULib grants a command to no rank until `defaultAccess` names
   * one, so the handler runs behind a rank check unless that is ACCESS_ALL (every player).
   * The object's methods are called after this, and the handler runs in drain, after them.
   */
  private ulxCommand(direct: boolean, args: Value[], fc: FileContext, line: number): Value {
    const t = new LuaTable();
    t.setName('addParam', apiValue(ULX_ADD_PARAM, 'direct'));
    t.setName('defaultAccess', apiValue(ULX_DEFAULT_ACCESS, 'direct'));
    t.missing = UNKNOWN;
    let cb = args[direct ? 2 : 1];
    if (cb?.k === 'api' && cb.name.startsWith('ulx.')) cb = this.ulxFunctions.get(cb.name.slice(4));
    if (cb?.k !== 'fn') return { k: 'table', t };
    const n = constName(args[direct ? 1 : 0]);
    const open = this.underHandler(
      `ULX command ${JSON.stringify(n ?? '?')}`,
      fc,
      line,
      'ulx.command',
      n,
    );
    const closed = [...open, this.frame('guard', 'ULX access (no rank by default)', fc, line)];
    // ulx.command hands the calling player first; under it, that is a parameter it adds.
    const d = this.defer(cb, direct ? [UNKNOWN] : [], fc, closed);
    if (d) this.ulxCommands.set(t, { d, open });
    return { k: 'table', t };
  }

  /** SAM commands being built, by their builder object (see samCommand). */
  private readonly samCommands = new Map<LuaTable, SamCommand>();

  /**
   * A SAM command: `sam.command.new("x")` gives a builder whose methods each hand it back.
   * Its handler (`OnExecute`) gets the calling player and the arguments AddArg declares, from
   * the player's text; SAM lets a player run it when their rank has the command's permission,
   * which SetPermission gives a default rank, and any player when there is no permission.
   */
  private samCommand(args: Value[]): Value {
    const t = new LuaTable();
    t.setName('SetPermission', apiValue(SAM_SET_PERMISSION, 'direct'));
    t.setName('AddArg', apiValue(SAM_ADD_ARG, 'direct'));
    t.setName('OnExecute', apiValue(SAM_ON_EXECUTE, 'direct'));
    t.missing = apiValue(SAM_CHAINED, 'direct');
    this.samCommands.set(t, {
      name: constName(args[0]),
      params: [UNKNOWN],
      rank: '',
      d: undefined,
      open: this.ctx,
    });
    return { k: 'table', t };
  }

  private samCommandStep(name: string, args: Value[], fc: FileContext, line: number): void {
    const self = args[0];
    const cmd = self?.k === 'table' ? this.samCommands.get(self.t) : undefined;
    if (cmd === undefined) return;
    const arg = args[1] ?? NIL;
    if (name === SAM_ADD_ARG) {
      const type = asString(arg);
      cmd.params.push(
        type !== undefined && SAM_TEXT_ARGS.has(type)
          ? this.taintValue(
              'concommand',
              `${type} of SAM command ${JSON.stringify(cmd.name ?? '?')}`,
              fc,
              line,
            )
          : UNKNOWN,
      );
      return;
    }
    if (name === SAM_SET_PERMISSION)
      cmd.rank = args[2] === undefined ? undefined : asString(args[2]);
    else if (name === SAM_ON_EXECUTE && arg.k === 'fn' && cmd.d === undefined) {
      cmd.open = this.underHandler(
        `SAM command ${JSON.stringify(cmd.name ?? '?')}`,
        fc,
        line,
        'sam.command',
        cmd.name,
      );
      cmd.d = this.defer(arg, cmd.params, fc, cmd.open);
    }
    if (cmd.d === undefined || (name !== SAM_SET_PERMISSION && name !== SAM_ON_EXECUTE)) return;
    // No permission, or one every rank has ("user"): any player runs the command.
    cmd.d.ctx =
      cmd.rank === '' || cmd.rank === 'user'
        ? cmd.open
        : [
            ...cmd.open,
            this.frame('guard', `SAM permission (default rank ${cmd.rank ?? 'none'})`, fc, line),
          ];
  }

  /**
   * A Helix command: `ix.command.Add(name, { OnRun = function(self, client, …) … })`. Helix
   * hands OnRun the arguments parsed from the player's text (typed by `arguments`, or all of
   * them as text without it) and lets every player run it unless it is `adminOnly`,
   * `superAdminOnly` or has an `OnCheckAccess` of its own.
   */
  private helixCommand(args: Value[], fc: FileContext, line: number): void {
    const data = args[1];
    if (data?.k !== 'table') return;
    const run = data.t.getName('OnRun');
    if (run.k !== 'fn') return;
    const n = constName(args[0]);
    const label = `Helix command ${JSON.stringify(n ?? '?')}`;
    const text = (): Value => this.taintValue('concommand', `text of ${label}`, fc, line);
    const params: Value[] = [data, UNKNOWN];
    const types = data.t.getName('arguments');
    const typeList: Value[] = [];
    if (types.k === 'table')
      for (let i = 1; i <= types.t.length(); i++) typeList.push(types.t.get(num(i)));
    else if (types.k !== 'nil') typeList.push(types);
    for (const type of typeList)
      params.push(
        type.k === 'api' && /^ix\.type\.(text|string)$/.test(type.name) ? text() : UNKNOWN,
      );
    if (types.k === 'nil') params.push(text(), text(), text());
    const ctx = this.underHandler(label, fc, line, 'ix.command.Add', n);
    const guarded =
      isTruthy(data.t.getName('adminOnly')) !== false ||
      isTruthy(data.t.getName('superAdminOnly')) !== false ||
      data.t.getName('OnCheckAccess').k === 'fn';
    this.defer(
      run,
      params,
      fc,
      guarded ? [...ctx, this.frame('guard', 'Helix command for admins', fc, line)] : ctx,
    );
  }

  /**
   * `serverguard.command:Add(command)`: ServerGuard calls `command:Execute(ply, silent, args)`
   * with the words the caller typed, after checking the caller holds one of
   * `command.permissions`; a command without any is open to every player.
   */
  private serverGuardCommand(args: Value[], fc: FileContext, line: number): void {
    const data = args[args.length - 1];
    if (data?.k !== 'table') return;
    const run = data.t.getName('Execute');
    if (run.k !== 'fn') return;
    const n = constName(data.t.getName('command'));
    const label = `ServerGuard command ${JSON.stringify(n ?? '?')}`;
    const words = this.taintValue('concommand', `arguments of ${label}`, fc, line);
    const ctx = this.underHandler(label, fc, line, 'concommand.Add', n);
    const permissions = data.t.getName('permissions');
    const guarded = permissions.k !== 'nil' && !isEmptyTable(permissions);
    this.defer(
      run,
      [data, UNKNOWN, UNKNOWN, words],
      fc,
      guarded ? [...ctx, this.frame('guard', 'ServerGuard permission', fc, line)] : ctx,
    );
  }

  /** `cmd:addParam{ type = … }` and `cmd:defaultAccess(ULib.ACCESS_…)` of a ULX command. */
  private ulxCommandSetting(name: string, args: Value[], fc: FileContext, line: number): void {
    const self = args[0];
    const cmd = self?.k === 'table' ? this.ulxCommands.get(self.t) : undefined;
    if (cmd === undefined) return;
    const arg = args[1] ?? NIL;
    if (name === ULX_DEFAULT_ACCESS) {
      const access = arg.k === 'api' ? arg.name : asString(arg);
      cmd.d.ctx =
        access === 'ULib.ACCESS_ALL' || access === 'user'
          ? cmd.open
          : [...cmd.open, this.frame('guard', `ULX access ${access ?? '?'}`, fc, line)];
      return;
    }
    // Text parameters are the player's words, unless ULib keeps them to the listed choices.
    const type = arg.k === 'table' ? arg.t.getName('type') : NIL;
    let value: Value = UNKNOWN;
    if (type.k === 'api' && /^ULib\.cmds\.Strings?Arg$/.test(type.name)) {
      const t = arg.k === 'table' ? arg.t : undefined;
      let restricted = false;
      for (let i = 1; t !== undefined && i <= t.length(); i++) {
        const v = t.get(num(i));
        if (v.k === 'api' && v.name === 'ULib.cmds.restrictToCompletes') restricted = true;
      }
      const label = cmd.open[cmd.open.length - 1]!.label;
      if (!restricted) value = this.taintValue('concommand', `text of ${label}`, fc, line);
    }
    cmd.d.args.push(value);
  }

  /**
   * A `(name, callback)` registration whose callback runs later with a player's text of
   * `kind` at `position`, under a handler labelled `handler "name"` (`chat command "rules"`),
   * the text labelled `text of handler "name"`.
   */
  private namedCallback(
    args: Value[],
    fc: FileContext,
    line: number,
    api: string,
    kind: TaintSource['kind'],
    handler: string,
    text: string,
    position: number,
  ): void {
    const n = constName(args[0]);
    const cb = args[1];
    if (cb?.k !== 'fn') return;
    const label = `${handler} ${JSON.stringify(n ?? '?')}`;
    const params = unknowns(position + 1);
    params[position] = this.taintValue(kind, `${text} of ${label}`, fc, line);
    this.defer(cb, params, fc, this.underHandler(label, fc, line, api, n));
  }

  /**
   * Defers a callback the engine would call with `params` under `frame` (under the context of
   * the call when none); a sink API given as the callback (`http.Fetch(url, RunString)`) is
   * called on `params[sinkArg]` at once.
   */
  private callbackOrSink(
    fc: FileContext,
    line: number,
    cb: Value | undefined,
    params: Value[],
    frame: CtxFrame | null,
    sinkArg: number,
  ): void {
    if (!cb) return;
    const ctx = frame === null ? this.ctx : [...this.ctx, frame];
    if (cb.k === 'fn') this.defer(cb, params, fc, ctx);
    else if (
      cb.k === 'api' &&
      cb.name !== 'print' &&
      cb.name !== 'PrintTable' &&
      cb.name !== 'error'
    ) {
      const saved = this.ctx;
      this.ctx = ctx;
      try {
        this.callApi(
          apiValue(cb.name, 'callback', cb.alias, cb.free),
          [params[sinkArg] ?? UNKNOWN],
          fc,
          line,
          false,
        );
      } finally {
        this.ctx = saved;
      }
    }
  }

  /** Registers callbacks the engine would call later, with the parameters it would pass. */
  private dispatchCallbacks(
    name: string,
    args: Value[],
    fc: FileContext,
    line: number,
    info: ApiInfo,
  ): void {
    // (Most APIs take no callback of their own: '' goes straight to the general case.)
    switch (info.callbacks ? name : '') {
      case 'http.Fetch':
      case 'http.Post': {
        // http.Post(url, parameters, onSuccess, onFailure) has one argument more before its callbacks.
        const onSuccess = name === 'http.Fetch' ? 1 : 2;
        this.callbackOrSink(
          fc,
          line,
          args[onSuccess],
          // (body, size, headers, code): the headers are the remote server's words too, and
          // the status code a number it chose (code can travel one byte per request).
          [
            this.httpBody(args[0], fc, line),
            UNKNOWN,
            this.taintValue(
              'http',
              `HTTP headers of ${partialText(args[0] ?? UNKNOWN).slice(0, 120)}`,
              fc,
              line,
            ),
            this.statusCode(args[0], fc, line),
          ],
          this.frame('handler', `${name} success`, fc, line, name),
          0,
        );
        const onFailure = args[onSuccess + 1];
        if (onFailure?.k === 'fn') this.defer(onFailure, [UNKNOWN], fc, this.ctx);
        return;
      }
      case 'net.ReadStream': {
        // The netstream library's transfers (`net.ReadStream(ply, function(data) … end)`, on a
        // client without the player): once the sender's chunks have all arrived, the callback
        // gets the whole text they streamed, still for the receiver that asked for it.
        const cb = args[0]?.k === 'fn' ? args[0] : args[1];
        const data = this.taintValue('net', 'text streamed with net.ReadStream', fc, line);
        this.callbackOrSink(fc, line, cb, [data], null, 0);
        return;
      }
      case 'HTTP':
      case 'CHTTP':
      case 'reqwest': {
        const req = args[0];
        if (req?.k !== 'table') return;
        const url = req.t.get(str('url'));
        const body = this.httpBody(url, fc, line);
        // (code, body, headers): the headers are the remote server's words too.
        const headers = this.taintValue(
          'http',
          `HTTP headers of ${partialText(url).slice(0, 120)}`,
          fc,
          line,
        );
        this.callbackOrSink(
          fc,
          line,
          req.t.get(str('success')),
          [this.statusCode(url, fc, line), body, headers],
          this.frame('handler', `${name} success`, fc, line, name),
          1,
        );
        const failed = req.t.get(str('failed'));
        if (failed.k === 'fn') this.defer(failed, [UNKNOWN], fc, this.ctx);
        return;
      }
      case 'sound.PlayURL':
      case 'sound.PlayFile': {
        // The stream's channel, once it opens: its tags (GetTagsMeta…) are what the host
        // serving it puts there (SOURCE_CALLS).
        const cb = args[2];
        if (cb?.k !== 'fn') return;
        this.defer(cb, [UNKNOWN, UNKNOWN, UNKNOWN], fc, this.underHandler(name, fc, line, name));
        return;
      }
      case 'steamworks.Download':
      case 'steamworks.DownloadUGC':
      case 'steamworks.FileInfo': {
        // The callback comes last: (id, callback), or (id, uncompress, callback) for Download.
        const cb = args[args.length - 1];
        if (cb?.k !== 'fn') return;
        // A download hands over where it put the file; the item's details are its
        // publisher's own text. An item a web reply or a player named stays theirs: its
        // details and the downloaded file carry their taint too (a mount the web orders).
        const named = taintOf(args[0] ?? NIL)?.filter((s) => s.label !== FILE_INFO_RESULT);
        const result: Value =
          name === 'steamworks.FileInfo'
            ? {
                k: 'unk',
                taint: mergeTaint(
                  taintOf(this.taintValue('http', FILE_INFO_RESULT, fc, line)),
                  named,
                ),
              }
            : named !== undefined && named.length > 0
              ? { k: 'unk', taint: named, downloaded: true }
              : { k: 'unk', downloaded: true };
        this.defer(cb, [result], fc, this.underHandler(name, fc, line, name));
        return;
      }
      case 'net.Receive': {
        const n = constName(args[0]);
        const cb = args[1];
        if (cb?.k === 'fn') {
          const frame = this.frame(
            'handler',
            `net.Receive(${JSON.stringify(n ?? '?')})`,
            fc,
            line,
            'net.Receive',
            n,
          );
          frame.fnOffset = cb.node.offset;
          if (n !== undefined && this.host !== null && this.host.exhaustiveNetName(n))
            frame.exhaustive = true;
          // (The sender, known by this receiver's frame: see UnknownValue.actor.)
          this.defer(cb, [UNKNOWN, { k: 'unk', actor: frame }], fc, [...this.ctx, frame]);
        }
        return;
      }
      case 'usermessage.Hook': {
        // The old user-message library's receiver (`umsg.Start`/`umsg.String` on the server):
        // what it reads off its message (`msg:ReadString()`) is what the server sent.
        const n = constName(args[0]);
        const cb = args[1];
        if (cb?.k === 'fn') {
          const msg = this.taintValue('net', `user message ${JSON.stringify(n ?? '?')}`, fc, line);
          this.defer(
            cb,
            [msg],
            fc,
            this.underHandler(
              `usermessage.Hook(${JSON.stringify(n ?? '?')})`,
              fc,
              line,
              'usermessage.Hook',
              n,
            ),
          );
        }
        return;
      }
      case 'concommand.Add': {
        const n = constName(args[0]);
        const cb = args[1];
        const argsT = this.taintValue(
          'concommand',
          `arguments of console command ${JSON.stringify(n ?? '?')}`,
          fc,
          line,
        );
        if (cb?.k === 'fn')
          this.defer(
            cb,
            [UNKNOWN, UNKNOWN, argsT, argsT],
            fc,
            this.underHandler(
              `concommand ${JSON.stringify(n ?? '?')}`,
              fc,
              line,
              'concommand.Add',
              n,
            ),
          );
        return;
      }
      case 'hook.Add': {
        const ev = constName(args[0]);
        const cb = args[2];
        // `hook.Add("X_Received", "apply", RunString)`: the API itself handles the event.
        if (cb?.k === 'api' && ev !== undefined) {
          this.addHookHandler(ev, cb);
          return;
        }
        if (cb?.k !== 'fn') return;
        const params: Value[] = unknowns(cb.node.parameters.length);
        const sent = ev === undefined ? undefined : HOOK_SENT_TEXT[ev];
        if (sent && sent[0] < params.length)
          params[sent[0]] = this.taintValue(sent[1], sent[2], fc, line);
        // Hooks handed a joining player's identities before the player object exists.
        const ids = ev === undefined ? undefined : HOOK_IDENTITIES[ev];
        if (ids)
          ids.forEach((identity, i) => {
            if (identity && i < params.length)
              params[i] = identityValue(identity, undefined, fc.realm);
          });
        // Game events (gameevent.Listen) hand a table: a connecting player's ID, IP and name.
        const fields = ev === undefined ? undefined : GAME_EVENT_IDENTITIES[ev];
        if (fields && params.length > 0) {
          const t = new LuaTable();
          for (const [key, identity] of fields)
            t.setName(key, identityValue(identity, undefined, fc.realm));
          const text = GAME_EVENT_SENT_TEXT[ev!];
          if (text) t.setName(text[0], this.taintValue(text[1], text[2], fc, line));
          params[0] = { k: 'table', t };
        }
        const ctx = this.underHandler(
          `hook ${ev ?? '?'}`,
          fc,
          line,
          `hook.Add:${ev ?? '?'}`,
          constName(args[1]),
        );
        this.defer(cb, params, fc, ctx);
        if (ev !== undefined) this.addHookHandler(ev, cb);
        return;
      }
      case 'DarkRP.defineChatCommand':
        // (command, callback(ply, args)): any player types `/command args` in the chat.
        this.namedCallback(args, fc, line, name, 'chat', 'chat command', 'arguments', 1);
        return;
      case '?:AddFunction': {
        // html:AddFunction(object, name, fn): the page's JavaScript calls fn with text of its
        // own. An execution sink handed over as is (`exec = RunString` in a bridge table) runs
        // whatever the page, or whoever serves it, sends.
        const fn = args[3];
        if (fn?.k !== 'api' || !(fn.name in EXEC_SINKS)) return;
        const label = `text a web page's script passes to ${constName(args[1]) ?? '?'}.${constName(args[2]) ?? '?'}`;
        this.callApi(fn, [this.taintValue('http', label, fc, line)], fc, line, false);
        return;
      }
      case 'file.AsyncRead': {
        // (path, gamePath, callback(fileName, gamePath, status, data)): file.Read, later.
        const cb = args[2];
        if (cb?.k !== 'fn') return;
        const data =
          this.callApi(
            apiValue('file.Read', 'direct'),
            [args[0] ?? UNKNOWN, args[1] ?? UNKNOWN],
            fc,
            line,
            false,
          )[0] ?? UNKNOWN;
        this.defer(
          cb,
          [args[0] ?? UNKNOWN, args[1] ?? UNKNOWN, UNKNOWN, data],
          fc,
          this.underHandler(`callback of ${name}`, fc, line, name),
        );
        return;
      }
      case 'duplicator.RegisterEntityModifier':
        // (name, callback(ply, ent, data)): run on every pasted entity with the modifier's
        // data from the dupe, which the pasting player made and, with Advanced Duplicator,
        // uploads from their own game.
        this.namedCallback(args, fc, line, name, 'net', 'entity modifier', 'dupe data', 2);
        return;
      case 'hook.Run':
      case 'hook.Call':
      case 'gamemode.Call': {
        // The addon's own event: the handlers it added get what it passes (`hook.Run("X_Apply",
        // ply, net.ReadString())` in a receiver, `hook.Add("X_Apply", …)` in another file).
        // Only runs that carry attacker data are followed; the handlers ran once already, as the
        // game would call them, with unknown arguments. hook.Call takes the gamemode first.
        const ev = constName(args[0]);
        if (ev === undefined) return;
        const passed = args.slice(name === 'hook.Call' ? 2 : 1);
        if (!anyTainted(passed)) return;
        const run: HookRun = {
          args: passed,
          fc,
          ctx: this.underHandler(`${name}(${JSON.stringify(ev)})`, fc, line, name),
        };
        for (const cb of this.hookHandlers.get(ev) ?? []) this.runHookHandler(cb, run);
        // A handler added later (the file that adds it runs after) gets it then.
        const runs = this.hookRuns.get(ev);
        if (runs) {
          if (runs.length < 8) runs.push(run);
        } else this.hookRuns.set(ev, [run]);
        return;
      }
      case 'timer.Simple':
      case 'timer.Create':
      case 'timer.Adjust': {
        const cb = name === 'timer.Simple' ? args[1] : args[3];
        const delay = name === 'timer.Simple' ? args[0] : args[1];
        if (cb?.k === 'fn')
          this.defer(
            cb,
            [],
            fc,
            this.underHandler(
              `${name}(${partialText(delay ?? UNKNOWN)})`,
              fc,
              line,
              name,
              name === 'timer.Simple' ? undefined : constName(args[0]),
            ),
          );
        return;
      }
      case 'CAMI.PlayerHasAccess':
      case 'CAMI.SteamIDHasAccess': {
        // (actor, privilege, callback, …): the callback learns whether the actor may.
        const cb = args[2];
        if (cb?.k !== 'fn') return;
        this.permissionAnswers = true;
        this.defer(
          cb,
          [{ k: 'unk', granted: true }, UNKNOWN],
          fc,
          this.underHandler(`callback of ${name}`, fc, line, name),
        );
        return;
      }
      case 'cvars.AddChangeCallback': {
        const cb = args[1];
        const watched = constName(args[0])?.toLowerCase();
        if (cb?.k === 'fn' && watched !== undefined) {
          const list = this.changeCallbacks.get(watched);
          if (list === undefined) this.changeCallbacks.set(watched, [cb]);
          else if (list.length < MAX_CHOICES && !closureOf(list, cb.node)) list.push(cb);
        }
        if (cb?.k === 'fn')
          this.defer(
            cb,
            [UNKNOWN, UNKNOWN, UNKNOWN],
            fc,
            this.underHandler(name, fc, line, name, constName(args[0])),
          );
        return;
      }
      default: {
        // A database's query (tmysql's `db:Query(text, callback)`): its callback gets the rows.
        const rows = DATABASE_QUERIES.has(name) ? receivedOn(args[0]) : undefined;
        for (let i = 0; i < args.length; i++) {
          const a = args[i]!;
          if (a.k !== 'fn') continue;
          const params = unknowns(a.node.parameters.length);
          if (rows !== undefined && params.length > 0) params[0] = rows;
          this.defer(a, params, fc, this.underHandler(`callback of ${name}`, fc, line, name));
        }
      }
    }
  }

  /**
   * Keeps a handler hook.Add gave an event, for the addon's own hook.Run of it, and hands it
   * the runs with attacker data made before it was added.
   */
  private addHookHandler(ev: string, cb: FnValue | ApiValue): void {
    const list = this.hookHandlers.get(ev);
    if (list) {
      if (list.length < 64) list.push(cb);
    } else this.hookHandlers.set(ev, [cb]);
    for (const run of this.hookRuns.get(ev) ?? []) this.runHookHandler(cb, run);
  }

  /** One hook.Run with attacker data, for one handler: deferred, or an API called at once. */
  private runHookHandler(cb: FnValue | ApiValue, run: HookRun): void {
    if (cb.k === 'fn') {
      this.defer(cb, run.args, run.fc, run.ctx);
      return;
    }
    const saved = this.ctx;
    this.ctx = run.ctx;
    try {
      this.callApi(
        apiValue(cb.name, 'callback', cb.alias, cb.free),
        run.args,
        run.fc,
        run.ctx[run.ctx.length - 1]!.line,
        false,
      );
    } finally {
      this.ctx = saved;
    }
  }

  /** A web reply's status code: a number its host chose. */
  private statusCode(url: Value | undefined, fc: FileContext, line: number): Value {
    return this.taintValue(
      'http',
      `HTTP status code of ${partialText(url ?? UNKNOWN).slice(0, 120)}`,
      fc,
      line,
      true,
    );
  }

  /**
   * `RunConsoleCommand("x_extra", value)` of a convar with a change callback: the game calls
   * it with the new value, here under the setter's context (a web reply written into a hidden
   * convar whose callback compiles it).
   */
  private convarChanged(args: Value[], fc: FileContext, line: number): void {
    const convar = args[0] ? asString(args[0])?.trim().toLowerCase() : undefined;
    const callbacks = convar === undefined ? undefined : this.changeCallbacks.get(convar);
    if (callbacks === undefined) return;
    const value = args[1] ?? UNKNOWN;
    for (const cb of callbacks)
      this.defer(
        cb,
        [str(convar!), UNKNOWN, value],
        fc,
        this.underHandler(
          `change of convar ${convar}`,
          fc,
          line,
          'cvars.AddChangeCallback',
          convar,
        ),
      );
  }

  /** Re-analyses code carried by a string: what RunString/SendLua/lua_run would run. */
  private maybeRescan(name: string, args: Value[], fc: FileContext, line: number): void {
    if (fc.depth >= this.maxPayloadDepth) return;
    let code: string | undefined;
    let realm: Realm = fc.realm;
    let carrier = name;
    if (name in EXEC_SINKS) {
      const v = args[codeArgIndex(name)];
      if (v?.k === 'str' && name !== 'CompileFile') code = v.v;
      if (name === 'BroadcastLua' || name === 'Player:SendLua') {
        realm = 'client';
        // Code pushed to clients with a part not known (`string.format(stub, netName)`): what
        // is known of it is the loader it installs, its unknown parts read as a plain name.
        if (v?.k === 'unk' && v.partial !== undefined && v.partial.length >= 20)
          code = v.partial.replace(/«[^»]*»/g, '_');
      }
    } else if (FILE_WRITE_SINKS.has(name)) {
      const v = args[1];
      if (v?.k === 'str') code = v.v;
      // Console lines for a file that is run as commands (ULX runs data/ulx/config.txt at
      // every map start): a `lua_run` line among them is code the server will run.
      const text = v?.k === 'str' ? v.v : v?.k === 'unk' ? v.partial : undefined;
      const luaRun = text === undefined ? null : LUA_RUN_LINE.exec(text);
      if (luaRun !== null) {
        code = luaRun[2]!;
        carrier = 'lua_run';
      }
    } else if (CONSOLE_SINKS.has(name)) {
      const parts: Array<string | undefined> = new Array(args.length);
      for (let i = 0; i < args.length; i++) parts[i] = asString(args[i]!);
      const first = (parts[name === 'Player:ConCommand' ? 1 : 0] ?? '').trim();
      if (name === 'RunConsoleCommand' && parts[0] === 'lua_run') code = parts.slice(1).join(' ');
      else if (name === 'RunConsoleCommand' && parts[0] === 'ulx' && parts[1] === 'luarun')
        code = parts.slice(2).join(' ');
      else if (/^(lua_run|ulx\s+luarun)\s/.test(first))
        code = first.replace(/^(lua_run|ulx\s+luarun)\s+/, '');
      carrier = 'lua_run';
    }
    if (code === undefined || code.length < 6 || !/[(=]/.test(code)) return;
    this.rescan(code, carrier, realm, fc, line);
  }

  /**
   * Where code decoded at `line` of `fc` runs: the same file, one payload level deeper, its
   * lines mapped back to that line, with what is left of the file's budget (20 000 steps at
   * least).
   */
  private payloadContext(code: string, realm: Realm, fc: FileContext, line: number): FileContext {
    return {
      path: fc.path,
      realm,
      depth: fc.depth + 1,
      anchorLine: this.lineOf(fc, line),
      payloadLines: code.split(/\r?\n/),
      steps: 0,
      budget: Math.max(20_000, fc.budget - fc.steps),
      exhausted: false,
      shallow: false,
    };
  }

  /**
   * The function CompileString makes of known code: the code parsed as the body of
   * `function(...)`, run (when called) as a payload of the file, at the compiling line.
   * (Wrapped so that the parser makes the node, with the shape of every other.)
   */
  private compiledFunction(code: string, fc: FileContext, line: number): FnValue | undefined {
    if (code.length > MAX_STRING || fc.depth >= this.maxPayloadDepth) return undefined;
    let parsed;
    try {
      parsed = parseLua(Buffer.from(`return function(...) ${code}\nend`, 'latin1'), {
        comments: false,
      });
    } catch {
      return undefined;
    }
    if (parsed.errors.length > 0) return undefined;
    const st = parsed.chunk.body[0];
    const node = st?.type === 'ReturnStatement' ? st.arguments[0] : undefined;
    if (node?.type !== 'FunctionDeclaration') return undefined;
    return this.makeClosure(node, new Scope(null), this.payloadContext(code, fc.realm, fc, line));
  }

  rescan(code: string, carrier: string, realm: Realm, fc: FileContext, line: number): void {
    let parsed;
    try {
      parsed = parseLua(Buffer.from(code.slice(0, MAX_STRING), 'latin1'), { comments: false });
    } catch {
      return;
    }
    const ok =
      parsed.errors.length <= 2 && parsed.chunk.body.some((s) => s.type !== 'ErrorStatement');
    // (One literal of one shape, like the decoded strings' events: see recordDecoded.)
    this.out.payloads.push({
      file: fc.path,
      line: this.lineOf(fc, line),
      realm: this.realmOf(fc),
      ctx: this.ctx,
      payloadDepth: fc.depth,
      decoded: this.decodedLine(fc, line),
      text: code.slice(0, 4000),
      carrier,
      parsed: ok,
    });
    if (!ok) return;
    const sub = this.payloadContext(code, realm, fc, line);
    const saved = this.ctx;
    this.ctx = [...this.ctx, this.frame('payload', carrier, fc, line, carrier)];
    try {
      this.runChunk(parsed.chunk.body, sub);
    } finally {
      this.ctx = saved;
    }
  }
}
