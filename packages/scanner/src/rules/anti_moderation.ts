// GB-019: keeping someone unbannable or disabling moderation: unban loops, removing
// host_writeid, replacing Ban/Kick metamethods or the identity methods bans key on, wiping
// admin groups, users or every player's rank.
import { IDENTITY_OVERRIDES, MODERATION_OVERRIDES } from '../analysis/api.js';
import { answersForSomeIn } from '../analysis/guards.js';
import type { AddonAnalysis } from '../analysis/types.js';
import { asString } from '../analysis/values.js';
import {
  guardOf,
  handlerOf,
  makeFinding,
  overrideGates,
  PRIVILEGED_GROUP,
  snippetAt,
  triggerOf,
} from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** Where admin mods keep their bans, users and groups under data/. */
const ADMIN_FILES = /^(ulib\/(bans|users|groups)\.txt|ulx\/|sam\/|serverguard\/|fadmin\/)/;

/** ULib's calls that take a user or a group off the admin mod's records. */
const UCL_REMOVALS = new Set(['ULib.ucl.removeUser', 'ULib.ucl.removeGroup']);
/** A loop over every user or group ULib keeps (`for id in pairs(ULib.ucl.users) do`). */
const OVER_UCL_TABLES = /\bfor\b[^\n]*\bin\s+pairs\s*\(\s*ULib\.ucl\.(users|groups)\s*\)/;
/** How far above a removal its loop's header is looked for. */
const LOOP_HEADER_LINES = 3;

const MODERATION_CALLS = new Set([
  'ULib.unban',
  'ulx.unban',
  'RunConsoleCommand',
  'concommand.Remove',
]);

// Predicates at module level, not made per scan (see SharedViews.callsWhere).
const isModerationCall = (api: string): boolean => MODERATION_CALLS.has(api);
const isFileDelete = (api: string): boolean => api === 'file.Delete';
const isRankRemoval = (api: string): boolean =>
  UCL_REMOVALS.has(api) || api === 'Player:SetUserGroup';
const isTimerOrHook = (api: string): boolean =>
  api.startsWith('timer.') || api.startsWith('hook.Add');

/** Whether the addon ships a folder named `mod` (an admin mod's own files). */
function shipsFolder(analysis: AddonAnalysis, mod: string): boolean {
  for (const f of analysis.files)
    if (f.path.toLowerCase().split('/').slice(0, -1).includes(mod)) return true;
  return false;
}

