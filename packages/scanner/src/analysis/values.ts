// The abstract values the analysis computes for GLua expressions: known constants, tables,
// references to Garry's Mod API functions (however they were reached) and tainted unknowns.
import type { FunctionDeclaration } from '../lua/ast.js';
import type { FileContext } from './emulator.js';
import type { CtxFrame } from './types.js';

/** Where attacker-controlled data came from (first step of a source → sink chain). */
export interface TaintSource {
  kind:
    | 'http'
    | 'net'
    | 'chat'
    | 'concommand'
    | 'file'
    | 'sql'
    | 'clientinfo'
    | 'convar'
    | 'remote_table'
    // The server's own globals, read by walking `_G` (other addons' settings and keys).
    | 'globals'
    // Every addon's web requests, as a replaced http.Fetch/http.Post/HTTP is handed them
    // (their URLs, parameters and headers: other addons' keys and tokens).
    | 'requests';
  label: string;
  file: string;
  line: number;
  /** Passed through sql.SQLStr: harmless for SQL injection, still the same content. */
  escaped?: boolean;
  /**
   * A number the attacker chose (`tonumber(text)`, `net.ReadUInt(8)`): no text of theirs
   * until made into characters (`string.char`), so the rules pass it by; it still picks
   * which of a table's functions runs.
   */
  numeric?: boolean;
  /**
   * Written into Lua code as a quoted literal (`string.format("local s=%q …", text)` with the
   * `%q` where code stands): the code that runs holds the text as a string, so the code sinks
   * pass it by. Still the same content for every other sink (exfiltration, files, console).
   * Kept through concatenation only: any cut or change of the text drops it (see unquoted).
   */
  quoted?: boolean;
}

/**
 * A taint source with all of its fields, in one order: every source has the same shape. A
 * source given a field later (`escaped`, `numeric`, by assignment or by a spread copy) took a
 * shape of its own that only lived as long as such sources did; V8 then dropped it between
 * scans, and the optimised code reading sources (mergeTaint, callApi, the rules) met it as
 * new at the next scan and was thrown away and compiled again, on the core the other scan
 * thread needed (docs/performance.md, session 19).
 */
export function taintSource(
  kind: TaintSource['kind'],
  label: string,
  file: string,
  line: number,
  escaped: boolean | undefined,
  numeric: boolean | undefined,
  quoted: boolean | undefined = undefined,
): TaintSource {
  return { kind, label, file, line, escaped, numeric, quoted };
}

/** How a decoded string was produced (GB-026/027 evidence). */
export type DecodeHow =
  | 'escape'
  | 'char'
  | 'concat'
  | 'reverse'
  | 'base64'
  | 'xor'
  | 'hex'
  | 'table'
  | 'format'
  | 'decompress'
  | 'emulated';

/** How an API function was reached (direct global, local alias, `_G[...]` lookup, …). */
export type Access =
  'direct' | 'alias' | 'global_table' | 'decoded' | 'registry' | 'callback' | 'table_field';

export type Taint = readonly TaintSource[];

export interface StrValue {
  k: 'str';
  v: string;
  taint?: Taint;
  /** Set when the string did not appear as plain text in the source. */
  dec?: DecodeHow;
}
export interface NumValue {
  k: 'num';
  v: number;
  taint?: Taint;
  /** The literal's digits when a double cannot hold them exactly (a SteamID64 written as a number). */
  raw?: string;
}
export interface BoolValue {
  k: 'bool';
  v: boolean;
}
export interface NilValue {
  k: 'nil';
}
export interface TableValue {
  k: 'table';
  t: LuaTable;
}
export interface ApiValue {
  k: 'api';
  /** Canonical name: `RunString`, `http.Fetch`, `Player:SetUserGroup`, `_G`, `meta:Player`. */
  name: string;
  via: Access;
  /** The local or field name the API was reached through, for aliases. */
  alias?: string;
  /** A global the addon never defines and the engine does not provide: may well be nil. */
  free?: boolean;
}
export interface FnValue {
  k: 'fn';
  node: FunctionDeclaration;
  scope: Scope;
  /** `self` bound for `function T:m()` declarations. */
  name?: string;
  /**
   * The file the closure was defined in: its body runs (and reports) there, whoever calls it.
   * (A field rather than a WeakMap entry per closure, which costs a hash and the collector's
   * ephemeron work.)
   */
  home?: FileContext;
  /**
   * Made by coroutine.wrap/create: the arguments of each call (each resume) are also what
   * `coroutine.yield()` gives inside it, and each call gives what the body yields next.
   */
  coroutine?: CoroutineState;
}

