// Which functions of an addon are worth emulating: those whose body mentions a sink, a source,
// an obfuscation device or a privilege API, or calls (by name) a function that does.
import {
  type FunctionDeclaration,
  type FunctionFacts,
  type FunctionWatch,
  WATCH_BASE,
  WATCH_FIELD,
  WATCH_GLOBAL,
  WATCH_LIBRARY,
  WATCH_NAMED_ARG,
  WATCH_SINK,
} from '../lua/ast.js';
import { compileSkimWatch, type SkimPolicy, type SkimWatch } from '../lua/skim.js';
import type { ThreatIntel } from '../intel/types.js';

const S = WATCH_SINK;
const F = WATCH_FIELD;
const L = WATCH_LIBRARY;
const G = WATCH_GLOBAL;
const B = WATCH_BASE;
const N = WATCH_NAMED_ARG;

/**
 * Watched names with where they count. Sinks (S) make the function and, by name, every caller
 * worth emulating, since the caller supplies the context the rules judge (the handler it runs
 * in, the rank check before it, the arguments it passes). Files, SQL and destructive actions
 * are sinks too: a net handler handing what it reads to a helper that queries SQL is judged
 * by the taint it passes. The others make only the function
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
  // ULX's commands by category: a helper that lists "the Rcon category" for a grant
  ['cmdsByCategory', F],
  ['removeUser', S | F], // ULib.ucl.removeUser over every user (anti_moderation)
  ['removeGroup', S | F],
  ['adduser', S | F],
  ['adduserid', S | F],
  ['set_rank', S | F],
  ['set_rank_id', S | F],
  // DarkRP's ranks given by SteamID on joining, written by the addon (Emulator.assign)
  ['DefaultPlayerGroups', S | F],
  ['SetRank', S | F],
  ['PlayerSetGroup', S | F],
  ['SetGroup', S | F],
  ['SignalUserGroupChanged', S | F],
  ['ReplicateData', F], // a setting's value for one client (sv_allowcslua for the author)
  ['RegisterPrivilege', F], // CAMI: who may use a privilege (a default lowered to "user")
  ['unban', S | F],
  ['bans', F], // ULib.bans[id] = nil
  ['luarun', S | F],
  ['luaRun', S | F], // ulx.luaRun, the `ulx luarun` callback
  ['loadlib', S | F], // package.loadlib: a native library
  ['cexec', S | F],
  // `concommand.GetTable()[name](NULL, …)`: a command's callback run as the server console
  // (on `concommand` only: NAME_BASES)
  ['GetTable', S | F | B],
  // remote hosts (beacons are judged by the timer or handler around them)
  ['http', S | L],
  ['HTTP', S | G],
  ['CHTTP', S | G],
  ['reqwest', S | G],
  // indirect access, then decoders
  ['_G', S],
  ['_R', S],
  ['getfenv', S], // and debug.getfenv
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
  // `wep:CallOnClient(name, arg)`: the weapon's method `name` runs on its owner's client
  // with `arg`, a message to the client as a net write is
  ['CallOnClient', F],
  ['Receive', F],
  // an entity's variable any player may edit: its change callback gets what they typed
  ['NetworkVarNotify', F],
  ['concommand', L],
  // an admin mod's command registered from a hook or a start-up function (FAdmin's)
  ['AddCommand', F],
  // a duplicator entity modifier: its callback gets the data of a pasted dupe
  ['RegisterEntityModifier', F],
  // a websocket (GWSockets): its onMessage gets what the far end sends
  ['createWebSocket', F],
  ['file', S | L],
  ['sql', S | L],
  ['GetInfo', F],
  ['GetPData', F],
  ['IPAddress', F],
  ['steamworks', L],
  ['GetHostName', G],
  // (settings read by name: `cvars.String(name)` over a list that holds "rcon_password";
  // `GetConVar(name)` as well, when the name is not written there)
  ['String', F],
  ['GetConVar', G | N],
  ['GetConVarString', G | N],
  ['GetIPAddress', F],
  ['GetAddons', F],
  ['GodEnable', S | F],
  ['SetArmor', S | F],
  ['addMoney', S | F],
  ['CleanUpMap', S | F],
  ['KickID', S | F],
  ['Ban', F],
  ['Kick', F],
  // identities (compared with literals: GB-007 gates)
  ['SteamID', F],
  ['SteamID64', F],
  ['AccountID', F],
  ['UniqueID', F],
  ['OwnerSteamID64', F],
  // detours, registry, anti-analysis
  ['rawset', G],
  ['FindMetaTable', G],
  // (the debug and jit functions the rules judge, not the libraries: `debug.traceback` as an
  // error handler and `jit.os` are everyday code)
  ['getinfo', F],
  ['funck', F],
  // coroutine factories: what a coroutine yields (a name piece by piece, each handler of a
  // table) reaches its caller only if the factory runs (see resumeCoroutine). Not the
  // library: bodies that only yield are work paced over frames, costly and of no interest.
  ['wrap', F],
  ['create', F],
  // another function's upvalues (other addons' settings and keys: Emulator, debug.getupvalue),
  // read by helpers their callers hand the functions to
  ['getupvalue', S | F],
  ['funcinfo', F],
  ['dump', F],
  // remote griefing
  ['PlayURL', F],
  ['OpenURL', F],
  // an HTML panel given the client's Lua: its page may call lua.Run
  ['SetAllowLua', F],
  ['RunJavascript', F],
  ['MountGMA', F],
];

/**
 * The tables a WATCH_BASE name counts on: `concommand.GetTable()` hands out console commands'
 * callbacks, while `ent:GetTable()` and `ENT_META.GetTable` are an entity's fields.
 */
