// Which functions of an addon are worth emulating: those whose body mentions a sink, a source,
// an obfuscation device or a privilege API, or calls (by name) a function that does.
import type { FunctionDeclaration, FunctionFacts, FunctionWatch } from '../lua/ast.js';

/**
 * Sink names: a function mentioning one must be emulated, and so must every function calling
 * it by name, since the caller supplies the context the rules judge (the handler it runs in,
 * the rank check before it, the arguments it passes).
 */
const SINK_NAMES = [
  // execution and console
  'RunString', 'RunStringEx', 'RunStringG', 'CompileString', 'CompileFile', 'loadstring', 'load', 'BroadcastLua',
  'SendLua', 'RunConsoleCommand', 'ConsoleCommand', 'ConCommand',
  // ranks and moderation sabotage
  'SetUserGroup', 'addUser', 'addGroup', 'groupAllow', 'adduser', 'adduserid', 'set_rank', 'set_rank_id', 'SetRank',
  'PlayerSetGroup', 'SetGroup', 'SignalUserGroupChanged', 'unban', 'luarun', 'cexec', 'rcon',
  // remote hosts (beacons are judged by the timer or handler around them)
  'http', 'HTTP', 'CHTTP', 'reqwest',
  // decoders and indirect access: what they compute depends on the constants callers pass
  '_G', '_R', 'getfenv', 'setfenv', 'getregistry', 'rawget', 'char', 'bxor', 'Base64Decode', 'Decompress', 'reverse',
];

/**
 * Names that make the function itself worth emulating, without making its callers so: taint
 * sources (their result carries the taint back to a caller that is emulated anyway), handler
 * registrations, data sinks reached only with tainted arguments (which are emulated whatever
 * the function), identities compared with literals, indirect access to globals, decoders,
 * detours and remote griefing.
 */
const LOCAL_NAMES = [
  'ReadString', 'ReadData', 'ReadTable', 'ReadType', 'ReadStream', 'WriteString', 'WriteData', 'Receive', 'concommand',
  'file', 'sql', 'GetInfo', 'GetPData', 'IPAddress', 'steamworks', 'GetHostName', 'GetIPAddress', 'GetAddons',
  'GodEnable', 'SetArmor', 'addMoney', 'CleanUpMap', 'KickID', 'Fetch',
  'SteamID', 'SteamID64', 'AccountID', 'UniqueID', 'OwnerSteamID64',
  'rawset', 'FindMetaTable', 'debug', 'jit', 'dump',
  'PlayURL', 'OpenURL', 'RunJavascript', 'MountGMA',
];

/** Methods and fields whose (re)definition inside a function is an override the rules judge. */
const WATCHED_DEFINITIONS = [
  'IsAdmin', 'IsSuperAdmin', 'IsUserGroup', 'GetUserGroup', 'CheckGroup', 'SetUserGroup', 'Ban', 'Kick', 'Kill', 'ban',
  'kick', 'addBan', 'KickID', 'Fetch', 'Post', 'RunString', 'RunStringEx', 'CompileString', 'Receive', 'Start', 'Add',
  'getinfo', 'Read', 'funck',
];

const SINK_STRING = /lua_run|luarun|sv_allowcslua|sv_cheats|sv_loadingurl|sv_downloadurl|_password|RunString|CompileString/;
const WATCHED_STRING = /STEAM_[0-5]:|7656119\d{10}|gmod_language|https?:/;

export const FUNCTION_WATCH: FunctionWatch = {
  names: new Set([...SINK_NAMES, ...LOCAL_NAMES]),
  sinks: new Set(SINK_NAMES),
  definitions: new Set(WATCHED_DEFINITIONS),
  string: (s) => (SINK_STRING.test(s) ? 2 : WATCHED_STRING.test(s) ? 1 : 0),
};

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

  add(functions: FunctionFacts[] | undefined, everything: boolean): void {
    if (!functions) return;
    if (everything) for (const f of functions) f.watched = f.sink = true;
    this.all.push(functions);
  }

  finish(): void {
    // Sink-carrying functions, then (fixpoint) every function calling one of them by name.
    const names = new Set<string>();
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
        for (let i = fs.length - 1; i >= 0; i--) if (r[i] && fs[i]!.parent >= 0) r[fs[i]!.parent] = 1;
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
      for (let i = fs.length - 1; i >= 0; i--) if ((r[i] || fs[i]!.watched) && fs[i]!.parent >= 0) r[fs[i]!.parent] = 1;
      for (let i = 0; i < fs.length; i++) if (!r[i] && !fs[i]!.watched) this.skippable.add(fs[i]!.node);
    }
  }
}