/**
 * A coroutine as the emulator models it. The emulator cannot suspend a body halfway, so each
 * resume runs the body whole (as far as the call memo lets it), collecting every
 * `coroutine.yield(…)` in order: the n-th resume gives the n-th yield, then what the body
 * returned, then nothing. A generator that hands out a name piece by piece, or a walker
 * that yields each handler of a table, then gives its caller what the game would.
 */
export interface CoroutineState {
  /** Resumes so far. */
  resumes: number;
  /** What each `coroutine.yield` of the last full run was handed, in order. */
  yields: Value[][] | undefined;
  /** What that run returned. */
  returned: Value[] | undefined;
}
export interface UnknownValue {
  k: 'unk';
  taint?: Taint;
  /** Best-effort text with `«?»` for unknown parts, e.g. a URL built around an IP. */
  partial?: string;
  /**
   * The path of a file the game downloaded (what steamworks.Download hands its callback):
   * the path is the game's own, but reading the file gives what its publisher put there.
   * On a list (what game.MountGMA gives for such a file), each of its entries is one.
   */
  downloaded?: true;
  /**
   * One of this table's functions, picked by the attacker: what `handlers[net.ReadString()]`
   * gives. Calling it runs each of them (Emulator.callEveryChoice).
   */
  choices?: LuaTable;
  /**
   * The answer of a permission check handed to its callback (`CAMI.PlayerHasAccess(ply,
   * priv, function(allowed) … end)`): a condition on it is a rank check.
   */
  granted?: true;
  /**
   * Which identity of a player this is (`SteamID`, `SteamID64`, `Nick`…): what
   * `ply:SteamID()` gives, or a hook hands over (`PlayerAuthed`'s steamid). A condition
   * comparing it to a constant is a hard-coded identity gate (GB-007).
   */
  identity?: string;
  /**
   * A player method read off an object without calling it (`ply.SetUserGroup`, `ply[k]` with
   * k known): what the object holds there is not known, but called with the object first it
   * is that method (`f(ply, "superadmin")`). Only the methods the rules watch are kept.
   */
  method?: string;
  /**
   * Every player on the server: what `player.GetAll()` gives, and each player a loop over it
   * takes. A ban or kick of every player is a destructive action (GB-024).
   */
  everyone?: true;
  /** The class of an entity the addon made (`ents.Create("lua_run")`), lower-cased. */
  entityClass?: string;
  /**
   * Read from a table of literal IDs (or of their hashes) under the player's identity
   * (`local tier = Known[ply:SteamID()]`): a condition on it is a hard-coded identity gate
   * (GB-007), described as the trigger it is.
   */
  gate?: string;
  /**
   * What a call skipped as unable to reach a sink returned (see Emulator.callFunction): a
   * getter may still hand one out (`return Config.Decoders[Config.Format]`, CompileString
   * stored by another file). Calling this value makes the skipped call, then calls its result.
   */
  skipped?: SkippedCall;
  /**
   * The player whose own input the running code reads: a net message's sender (`net.Receive`'s
   * second argument, with the receiver's frame) or an STool's owner (`self:GetOwner()`, whose
   * client convars `self:GetClientInfo` reads). Text of theirs sent back to them alone
   * (`ply:SendLua(text)`) runs on the very client that wrote it.
   */
  actor?: CtxFrame | 'tool owner';
}

/** A call of a function left unmade (see UnknownValue.skipped). */
export interface SkippedCall {
  fn: FnValue;
  args: Value[];
  caller: FileContext;
}

export type Value =
  StrValue | NumValue | BoolValue | NilValue | TableValue | ApiValue | FnValue | UnknownValue;

/**
 * An API value with all of its fields: every one has the same shape, however it was reached
 * (see taintSource for why a field added afterwards, or by a spread copy, is avoided).
 */
export function apiValue(name: string, via: Access, alias?: string, free?: boolean): ApiValue {
  return { k: 'api', name, via, alias, free: free || undefined };
}

