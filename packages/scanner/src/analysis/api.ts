// The Garry's Mod API vocabulary of the analysis: which calls are taint sources, which are
// sinks, which methods belong to players, and which globals are engine functions.

/** Methods that, called on an unknown object, are taken to be Player methods. */
export const PLAYER_METHODS = new Set([
  'SetUserGroup',
  'GetUserGroup',
  'IsUserGroup',
  'IsAdmin',
  'IsSuperAdmin',
  'SendLua',
  'ConCommand',
  'IPAddress',
  'SteamID',
  'SteamID64',
  'AccountID',
  'UniqueID',
  'Nick',
  'Name',
  'GetName',
  'GetInfo',
  'GetInfoNum',
  'Ban',
  'Kick',
  'Kill',
  'KillSilent',
  'ChatPrint',
  'PrintMessage',
  'GodEnable',
  'GodDisable',
  'Give',
  'StripWeapons',
  'SetHealth',
  'SetArmor',
  'addMoney',
  'setDarkRPVar',
  'Ignite',
  'SetPData',
  'GetPData',
]);

/**
 * Execution sinks and the argument holding the code, counting a method's object. ULX's own
 * `ulx luarun` callback, `ulx.luaRun(calling_ply, code)`, runs its second argument as the
 * server, with no access check when called directly.
 */
export const EXEC_SINKS: Record<string, number> = {
  RunString: 0,
  RunStringEx: 0,
  CompileString: 0,
  loadstring: 0,
  load: 0,
  CompileFile: 0,
  BroadcastLua: 0,
  'Player:SendLua': 1,
  RunStringG: 0,
  'ulx.luaRun': 1,
};

/** Index of the argument holding the code or the command (method calls carry `self` first). */
export function codeArgIndex(api: string): number {
  return Object.hasOwn(EXEC_SINKS, api) ? EXEC_SINKS[api]! : api.startsWith('Player:') ? 1 : 0;
}

/**
 * The moderation functions whose replacement may spare someone (GB-019, anti_moderation),
 * and the player lists that admin tools, scoreboards and target pickers read: a replacement
 * that leaves literal IDs out hides those accounts from the staff.
 */
export const MODERATION_OVERRIDES =
  /^(Player:(Ban|Kick|Kill)|ULib\.(ban|kick|addBan)|ulx\.(ban|kick)|game\.KickID|player\.(GetAll|GetHumans|GetCount|Iterator))$/;

/**
 * The permission checks of the admin mods, which every command asks before it runs: ULib's
 * `ucl.query` (ULX), CAMI's `PlayerHasAccess` (shared by the mods that use CAMI) and FAdmin's
 * `PlayerHasPrivilege` (DarkRP). A replacement with a literal identity gate lets those
 * accounts run every command (superadmin).
 */
/**
 * The Player methods that say who a player is: bans, logs and admin mods key on them. No
 * addon of the corpus replaces them; one that does for some accounts hands every ban of
 * those accounts to another ID (GB-019).
 */
export const IDENTITY_OVERRIDES = /^Player:(SteamID|SteamID64|AccountID|UniqueID|IPAddress)$/;

/**
 * Reads of a convar's value by its name, the first argument (a change callback is handed
 * every new value of the convar it watches).
 */
export const CONVAR_READS =
  /^(GetConVar|GetConVarString|GetConVarNumber|cvars\.String|cvars\.Number|cvars\.AddChangeCallback)$/;

export const PERMISSION_CHECKS =
  /^(ULib\.ucl\.query|CAMI\.PlayerHasAccess|FAdmin\.Access\.PlayerHasPrivilege)$/;

/** Sinks whose code runs on clients rather than on the server. */
export const CLIENT_PUSH_SINKS = new Set(['BroadcastLua', 'Player:SendLua']);

export const CONSOLE_SINKS = new Set([
  'RunConsoleCommand',
  'game.ConsoleCommand',
  'Player:ConCommand',
  // ULib's own: a line, or every line of a text, run in the server console.
  'ULib.consoleCommand',
  'ULib.execString',
]);

