// GB-008: rank changes (SetUserGroup, ULib.ucl.addUser, `ulx adduser`) and overrides of
// IsAdmin/IsSuperAdmin; medium alone, critical when a trigger or remote input reaches them.
import { PERMISSION_CHECKS, PLAYER_KEY_HOOKS, PRIVILEGE_SINKS } from '../analysis/api.js';
import { STEAMID_LITERAL } from '../analysis/guards.js';
import type { AddonAnalysis, CallEvent, FileAnalysis } from '../analysis/types.js';
import type { FunctionDeclaration, Node } from '../lua/ast.js';
import { functionBody } from '../lua/parser.js';
import { pushChildren } from '../lua/walk.js';
import { asString, textOf } from '../analysis/values.js';
import {
  chainFor,
  decodedFor,
  guardOf,
  handlerOf,
  makeFinding,
  overrideGates,
  sourcesOfKind,
  triggerOf,
  PRIVILEGED_GROUP,
  snippetAt,
} from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** A quoted SteamID in a line of code. */
const QUOTED_ID = /["'](STEAM_[0-5]:[01]:\d+|7656119\d{10}|\[U:1:\d+\])["']/g;
/** How far above a rank change its handler's lines are read for a hard-coded SteamID. */
const HANDLER_LINES = 30;

/**
 * A SteamID written in the code that gives the rank (GB-007 without a comparison): on the
 * call's own line (`RunConsoleCommand("ulx", "adduserid", "STEAM_0:1:…", "superadmin")`), or
 * in its handler's lines above it, same file (`player.GetBySteamID64("7656119…")` then
 * `p:SetUserGroup(…)`). An ID from the owner's configuration is a variable on those lines.
 */
function hardCodedIdFor(analysis: AddonAnalysis, ev: CallEvent): string | undefined {
  const handler = handlerOf(ev.ctx);
  let from = ev.line;
  if (handler && handler.file === ev.file && handler.line <= ev.line)
    from = Math.max(handler.line, ev.line - HANDLER_LINES);
  for (let line = ev.line; line >= from; line--) {
    for (const m of snippetAt(analysis, ev.file, line).matchAll(QUOTED_ID))
      if (STEAMID_LITERAL.test(m[1]!)) return m[1];
  }
  return undefined;
}

/**
 * A comparison in a rank check's replacement of a field of the player (`self.hudPref`) with a
 * literal, where some file of the addon stores a net read in a field of that name: the trigger
 * text, or undefined.
 */
function sentFieldGate(
  fn: FunctionDeclaration,
  files: readonly FileAnalysis[],
): string | undefined {
  const stack: Node[] = [...functionBody(fn)];
  let budget = 2000;
  while (stack.length && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'BinaryExpression' && (n.operator === '==' || n.operator === '~=')) {
      const [field, lit] = n.right.type === 'StringLiteral' ? [n.left, n.right] : [n.right, n.left];
      if (field.type === 'MemberExpression' && lit.type === 'StringLiteral') {
        const name = field.identifier.name;
        const stored = new RegExp(`[.:]${name}\\s*=\\s*net\\.Read`);
        if (files.some((f) => f.text.includes(name) && stored.test(f.text)))
          return `${name} (set by a net message) == "${lit.value}"`;
      }
    }
    pushChildren(stack, n, false);
  }
  return undefined;
}

/**
 * The SteamID a DarkRP join-time rank is written for, when the analysis knows it (written or
 * computed, `"STEAM_0:%d:%d"` of numbers in the addon): one account chosen by the addon.
 */
function joinRankId(ev: CallEvent): string | undefined {
  if (ev.api !== 'DarkRP.DefaultPlayerGroups') return undefined;
  const id = ev.args[0] ? asString(ev.args[0]) : undefined;
  return id !== undefined && STEAMID_LITERAL.test(id) ? id : undefined;
}

const RANK_METHODS = /^Player:(IsSuperAdmin|IsAdmin|IsUserGroup|GetUserGroup|CheckGroup|query)$/;

/**
 * `RunConsoleCommand("ulx", "adduser", …)` and `game.ConsoleCommand("ulx adduser …")`: the
 * command's words, known parts only (`ulx adduser "«?»" superadmin` when the name is a
 * player's), or undefined when it is no rank change.
 */