export const NIL: NilValue = { k: 'nil' };
export const UNKNOWN: UnknownValue = { k: 'unk' };
/**
 * The two booleans, shared like NIL: no value is changed once made, and a boolean carries no
 * taint nor anything else that could tell two of them apart. (One object per comparison was
 * most of what a condition allocated.)
 */
export const TRUE: BoolValue = { k: 'bool', v: true };
export const FALSE: BoolValue = { k: 'bool', v: false };

export function bool(v: boolean): BoolValue {
  return v ? TRUE : FALSE;
}

export const MAX_STRING = 256 * 1024;
export const MAX_TAINT = 4;

/**
 * The entries of every table nothing was written to yet, shared: many tables stay empty (a
 * file's ENT and SWEP, a function's `...`, `{}` never filled), and a map each costs more to
 * make than the table. Only LuaTable.set writes entries, and it gives a table its own map first.
 */
const NO_ENTRIES = new Map<string | number | object, Value>();

export class LuaTable {
  /**
   * Tables are numbered as they are made; `LuaTable.oldestWritten` is the number of the
   * oldest table written since a loop iteration began (it sets it to Infinity), so that the
   * loop can tell whether the iteration changed a table that outlives it: one made before
   * the iteration (see Emulator.iterate).
   */
  private static made = 0;
  static oldestWritten = Infinity;
  /** The next table's number: what a loop iteration takes as its floor. */
  static get clock(): number {
    return LuaTable.made;
  }
  private readonly id = LuaTable.made++;

  /**
   * Handlers reading state that a later handler fills (see Emulator.drain). While `tracking`,
   * tables made before `stateFloor` (the addon's state once its files ran) note when a value
   * carrying attacker data was stored in them (`changedAt`, on the `writes` clock), and the
   * handler running now lists the ones it reads in `reads`, once each (`readRun`).
   */
  static tracking = false;
  static stateFloor = 0;
  static writes = 0;
  static reads: LuaTable[] | null = null;
  static readRun = 0;
  changedAt = 0;
  private readBy = 0;

  /** Notes a read of this table by the handler running now (see `tracking`). */
  private noteRead(): void {
    if (
      LuaTable.reads !== null &&
      this.id < LuaTable.stateFloor &&
      this.readBy !== LuaTable.readRun
    ) {
      this.readBy = LuaTable.readRun;
      LuaTable.reads.push(this);
    }
  }

  /**
   * Notes that `value` was stored here, if it carries what a player or the web sent (see
   * `tracking`; files and SQL results are the server's own, and caches of them are common).
   */
  private noteWrite(value: Value): void {
    if (this.id >= LuaTable.stateFloor) return;
    // (A record queued whole counts too: `queue[#queue + 1] = { kind = k, payload = s }`;
    // so does a player's IP address, batched for a timer that posts it.)
    const carries =
      sentByOthers(taintOf(value)) ||
      holdsIpAddress(value) ||
      (value.k === 'table' && holdsSentData(value.t));
    if (carries) this.changedAt = ++LuaTable.writes;
  }
  hash: Map<string | number | object, Value> = NO_ENTRIES;
  /** Set for an addon global that shadows an API table: missing keys read as API refs. */
  apiName?: string;
  /**
   * The global it shadows is one the engine does not provide (`pace.x = …` with `pace` never
   * defined): its missing keys may be functions of a file not loaded yet, like a free global.
   */
  free?: boolean;
  /** Next free array index (1-based) tracked for `#t` and `t[#t+1]`. */
  border = 0;
  /**
   * Set once a value was stored under a key the emulator does not know (`t[i] = …` in a
   * loop with no known bound): the table holds more than its known entries. `unknownTaint`
   * is what those values carried.
   */
  someUnknown = false;
  unknownTaint?: Taint;
  /**
   * Where a key missing here is read instead: the `__index` table (or API table, `_G`) of
   * the metatable set with setmetatable. The emulator follows it (Emulator.fallbackField).
   */
  fallback?: TableValue | ApiValue | FnValue;
  /** The metatable's `__call`: what calling the table runs, the table first (Emulator.callValue). */
  callable?: FnValue;
  /** The metatable's `__newindex`: what writing a new key runs, with the table, key and value. */
  newindex?: FnValue;
  /** The metatable's `__concat`: what `t .. x` (or `x .. t`) runs, with both operands. */
  concat?: FnValue;
  /**
   * The metatable's comparison and arithmetic metamethods (`__lt`, `__add`…) by name: what
   * `a < b`, `a + b` run when an operand is this table (see Emulator.evalBinary).
   */
  operators?: Map<string, FnValue>;

