// Classifies branch conditions: an admin/permission check is a GUARD (the code behind it is an
// admin feature); a comparison of the player's identity with a literal is a TRIGGER (a gate
// that makes a backdoor worse, not safer).
import type {
  Expression,
  FunctionDeclaration,
  Identifier,
  MemberExpression,
  Node,
} from '../lua/ast.js';
import { functionBody, pathName } from '../lua/parser.js';
import { pushChildren } from '../lua/walk.js';

/** Methods and functions that check a player's rank or permission. */
const ADMIN_CHECK_NAMES = new Set([
  'IsSuperAdmin',
  'IsAdmin',
  'IsUserGroup',
  'CheckGroup',
  'PlayerHasAccess',
  'query',
  'HasPermission',
  'hasPermission',
  'HasAccess',
  'hasAccess',
  'IsListenServerHost',
  'GetUserGroup',
  'IsStaff',
  'isStaff',
  'CanAccess',
  'canAccess',
  'HasPriv',
  'IsOwner',
]);
const ADMIN_NAME_HINT =
  /admin|perm|access|allowed|authori[sz]|privilege|isstaff|canuse|canrun|whitelist/i;

/** Player identity getters whose comparison with a literal is a trigger (GB-007). */
export const IDENTITY_METHODS = new Set([
  'SteamID',
  'SteamID64',
  'AccountID',
  'UniqueID',
  'Nick',
  'Name',
  'GetName',
  'IPAddress',
  'OwnerSteamID64',
]);

/** The placeholders STEAMID_LITERAL leaves out: no account, so no gate. */
export const PLACEHOLDER_ID = /^(STEAM_[0-5]:[01]:0+|7656119\d0{9}|\[U:1:0+\])$/;

/**
 * A SteamID written out. Placeholders that name no account (`STEAM_0:0:00000000`,
 * `76561198000000000`, left for the owner to replace in a config file) are not identities.
 */
export const STEAMID_LITERAL =
  /^(STEAM_[0-5]:[01]:(?!0+$)\d{3,12}|7656119(?!\d0{9}$)\d{10}|\[U:1:(?!0+\])\d+\])$/;

function calleeName(e: Expression): string | undefined {
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberExpression') return e.identifier.name;
  if (e.type === 'IndexExpression' && e.index.type === 'StringLiteral') return e.index.value;
  return undefined;
}

export function isCall(
  e: Node,
): e is Extract<
  Expression,
  { type: 'CallExpression' | 'StringCallExpression' | 'TableCallExpression' }
> {
  return (
    e.type === 'CallExpression' ||
    e.type === 'StringCallExpression' ||
    e.type === 'TableCallExpression'
  );
}

/** The expression inside any parentheses around it. */
export function unwrap(e: Expression): Expression {
  while (e.type === 'ParenthesizedExpression') e = e.expression;
  return e;
}

function isIdentityCall(e: Expression): string | undefined {
  e = unwrap(e);
  if (e.type === 'CallExpression' || e.type === 'StringCallExpression') {
    const n = calleeName(e.base);
    if (n && IDENTITY_METHODS.has(n)) return n;
    // `ply:Nick():lower()`: a string method on the identity.
    if (
      e.base.type === 'MemberExpression' &&
      e.base.indexer === ':' &&
      STRING_WRAPPERS.has(n ?? '')
    )
      return isIdentityCall(e.base.base);
    // string.lower(ply:Nick()) and similar wrappers
    if (e.type === 'CallExpression' && e.arguments[0]) return isIdentityCall(e.arguments[0]);
  }
  // `tonumber(ply:SteamID64()) - 76561190000000000`: the ID shifted so it is never written out.
  if (e.type === 'BinaryExpression' && ARITHMETIC_OPERATORS.has(e.operator))
    return isIdentityCall(e.left) ?? isIdentityCall(e.right);
  // `ply:SteamID64() or ""`: the ID, with a default for a bot.
  if (e.type === 'LogicalExpression' && e.operator === 'or') return isIdentityCall(e.left);
  return undefined;
}

/** String tests whose match of an identity against a constant is a gate (`find`, `StartWith`). */
const TEXT_TESTS: ReadonlySet<string> = new Set(['find', 'match', 'StartWith', 'EndsWith']);
const NO_ARGUMENTS: readonly Expression[] = [];