function consoleRankChange(ev: CallEvent): string[] | undefined {
  if (ev.api !== 'RunConsoleCommand' && ev.api !== 'game.ConsoleCommand') return undefined;
  const text = ev.args
    .map((a) => textOf(a) ?? '')
    .join(' ')
    .toLowerCase();
  if (
    !/\b(ulx|sam|fadmin|sg)\s+(adduser|adduserid|setrank|setgroup|addgroup|userallow|groupallow)\b/.test(
      text,
    )
  )
    return undefined;
  return text.split(/[\s"']+/);
}

/**
 * Handlers an outsider sets off: a sender, the web, a chat line, a player using an entity or
 * pressing a key.
 */
const isOutsideOrder = (a: string): boolean =>
  a === 'net.Receive' ||
  a.startsWith('http') ||
  a === 'HTTP' ||
  a === 'hook.Add:PlayerSay' ||
  a.startsWith('ENT:') ||
  (a.startsWith('hook.Add:') && PLAYER_KEY_HOOKS.has(a.slice(9)));
const isRankChange = (api: string): boolean =>
  PRIVILEGE_SINKS.has(api) ||
  api === 'CAMI.RegisterPrivilege' ||
  api === 'RunConsoleCommand' ||
  api === 'game.ConsoleCommand' ||
  api === '?:SetNWString';

/** ULX commands that run code, reach the console or change who holds which rank. */
const POWERFUL_COMMAND =
  /\b(luarun|rcon|cexec|exec|cvar|adduser|adduserid|addgroup|removeuser|removeuserid|removegroup|renamegroup|groupallow|userallow|setgroupcantarget)\b/i;

/**
 * `ULib.ucl.groupAllow(group, commands, revoke)` that gives a group only commands written
 * in the addon, none of them powerful (an addon's own `ulx afkkick` for the staff groups), or
 * takes commands away: no rank changes hands.
 */
function grantsOnlyHarmlessCommands(args: CallEvent['args']): boolean {
  const revoke = args[2];
  if (revoke?.k === 'bool' && revoke.v) return true;
  const commands = args[1];
  const texts: Array<string | undefined> = [];
  if (commands?.k === 'table') {
    for (const v of commands.t.hash.values()) texts.push(asString(v));
    if (texts.length === 0 || commands.t.someUnknown) return false;
  } else texts.push(commands === undefined ? undefined : asString(commands));
  return texts.every((t) => t !== undefined && !POWERFUL_COMMAND.test(t));
}

/** ULX's group every player is in (`ULib.ACCESS_ALL`). */
const isEveryonesGroup = (v: CallEvent['args'][number] | undefined): boolean =>
  v !== undefined && ((v.k === 'api' && v.name === 'ULib.ACCESS_ALL') || asString(v) === 'user');

/**
 * The powerful command a grant gives every player (`ULib.ucl.groupAllow("user",
 * "ulx luarun")`, or `ulx groupallow user "ulx rcon"` on the console): whoever joins then
 * runs Lua or console commands on the server, or makes themselves superadmin.
 */
function powerfulCommandForEveryone(ev: CallEvent): string | undefined {
  if (ev.api === 'ULib.ucl.groupAllow') {
    const revoke = ev.args[2];
    if (!isEveryonesGroup(ev.args[0]) || (revoke?.k === 'bool' && revoke.v)) return undefined;
    const commands = ev.args[1];
    const texts =
      commands?.k === 'table'
        ? [...commands.t.hash.values()].map((v) => asString(v))
        : [commands === undefined ? undefined : asString(commands)];
    return texts.find((t) => t !== undefined && POWERFUL_COMMAND.test(t));
  }
  const words = consoleRankChange(ev);
  const at = words?.indexOf('groupallow') ?? -1;
  if (words === undefined || at < 0 || words[at + 1] !== 'user') return undefined;
  const granted = words.slice(at + 2).join(' ');
  return POWERFUL_COMMAND.test(granted) ? granted.trim() : undefined;
}

/** Whether a function's body returns `true` itself somewhere (not only what it calls). */
function answersTrue(fn: FunctionDeclaration): boolean {
  const stack: Node[] = [...functionBody(fn)];
  for (let budget = 2000; stack.length > 0 && budget > 0; budget--) {
    const n = stack.pop()!;
    if (n.type === 'ReturnStatement' && n.arguments.some(isTrueOrTest)) return true;
    pushChildren(stack, n, false);
  }
  return false;
}

/** `true`, or a test that may be (`a and b`, `x == y`), as a returned value. */
const isTrueOrTest = (e: Node): boolean =>
  (e.type === 'BooleanLiteral' && e.value) ||
  e.type === 'LogicalExpression' ||
  (e.type === 'BinaryExpression' && (e.operator === '==' || e.operator === '~='));

/** Admin mods' privileges that make their holder an admin or run the server console. */
const POWERFUL_PRIVILEGE =
  /^(ulx (luarun|rcon|cexec|exec|adduser|adduserid|addgroup|groupallow|userallow)|FAdmin_(SetAccess|RCon|ServerSetting)|DarkRP_AdminCommands|sam\.(setrank|rcon|lua))$/i;

/**
 * The privileges, as a finding shows them, that a `CAMI.RegisterPrivilege{ Name = …,
 * MinAccess = "user" }` opens to every player when they are not the addon's own: an admin
 * mod's powerful privilege named in the code, or any privilege of the registered list
 * (`CAMI.GetPrivileges()`) registered again under a name the addon does not write. Admin
 * mods that read CAMI then let whoever joins use it (GB-008 without a rank change). An
 * addon's own privilege open to all is a feature.
 */
function privilegeForEveryone(analysis: AddonAnalysis, ev: CallEvent): string | undefined {
  if (ev.api !== 'CAMI.RegisterPrivilege') return undefined;
  const privilege = ev.args[0];
  if (privilege?.k !== 'table') return undefined;
  const min = privilege.t.getName('MinAccess');
  if (!(isEveryonesGroup(min) || textOf(min) === 'user')) return undefined;
  const nameValue = privilege.t.getName('Name');
  const name = asString(nameValue);
  if (name !== undefined) return POWERFUL_PRIVILEGE.test(name) ? JSON.stringify(name) : undefined;
  // (A name built by the addon, `"Helix - " .. command`, is its own.)
  if (textOf(nameValue) !== undefined) return undefined;
  const listed = analysis.files.some((f) => f.text.includes('GetPrivileges'));
  return listed ? 'privileges other addons registered' : undefined;
}

export const rule: Rule = {
  meta: {
    id: 'superadmin',
    category: 'privilege_escalation',
    severity: 'medium',
    techniques: ['GB-008'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Rank change or admin check override',
        description:
          "The addon gives players a rank (for example superadmin) or an admin mod's privilege, or replaces the engine's IsAdmin/IsSuperAdmin checks. Reached from a secret trigger, chat, a net message or the web, this hands the server to someone.",
        recommendation:
          'Check who can reach this code. Remove the addon if ranks are granted without an admin decision, then audit your ULX/SAM groups.',
      },
      fr: {
        title: 'Changement de rang ou contournement des vérifications admin',
        description:
          "L'addon donne à des joueurs un rang (par exemple superadmin) ou un privilège d'un mod d'administration, ou remplace les vérifications IsAdmin/IsSuperAdmin du moteur. Déclenché par un code secret, le chat, un message net ou le web, cela livre le serveur à quelqu'un.",
        recommendation:
          "Vérifiez qui peut atteindre ce code. Supprimez l'addon si des rangs sont attribués sans décision d'un administrateur, puis vérifiez vos groupes ULX/SAM.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    const rankCalls = sharedViews(context).callsWhere(isRankChange);
    for (const ev of rankCalls) {
      // A powerful command or privilege for every player ("user"). Behind a rank check or
      // not: the admin who runs it does not hand the console to every player knowingly.
      const toEveryone = powerfulCommandForEveryone(ev);
      const opened = toEveryone === undefined ? privilegeForEveryone(analysis, ev) : undefined;
      if (toEveryone !== undefined || opened !== undefined) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'critical',
            confidence: toEveryone !== undefined ? 0.85 : 0.8,
            pattern:
              toEveryone !== undefined
                ? `${ev.api}: every player ("user") gets ${JSON.stringify(toEveryone)}`
                : `${ev.api}: every player ("user") may use ${opened}`,
            file: ev.file,
            line: ev.line,
            decoded: decodedFor(ev),
            chain: chainFor(ev, []),
            techniques: ['GB-008'],
            verdictClass: 'backdoor',
          }),
        );
        continue;
      }
      if (ev.api === 'CAMI.RegisterPrivilege') continue;
      if (ev.api === 'ULib.ucl.groupAllow' && grantsOnlyHarmlessCommands(ev.args)) continue;
      // `ply:SetNWString("UserGroup", "superadmin")`: the networked value SetUserGroup itself
      // sets, which IsSuperAdmin reads.
      const nw = ev.api === '?:SetNWString';
      if (nw && (ev.args[1] === undefined || asString(ev.args[1]) !== 'UserGroup')) continue;
      const command = PRIVILEGE_SINKS.has(ev.api) || nw ? undefined : consoleRankChange(ev);
      if (!PRIVILEGE_SINKS.has(ev.api) && !nw && !command) continue;
      const group =
        ev.args.map((a) => asString(a)).find((s) => s && PRIVILEGED_GROUP.test(s)) ??
        command?.find((w) => PRIVILEGED_GROUP.test(w));
      const trigger = triggerOf(ev.ctx);
      const guard = guardOf(ev.ctx);
      const remote = sourcesOfKind(ev.args, ['http', 'net', 'chat', 'concommand']);
      // (Only for a rank that holds power: a hard-coded ID given "vip" is a donor perk.)
      const hardCodedId =
        !trigger && group ? (hardCodedIdFor(analysis, ev) ?? joinRankId(ev)) : undefined;
      const h = handlerOf(ev.ctx, isOutsideOrder);
      let severity: Finding['severity'];
      let confidence: number;
      const techniques = ['GB-008'];
      if (trigger || hardCodedId) {
        severity = 'critical';
        confidence = trigger ? 0.93 : 0.85;
        techniques.push('GB-007');
      } else if (guard) {
        severity = 'low';
        confidence = 0.3;
      } else if ((remote.length || h) && (group || remote.length)) {
        severity = 'critical';
        confidence = 0.85;
      } else if (group) {
        severity = 'medium';
        confidence = 0.5;
      } else continue;
      out.push(
        makeFinding(rule, analysis, {
          severity,
          confidence,
          pattern: `${ev.api}(${group ? JSON.stringify(group) : '…'})${hardCodedId ? ` for the hard-coded ${hardCodedId}` : ''}`,
          file: ev.file,
          line: ev.line,
          decoded: decodedFor(ev),
          chain: chainFor(ev, remote),
          techniques,
          verdictClass:
            severity === 'low'
              ? 'informational'
              : severity === 'critical'
                ? 'backdoor'
                : 'suspicious',
        }),
      );
    }
    for (const ov of analysis.overrides) {
      // An admin mod's own permission check replaced (`ULib.ucl.query`): only a literal gate
      // in it is judged, since a wrapper that logs or widens a check is the owner's choice.
      // (Most overrides are of other tables' methods and fail both tests.)
      const permissionCheck = !ov.target.startsWith('Player') && PERMISSION_CHECKS.test(ov.target);
      if (!permissionCheck && !ov.target.startsWith('Player')) continue;
      const m =
        /^(Player|meta:Player):?(IsSuperAdmin|IsAdmin|IsUserGroup|GetUserGroup|CheckGroup|IsListenServerHost)$/.exec(
          ov.target.replace('.', ':'),
        );
      if (!m && !permissionCheck && !RANK_METHODS.test(`Player:${ov.target.split(/[.:]/).pop()}`))
        continue;
      // (A permission check's gate is judged by the emulator, through the helpers it calls.)
      const triggers = overrideGates(ov);
      if (permissionCheck && triggers.length === 0) continue;
      // `if self.hudPref == "compact_dark_v2" then return true end`, the field set from a net
      // message any player sends: a secret word that makes its sender an admin.
      if (ov.fn && triggers.length === 0) {
        const gate = sentFieldGate(ov.fn, analysis.files);
        if (gate) triggers.push(gate);
      }
      // The listen server's host is the owner for every admin mod (ULX, FAdmin, CAMI): a
      // replacement that can answer true on a dedicated server, where the engine never
      // does, makes whoever it picks the owner. (Admin mods define the rank methods; none
      // defines this one.)
      const hostClaim =
        m?.[2] === 'IsListenServerHost' && ov.fn !== undefined && answersTrue(ov.fn);
      out.push(
        makeFinding(rule, analysis, {
          // Admin mods and the base gamemode define these methods; only a literal gate is a backdoor.
          severity: triggers.length ? 'critical' : hostClaim ? 'high' : 'low',
          confidence: triggers.length ? 0.95 : hostClaim ? 0.8 : 0.3,
          pattern: `override of ${ov.target}`,
          file: ov.file,
          line: ov.line,
          decoded: ov.decoded,
          chain: [
            ...triggers.slice(0, 2).map((t) => ({
              role: 'trigger' as const,
              label: t,
              file_path: ov.file,
              line_number: ov.line,
            })),
            {
              role: 'sink',
              label: `${ov.target} replaced`,
              file_path: ov.file,
              line_number: ov.line,
            },
          ],
          techniques: triggers.length ? ['GB-008', 'GB-007'] : ['GB-008'],
          verdictClass: triggers.length || hostClaim ? 'backdoor' : 'informational',
        }),
      );
    }
    return out;
  },
};