  /**
   * What a key nothing was written under reads as: nil, or unknown for an object whose fields
   * are set at run time (an entity's `self`, see Emulator.instanceOf).
   */
  missing: Value | undefined = undefined;

  get(key: Value): Value {
    if (key.k === 'str') return this.getName(key.v);
    if (LuaTable.tracking) this.noteRead();
    const k = tableKey(key);
    if (k === undefined) return UNKNOWN;
    return this.hash.get(k) ?? this.missing ?? NIL;
  }

  /**
   * `get(str(name))` without making a value of the key: what the emulator reads by a name
   * from the syntax tree (a field, a global) at nearly every step.
   */
  getName(name: string): Value {
    if (name.length > MAX_STRING) return this.get(str(name));
    if (LuaTable.tracking) this.noteRead();
    const v = this.hash.get(stringKey(name));
    if (v) return v;
    if (this.apiName) {
      return apiValue(memberName(this.apiName, '.', name), 'direct', undefined, this.free);
    }
    return this.missing ?? NIL;
  }

  /**
   * Writes are dropped: an entity's `self` (see Emulator.instanceOf) reads what its class
   * holds, but what a method stores on it (`self.Memory[i] = 0` in a loop of 2 048) is run-time
   * state the emulation has no use for, as when `self` was unknown.
   */
  readOnly = false;

  set(key: Value, value: Value): void {
    if (this.readOnly) return;
    if (LuaTable.tracking) this.noteWrite(value);
    const k = tableKey(key);
    if (k === undefined) {
      this.someUnknown = true;
      this.unknownTaint = mergeTaint(this.unknownTaint, taintOf(value));
      return;
    }
    this.setKey(k, value);
  }

  /** `set(str(name), value)` without making a value of the key, like getName. */
  setName(name: string, value: Value): void {
    if (this.readOnly) return;
    if (LuaTable.tracking) this.noteWrite(value);
    if (name.length > MAX_STRING) this.set(str(name), value);
    else this.setKey(stringKey(name), value);
  }

  private setKey(k: string | number | object, value: Value): void {
    if (this.id < LuaTable.oldestWritten) LuaTable.oldestWritten = this.id;
    if (this.hash.size > 100_000 && !this.hash.has(k)) return;
    if (value.k === 'nil') {
      if (this.hash !== NO_ENTRIES) this.hash.delete(k);
    } else {
      if (this.hash === NO_ENTRIES) this.hash = new Map();
      this.hash.set(k, value);
    }
    if (typeof k === 'number') {
      if (value.k !== 'nil' && k === this.border + 1) {
        this.border = k;
        while (this.hash.has(this.border + 1)) this.border++;
      } else if (value.k === 'nil' && k <= this.border) this.border = k - 1;
    }
  }

  length(): number {
    if (LuaTable.tracking) this.noteRead();
    return this.border;
  }

  /** Its entries, for a loop over them (`pairs`), as a read (see `tracking`). */
  entries(): Map<string | number | object, Value> {
    if (LuaTable.tracking) this.noteRead();
    return this.hash;
  }
}

/** Interned API names, by prefix then key: see apiName. */
const apiNames = new Map<string, Map<string, string>>();
/** Interned member names, by separator, then base, then key: see memberName. */
const memberNames = {
  '.': new Map<string, Map<string, string>>(),
  ':': new Map<string, Map<string, string>>(),
  meta: new Map<string, Map<string, string>>(),
};
let apiNameCount = 0;

/** The base memberName was last asked about, and its interned names (see memberName). */
let lastMemberBase: string | null = null;
let lastMemberSep: '.' | ':' | 'meta' | null = null;
let lastMemberNames: Map<string, string> | null = null;