/** String methods that keep what an identity is (`:lower()`, `:Trim()`). */
const STRING_WRAPPERS = new Set(['lower', 'upper', 'Trim', 'sub', 'Left', 'Right']);
/** The arithmetic operators: what they give from an identity or attacker data is still that. */
export const ARITHMETIC_OPERATORS: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '^']);

function literalText(e: Expression): string | undefined {
  e = unwrap(e);
  if (e.type === 'StringLiteral') return e.value;
  if (e.type === 'NumericLiteral') return e.raw;
  // `"STEAM_0:1:" .. 58302117`: literals joined in the condition itself.
  if (e.type === 'BinaryExpression' && e.operator === '..') {
    const l = literalText(e.left);
    const r = l === undefined ? undefined : literalText(e.right);
    return r === undefined ? undefined : l! + r;
  }
  return undefined;
}

/**
 * What the emulation knows of a condition's operands: which identity a variable holds
 * (`local sid = ply:SteamID()`, a hook's steamid argument), and the constant text a
 * variable or a table entry holds (`local dev = string.format("STEAM_%d:%d:%d", …)`,
 * `ok[i]` in a loop over a list). Tables read by field name (`Config.Owner`) are the
 * owner's settings, not asked.
 */
export interface OperandFacts {
  identityOf(e: Expression): string | undefined;
  constantOf(e: Expression): string | undefined;
  /**
   * For a callee, the literal identity comparison its body makes, if it is a helper such as
   * `local function isDev(p) return p:SteamID64() == "7656…" end`, or compares what it is
   * handed when the call hands it an identity (`inRange(ply:IPAddress())`).
   */
  identityGateOf?(callee: Expression, args: readonly Expression[]): string | undefined;
  /** For a name, the identity gate its value was read through (see UnknownValue.gate). */
  gateOf?(name: Identifier): string | undefined;
  /**
   * Whether a name holds a player or entity the sender picked (`local actor =
   * net.ReadEntity()`): checking its rank says nothing of who sent the message.
   */
  chosenBySender?(e: Identifier): boolean;
}

/**
 * Whether a rank check asks about someone the sender picked rather than the sender:
 * `net.ReadEntity():IsSuperAdmin()`, or `actor:IsSuperAdmin()` / `isAdmin(actor)` where the
 * emulation knows `actor` came from the message. Any player can name an online admin.
 */
function checksPickedPlayer(
  call: Extract<Node, { type: 'CallExpression' | 'StringCallExpression' | 'TableCallExpression' }>,
  operands: OperandFacts | undefined,
): boolean {
  const base = call.base;
  const method = base.type === 'MemberExpression' && base.indexer === ':';
  const subject = method
    ? base.base
    : call.type === 'CallExpression'
      ? call.arguments[0]
      : undefined;
  if (subject === undefined) return false;
  const u = unwrap(subject);
  if (u.type === 'CallExpression' && u.base.type === 'MemberExpression') {
    const lib = u.base.base;
    return (
      lib.type === 'Identifier' && lib.name === 'net' && u.base.identifier.name.startsWith('Read')
    );
  }
  return u.type === 'Identifier' && operands?.chosenBySender?.(u) === true;
}

/** `ply:GetUserGroup()`, maybe parenthesized. */
function readsUserGroup(e: Expression): boolean {
  e = unwrap(e);
  return (
    (e.type === 'CallExpression' || e.type === 'StringCallExpression') &&
    calleeName(e.base) === 'GetUserGroup'
  );
}

/** Groups every player is in: an exit for them keeps the rest for the staff. */
const DEFAULT_GROUP = /^(user|guest|default|member|players?)$/i;

/**
 * Whether an early exit's condition holds for players who have a rank (`if ply:IsAdmin() then
 * return end`, `if ply:GetUserGroup() == r.group then return end` before giving that group):
 * what follows runs for the players without it, so the exit guards nothing. (An exit for the
 * default group, `GetUserGroup() == "user"`, keeps the rest for the staff: a guard.)
 */