const NAME_BASES = new Map<string, ReadonlySet<string>>([['GetTable', new Set(['concommand'])]]);

/** Methods and fields whose (re)definition inside a function is an override the rules judge. */
const WATCHED_DEFINITIONS = [
  // (The listen server's host: the owner, for every admin mod.)
  'IsListenServerHost',
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
  'Run',
  'getinfo',
  'Read',
  'funck',
  'GetTable',
  // an HTML panel's callbacks for what its page logs or titles itself: web text (see
  // Emulator.gamemodeHookCall), so the function that sets them must run
  'ConsoleMessage',
  'OnChangeTitle',
  // a database module's connect replaced: it is handed every addon's credentials
  'connect',
  'Initialize',
  'initialize',
  // the admin mods' permission checks (rules/superadmin.ts)
  'query',
  'PlayerHasAccess',
  'PlayerHasPrivilege',
];

/**
 * Generic definition names and the library tables where redefining them is a detour the rules
 * judge (`function hook.Add(…)` hides hooks); on any other table (`PANEL:Add`, `ITEM.Start`)
 * they are ordinary methods.
 */
const DEFINITION_BASES = new Map<string, readonly string[]>([
  ['Add', ['hook', 'concommand']],
  ['Run', ['concommand']],
  ['GetTable', ['hook', 'concommand']],
  ['Start', ['net']],
  ['Receive', ['net']],
  ['Read', ['file']],
  ['Fetch', ['http']],
  ['Post', ['http']],
  ['query', ['ucl']],
  ['connect', ['mysqloo']],
  ['Initialize', ['tmysql']],
  ['initialize', ['tmysql']],
  ['PlayerHasAccess', ['CAMI']],
  ['PlayerHasPrivilege', ['Access']],
]);

// What the skim sorts watched things into. A function gets a tree (and may be emulated) when
// its own body can make or feed a finding: a sink, a decoder, a literal identity, an override
// or detour, a file/SQL/destructive action or a write to the network (judged by the context
// that calls it and the data it reaches), a net read or a player's IP outside client files,
// or any source together with an identity. A receiver that only passes on what it reads
// still feeds a finding: it queues it in a table a timer compiles, or hands it to `hook.Run`;
// a join hook batching IPs feeds a timer that posts them. On a client the net carries the
// server's own data, and alone an identity (logging a SteamID) or a URL cannot make a finding.
const STRONG = 1; // execution, console, ranks, remote hosts, indirect access, sink strings, escapes
const SOURCE = 2; // net reads, handler registrations, client-sent data
const DATA = 4; // files and SQL
const IDENTITY = 8; // SteamID and friends
const ACTION = 16; // griefing and destructive actions, server facts worth exfiltrating
const DECODE = 32; // string decoders: what they compute is what the rules show
const META = 64; // detours, registry, anti-analysis, redefinitions of watched APIs
const ID_LITERAL = 128; // hard-coded SteamIDs
const URL = 256; // URLs and other watched words in strings
const NET_WRITE = 512; // writes back to the network
const KNOWN_NAME = 1024; // a known backdoor or exploitable net message or command name
const METATABLE = 2048; // metatable lookups: a detour needs a watched redefinition as well
const PLAYER_DATA = 4096; // what a player sends (net reads) or is (an IP): queued, passed on
const SETTING = 8192; // a setting read by a name not written there: the server's secrets