export const PRIVILEGE_SINKS = new Set([
  'Player:SetUserGroup',
  'ULib.ucl.addUser',
  'ULib.ucl.addGroup',
  'ULib.ucl.groupAllow',
  'ulx.adduser',
  'ulx.adduserid',
  'sam.player.set_rank',
  'sam.player.set_rank_id',
  'serverguard.player.SetRank',
  'FAdmin.Access.PlayerSetGroup',
  'xAdmin.SetGroup',
  'CAMI.SignalUserGroupChanged',
  // (DarkRP's join-time ranks by SteamID, written by the addon: see Emulator.assign.)
  'DarkRP.DefaultPlayerGroups',
]);

export const SQL_SINKS = new Set(['sql.Query', 'sql.QueryValue', 'sql.QueryRow', 'sql.QueryTyped']);

/**
 * Queries of the database modules (MySQLOO's `db:query(text)`, tmysql's `db:Query(text)`), as
 * methods of an object nothing is known of: the text comes after the object.
 */
export const DATABASE_QUERIES = new Set(['?:query', '?:Query']);

/**
 * The callbacks the database and websocket modules run on their objects, by field name, and
 * whether they are handed what the far end sent: MySQLOO's `db.onConnected(db)`,
 * `query.onSuccess(q, data)`, `query.onData(q, row)`; GWSockets' `socket.onMessage(s, text)`.
 */
export const CONNECTION_CALLBACKS = new Map([
  ['onConnected', false],
  ['onSuccess', true],
  ['onData', true],
  ['onMessage', true],
]);

/** Connections of the database modules (see SOURCE_CALLS). */
export const DATABASE_CONNECTS = new Set([
  'mysqloo.connect',
  'tmysql.initialize',
  'tmysql.Connect',
]);

/**
 * Whether a database host written into the addon is a server on the Internet: not this machine,
 * not a private network, not a bare name (a container's or the LAN's) and not a placeholder for
 * the owner to fill in. Rows from such a host are what its owner, the addon's author as a rule,
 * puts there.
 */
export function isRemoteHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  if (!h.includes('.') || h.startsWith('127.') || h === '0.0.0.0') return false;
  if (/^(10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(h)) return false;
  return !/example|your|change|here|x\.x|\.(local|lan|internal|localdomain)$/.test(h);
}

export const FILE_WRITE_SINKS = new Set(['file.Write', 'file.Append']);

/** Calls whose results are attacker-controllable. */
export const SOURCE_CALLS: Record<string, 'net' | 'file' | 'sql' | 'clientinfo' | 'http'> = {
  'net.ReadString': 'net',
  'net.ReadData': 'net',
  'net.ReadTable': 'net',
  'net.ReadType': 'net',
  'net.ReadStream': 'net',
  'file.Read': 'file',
  'sql.Query': 'sql',
  'sql.QueryValue': 'sql',
  'sql.QueryRow': 'sql',
  'Player:GetInfo': 'clientinfo',
  // A tool's client setting (`self:GetClientInfo("color")` in an STool): the player's own
  // console variable, read on the server.
  'Tool:GetClientInfo': 'clientinfo',
  // A websocket (the GWSockets module): its `onMessage` gets what the far end sends (see
  // CONNECTION_CALLBACKS).
  'GWSockets.createWebSocket': 'http',
  // A database module's connection (MySQLOO, tmysql): its queries hand their callbacks the
  // database's rows (see CONNECTION_CALLBACKS).
  'mysqloo.connect': 'sql',
  'tmysql.initialize': 'sql',
  'tmysql.Connect': 'sql',
  'Player:GetPData': 'sql',
  // An audio stream's tags (sound.PlayURL's channel): what the host serving it puts there.
  '?:GetTagsMeta': 'http',
  '?:GetTagsHTTP': 'http',
  '?:GetTagsOGG': 'http',
  '?:GetTagsID3': 'http',
  '?:GetTagsVendor': 'http',
};