export function exitsForRanked(cond: Expression): boolean {
  const c = unwrap(cond);
  if (c.type === 'LogicalExpression')
    return c.operator === 'and' && (exitsForRanked(c.left) || exitsForRanked(c.right));
  if (c.type === 'BinaryExpression' && c.operator === '==') {
    const other = readsUserGroup(c.left) ? c.right : readsUserGroup(c.right) ? c.left : undefined;
    if (other === undefined) return false;
    const lit = literalText(other);
    return lit === undefined || !DEFAULT_GROUP.test(lit);
  }
  if (c.type !== 'CallExpression' && c.type !== 'StringCallExpression') return false;
  const name = calleeName(c.base);
  if (name === 'IsAdmin' || name === 'IsSuperAdmin') return true;
  if (name !== 'IsUserGroup' && name !== 'CheckGroup') return false;
  const arg = c.type === 'CallExpression' ? c.arguments[0] : c.argument;
  const lit = arg === undefined ? undefined : literalText(arg);
  return lit === undefined || !DEFAULT_GROUP.test(lit);
}

export interface ConditionClass {
  guard?: string;
  trigger?: string;
  /** A setting the server owner controls (`Config.X`, a convar): the owner's choice. */
  config?: string;
}

/** Hash functions an identity may be hidden behind (`util.CRC`, `util.SHA256`…). */
const HASHES = new Set(['CRC', 'SHA256', 'SHA1', 'MD5', 'Base64Encode']);

const CONFIG_NAME = /config|cfg|settings|options/i;

/** The configuration name a table path goes through (`PrinterPack.Config.Admins`), if any. */
export function configName(e: Expression): string | undefined {
  let b = unwrap(e);
  while (b.type === 'MemberExpression' || b.type === 'IndexExpression') {
    if (b.type === 'MemberExpression' && CONFIG_NAME.test(b.identifier.name))
      return b.identifier.name;
    b = b.base;
  }
  return b.type === 'Identifier' && CONFIG_NAME.test(b.name) ? b.name : undefined;
}

/** Whether a function or method name is one of the rank checks (`IsSuperAdmin`, `query`…). */
export function isAdminCheckName(name: string): boolean {
  return ADMIN_CHECK_NAMES.has(name) || ADMIN_NAME_HINT.test(name);
}

/**
 * Looks for admin checks and identity triggers in a condition. `isLiteralIdTable` tells
 * whether an indexed table holds literal SteamIDs (the emulator knows table contents).
 * `isAdminCheckFn` answers whether a callee checks rank (a helper, or a rank check kept in a
 * local); `isPermissionAnswer` whether a name holds the answer a permission check handed its
 * callback (`function(allowed) if not allowed then return end … end`).
 */
export function classifyCondition(
  cond: Expression,
  isLiteralIdTable: (base: Expression, identity?: string) => boolean,
  isAdminCheckFn?: (base: Expression) => boolean,
  isPermissionAnswer?: (name: Identifier) => boolean,
  operands?: OperandFacts,
): ConditionClass {
  const out: ConditionClass = {};
  const stack = (conditionStacks[nesting] ??= []);
  nesting++;
  try {
    stack.push(cond);
    classifyNodes(stack, out, isLiteralIdTable, isAdminCheckFn, isPermissionAnswer, operands);
  } finally {
    nesting--;
    // (Left non-empty only when the budget ran out.)
    if (stack.length !== 0) stack.length = 0;
  }
  return out;
}

/**
 * The work stacks of classifyCondition, one per nesting level (judging a call can ask whether
 * the function called checks rank, which classifies that function's statements), kept between
 * calls: a new stack, grown by its first push, was most of what judging a condition allocated.
 */
const conditionStacks: Node[][] = [];
let nesting = 0;

/**
 * The player identity an expression reads (`ply:SteamID()`, or a local holding it).
 * classifyNodes' helpers are module functions, not closures made per call: a closure dies
 * with its call, and V8 drops the optimised code of closures that died, so it compiled them
 * again every few scans.
 */
export function identityIn(e: Expression, operands: OperandFacts | undefined): string | undefined {
  return (
    isIdentityCall(e) ??
    // (A field too: `data.networkid` of a game event's table.)
    (e.type === 'Identifier' || e.type === 'MemberExpression' ? operands?.identityOf(e) : undefined)
  );
}

/** The constant text of an expression: a literal, or a local or field holding one. */
function constantIn(e: Expression, operands: OperandFacts | undefined): string | undefined {
  const lit = literalText(e);
  if (lit !== undefined || !operands) return lit;
  const u = unwrap(e);
  return u.type === 'Identifier' || u.type === 'IndexExpression'
    ? operands.constantOf(u)
    : undefined;
}