function clearNames(): void {
  lastMemberBase = null;
  lastMemberSep = null;
  lastMemberNames = null;
  apiNames.clear();
  memberNames['.'].clear();
  memberNames[':'].clear();
  memberNames.meta.clear();
  apiNameCount = 0;
}

/**
 * `prefix + key` as one shared string per distinct name (`hook.Add`, `Player:SteamID`): the
 * API tables, sets and switches keyed by names then hash a string already seen instead of a
 * new concatenation at every call the emulator evaluates.
 */
export function apiName(prefix: string, key: string): string {
  let byKey = apiNames.get(prefix);
  if (byKey === undefined) {
    // Hostile code can make endless distinct names: the cache stays bounded.
    if (apiNameCount > 100_000) {
      clearNames();
    }
    byKey = new Map();
    apiNames.set(prefix, byKey);
  }
  let name = byKey.get(key);
  if (name === undefined) {
    if (apiNameCount > 100_000) return prefix + key;
    name = prefix + key;
    byKey.set(key, name);
    apiNameCount++;
  }
  return name;
}

/**
 * `base + sep + key` as one shared string, like apiName, for a base only known at run time
 * (`MyAddon` + `.` + `Send`): the base is looked up as it is, where apiName would first hash
 * a new `base + sep` string at every call. With `sep` 'meta', `base` is a metatable's name
 * (`meta:Player`) and the method's name is `Player:` + key.
 */
export function memberName(base: string, sep: '.' | ':' | 'meta', key: string): string {
  // (Members of one base come in runs, `net.Start` then `net.WriteString`, and the members of
  // an entity's table: the last base's names are kept at hand, which saves a look-up by base.)
  let byKey: Map<string, string> | undefined;
  if (base === lastMemberBase && sep === lastMemberSep) byKey = lastMemberNames!;
  else {
    const byBase = memberNames[sep];
    byKey = byBase.get(base);
    if (byKey === undefined) {
      // The same bound as apiName's, counted together.
      if (apiNameCount > 100_000) clearNames();
      byKey = new Map();
      byBase.set(base, byKey);
    }
    lastMemberBase = base;
    lastMemberSep = sep;
    lastMemberNames = byKey;
  }
  let name = byKey.get(key);
  if (name === undefined) {
    name = sep === 'meta' ? base.slice(5) + ':' + key : base + sep + key;
    if (apiNameCount > 100_000) return name;
    byKey.set(key, name);
    apiNameCount++;
  }
  return name;
}

/**
 * Marks the map keys that are not Lua strings (API references): no string key starts with it
 * unescaped, since a Lua string starting with it is stored with it doubled.
 */
const KEY_TAG = '\uDFFF';
const TRUE_KEY = { key: true };
const FALSE_KEY = { key: false };

/** The map key of a Lua string: itself, or with KEY_TAG in front when it starts with the tag. */
function stringKey(s: string): string {
  return s.charCodeAt(0) === 0xdfff ? KEY_TAG + s : s;
}

/**
 * The map key of a Lua key. Strings are their own key, so a look-up by a name taken from the
 * syntax tree hashes that string once instead of building a new prefixed string every time.
 */
export function tableKey(key: Value): string | number | object | undefined {
  switch (key.k) {
    case 'str':
      return stringKey(key.v);
    case 'num':
      return key.v;
    case 'bool':
      return key.v ? TRUE_KEY : FALSE_KEY;
    case 'table':
      return key.t;
    case 'fn':
      return key.node;
    case 'api':
      return KEY_TAG + 'api:' + key.name;
    default:
      return undefined;
  }
}

/** The Lua string a map key stands for, or undefined when the key is not a string. */
export function stringOfKey(k: string | number | object): string | undefined {
  if (typeof k !== 'string') return undefined;
  if (k.charCodeAt(0) !== 0xdfff) return k;
  return k.charCodeAt(1) === 0xdfff ? k.slice(1) : undefined;
}

/**
 * A local variable. `born` orders declarations: a loop iteration can tell the locals it
 * declared from the ones that outlive it (see Emulator.iterate).
 */
export interface LocalRef {
  value: Value;
  readonly born: number;
}

/** A local of a scope's short list: its name, and the local declared before it in the scope. */
interface ListedLocal extends LocalRef {
  readonly name: string;
  readonly next: ListedLocal | null;
}

