// Which functions of an addon are worth emulating: those whose body mentions a sink, a source,
// an obfuscation device or a privilege API, or calls (by name) a function that does.
import {
  type FunctionDeclaration,
  type FunctionFacts,
  type FunctionWatch,
  WATCH_FIELD,
  WATCH_GLOBAL,
  WATCH_LIBRARY,
  WATCH_SINK,
} from '../lua/ast.js';
import { compileSkimWatch } from '../lua/skim.js';

const S = WATCH_SINK;
const F = WATCH_FIELD;
const L = WATCH_LIBRARY;
const G = WATCH_GLOBAL;

/**
 * Watched names with where they count. Sinks (S) make the function and, by name, every caller
 * worth emulating, since the caller supplies the context the rules judge (the handler it runs
 * in, the rank check before it, the arguments it passes). The others make only the function
 * itself worth it: taint sources (their result carries the taint back to a caller emulated
 * anyway), handler registrations, data sinks judged only with tainted arguments (emulated
 * whatever the function), identities compared with literals, detours and remote griefing.
 * Indirect access is a sink: what it reaches depends on what callers pass. Decoders are not:
 * a caller that runs or forwards what they return holds a sink itself (or calls one by name).
 */
const WATCHED: Array<[string, number]> = [
  // execution and console
  ['RunString', S],
  ['RunStringEx', S],
  ['RunStringG', S],
  ['CompileString', S],
  ['CompileFile', S],
  ['loadstring', S | G],
  ['load', S | G],
  ['BroadcastLua', S],
  ['SendLua', S | F],
  ['RunConsoleCommand', S],
  ['ConsoleCommand', S | F],
  ['ConCommand', S | F],
  // ranks and moderation sabotage
  ['SetUserGroup', S | F],
  ['addUser', S | F],
  ['addGroup', S | F],
  ['groupAllow', S | F],
  ['adduser', S | F],
  ['adduserid', S | F],
  ['set_rank', S | F],
  ['set_rank_id', S | F],
  ['SetRank', S | F],
  ['PlayerSetGroup', S | F],
  ['SetGroup', S | F],
  ['SignalUserGroupChanged', S | F],
  ['unban', S | F],
  ['luarun', S | F],
  ['cexec', S | F],
  // remote hosts (beacons are judged by the timer or handler around them)
  ['http', S | L],
  ['HTTP', S | G],
  ['CHTTP', S | G],
  ['reqwest', S | G],
  // indirect access, then decoders
  ['_G', S],
  ['_R', S],
  ['getfenv', S | G],
  ['setfenv', S | G],
  ['getregistry', S | F],
  ['rawget', S | G],
  ['char', F],
  ['bxor', F],
  ['Base64Decode', F],
  ['Decompress', F],
  ['reverse', F],
  // sources, registrations, data sinks
  ['ReadString', F],
  ['ReadData', F],
  ['ReadTable', F],
  ['ReadType', F],
  ['ReadStream', F],
  ['WriteString', F],
  ['WriteData', F],
  ['Receive', F],
  ['concommand', L],
  ['file', L],
  ['sql', L],
  ['GetInfo', F],
  ['GetPData', F],
  ['IPAddress', F],
  ['steamworks', L],
  ['GetHostName', G],
  ['GetIPAddress', F],
  ['GetAddons', F],
  ['GodEnable', F],
  ['SetArmor', F],
  ['addMoney', F],
  ['CleanUpMap', F],
  ['KickID', F],
  // identities (compared with literals: GB-007 gates)
  ['SteamID', F],
  ['SteamID64', F],
  ['AccountID', F],
  ['UniqueID', F],
  ['OwnerSteamID64', F],
  // detours, registry, anti-analysis
  ['rawset', G],
  ['FindMetaTable', G],
  ['debug', L],
  ['jit', L],
  ['dump', F],
  // remote griefing
  ['PlayURL', F],
  ['OpenURL', F],
  ['RunJavascript', F],
  ['MountGMA', F],
];

/** Methods and fields whose (re)definition inside a function is an override the rules judge. */
const WATCHED_DEFINITIONS = [
  'IsAdmin',
  'IsSuperAdmin',
  'IsUserGroup',
  'GetUserGroup',
  'CheckGroup',
  'SetUserGroup',
  'Ban',
  'Kick',
  'Kill',
  'ban',
  'kick',
  'addBan',
  'KickID',
  'Fetch',
  'Post',
  'RunString',
  'RunStringEx',
  'CompileString',
  'Receive',
  'Start',
  'Add',
  'getinfo',
  'Read',
  'funck',
];