/**
 * `util.CRC(sid .. "salt")`: a player's identity hashed, so that the ID itself is never
 * written in the addon (GB-007 hidden behind a hash).
 */
function hashedIdentityIn(e: Expression, operands: OperandFacts | undefined): string | undefined {
  const u = unwrap(e);
  if (u.type !== 'CallExpression' || !HASHES.has(calleeName(u.base) ?? '')) return undefined;
  let a = u.arguments[0];
  if (a === undefined) return undefined;
  a = unwrap(a);
  if (a.type === 'BinaryExpression' && a.operator === '..')
    return identityIn(a.left, operands) ?? identityIn(a.right, operands);
  return identityIn(a, operands);
}

/** String functions that cut a piece out of their subject. */
const SUBSTRINGS = new Set(['sub', 'Right', 'Left']);
/** A piece of an ID worth matching on: four digits or more (`"419552"`, `":1:5821"`). */
const ID_PIECE = /\d{4}/;

/**
 * `string.sub(sid, -6)`, `sid:sub(-#suffix)`, `string.Right(ply:SteamID64(), 6)`: a piece of
 * a player's identity, compared with a piece written in the addon (GB-007 cut short, so that
 * no whole ID appears). A prefix check such as `sid:sub(1, 6) == "STEAM_"` holds no digits.
 */
function identityPieceIn(e: Expression, operands: OperandFacts | undefined): string | undefined {
  const u = unwrap(e);
  if (u.type !== 'CallExpression' || !SUBSTRINGS.has(calleeName(u.base) ?? '')) return undefined;
  const method = u.base.type === 'MemberExpression' && u.base.indexer === ':';
  const subject = method ? (u.base as MemberExpression).base : u.arguments[0];
  return subject === undefined ? undefined : identityIn(unwrap(subject), operands);
}

/** The event a `hook.Run("Event", …)`, `hook.Call` or `gamemode.Call` runs, when literal. */
function hookEventOf(n: Node, name: string | undefined): string | undefined {
  if (name !== 'Run' && name !== 'Call') return undefined;
  if (n.type !== 'CallExpression' || n.base.type !== 'MemberExpression') return undefined;
  const lib = n.base.base;
  if (lib.type !== 'Identifier' || (lib.name !== 'hook' && lib.name !== 'gamemode'))
    return undefined;
  const first = n.arguments[0];
  return first?.type === 'StringLiteral' ? first.value : undefined;
}