/**
 * Calls whose result is a number read off the network: the attacker chose it, but it carries
 * no text of theirs (TaintSource.numeric; `tonumber` is a builtin that does the same). An
 * entity is sent as its index: the sender chooses which player a receiver acts on. Checked
 * before SANITIZERS, which list them too.
 */
export const NUMBER_RESULTS: Record<string, 'net'> = {
  'net.ReadUInt': 'net',
  'net.ReadInt': 'net',
  'net.ReadFloat': 'net',
  'net.ReadDouble': 'net',
  'net.ReadEntity': 'net',
  'net.ReadPlayer': 'net',
  // Vectors, angles and colours: numbers the sender chose, three or four at a time (their
  // components made into characters are text of theirs, as any number's).
  'net.ReadVector': 'net',
  'net.ReadNormal': 'net',
  'net.ReadAngle': 'net',
  'net.ReadColor': 'net',
  // A usercmd's impulse (`impulse 42` in the player's console): a byte a player sends with
  // every command, read in StartCommand or SetupMove. Only the usercmd has this method.
  '?:GetImpulse': 'net',
};

/**
 * Calls that find a player or an entity by what they are given: given what an attacker sent
 * (`player.GetBySteamID(net.ReadString())`), the attacker chose whom the result is, as a
 * number they chose (TaintSource.numeric). Checked before SANITIZERS, which list some too.
 */
export const PLAYER_PICKERS = new Set([
  'Entity',
  'Player',
  'player.GetByID',
  'player.GetBySteamID',
  'player.GetBySteamID64',
  'player.GetByUniqueID',
  'player.GetByAccountID',
]);

/** Calls whose result cannot carry code: taint stops here. */
export const SANITIZERS = new Set([
  'tonumber',
  // the database modules' escaping (MySQLOO `db:escape`, tmysql `db:Escape`)
  '?:escape',
  '?:Escape',
  'IsValid',
  'isstring',
  'istable',
  'isnumber',
  'isfunction',
  'isbool',
  'type',
  'string.len',
  'string.find',
  'math.Clamp',
  'math.floor',
  'math.min',
  'math.max',
  'player.GetBySteamID',
  'player.GetBySteamID64',
  'Entity',
  'util.SteamIDFrom64',
  'util.SteamIDTo64',
  'net.ReadUInt',
  'net.ReadInt',
  'net.ReadBool',
  'net.ReadEntity',
  'net.ReadFloat',
  'util.NetworkStringToID',
  'table.HasValue',
  'table.Count',
  'string.StartWith',
  'string.EndsWith',
  'string.lower',
  'string.upper',
]);

/** Engine globals whose reassignment is a detour (GB-019/020), not a user global. */
export const CORE_GLOBALS = new Set([
  'RunString',
  'RunStringEx',
  'CompileString',
  'CompileFile',
  'HTTP',
  'http',
  'net',
  'hook',
  'concommand',
  'timer',
  'file',
  'sql',
  'game',
  'util',
  'debug',
  'jit',
  'string',
  'table',
  'math',
  'bit',
  'player',
  'ents',
  'ULib',
  'ulx',
  'CAMI',
  'include',
  'require',
  'AddCSLuaFile',
  'BroadcastLua',
  'RunConsoleCommand',
  'print',
  'Msg',
  'MsgC',
  'error',
  'pcall',
  'setmetatable',
  'getmetatable',
  'FindMetaTable',
  'steamworks',
  'sound',
  'gui',
  'engine',
  'GetConVar',
  'GetConVarString',
  'cvars',
  'resource',
  'os',
  'Entity',
  'Player',
  'IsValid',
  'Color',
  'Vector',
  'Angle',
  'pairs',
  'ipairs',
  'type',
  'tostring',
  'tonumber',
  'unpack',
  'select',
  'next',
  'rawget',
  'rawset',
  'getfenv',
  'setfenv',
  'loadstring',
  'load',
  'istable',
  'isstring',
  'isfunction',
  'CurTime',
  'SysTime',
  'GetHostName',
  'chat',
  'surface',
  'draw',
  'vgui',
  'render',
  'input',
  'team',
  'ents',
  'scripted_ents',
  'weapons',
  'properties',
  'DarkRP',
  'SERVER',
  'CLIENT',
]);