const CATEGORIES = new Map<string, number>([
  ...['ReadString', 'ReadData', 'ReadTable', 'ReadType', 'ReadStream'].map(
    (n) => [n, SOURCE | PLAYER_DATA] as const,
  ),
  // (`AddCommand`: an admin mod's command, FAdmin's, registered from a hook or a start-up
  // function; its handler gets the caller's words as concommand.Add's does.)
  ...['Receive', 'concommand', 'GetInfo', 'GetPData', 'AddCommand', 'RegisterEntityModifier'].map(
    (n) => [n, SOURCE] as const,
  ),
  // What any player types into an entity's editor reaches its change callback (a net read).
  ['NetworkVarNotify', SOURCE | PLAYER_DATA],
  // What the far end of a websocket sends arrives as a net read does.
  ['createWebSocket', SOURCE | PLAYER_DATA],
  ...['file', 'sql'].map((n) => [n, DATA] as const),
  ...['WriteString', 'WriteData', 'CallOnClient'].map((n) => [n, NET_WRITE] as const),
  ...['SteamID', 'SteamID64', 'AccountID', 'UniqueID', 'OwnerSteamID64'].map(
    (n) => [n, IDENTITY] as const,
  ),
  // A player's IP is what exfiltration collects, often into a batch a timer sends later.
  ['IPAddress', IDENTITY | PLAYER_DATA],
  ...[
    'GetHostName',
    'String',
    'GetIPAddress',
    'GetAddons',
    'GodEnable',
    'SetArmor',
    'addMoney',
    'CleanUpMap',
    'KickID',
    'Ban',
    'Kick',
    'PlayURL',
    'OpenURL',
    'SetAllowLua',
    'RunJavascript',
    'MountGMA',
  ].map((n) => [n, ACTION] as const),
  ...['char', 'bxor', 'Base64Decode', 'Decompress', 'reverse'].map((n) => [n, DECODE] as const),
  ...['rawset', 'getinfo', 'getupvalue', 'funck', 'funcinfo', 'dump', 'steamworks'].map(
    (n) => [n, META] as const,
  ),
  ['FindMetaTable', METATABLE],
  ...['GetConVar', 'GetConVarString'].map((n) => [n, SETTING] as const),
]);

/**
 * Words that make a string literal watched: console commands, cvars and credentials that
 * only sinks use (strong), and identities, URLs and the language cvar. The parser's string
 * judge and the skim's needles both read this one list.
 */
const STRING_NEEDLES: ReadonlyArray<readonly [string, number]> = [
  ...['lua_run', 'luarun', 'sv_allowcslua', 'sv_cheats', 'sv_loadingurl', 'sv_downloadurl'].map(
    (n) => [n, STRONG] as const,
  ),
  ...['_password', 'RunString', 'CompileString'].map((n) => [n, STRONG] as const),
  // The entities that run what they are handed: a server console command, or Lua.
  ...['point_servercommand', 'RunPassedCode'].map((n) => [n, STRONG] as const),
  // `concommand.Remove("host_writeid")`: bans stop being saved (GB-019).
  ['writeid', STRONG],
  ['STEAM_', ID_LITERAL],
  ['7656119', ID_LITERAL],
  ['gmod_language', URL],
  ['http:', URL],
  ['https:', URL],
];

/** Whether a function of a client file mentioning these categories is worth a tree. */
function worthATreeOnClient(mask: number): boolean {
  // (A client's settings hold none of the server's secrets.)
  return worthATree(mask & ~(PLAYER_DATA | SETTING));
}

/** Whether a function mentioning these categories is worth a tree (see above). */
function worthATree(mask: number): boolean {
  if (
    mask &
    (STRONG | DECODE | META | ID_LITERAL | DATA | ACTION | NET_WRITE | PLAYER_DATA | SETTING)
  )
    return true;
  // A known name counts where something registers it: the rules judge receivers and
  // commands. As plain data (a language file's "something") it cannot make a finding.
  return (mask & SOURCE) !== 0 && (mask & (IDENTITY | KNOWN_NAME)) !== 0;
}