export const rule: Rule = {
  meta: {
    id: 'anti_moderation',
    category: 'backdoor',
    severity: 'high',
    techniques: ['GB-019'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Moderation sabotaged',
        description:
          "The addon keeps unbanning someone, stops bans from being saved, replaces the Ban/Kick functions so that some players cannot be punished, makes some players' SteamID or IP address answer another one so that bans miss them, or wipes the admin groups and ranks.",
        recommendation:
          'Remove the addon, check your ban list and admin groups, and restart the server.',
      },
      fr: {
        title: 'Modération sabotée',
        description:
          "L'addon débannit quelqu'un en boucle, empêche l'enregistrement des bannissements, remplace les fonctions Ban/Kick pour que certains joueurs ne puissent pas être sanctionnés, fait répondre un autre SteamID ou une autre adresse IP pour certains joueurs afin que les bannissements les manquent, ou efface les groupes et les rangs d'administration.",
        recommendation:
          "Supprimez l'addon, vérifiez votre liste de bannissements et vos groupes d'administration, puis redémarrez le serveur.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    // Only these calls can unban or remove a moderation command.
    for (const ev of sharedViews(context).callsWhere(isModerationCall)) {
      const a0 = ev.args[0] ? (asString(ev.args[0]) ?? '') : '';
      let cmd = '';
      for (let i = 0; i < ev.args.length; i++)
        cmd += (i > 0 ? ' ' : '') + (asString(ev.args[i]!) ?? '');
      const timer = handlerOf(ev.ctx, isTimerOrHook);
      if (
        (ev.api === 'ULib.unban' ||
          ev.api === 'ulx.unban' ||
          (ev.api === 'RunConsoleCommand' && /^(removeid|ulx unban|ulx\s+unban)/.test(cmd))) &&
        timer
      ) {
        const literal = /STEAM_|7656119/.test(cmd) || /STEAM_|7656119/.test(a0);
        if (!literal) continue; // unbanning expired bans on a timer is what ban managers do
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.9,
            pattern: `${ev.api} in ${timer.label}`,
            file: ev.file,
            line: ev.line,
            techniques: literal ? ['GB-019', 'GB-007'] : ['GB-019'],
          }),
        );
      } else if (
        ev.api === 'concommand.Remove' &&
        /^(host_writeid|writeid|banid|kickid|ulx|removeid)$/.test(a0)
      ) {
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.9,
            pattern: `concommand.Remove("${a0}")`,
            file: ev.file,
            line: ev.line,
          }),
        );
      }
    }
    // An admin mod's saved bans, users and groups deleted, unasked, by another addon (the
    // admin mod itself migrates and rewrites its own files).
    for (const ev of sharedViews(context).callsWhere(isFileDelete)) {
      const path = (asString(ev.args[0] ?? { k: 'nil' }) ?? '').toLowerCase();
      if (!ADMIN_FILES.test(path) || guardOf(ev.ctx) || shipsFolder(analysis, path.split('/')[0]!))
        continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.85,
          pattern: `file.Delete("${path}")`,
          file: ev.file,
          line: ev.line,
        }),
      );
    }
    // Every user or group of ULX removed one by one, or every player's rank set to an ordinary
    // one, outside any admin command: the admins lose their power (the same as emptying the
    // tables, see below). ULib and ULX keep their own records.
    const adminModShipped = shipsFolder(analysis, 'ulib') || shipsFolder(analysis, 'ulx');
    for (const ev of sharedViews(context).callsWhere(isRankRemoval)) {
      if (adminModShipped || guardOf(ev.ctx) || ev.payloadDepth > 0) continue;
      let what: string | undefined;
      if (ev.api === 'Player:SetUserGroup') {
        const target = ev.args[0];
        const group = ev.args[1] ? asString(ev.args[1]) : undefined;
        if (target?.k === 'unk' && target.everyone && group && !PRIVILEGED_GROUP.test(group))
          what = `every player's rank set to "${group}"`;
      } else {
        for (let l = ev.line; l >= Math.max(1, ev.line - LOOP_HEADER_LINES) && !what; l--) {
          const loop = OVER_UCL_TABLES.exec(snippetAt(analysis, ev.file, l));
          if (loop) what = `${ev.api} over every entry of ULib.ucl.${loop[1]}`;
        }
      }
      if (!what) continue;
      const trigger = triggerOf(ev.ctx);
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.85,
          pattern: `${what}${trigger ? ` for ${trigger.label}` : ''}`,
          file: ev.file,
          line: ev.line,
          techniques: trigger ? ['GB-019', 'GB-007'] : ['GB-019'],
        }),
      );
    }
    const addonDefines = (name: string): boolean => definesFunction(analysis, name);
    for (const ov of analysis.overrides) {
      if (ov.cleared) {
        // `ULib.bans[id] = nil` where a player joins, `ULib.ucl.groups = {}`: the records of
        // the admin mod emptied outside any admin command, by another addon. A ban manager
        // goes through ULib.unban; ULib and ULX keep their own tables.
        if (guardOf(ov.ctx) || adminModShipped) continue;
        const trigger = triggerOf(ov.ctx);
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.85,
            pattern: `${ov.target} emptied${trigger ? ` for ${trigger.label}` : ''}`,
            file: ov.file,
            line: ov.line,
            techniques: trigger ? ['GB-019', 'GB-007'] : ['GB-019'],
          }),
        );
        continue;
      }
      if (IDENTITY_OVERRIDES.test(ov.target) && ov.fn !== undefined) {
        // Bans, kick logs and admin mods key on these: another answer for some accounts sends
        // every ban of them to an ID nobody plays on.
        const other = ov.spares !== undefined || answersForSomeIn(ov.fn, addonDefines);
        out.push(
          makeFinding(rule, analysis, {
            severity: other ? 'high' : 'low',
            confidence: other ? 0.8 : 0.3,
            verdictClass: other ? 'backdoor' : 'informational',
            pattern: `override of ${ov.target}${other ? ' answering another identity for some players' : ''}`,
            file: ov.file,
            line: ov.line,
            techniques: ov.spares !== undefined ? ['GB-019', 'GB-007'] : ['GB-019'],
          }),
        );
        continue;
      }
      if (!MODERATION_OVERRIDES.test(ov.target)) continue;
      if (ov.callerGate !== undefined) {
        // Sanctions dropped for the files it picks: an anti-cheat's or an admin mod's.
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.85,
            pattern: `override of ${ov.target} dropping ${ov.callerGate}`,
            file: ov.file,
            line: ov.line,
            techniques: ['GB-019', 'GB-020'],
          }),
        );
        continue;
      }
      const triggers = overrideGates(ov);
      out.push(
        makeFinding(rule, analysis, {
          // Ban managers define these functions; sparing a literal ID is what makes it sabotage.
          severity: triggers.length ? 'high' : 'low',
          confidence: triggers.length ? 0.9 : 0.3,
          verdictClass: triggers.length ? 'backdoor' : 'informational',
          pattern: `override of ${ov.target}${triggers.length ? ` sparing ${triggers[0]}` : ''}`,
          file: ov.file,
          line: ov.line,
          techniques: triggers.length ? ['GB-019', 'GB-007'] : ['GB-019'],
        }),
      );
    }
    return out;
  },
};

/**
 * Whether any Lua file of the addon defines a function of this name: `function a.b:name(`,
 * `local function name(`, `name = function`. Asked only of replaced identity methods.
 */
function definesFunction(analysis: AddonAnalysis, name: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return true;
  const definition = new RegExp(
    `\\bfunction\\s+(?:[\\w.:]*[.:])?${name}\\s*\\(|\\b${name}\\s*=\\s*function\\b`,
  );
  return analysis.files.some((f) => f.text.includes(name) && definition.test(f.text));
}