const SINK_STRING =
  /lua_run|luarun|sv_allowcslua|sv_cheats|sv_loadingurl|sv_downloadurl|_password|RunString|CompileString/;
const WATCHED_STRING = /STEAM_[0-5]:|7656119\d{10}|gmod_language|https?:/;

/**
 * The words the string judge reacts to, as literal needles for the skim (which does not
 * decode strings one by one): a superset of SINK_STRING (level 2) and WATCHED_STRING (1).
 */
export const STRING_NEEDLES: ReadonlyArray<readonly [string, 1 | 2]> = [
  ['lua_run', 2],
  ['luarun', 2],
  ['sv_allowcslua', 2],
  ['sv_cheats', 2],
  ['sv_loadingurl', 2],
  ['sv_downloadurl', 2],
  ['_password', 2],
  ['RunString', 2],
  ['CompileString', 2],
  ['STEAM_', 1],
  ['7656119', 1],
  ['gmod_language', 1],
  ['http:', 1],
  ['https:', 1],
];

export const FUNCTION_WATCH: FunctionWatch = {
  names: new Map(WATCHED),
  definitions: new Set(WATCHED_DEFINITIONS),
  string: (s) => (SINK_STRING.test(s) ? 2 : WATCHED_STRING.test(s) ? 1 : 0),
};

/** FUNCTION_WATCH compiled for the skim. */
export const SKIM_WATCH = compileSkimWatch(FUNCTION_WATCH, STRING_NEEDLES);

/**
 * Collects the function facts of every file of an addon, then marks as skippable the
 * functions that neither mention a watched name nor call, by name, one that does (a fixpoint
 * over the whole addon, since helpers live in other files). Nested functions make their
 * parent relevant: the parent must run to create and register them.
 */
export class Relevance {
  private readonly all: FunctionFacts[][] = [];
  /** Functions the emulator may skip. Nodes not in it (payload code…) are always relevant. */
  readonly skippable = new Set<FunctionDeclaration>();
  /** Names of the functions that carry a sink or call one by name (after `finish`). */
  readonly names = new Set<string>();

  /** Adds a file's function facts; the list may grow later (lazy bodies parsed on demand). */
  add(functions: FunctionFacts[] | undefined, everything: boolean): void {
    if (!functions) return;
    if (everything) for (const f of functions) f.watched = f.sink = true;
    this.all.push(functions);
  }

  /** Computes (again, from scratch) `names` and `skippable` over everything added so far. */
  finish(): void {
    this.skippable.clear();
    this.names.clear();
    // Sink-carrying functions, then (fixpoint) every function calling one of them by name.
    const names = this.names;
    const sink: Uint8Array[] = this.all.map((fs) => {
      const r = new Uint8Array(fs.length);
      for (let i = 0; i < fs.length; i++) if (fs[i]!.sink) r[i] = 1;
      return r;
    });
    let changed = true;
    for (let round = 0; changed && round < 50; round++) {
      changed = false;
      for (let k = 0; k < this.all.length; k++) {
        const fs = this.all[k]!;
        const r = sink[k]!;
        if (round > 0) {
          for (let i = 0; i < fs.length; i++) {
            if (r[i]) continue;
            const calls = fs[i]!.calls;
            for (let j = 0; j < calls.length; j++) {
              if (names.has(calls[j]!)) {
                r[i] = 1;
                break;
              }
            }
          }
        }
        // Children come after their parent: one backward pass carries it to the parents.
        for (let i = fs.length - 1; i >= 0; i--)
          if (r[i] && fs[i]!.parent >= 0) r[fs[i]!.parent] = 1;
        for (let i = 0; i < fs.length; i++) {
          const name = fs[i]!.name;
          if (r[i] && name !== undefined && !names.has(name)) {
            names.add(name);
            changed = true;
          }
        }
      }
    }
    for (let k = 0; k < this.all.length; k++) {
      const fs = this.all[k]!;
      const r = sink[k]!;
      // Watched functions run; so do their parents, which create and register them.
      for (let i = fs.length - 1; i >= 0; i--)
        if ((r[i] || fs[i]!.watched) && fs[i]!.parent >= 0) r[fs[i]!.parent] = 1;
      for (let i = 0; i < fs.length; i++)
        if (!r[i] && !fs[i]!.watched) this.skippable.add(fs[i]!.node);
    }
  }
}