function classifyNodes(
  stack: Node[],
  out: ConditionClass,
  isLiteralIdTable: (base: Expression, identity?: string) => boolean,
  isAdminCheckFn: ((base: Expression) => boolean) | undefined,
  isPermissionAnswer: ((name: Identifier) => boolean) | undefined,
  operands: OperandFacts | undefined,
): void {
  let budget = 500;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (isCall(n)) {
      const name = calleeName(n.base);
      // (The guard found first stands: once there is one, no name is tested against the hints.)
      if (!out.guard) {
        let guard: string | undefined;
        if (name && isAdminCheckName(name)) guard = name;
        else if (isAdminCheckFn?.(n.base)) guard = `${name ?? 'check'}() (checks rank)`;
        else {
          // A rank check asked of the addon's own hook (`hook.Run("TTT2AdminCheck", ply)`):
          // whatever answers it, the event is named for the check.
          const event = hookEventOf(n, name);
          if (event !== undefined && isAdminCheckName(event)) guard = `${name}("${event}")`;
        }
        // (Whom it checks is asked of rank checks only: what the emulation knows of a value
        // keeps the condition from being judged once for all its runs, see Emulator.judge.)
        if (guard !== undefined && !checksPickedPlayer(n, operands)) out.guard = guard;
      }
      if (!out.trigger && operands?.identityGateOf) {
        const gate = operands.identityGateOf(
          n.base,
          n.type === 'CallExpression' ? n.arguments : NO_ARGUMENTS,
        );
        if (gate) out.trigger = `${name ?? 'check'}() (${gate})`;
      }
      if (name === 'HasValue' && n.type === 'CallExpression' && n.arguments.length === 2) {
        const id = identityIn(n.arguments[1]!, operands);
        const list = n.arguments[0]!;
        // A list in the owner's configuration (`Config.AdminSteamIDs`) is theirs to edit.
        const setting = configName(list);
        if (id && setting) out.config ??= setting;
        else if (id && isLiteralIdTable(list, id)) out.trigger ??= `table.HasValue(…, ${id}())`;
      }
      if (name !== undefined && TEXT_TESTS.has(name) && n.type === 'CallExpression') {
        // string.find(id, "lit"), id:find("lit"), string.StartWith(ip, "10.66.")
        const method = n.base.type === 'MemberExpression' && n.base.indexer === ':';
        const subject = method ? (n.base as MemberExpression).base : n.arguments[0];
        const id = subject && identityIn(subject, operands);
        const pattern = n.arguments[method ? 0 : 1];
        const lit = pattern && id ? constantIn(pattern, operands) : undefined;
        if (id && lit) out.trigger ??= `${id}() matches "${lit}"`;
      }
    } else if (n.type === 'BinaryExpression' && (n.operator === '==' || n.operator === '~=')) {
      const idL = identityIn(n.left, operands);
      const idR = idL === undefined ? identityIn(n.right, operands) : undefined;
      // (The other side is asked for its value only against an identity.)
      const litR = idL !== undefined ? constantIn(n.right, operands) : literalText(n.right);
      const litL = idR !== undefined ? constantIn(n.left, operands) : literalText(n.left);
      if (idL && litR && !PLACEHOLDER_ID.test(litR)) out.trigger ??= `${idL}() == "${litR}"`;
      else if (idR && litL && !PLACEHOLDER_ID.test(litL)) out.trigger ??= `${idR}() == "${litL}"`;
      else if (!out.trigger) {
        const hL = hashedIdentityIn(n.left, operands);
        const hR = hL === undefined ? hashedIdentityIn(n.right, operands) : undefined;
        const lit =
          hL !== undefined
            ? literalText(n.right)
            : hR !== undefined
              ? literalText(n.left)
              : undefined;
        if (lit !== undefined) out.trigger = `hash of ${hL ?? hR}() == "${lit}"`;
        else out.trigger = clientSecret(n.left, n.right) ?? clientSecret(n.right, n.left);
        if (!out.trigger) {
          const pL = identityPieceIn(n.left, operands);
          const pR = pL === undefined ? identityPieceIn(n.right, operands) : undefined;
          const piece =
            pL !== undefined
              ? constantIn(n.right, operands)
              : pR !== undefined
                ? constantIn(n.left, operands)
                : undefined;
          if (piece !== undefined && ID_PIECE.test(piece))
            out.trigger = `part of ${pL ?? pR}() == "${piece}"`;
        }
      }
      if ((readsUserGroup(n.left) && litR) || (readsUserGroup(n.right) && litL))
        out.guard ??= 'GetUserGroup';
    } else if (n.type === 'MemberExpression' && !out.config) {
      let b: Expression = n;
      while (b.type === 'MemberExpression') {
        if (CONFIG_NAME.test(b.identifier.name)) out.config = b.identifier.name;
        b = b.base;
      }
      if (b.type === 'Identifier' && CONFIG_NAME.test(b.name)) out.config = b.name;
    } else if (n.type === 'IndexExpression') {
      // (A hash is asked first: `util.CRC(ply:SteamID())` also reads as the ID through a
      // wrapper, and a table of hashes holds no literal IDs.)
      const hashed = hashedIdentityIn(n.index, operands);
      const id = hashed === undefined ? identityIn(n.index, operands) : undefined;
      const setting = id || hashed ? configName(n.base) : undefined;
      if (setting) out.config ??= setting;
      else if (id && isLiteralIdTable(n.base, id)) out.trigger ??= `table[${id}()]`;
      else if (hashed !== undefined) out.trigger ??= `table[hash of ${hashed}()]`;
    } else if (n.type === 'Identifier') {
      if (!out.guard && isPermissionAnswer?.(n))
        out.guard = `${n.name} (answer of a permission check)`;
      if (!out.trigger && operands?.gateOf) out.trigger = operands.gateOf(n);
    }
    // (Lazy bodies stay unparsed: a condition's own code is what is judged.)
    if (n.type !== 'FunctionDeclaration') pushChildren(stack, n, false);
  }
}

