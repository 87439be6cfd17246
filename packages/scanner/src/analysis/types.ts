// What the analysis hands to the rules: per-file facts plus the calls, lookups, overrides and
// decoded strings the emulator saw, each with its file, line, realm and guard/trigger context.
import type { Realm } from '@sentinelle/contracts';
import type { ArchiveEntry } from '../archive/types.js';
import type { FunctionDeclaration, LexicalFacts } from '../lua/ast.js';
import type { Access, DecodeHow, Value } from './values.js';

export interface CtxFrame {
  kind: 'handler' | 'guard' | 'trigger' | 'payload' | 'config';
  /** e.g. `net.Receive("x")`, `PlayerSay`, `IsSuperAdmin`, `SteamID() == "STEAM_0:…"`. */
  label: string;
  /** For handlers: the registering API (`net.Receive`, `concommand.Add`, `hook.Add:PlayerSay`, `timer.Simple`…). */
  api?: string;
  /** For handlers: the net message / command / hook name when constant. */
  name?: string;
  /** Unique id of the handler registration, to group the events of one handler. */
  id?: number;
  /** Offset of the handler function in its file: registrations sharing one function share it. */
  fnOffset?: number;
  /** Every function called under this frame is emulated, relevant or not (honeypot handlers). */
  exhaustive?: boolean;
  file: string;
  line: number;
}

export type Ctx = readonly CtxFrame[];

/** What every recorded event carries: where it happened and under which context. */
export interface EventBase {
  file: string;
  line: number;
  realm: Realm;
  ctx: Ctx;
  /** 0 for code in the file itself, n for code decoded from a payload n levels deep. */
  payloadDepth: number;
  /** The line of decoded payload code the event comes from (payload events only). */
  decoded?: string;
}

export interface CallEvent extends EventBase {
  /** Canonical callee: `RunString`, `http.Fetch`, `Player:SetUserGroup`, `?:Foo` when unknown. */
  api: string;
  via: Access;
  alias?: string;
  args: Value[];
}

export interface IndexEvent extends EventBase {
  /** `_G`, `_R`, `meta:Player`… */
  base: string;
  key?: string;
  /** The key was escaped, computed or decoded rather than a plain literal. */
  keyDecoded: boolean;
  /**
   * The key is a plain string kept somewhere (a variable, a list of names walked in a loop),
   * not built or decoded: `for _, n in ipairs({"RunString"}) do check(_G[n]) end`.
   */
  plainKey?: true;
  resolved?: string;
}

export interface OverrideEvent extends EventBase {
  /** API replaced: `http.Fetch`, `Player:IsSuperAdmin`, `HTTP`. */
  target: string;
  fn?: FunctionDeclaration;
  /**
   * An admin mod's moderation records emptied: `ULib.bans[id] = nil`, `ULib.ucl.groups = {}`
   * (GB-019). Only these writes of data, not functions, are recorded.
   */
  cleared?: true;
  /**
   * The literal identity comparison the replacement makes, in its body or in a helper it
   * calls (`table[SteamID64()]`): whom a replaced Ban or Kick spares, or a replaced
   * permission check lets through. Only for the moderation functions (MODERATION_OVERRIDES)
   * and the permission checks (PERMISSION_CHECKS).
   */
  spares: string | undefined;
  /**
   * The callers a replaced moderation function drops (`calls from files it picks`): it
   * returns early, calling nothing, for some files or functions calling it (GB-019, GB-020).
   */
  callerGate: string | undefined;
}

export interface DecodedStringEvent extends EventBase {
  text: string;
  how: DecodeHow;
}

export interface PayloadEvent extends EventBase {
  text: string;
  /** Which sink or construct carried it (`RunString`, `BroadcastLua`, `file.Write`, `lua_run`). */
  carrier: string;
  parsed: boolean;
}

export interface FileAnalysis {
  path: string;
  kind: ArchiveEntry['kind'];
  realm: Realm;
  /** Source text (latin1, one char per byte). */
  text: string;
  /** The text's lines, split on first use (most files are never quoted). */
  readonly lines: string[];
  lineCount: number;
  /** `skimmed`: read by the skim only (nothing watched in it), no tree was built. */
  parse: 'ok' | 'recovered' | 'failed' | 'skimmed' | 'skipped';
  parseErrors: number;
  facts?: LexicalFacts;
  /** Identifiers that look machine-generated (`_0x3fa2`), counted by the lexer pass. */
  obfuscatedIdentifiers: number;
  identifierCount: number;
  sha256?: string;
  /** The emulation budget ran out before the file was fully explored. */
  budgetExhausted: boolean;
  /** Emulator steps spent on the file (its budget is 100 000 + 4 per byte). */
  emulationSteps: number;
}

export interface AddonAnalysis {
  files: FileAnalysis[];
  calls: CallEvent[];
  indexes: IndexEvent[];
  overrides: OverrideEvent[];
  decodedStrings: DecodedStringEvent[];
  payloads: PayloadEvent[];
  /** Non-Lua entries the rules still read. */
  textEntries: ArchiveEntry[];
  binaryModules: ArchiveEntry[];
  maps: ArchiveEntry[];
  /** Paths of files sent to clients with AddCSLuaFile. */
  clientFiles: Set<string>;
  /**
   * Compiles (`file:line`) whose function was given an environment of pure functions only
   * (`setfenv(f, { sqrt = math.sqrt })`) before it could run: a calculator's sandbox.
   */
  sandboxedCompiles: Set<string>;
  cancelled: boolean;
}