/** Names that resolve to the globals table itself. */
export const GLOBAL_TABLE_NAMES = new Set(['_G']);

/**
 * Calls the rules read (rules/*.ts): only these become CallEvents. Recording every call of
 * every file cost more than the emulation itself, for events nobody queried.
 */
/**
 * The event recorded when a `CheckPassword` hook answers true: the player is let in, past
 * the server's password and the hooks after it (an admin mod's ban check among them).
 */
export const ADMITTED = 'hook.CheckPassword:true';

const RECORDED_APIS = new Set([
  ...Object.keys(EXEC_SINKS),
  ...CONSOLE_SINKS,
  ...PRIVILEGE_SINKS,
  ...SQL_SINKS,
  ...DATABASE_QUERIES,
  ...FILE_WRITE_SINKS,
  // Not a function: a CheckPassword hook answering true under a trigger (Emulator.admitted).
  ADMITTED,
  'math.random',
  'debug.getinfo',
  'timer.Simple',
  'concommand.Add',
  'concommand.Remove',
  'net.Receive',
  'net.WriteString',
  'net.WriteData',
  'umsg.String',
  'usermessage.Hook',
  'sound.PlayURL',
  'gui.OpenURL',
  'game.MountGMA',
  'chat.AddText',
  'GetConVar',
  'GetConVarString',
  'GetConVarNumber',
  'cvars.String',
  'cvars.Number',
  'cvars.AddChangeCallback',
  'file.Read',
  'file.Open',
  'package.loadlib',
  'file.Find',
  'file.Delete',
  'file.Exists',
  'HTTP',
  'CHTTP',
  'reqwest',
  'ConVar:SetString',
  'game.CleanUpMap',
  'game.KickID',
  'Player:IPAddress',
  'jit.util.funck',
  'jit.util.funcinfo',
  'game.GetIPAddress',
  'GetHostName',
  'game.GetMap',
  'engine.ActiveGamemode',
  'player.GetCount',
  'game.MaxPlayers',
  'engine.GetAddons',
  'Player:GodEnable',
  'Player:Give',
  'Player:SetHealth',
  'Player:SetArmor',
  'Player:addMoney',
  'Player:Kick',
  'Player:Ban',
  'Player:Kill',
  'Player:KillSilent',
  // Who may use a privilege, for every admin mod that reads CAMI (superadmin).
  'CAMI.RegisterPrivilege',
  // A replicated setting's value sent to one client (cvar_tampering).
  'Player:ReplicateData',
]);
const RECORDED_PREFIX =
  /^(http\.|ULib\.|ulx\.|serverguard\.|sam\.player\.|Nova_|nova\.|SNTE|\?:(Ban|Kick|ban|kick|BanPlayer|KickPlayer|OpenURL|SetAllowLua|ReplicateData|RunJavascript|SetMaterial|SetColor|SetString|SetInt|SetNWString)$)/;
const recordedMemo = new Map<string, boolean>();

/** Whether calls of this API are recorded for the rules (see RECORDED_APIS). */
export function isRecordedApi(name: string): boolean {
  let r = recordedMemo.get(name);
  if (r === undefined) {
    r = RECORDED_APIS.has(name) || RECORDED_PREFIX.test(name);
    if (recordedMemo.size < 100_000) recordedMemo.set(name, r);
  }
  return r;
}

/**
 * Hooks the game runs when any player presses a key (F1–F4 included): what they do, whoever
 * is on the server can set off, as with a chat line.
 */
export const PLAYER_KEY_HOOKS: ReadonlySet<string> = new Set([
  'PlayerButtonDown',
  'PlayerButtonUp',
  'KeyPress',
  'KeyRelease',
  'ShowHelp',
  'ShowTeam',
  'ShowSpare1',
  'ShowSpare2',
]);