/** What a setting's value reads like (`"1"`, `"true"`, `"off"`): not a secret. */
const SETTING_VALUE = /^(-?[\d.]+|true|false|yes|no|on|off|none|default|enabled?|disabled?|auto)$/i;

/**
 * `ply:GetInfo("cl_x") == "letmein"`: a client convar (the player sets it in their console)
 * compared with a word written in the addon is a password, whoever the player is.
 */
function clientSecret(call: Expression, other: Expression): string | undefined {
  const c = unwrap(call);
  if (c.type !== 'CallExpression' || calleeName(c.base) !== 'GetInfo') return undefined;
  const lit = literalText(other);
  if (lit === undefined || lit.length < 4 || SETTING_VALUE.test(lit)) return undefined;
  const cvar = c.arguments[0] ? literalText(c.arguments[0]) : undefined;
  return `GetInfo(${JSON.stringify(cvar ?? '…')}) == "${lit}"`;
}

/** Literal identity comparisons anywhere inside a function (used for metamethod overrides). */
export function identityTriggersIn(
  root: Node,
  isLiteralIdTable: (base: Expression, identity?: string) => boolean,
  operands?: OperandFacts,
): string[] {
  const found: string[] = [];
  // An override's body the parser left lazy (it names nothing watched) is read now.
  if (root.type === 'FunctionDeclaration') {
    const locals = identityLocals(functionBody(root), operands);
    if (locals !== undefined) operands = new WithIdentityLocals(locals, operands);
  }
  const stack: Node[] = [root];
  let budget = 5000;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'BinaryExpression' || n.type === 'IndexExpression' || isCall(n)) {
      const c = classifyCondition(
        n as Expression,
        isLiteralIdTable,
        undefined,
        undefined,
        operands,
      );
      if (c.trigger && !found.includes(c.trigger)) found.push(c.trigger);
    }
    pushChildren(stack, n, false);
  }
  return found;
}

/**
 * The locals of a function's own body that hold a player's identity (`local sid =
 * ply:SteamID64()`, then `VIP[sid]`), each written once: judged without running the body,
 * a lookup by such a local is a lookup by the identity.
 */
function identityLocals(
  body: readonly Node[],
  operands: OperandFacts | undefined,
): Map<string, string> | undefined {
  let found: Map<string, string> | undefined;
  let written: Map<string, number> | undefined;
  const stack: Node[] = [...body];
  let budget = 2000;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'LocalStatement' || n.type === 'AssignmentStatement') {
      for (let i = 0; i < n.variables.length; i++) {
        const v = n.variables[i]!;
        if (v.type !== 'Identifier') continue;
        written ??= new Map();
        written.set(v.name, (written.get(v.name) ?? 0) + 1);
        const init = n.type === 'LocalStatement' ? n.init[i] : undefined;
        const id = init === undefined ? undefined : identityIn(unwrap(init), operands);
        if (id !== undefined) (found ??= new Map()).set(v.name, id);
      }
    }
    if (n.type !== 'FunctionDeclaration') pushChildren(stack, n, false);
  }
  if (found === undefined) return undefined;
  for (const name of found.keys()) if (written!.get(name) !== 1) found.delete(name);
  return found.size > 0 ? found : undefined;
}

/** Operand facts that also know a body's identity locals (see identityLocals). */
class WithIdentityLocals implements OperandFacts {
  constructor(
    private readonly locals: Map<string, string>,
    private readonly outer: OperandFacts | undefined,
  ) {
    if (outer?.identityGateOf) this.identityGateOf = outer.identityGateOf.bind(outer);
    if (outer?.gateOf) this.gateOf = outer.gateOf.bind(outer);
    if (outer?.chosenBySender) this.chosenBySender = outer.chosenBySender.bind(outer);
  }

  identityGateOf?: OperandFacts['identityGateOf'];
  gateOf?: OperandFacts['gateOf'];
  chosenBySender?: OperandFacts['chosenBySender'];

  identityOf(e: Expression): string | undefined {
    return (
      (e.type === 'Identifier' ? this.locals.get(e.name) : undefined) ?? this.outer?.identityOf(e)
    );
  }

  constantOf(e: Expression): string | undefined {
    return this.outer?.constantOf(e);
  }
}