/** Locals a scope keeps in a list before it moves them to a map. */
const LISTED_LOCALS = 8;

/** A lexical scope of the emulator; closures capture it by reference, as Lua does. */
export class Scope {
  /** Declarations made so far, in order: the next local's `born`. */
  static declared = 0;
  /**
   * Locals declared in this block, newest first; most blocks (an `if` body, a loop) declare
   * none and most others a few, so a short list costs less than a map to make and to search.
   * A name declared again is listed again in front: the newest declaration is the one found.
   */
  private list: ListedLocal | null = null;
  private listed = 0;
  /** The locals of a scope that declared more than LISTED_LOCALS (a file's top level). */
  private vars: Map<string, LocalRef> | null = null;
  constructor(readonly parent: Scope | null) {}

  private own(name: string): LocalRef | undefined {
    if (this.list === null) return this.vars === null ? undefined : this.vars.get(name);
    for (let l: ListedLocal | null = this.list; l !== null; l = l.next)
      if (l.name === name) return l;
    return undefined;
  }

  lookup(name: string): LocalRef | undefined {
    const own = this.own(name);
    if (own !== undefined) return own;
    for (let s = this.parent; s !== null; s = s.parent) {
      const v = s.own(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  declare(name: string, value: Value): void {
    const born = Scope.declared++;
    if (this.vars !== null) {
      // (The list's shape here too: every local has one shape.)
      const ref: ListedLocal = { value, born, name, next: null };
      this.vars.set(name, ref);
      return;
    }
    if (this.listed < LISTED_LOCALS) {
      this.list = { value, born, name, next: this.list };
      this.listed++;
      return;
    }
    // Too many to search in a list: a map, filled oldest first so that the newest wins.
    const all: ListedLocal[] = [];
    for (let l = this.list; l !== null; l = l.next) all.push(l);
    const vars = new Map<string, LocalRef>();
    for (let i = all.length - 1; i >= 0; i--) vars.set(all[i]!.name, all[i]!);
    const ref: ListedLocal = { value, born, name, next: null };
    vars.set(name, ref);
    this.vars = vars;
    this.list = null;
  }
}

/**
 * Whether a table holds what a player or the web sent among its first values, or under keys
 * nobody knew: a queue a receiver fills, handed to a helper that takes from it (`Q:pop()`);
 * or a player's IP address (a game event's record of a connecting player).
 */
export function holdsSentData(t: LuaTable): boolean {
  if (sentByOthers(t.unknownTaint)) return true;
  let n = 0;
  for (const v of t.hash.values()) {
    if (sentByOthers(taintOf(v)) || holdsIpAddress(v)) return true;
    if (++n >= 8) break;
  }
  return false;
}

/**
 * Whether a record read from data (a row of a shipped preset) names something that runs
 * code: `{ class = "lua_run", kv = { Code = … } }`. Its first entries only, nested ones
 * one level down.
 */
export function holdsCodeRecord(t: LuaTable, depth = 0): boolean {
  let n = 0;
  for (const v of t.hash.values()) {
    if (v.k === 'str' && v.taint !== undefined && CODE_WORDS.test(v.v)) return true;
    if (v.k === 'table' && depth === 0 && holdsCodeRecord(v.t, 1)) return true;
    if (++n >= 8) break;
  }
  return false;
}

/** Names of what runs code: entities, their input, and the compilers. */
export const CODE_WORDS = /lua_run|point_servercommand|RunPassedCode|RunString|CompileString/;

/** Whether a text holds a player's IP address (see IP_ADDRESS_TEXT). */
export function holdsIpAddress(v: Value): boolean {
  return v.k === 'unk' && v.partial !== undefined && v.partial.includes(IP_ADDRESS_TEXT);
}

/** Whether a taint holds what a player or the web sent (not the server's files or database). */
function sentByOthers(t: Taint | undefined): boolean {
  if (t === undefined) return false;
  // (Loops rather than callbacks here and below: see SharedViews.callsWhere.)
  for (let i = 0; i < t.length; i++) {
    const kind = t[i]!.kind;
    // (And what a replaced http.Fetch or database connect is handed by every other addon,
    // kept for a timer that posts it.)
    if (
      kind === 'net' ||
      kind === 'http' ||
      kind === 'chat' ||
      kind === 'concommand' ||
      kind === 'requests'
    )
      return true;
  }
  return false;
}

export function taintOf(v: Value): Taint | undefined {
  return v.k === 'str' || v.k === 'num' || v.k === 'unk' ? v.taint : undefined;
}

export function mergeTaint(a: Taint | undefined, b: Taint | undefined): Taint | undefined {
  if (!a || a.length === 0) return b && b.length ? b : undefined;
  if (!b || b.length === 0 || a === b) return a;
  const out = [...a];
  for (const s of b) {
    if (out.length >= MAX_TAINT) break;
    let known = false;
    for (let i = 0; i < out.length && !known; i++) {
      const o = out[i]!;
      known =
        o.kind === s.kind &&
        o.line === s.line &&
        o.file === s.file &&
        !o.numeric === !s.numeric &&
        !o.quoted === !s.quoted;
    }
    if (!known) out.push(s);
  }
  return out;
}

/**
 * `t` with each source's `numeric` set as given. Lists are built by push, as every other
 * taint list is (a literal, a spread copy): `Array.prototype.map` makes a list of another
 * kind (with holes), and code reading lists of both kinds was compiled again and again.
 */
function withNumeric(t: Taint, numeric: true | undefined): Taint {
  const out: TaintSource[] = [];
  for (const s of t)
    out.push(
      !s.numeric === !numeric
        ? s
        : taintSource(s.kind, s.label, s.file, s.line, s.escaped, numeric, s.quoted),
    );
  return out;
}

/** The same sources as text a code sink would run: no longer quoted (see TaintSource.quoted). */
export function unquoted(t: Taint | undefined): Taint | undefined {
  if (t === undefined || !anyQuoted(t)) return t;
  const out: TaintSource[] = [];
  for (const s of t)
    out.push(
      s.quoted ? taintSource(s.kind, s.label, s.file, s.line, s.escaped, s.numeric, undefined) : s,
    );
  return out;
}

function anyQuoted(t: Taint): boolean {
  for (let i = 0; i < t.length; i++) if (t[i]!.quoted) return true;
  return false;
}

/** The same sources written into code as quoted literals (see TaintSource.quoted). */
export function quotedTaint(t: Taint | undefined): Taint | undefined {
  if (t === undefined || t.every((s) => s.quoted)) return t;
  const out: TaintSource[] = [];
  for (const s of t)
    out.push(
      s.quoted ? s : taintSource(s.kind, s.label, s.file, s.line, s.escaped, s.numeric, true),
    );
  return out;
}

/** The same sources as numbers the attacker chose (see TaintSource.numeric). */
export function numericTaint(t: Taint): Taint {
  return t.every((s) => s.numeric) ? t : withNumeric(t, true);
}

/** The same sources as text: numbers the attacker chose, made into characters. */
export function textTaint(t: Taint): Taint {
  return t.some((s) => s.numeric) ? withNumeric(t, undefined) : t;
}

export function withTaint(v: Value, taint: Taint | undefined): Value {
  if (!taint || taint.length === 0) return v;
  // Made as literals, not spread copies: a copy given a field its original did not have took
  // a shape that died between scans (see taintSource).
  if (v.k === 'str') return { k: 'str', v: v.v, taint: mergeTaint(v.taint, taint), dec: v.dec };
  if (v.k === 'num') return { k: 'num', v: v.v, taint: mergeTaint(v.taint, taint), raw: v.raw };
  if (v.k === 'unk') return unknownWithTaint(v, mergeTaint(v.taint, taint));
  if (v.k === 'nil' || v.k === 'bool') return { k: 'unk', taint };
  return v;
}

/**
 * `f` of each item, as a list built by push. Value lists handed on as a call's values are made
 * this way or as literals: `Array.prototype.map` and `Array.from` make lists of another kind
 * (with holes), and code reading both kinds was compiled again when it met the second (see
 * withNumeric).
 */
export function valuesOf<T>(items: ArrayLike<T>, f: (item: T) => Value): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < items.length; i++) out.push(f(items[i]!));
  return out;
}

/** `n` unknown values (a callback's parameters when nothing is known of them). */
export function unknowns(n: number): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < n; i++) out.push(UNKNOWN);
  return out;
}