/**
 * Any of STRING_NEEDLES. Almost no literal holds one: a single native regex rules most out,
 * where a search per needle cost about three times as much over the parsed literals.
 */
/**
 * The networked variable that holds a player's rank: `ply:SetNWString("UserGroup",
 * "superadmin")` is what SetUserGroup does. Watched as a whole literal, not as a needle:
 * texts that mention SetUserGroup (an E2 function's description) change no rank.
 */
const RANK_VARIABLE = 'UserGroup';

const ANY_STRING_NEEDLE = new RegExp(
  STRING_NEEDLES.map(([word]) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
);

export const FUNCTION_WATCH: FunctionWatch = {
  names: new Map(WATCHED),
  definitions: new Set(WATCHED_DEFINITIONS),
  nameBases: NAME_BASES,
  string: (s) => {
    // (The literal the skim also watches: see skimWatchFor.)
    if (s === RANK_VARIABLE) return 2;
    if (!ANY_STRING_NEEDLE.test(s)) return 0;
    let level: 0 | 1 | 2 = 0;
    for (const [word, category] of STRING_NEEDLES) {
      if (!s.includes(word)) continue;
      if (category === STRONG) return 2;
      level = 1;
    }
    return level;
  },
};

const SKIM_POLICY: SkimPolicy = {
  categories: CATEGORIES,
  otherCategory: STRONG,
  needles: STRING_NEEDLES,
  escapeCategory: STRONG,
  idCategory: ID_LITERAL,
  definitionCategory: META,
  worth: worthATree,
  registrationCategory: SOURCE,
  definitionBases: DEFINITION_BASES,
};

/** FUNCTION_WATCH compiled for the skim; names without a category above are strong. */
export const SKIM_WATCH = compileSkimWatch(FUNCTION_WATCH, SKIM_POLICY);

const skimWatches = new WeakMap<ThreatIntel, { shared: SkimWatch; client: SkimWatch }>();

/** The skim's watch for an addon's files (`client`: for files only clients run). */
export function skimWatchFor(intel: ThreatIntel, client = false): SkimWatch {
  let watches = skimWatches.get(intel);
  if (!watches) {
    const names = [
      ...intel.backdoorNetNames,
      ...intel.exploitableNetNames,
      ...intel.backdoorCommandNames,
    ];
    const literals: Array<readonly [string, number]> = names.map((n) => [n, KNOWN_NAME] as const);
    literals.push([RANK_VARIABLE, STRONG]);
    // (Both compiled alike: a copy of one with another `worth` would give the skim's hot
    // loop watch objects of two shapes.)
    watches = {
      shared: compileSkimWatch(FUNCTION_WATCH, { ...SKIM_POLICY, literals }),
      client: compileSkimWatch(FUNCTION_WATCH, {
        ...SKIM_POLICY,
        literals,
        worth: worthATreeOnClient,
      }),
    };
    skimWatches.set(intel, watches);
  }
  return client ? watches.client : watches.shared;
}

/**
 * The call path (see Parser.callPathOf) of a computed-key call of the table a function named
 * `path` is kept in: `cmds[]` for `cmds.rcon` or `cmds:rcon`; undefined for a plain name.
 */
function tableCallPath(path: string): string | undefined {
  const end = Math.max(path.lastIndexOf('.'), path.lastIndexOf(':'));
  return end > 0 ? path.slice(0, end) + '[]' : undefined;
}

/**
 * Methods the game itself calls on entities, weapons and tools: addon code calls many of them
 * too (`ent:Use(…)`, `wep:Reload()`, Wiremod's `TriggerInput`), on every kind of entity, so a
 * call by name tells nothing of which class's method runs.
 */
const ENGINE_CALLBACKS = new Set([
  'Initialize',
  'Think',
  'Use',
  'OnRemove',
  'Draw',
  'DrawTranslucent',
  'PrimaryAttack',
  'SecondaryAttack',
  'Reload',
  'Deploy',
  'Holster',
  'OnTakeDamage',
  'Touch',
  'StartTouch',
  'EndTouch',
  'KeyValue',
  'AcceptInput',
  'TriggerInput',
  'LeftClick',
  'RightClick',
  'SetupDataTables',
  'PhysicsCollide',
  'PhysicsUpdate',
  'SpawnFunction',
  'OnRestore',
  'UpdateTransmitState',
  'Equip',
  'OnDrop',
  'OwnerChanged',
  'Tick',
  'ShouldDrawViewModel',
  'CalcView',
  'ViewModelDrawn',
  'DrawHUD',
  'BuildCPanel',
  'FireAnimationEvent',
  'Precache',
  'OnReloaded',
  'GravGunPunt',
  'GravGunPickupAllowed',
  'CanTool',
  'CanProperty',
]);

/** Calls that run code or a console line. */
const RUNS_CODE =
  /\b(RunString|RunStringEx|CompileString|CompileFile|loadstring|RunConsoleCommand|ConsoleCommand|SendLua|BroadcastLua)\b/;

/** A method of an entity class's table, as a file under entities/ or weapons/ declares it. */
const ENTITY_METHOD = /^(?:ENT|SWEP|TOOL|EFFECT|PLUGIN):(\w+)$/;

/**
 * The other spellings of a gamemode method's path: `GAMEMODE:Sync` for `GM:Sync` and back,
 * and `gmod.GetGamemode():Sync` (looked for as written; the parser records that call as
 * `GAMEMODE:Sync`). Empty for other paths.
 */
function otherGamemodeSpellings(path: string): string[] {
  const rest = /^GM[.:]/.test(path)
    ? path.slice(2)
    : /^GAMEMODE[.:]/.test(path)
      ? path.slice(8)
      : undefined;
  if (rest === undefined) return [];
  // (And `self:Unlock()` in another of its methods, where `self` is the gamemode's table.)
  const spellings = ['GM' + rest, 'GAMEMODE' + rest, 'gmod.GetGamemode()' + rest];
  if (rest[0] === ':') spellings.push('self' + rest);
  return spellings.filter((p) => p !== path);
}

/**
 * The text the search for callers looks for to find a name's uses: a table's computed-key
 * calls (`cmds[]`) are uses of the table (`cmds`).
 */
export function searchedName(name: string): string {
  if (name.startsWith('*:')) return name.slice(2);
  return name.endsWith('[]') ? name.slice(0, -2) : name;
}

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
  /** Functions that carry a sink or call one that does (by path): relevant, not only watched. */
  readonly reachesSink = new Set<FunctionDeclaration>();
  /**
   * Paths of the functions that carry a sink or call one by path, which any file may call
   * (after `settleNames`).
   */
  readonly names = new Set<string>();
  /** The same for local paths (`FunctionFacts.local`), by the file (index of `add`) they live in. */
  readonly localNames = new Map<number, Set<string>>();

  /**
   * Who calls each path: (file, function) pairs packed flat. Kept between rounds and
   * extended with what was parsed since (see callersIndex).
   */
  private readonly callers = new Map<string, number[]>();
  /** How many functions of each file are indexed (the lists only grow). */
  private readonly indexedCount: number[] = [];
  /** Indexed functions whose calls were replaced since (file, function pairs, flat). */
  private readonly replacedCalls: number[] = [];

  /** Paths calling which is as good as calling a sink (`fetch = http.Fetch`). */
  private readonly aliases = new Set<string>();
  /** Local variables of one file holding a sink (`local fetch = http.Fetch`). */
  private readonly localAliases = new Map<number, Set<string>>();
  /** Aliases added since the last `settleNames` (path, then file or -1 for a global one). */
  private readonly newAliases: Array<string | number> = [];
  /**
   * Tables built with named functions in them, by the path of a function they hold: when it
   * becomes relevant, the table's path becomes a name too, and code that uses the table
   * (`handlers[net.ReadString()](ply)`) is parsed and run. `file` is where the table is
   * built; a local table is one of that file's names only.
   */
  private readonly tablesHolding = new Map<
    string,
    Array<{ path: string; file: number; local: boolean }>
  >();

  /**
   * Which functions are relevant so far, by file (the arrays may be longer than the lists).
   * Kept between rounds: facts only ever grow (new functions, calls and aliases), so what was
   * relevant stays relevant and each round only adds what the new facts reach.
   */
  private readonly relevant: Uint8Array[] = [];
  /** Relevant functions whose parent and name are not handled yet (file, function pairs). */
  private readonly queue: number[] = [];

  /** Adds aliases, of the file `file` only when they are local variables. */
  addAliases(paths: readonly string[] | undefined, file?: number): void {
    if (!paths) return;
    for (const p of paths) {
      if (file === undefined) {
        if (this.aliases.has(p)) continue;
        this.aliases.add(p);
      } else {
        const set = this.localAliases.get(file) ?? new Set<string>();
        if (set.has(p)) continue;
        set.add(p);
        this.localAliases.set(file, set);
      }
      this.newAliases.push(p, file ?? -1);
    }
  }

  /**
   * Adds tables of functions built in file `file` (pairs of the table's path and a function's
   * path, see ParseResult.tables); `local` when only that file can use them.
   */
  addTables(pairs: readonly string[] | undefined, file: number | undefined, local: boolean): void {
    if (!pairs || file === undefined) return;
    for (let j = 0; j < pairs.length; j += 2) {
      const table = { path: pairs[j]!, file, local };
      const member = pairs[j + 1]!;
      const list = this.tablesHolding.get(member);
      if (list) list.push(table);
      else this.tablesHolding.set(member, [table]);
      // A function already relevant: the table is a name from the next settleNames on.
      if (this.names.has(member) || this.localNames.get(file)?.has(member))
        this.newAliases.push(table.path, local ? file : -1);
    }
  }

  /**
   * Adds a file's function facts; the list may grow later (lazy bodies parsed on demand).
   * Returns the file's index, which `localNames` and `addAliases` refer to.
   */
  add(functions: FunctionFacts[] | undefined, everything: boolean): number {
    const list = functions ?? [];
    if (everything) for (const f of list) f.watched = f.sink = true;
    this.all.push(list);
    return this.all.length - 1;
  }

  /** Computes (again) `names`, `skippable` and `reachesSink` over everything added so far. */
  finish(): void {
    const relevant = this.settleNames();
    this.skippable.clear();
    this.reachesSink.clear();
    const all = this.all;
    for (let k = 0; k < all.length; k++) {
      const fs = all[k]!;
      // A copy: the parents marked here are not relevant in the sense `settleNames` keeps.
      const r = relevant[k]!.slice(0, fs.length);
      for (let i = 0; i < fs.length; i++) if (r[i]) this.reachesSink.add(fs[i]!.node);
      // Watched functions run; so do their parents, which create and register them.
      for (let i = fs.length - 1; i >= 0; i--)
        if ((r[i] || fs[i]!.watched) && fs[i]!.parent >= 0) r[fs[i]!.parent] = 1;
      for (let i = 0; i < fs.length; i++)
        if (!r[i] && !fs[i]!.watched) this.skippable.add(fs[i]!.node);
    }
  }

  /**
   * Tells that function `i` of file `file` got new calls (its lazy body was parsed), for the
   * callers index to add them.
   */
  callsReplaced(file: number, i: number): void {
    this.replacedCalls.push(file, i);
  }

  /**
   * The callers index, brought up to date: functions added since the last round are indexed,
   * and so are the calls of lazy bodies parsed since (their facts get a new `calls` array,
   * empty before). Entries are never removed; one left by a replaced array could only make a
   * function relevant, never skippable. Only those functions are visited, not every function
   * of the addon again each round (117 000 visits per corpus pass for 23 000 indexed).
   *
   * An entry only ever marks its caller relevant, so a function relevant already needs none:
   * the functions carrying a sink are marked first, and what they reach settled, before the
   * rest is indexed (over half the calls of a corpus pass then need no entry, each of which
   * hashed a freshly built path and grew the map).
   */
  private callersIndex(): void {
    const all = this.all;
    const replaced = this.replacedCalls;
    for (let r = 0; r < replaced.length; r += 2) {
      const k = replaced[r]!;
      const i = replaced[r + 1]!;
      if (all[k]![i]!.sink) this.mark(k, i);
    }
    for (let k = 0; k < all.length; k++) {
      const fs = all[k]!;
      for (let i = this.indexedCount[k] ?? 0; i < fs.length; i++) if (fs[i]!.sink) this.mark(k, i);
    }
    this.propagate();
    for (let r = 0; r < replaced.length; r += 2) {
      const k = replaced[r]!;
      const i = replaced[r + 1]!;
      // One not indexed yet is indexed with the new ones below.
      if (i < (this.indexedCount[k] ?? 0)) this.indexCalls(k, i);
    }
    replaced.length = 0;
    for (let k = 0; k < all.length; k++) {
      const fs = all[k]!;
      for (let i = this.indexedCount[k] ?? 0; i < fs.length; i++) this.indexCalls(k, i);
      this.indexedCount[k] = fs.length;
    }
  }

  /**
   * Indexes the calls of function `i` of file `k`, unless it is relevant: then (or once a
   * call makes it so) the entries could only mark it again.
   */
  private indexCalls(k: number, i: number): void {
    const relevant = this.relevant[k]!;
    if (relevant[i]) return;
    const calls = this.all[k]![i]!.calls;
    const locals = this.localNames.get(k);
    for (let j = 0; j < calls.length; j++) {
      const name = calls[j]!;
      const list = this.callers.get(name);
      if (list) list.push(k, i);
      else this.callers.set(name, [k, i]);
      // A new caller of a name already known (`addName` reached only the callers before it).
      // (`&name`: a local function handed over by name, see FunctionFacts.calls.)
      if (name.charCodeAt(0) === 38) {
        if (locals?.has(name.slice(1))) {
          this.mark(k, i);
          return;
        }
      } else if (this.names.has(name) || locals?.has(name) || this.callsEntityMethod(name)) {
        this.mark(k, i);
        return;
      }
    }
  }

  private mark(k: number, i: number): void {
    const r = this.relevant[k]!;
    if (r[i]) return;
    r[i] = 1;
    this.queue.push(k, i);
  }

  /**
   * Methods of entity classes (`ENT:ApplyConfig`, `SWEP:Reload`) that are relevant, by method
   * name. Their objects reach other code under any name (`ent:ApplyConfig(…)` for an entity
   * read from a net message), so a call of that method on anything is a call of it.
   */
  readonly entityMethods = new Set<string>();
  /** The text of each file added, by its index (see addEntityMethod). */
  readonly texts: string[] = [];

  /**
   * An entity class's method whose own body holds a sink (`function ENT:ApplyConfig(s)
   * CompileString(s)…`) is called by any `x:ApplyConfig(…)`. (Not methods that only lead to
   * one: `ENT:Think` and the like are called everywhere, and following all of them cost a
   * fifth more emulation on the corpus.)
   */
  private addEntityMethod(name: string, k: number, f: FunctionFacts): void {
    const method = ENTITY_METHOD.exec(name)?.[1];
    if (method === undefined || ENGINE_CALLBACKS.has(method) || this.entityMethods.has(method))
      return;
    // Only a method that runs code or a console line itself: Wiremod's entities have hundreds
    // of helper methods that reach a network write, called on every kind of entity.
    const text = this.texts[k];
    if (text === undefined || !RUNS_CODE.test(text.slice(f.node.offset, f.node.endOffset))) return;
    this.entityMethods.add(method);
    this.names.add(`*:${method}`);
    // Callers indexed before: any path ending with the method.
    for (const [path, callers] of this.callers)
      if (path.endsWith(`:${method}`) && path !== name)
        for (let j = 0; j < callers.length; j += 2) this.mark(callers[j]!, callers[j + 1]!);
  }

  /** Whether `path` calls a relevant entity method (`ent:ApplyConfig`). */
  private callsEntityMethod(path: string): boolean {
    if (this.entityMethods.size === 0) return false;
    const at = path.lastIndexOf(':');
    return at > 0 && this.entityMethods.has(path.slice(at + 1));
  }

  private addName(name: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    const list = this.callers.get(name);
    if (list) for (let j = 0; j < list.length; j += 2) this.mark(list[j]!, list[j + 1]!);
    this.addTablesHolding(name, -1);
    // The gamemode's table is GM while its files load and GAMEMODE afterwards: a function
    // defined as GM:Sync is called as GAMEMODE:Sync.
    for (const other of otherGamemodeSpellings(name)) this.addName(other);
  }

  private addLocalName(name: string, file: number): void {
    let set = this.localNames.get(file);
    if (!set) this.localNames.set(file, (set = new Set<string>()));
    if (set.has(name)) return;
    set.add(name);
    this.markCallersIn(name, file);
    // (And those that hand it to a call by name: `&name`, see FunctionFacts.calls.)
    this.markCallersIn(`&${name}`, file);
    this.addTablesHolding(name, file);
  }

  /** The global paths each file stores its local tables under, by file then table. */
  private readonly exports = new Map<number, Map<string, string[]>>();

  /**
   * A local table's function (`Chain.Fetch`, with `local Chain = {}`) that the file also
   * stores under a global path (`Addon.Chain = Chain`) is called by that path from other
   * files (`Addon.Chain.Fetch(…)`): the global name is relevant too.
   */
  private addExportedName(name: string, file: number): void {
    const dot = name.indexOf('.');
    if (dot <= 0 || name.indexOf('.', dot + 1) >= 0 || name.includes(':')) return;
    const table = name.slice(0, dot);
    let byTable = this.exports.get(file);
    if (byTable === undefined) this.exports.set(file, (byTable = new Map()));
    let paths = byTable.get(table);
    if (paths === undefined) {
      paths = [];
      const text = this.texts[file];
      if (text !== undefined && /^\w+$/.test(table)) {
        const stored = new RegExp(
          `^[ \\t]*([A-Za-z_][\\w.]*)[ \\t]*=[ \\t]*${table}[ \\t]*;?[ \\t]*(?:--.*)?\\r?$`,
          'gm',
        );
        for (const m of text.matchAll(stored))
          if (m[1] !== table && paths.length < 4) paths.push(m[1]!);
      }
      byTable.set(table, paths);
    }
    for (const path of paths) this.addName(`${path}${name.slice(dot)}`);
  }

  /** Marks the callers of `path` in file `file`. */
  private markCallersIn(path: string, file: number): void {
    const list = this.callers.get(path);
    if (list)
      for (let j = 0; j < list.length; j += 2) if (list[j] === file) this.mark(file, list[j + 1]!);
  }

  /** The tables holding the function `name` (of file `file` only, unless -1) become names. */
  private addTablesHolding(name: string, file: number): void {
    const tables = this.tablesHolding.get(name);
    if (!tables) return;
    for (const t of tables) {
      if (file >= 0 && t.file !== file) continue;
      if (t.local) this.addLocalName(t.path, t.file);
      else this.addName(t.path);
    }
  }

  /**
   * Brings `names` and `localNames` up to date with what was added since the last call,
   * which is all the addon-wide search for callers needs between rounds; returns which
   * functions are relevant (the same as computing it all again: facts only grow, and the
   * result is the least set closed under the rules below).
   */
  settleNames(): Uint8Array[] {
    const all = this.all;
    const relevant = this.relevant;
    // Room for the functions added since (lazy bodies append their nested functions).
    for (let k = 0; k < all.length; k++) {
      const n = all[k]!.length;
      const r = relevant[k];
      if (r === undefined) relevant[k] = new Uint8Array(n);
      else if (r.length < n) {
        const grown = new Uint8Array(Math.max(n, r.length * 2));
        grown.set(r);
        relevant[k] = grown;
      }
    }
    // Relevant functions: those carrying a sink, their parents, and (by path) their callers:
    // addon-wide for a global path, in the same file for a local one. A worklist visits each
    // function and each call once; callers are found through an index of who calls each path.
    // A sink's alias is called as itself, and a local alias of the globals (`local env =
    // getfenv()`) by a computed key too (`env["GetCon" .. "VarString"](n)`, the path `env[]`).
    // (Global tables are left out, as in propagate.)
    const aliases = this.newAliases;
    for (let j = 0; j < aliases.length; j += 2) {
      const file = aliases[j + 1] as number;
      const alias = aliases[j] as string;
      if (file < 0) this.addName(alias);
      else {
        this.addLocalName(alias, file);
        this.addLocalName(`${alias}[]`, file);
      }
    }
    aliases.length = 0;
    this.callersIndex();
    this.propagate();
    return relevant;
  }

  /** Settles what the queued relevant functions reach: their parents and their callers. */
  private propagate(): void {
    const all = this.all;
    const queue = this.queue;
    while (queue.length > 0) {
      const i = queue.pop()!;
      const k = queue.pop()!;
      const f = all[k]![i]!;
      if (f.parent >= 0) this.mark(k, f.parent);
      if (f.name === undefined) continue;
      if (!f.local) {
        this.addName(f.name);
        if (f.sink) this.addEntityMethod(f.name, k, f);
        continue;
      }
      this.addLocalName(f.name, k);
      this.addExportedName(f.name, k);
      // (`local PLUGIN = PLUGIN`: a Helix plugin's files share the table the local names.)
      if (f.sink) this.addEntityMethod(f.name, k, f);
      // A function kept in a local table (`cmds.rcon`, `cmds["!rcon"]`) is also what a call
      // of that table under a computed key may run (`cmds[name](…)`, recorded as `cmds[]`).
      // (Global tables are left out: frameworks call theirs by computed keys everywhere.)
      const table = tableCallPath(f.name);
      if (table !== undefined) this.addLocalName(table, k);
    }
  }
}