/** A statement list whose last statement leaves the function or loop. */
export function endsWithExit(body: readonly Node[]): boolean {
  const last = body[body.length - 1];
  return !!last && (last.type === 'ReturnStatement' || last.type === 'BreakStatement');
}

/** A helper function whose body checks the player's rank (`local function canManage(ply)`). */
export function containsAdminCheck(fn: Node): boolean {
  const body: Node[] = fn.type === 'FunctionDeclaration' ? functionBody(fn) : [];
  return body.some((st) => !!classifyCondition(st as unknown as Expression, () => false).guard);
}

/** The calls that tell a function who called it: the calling file and line. */
const CALLER_LOOKUPS = new Set(['debug.getinfo', 'debug.traceback']);

/** Whether `root` holds a call to a caller lookup, or to a helper (`resolve`d) that makes one. */
function asksCaller(
  root: Node,
  resolve: (callee: Identifier) => FunctionDeclaration | undefined,
  depth: number,
): boolean {
  const stack: Node[] = [root];
  let budget = 500;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (isCall(n)) {
      const callee = n.base;
      const name = pathName(callee);
      if (name !== undefined && CALLER_LOOKUPS.has(name)) return true;
      if (depth > 0 && callee.type === 'Identifier') {
        const helper = resolve(callee);
        if (helper && asksCaller(helper, resolve, depth - 1)) return true;
      }
    }
    pushChildren(stack, n, true);
  }
  return false;
}

/**
 * What a replaced moderation function (`Player:Kick`, `ULib.ban`) lets through by its caller:
 * a branch that depends on the file or function calling it (`debug.getinfo(3, "S").short_src`,
 * itself or through a helper) and leaves without a call. Kick and Ban do not care who calls
 * them; a wrapper that logs the caller still passes the call on, while one that returns early
 * for some callers drops an anti-cheat's or admin mod's sanctions (GB-019, GB-020).
 */
export function callerGateIn(
  fn: FunctionDeclaration,
  resolve: (callee: Identifier) => FunctionDeclaration | undefined,
): string | undefined {
  const body = functionBody(fn);
  const callerLocals = new Set<string>();
  const mentionsCaller = (e: Node): boolean => {
    if (callerLocals.size > 0) {
      const stack: Node[] = [e];
      let budget = 200;
      while (stack.length && budget-- > 0) {
        const n = stack.pop()!;
        if (n.type === 'Identifier' && callerLocals.has(n.name)) return true;
        pushChildren(stack, n, false);
      }
    }
    return asksCaller(e, resolve, 1);
  };
  // Statements in order, so that a local is known as the caller's before the branch reads it.
  const queue: Node[] = [...body];
  let budget = 2000;
  for (let i = 0; i < queue.length && budget-- > 0; i++) {
    const n = queue[i]!;
    if (n.type === 'LocalStatement' || n.type === 'AssignmentStatement') {
      n.variables.forEach((v, k) => {
        const init = n.init[k];
        if (v.type === 'Identifier' && init !== undefined && mentionsCaller(init))
          callerLocals.add(v.name);
      });
    } else if (n.type === 'IfStatement') {
      let gated = false;
      for (const clause of n.clauses) {
        if (clause.condition !== null) gated = gated || mentionsCaller(clause.condition);
        if (gated && dropsOut(clause.body)) return 'calls from files it picks (debug.getinfo)';
        queue.push(...clause.body);
      }
    } else if (isBlockStatement(n)) {
      // (`for _, name in ipairs(skip) do if src:find(name) then return end end`.)
      queue.push(...n.body);
    }
  }
  return undefined;
}

/** A `do` block or a loop: statements of the same function, run under its conditions. */
function isBlockStatement(n: Node): n is Extract<
  Node,
  {
    type:
      | 'DoStatement'
      | 'WhileStatement'
      | 'RepeatStatement'
      | 'ForNumericStatement'
      | 'ForGenericStatement';
  }
> {
  return (
    n.type === 'DoStatement' ||
    n.type === 'WhileStatement' ||
    n.type === 'RepeatStatement' ||
    n.type === 'ForNumericStatement' ||
    n.type === 'ForGenericStatement'
  );
}