/** UnknownValue's fields besides `k` and `taint`. */
const OTHER_UNKNOWN_FIELDS = [
  'partial',
  'downloaded',
  'choices',
  'granted',
  'identity',
  'method',
  'everyone',
  'entityClass',
  'gate',
  'skipped',
  'actor',
] as const;
/** Fails to compile when UnknownValue gains a field the list above lacks. */
const _everyUnknownFieldListed: [
  Exclude<keyof UnknownValue, 'k' | 'taint' | (typeof OTHER_UNKNOWN_FIELDS)[number]>,
] extends [never]
  ? true
  : never = true;

/** `v` with `taint` in place of its own: the plain case as its own literal, the rest whole. */
function unknownWithTaint(v: UnknownValue, taint: Taint | undefined): UnknownValue {
  let plain = true;
  for (const f of OTHER_UNKNOWN_FIELDS) if (v[f] !== undefined) plain = false;
  if (plain) return { k: 'unk', taint };
  // Typed with every field required, so that a field added to UnknownValue is not dropped here.
  const whole: { [F in keyof Required<UnknownValue>]: UnknownValue[F] } = {
    k: 'unk',
    taint,
    partial: v.partial,
    downloaded: v.downloaded,
    choices: v.choices,
    granted: v.granted,
    identity: v.identity,
    method: v.method,
    everyone: v.everyone,
    entityClass: v.entityClass,
    gate: v.gate,
    skipped: v.skipped,
    actor: v.actor,
  };
  return whole;
}

/** Text of a value for display and string matching (`«?»` marks unknown parts). */
export function textOf(v: Value): string | undefined {
  if (v.k === 'str') return v.v;
  if (v.k === 'num') return numToString(v.v);
  if (v.k === 'unk') return v.partial;
  return undefined;
}

export function numToString(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return String(Number(n.toPrecision(14)));
}

export function isTruthy(v: Value): boolean | undefined {
  if (v.k === 'nil') return false;
  if (v.k === 'bool') return v.v;
  if (v.k === 'unk') return undefined;
  if (v.k === 'api') return v.free ? undefined : true;
  return true;
}

export function str(v: string, dec?: DecodeHow, taint?: Taint): StrValue {
  const text = v.length > MAX_STRING ? v.slice(0, MAX_STRING) : v;
  // Two literals, no field added afterwards (see taintSource): a plain string, or one with
  // both of its optional fields written.
  if (!dec && !(taint && taint.length)) return { k: 'str', v: text };
  return {
    k: 'str',
    v: text,
    taint: taint && taint.length ? taint : undefined,
    dec: dec || undefined,
  };
}

/**
 * The numbers 0 to 1023, shared: loop counters, lengths, indices and character codes are
 * mostly these, and a number's value costs two objects (the value and its boxed double).
 * Numbers are compared by value (see Emulator.sameState), never by identity.
 */
const SMALL_NUMBERS: NumValue[] = [];
for (let i = 0; i < 1024; i++) SMALL_NUMBERS.push({ k: 'num', v: i });

export function num(v: number): NumValue {
  // (-0 is not 0 to Lua's `1/x`: it gets a value of its own.)
  if (v >= 0 && v < 1024 && (v | 0) === v && (v !== 0 || 1 / v > 0)) return SMALL_NUMBERS[v]!;
  return { k: 'num', v };
}

/** Lua's coercion of a value to a string for `..` (numbers become text). */
export function asString(v: Value): string | undefined {
  if (v.k === 'str') return v.v;
  if (v.k === 'num') return numToString(v.v);
  return undefined;
}

export function asNumber(v: Value): number | undefined {
  if (v.k === 'num') return v.v;
  if (v.k === 'str') {
    const t = v.v.trim();
    if (/^-?0x[0-9a-f]+$/i.test(t)) return parseInt(t, 16);
    if (t !== '' && /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return Number(t);
  }
  return undefined;
}

/** How a player's IP address shows in the known part of a text it was joined into. */
export const IP_ADDRESS_TEXT = '«IPAddress»';
/** How a player's name (which the player chooses) shows in the same. */
export const PLAYER_NAME_TEXT = '«Nick»';

export function partialText(v: Value): string {
  const t = textOf(v);
  if (t !== undefined) return t;
  return '«?»';
}