/** A branch that leaves with nothing called: `return`, `return nil`, `return false`. */
function dropsOut(body: readonly Node[]): boolean {
  for (const st of body) {
    if (st.type !== 'ReturnStatement') continue;
    return st.arguments.every((a) => !isCall(a) && a.type !== 'BinaryExpression');
  }
  return false;
}

/**
 * Whether a replaced identity method (`Player:SteamID`) answers something of its own for some
 * players: a branch that returns a value (`if acc then return ToSteamID(acc) end`). Bots are
 * the one case an addon may patch (`if self:IsBot() then`). `addonDefines` tells whether the
 * addon defines a function of that name anywhere (see fallsBackOnOriginal).
 */
export function answersForSomeIn(
  fn: FunctionDeclaration,
  addonDefines: (name: string) => boolean,
): boolean {
  const queue: Node[] = [...functionBody(fn)];
  let budget = 2000;
  for (let i = 0; i < queue.length && budget-- > 0; i++) {
    const n = queue[i]!;
    if (n.type === 'IfStatement') {
      for (const clause of n.clauses) {
        if (clause.condition !== null && mentionsBot(clause.condition)) break;
        for (const st of clause.body)
          if (
            st.type === 'ReturnStatement' &&
            st.arguments.some((a) => a.type !== 'NilLiteral' && a.type !== 'BooleanLiteral')
          )
            return true;
        queue.push(...clause.body);
      }
    } else if (isBlockStatement(n)) queue.push(...n.body);
    else if (n.type === 'ReturnStatement') {
      // `return Legacy(self) or real(self)`: another answer when the helper gives one.
      const a = n.arguments[0];
      if (
        a !== undefined &&
        a.type === 'LogicalExpression' &&
        a.operator === 'or' &&
        !fallsBackOnOriginal(a, fn, addonDefines)
      )
        return true;
    }
  }
  return false;
}

/** Text that may be a player's identity: a SteamID, a SteamID64 or an address. */
const IDENTITY_LIKE = /STEAM_\d:\d:\d|\[U:\d:\d|\d{6,}|\d+\.\d+\.\d+\.\d+/i;

/**
 * `return self:OldSteamID64() or 0`: the original method's answer, and a constant that is no
 * one's identity only where the original has none (NutScript's fix for single-player, where
 * SteamID64 gives nil). The original is a method of the player (or a function called with it)
 * that the addon defines nowhere: the saved engine method (`meta.OldSteamID64 =
 * meta.SteamID64`). A helper of the addon's own (`Legacy(self) or 0`) may answer anything.
 */
function fallsBackOnOriginal(
  e: Extract<Expression, { type: 'LogicalExpression' }>,
  fn: FunctionDeclaration,
  addonDefines: (name: string) => boolean,
): boolean {
  const fallback = e.right;
  const constant =
    fallback.type === 'NumericLiteral' ||
    fallback.type === 'NilLiteral' ||
    fallback.type === 'BooleanLiteral' ||
    (fallback.type === 'StringLiteral' && !IDENTITY_LIKE.test(fallback.value));
  if (!constant || !isCall(e.left) || e.left.type !== 'CallExpression') return false;
  const call = e.left;
  // The player: `self` in a method, else the first parameter (`function(ply)`).
  const isMethod = fn.identifier?.type === 'MemberExpression' && fn.identifier.indexer === ':';
  const player = isMethod
    ? 'self'
    : fn.parameters[0]?.type === 'Identifier'
      ? fn.parameters[0].name
      : undefined;
  if (player === undefined) return false;
  const isPlayer = (x: Expression | undefined): boolean =>
    x !== undefined && x.type === 'Identifier' && x.name === player;
  const base = call.base;
  // `self:OldSteamID64()`, or `old(self)` / `meta.OldSteamID64(self)`.
  const onPlayer =
    base.type === 'MemberExpression' && base.indexer === ':'
      ? isPlayer(base.base) && call.arguments.length === 0
      : call.arguments.length === 1 && isPlayer(call.arguments[0]);
  const name = calleeName(base);
  return onPlayer && name !== undefined && !addonDefines(name);
}

function mentionsBot(e: Node): boolean {
  const stack: Node[] = [e];
  let budget = 200;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (isCall(n) && calleeName(n.base) === 'IsBot') return true;
    pushChildren(stack, n, false);
  }
  return false;
}
