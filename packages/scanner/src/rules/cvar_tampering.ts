// GB-023: server configuration changed from code: sv_allowcslua, rcon_password, sv_password,
// sv_loadingurl… or any cvar whose name/value comes from the network or the web.
import { CONVAR_READS } from '../analysis/api.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import { asString, NIL, textOf, type Value } from '../analysis/values.js';
import { chatOnlyCommand } from './flows.js';
import { chainFor, configOf, guardOf, makeFinding, sourcesOf, triggerOf } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const CRITICAL_CVARS =
  /^(sv_allowcslua|rcon_password|sv_password|sv_cheats|sv_loadingurl|sv_downloadurl|hostname|sv_allowupload|sv_allowdownload)$/i;

/** A read of a file in data/ (`file.Read("x/config.json", "DATA")`), by its taint label. */
const DATA_READ = /^file\.(?:Read|Open)\("([^"«]+)", "DATA"/;

/**
 * Whether a setting's value comes only from a file in data/ the addon neither ships nor
 * writes: the owner's own settings file (a loading page per map), not a value the author
 * chose. A value the addon shipped is known text, not a read of unknown content.
 */
function ownersValue(value: Value | undefined, analysis: AddonAnalysis): boolean {
  if (value === undefined || value.k !== 'unk') return false;
  const sources = sourcesOf([value]);
  if (sources.length === 0) return false;
  return sources.every((s) => {
    const path = s.kind === 'file' ? DATA_READ.exec(s.label)?.[1]?.toLowerCase() : undefined;
    // (A write to a path not known in full may be that file.)
    return (
      path !== undefined &&
      !analysis.calls.some((c) => {
        if (!/^file\.(Write|Append)$/.test(c.api)) return false;
        const written = (textOf(c.args[0] ?? NIL) ?? '').toLowerCase();
        return written === path || written === '' || written.includes('«');
      })
    );
  });
}

/**
 * Whether a setting is set back to a value the addon does not choose, in a file that reads
 * that very setting: the value it had, kept to restore it (an event lock putting the owner's
 * `sv_password` back on stop or at shutdown). A text the addon picks, or one from the web or
 * the net, is not that.
 */
function restoresReadValue(ev: CallEvent, name: string, analysis: AddonAnalysis): boolean {
  const value = ev.args[1];
  if (value?.k !== 'unk' || sourcesOf([value]).length > 0) return false;
  if (value.partial !== undefined && value.partial !== '«?»') return false;
  const wanted = name.toLowerCase();
  return analysis.calls.some(
    (c) =>
      c.file === ev.file &&
      CONVAR_READS.test(c.api) &&
      (asString(c.args[0] ?? NIL) ?? '').toLowerCase() === wanted,
  );
}

/**
 * Settings that point players or the server somewhere (the loading page, the download host,
 * the name in the list): an author's own address in them is the harm, so a value the addon
 * does not choose (computed from what the emulator cannot see, with nothing from the web or
 * the net in it) is the owner's choice, not tampering.
 */
const POINTER_CVARS = /^(sv_loadingurl|sv_downloadurl|hostname)$/i;

const isSettingChange = (api: string): boolean =>
  api === 'RunConsoleCommand' ||
  api === 'game.ConsoleCommand' ||
  api === 'ConVar:SetString' ||
  api === '?:SetString' ||
  api === '?:SetInt';

const isReplicate = (api: string): boolean =>
  api === 'Player:ReplicateData' || api === '?:ReplicateData';

/** Settings that, believed on one client, let it run its own Lua or cheat commands. */
const CLIENT_UNLOCKS = /^(sv_allowcslua|sv_cheats)$/i;

export const rule: Rule = {
  meta: {
    id: 'cvar_tampering',
    category: 'environment_manipulation',
    severity: 'high',
    techniques: ['GB-023'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Server configuration tampered with',
        description:
          'The addon changes security-relevant server settings (such as sv_allowcslua or rcon_password) or lets remote input pick which setting to change.',
        recommendation:
          'Remove the addon and restore your server.cfg values (sv_allowcslua 0, new rcon_password).',
      },
      fr: {
        title: 'Configuration du serveur modifiée',
        description:
          "L'addon modifie des réglages du serveur liés à la sécurité (comme sv_allowcslua ou rcon_password) ou laisse une entrée distante choisir le réglage à changer.",
        recommendation:
          "Supprimez l'addon et rétablissez les valeurs de votre server.cfg (sv_allowcslua 0, nouveau rcon_password).",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    const settings = sharedViews(context).callsWhere(isSettingChange);
    for (const ev of settings) {
      // A client changing its own settings is not server tampering (GB-022 covers griefing).
      if (ev.realm === 'client' || chatOnlyCommand(ev)) continue;
      const first = (asString(ev.args[0] ?? { k: 'nil' }) ?? '').trim();
      const name = first.split(/\s+/)[0] ?? '';
      const remote = sourcesOf(ev.args).filter((s) => s.kind !== 'file' && s.kind !== 'sql');
      const critical = CRITICAL_CVARS.test(name);
      // Remote input in the value RunConsoleCommand gives a setting of no consequence (a
      // tool's own command given the player's own choice) picks nothing: only in the name.
      // (A convar object's SetString, or a whole console line, is judged on all of it.)
      const remoteName =
        remote.length > 0 &&
        (ev.api !== 'RunConsoleCommand' ||
          sourcesOf([ev.args[0] ?? { k: 'nil' }]).some(
            (s) => s.kind !== 'file' && s.kind !== 'sql',
          ));
      if (!critical && !remoteName) continue;
      const guard = triggerOf(ev.ctx) ? undefined : guardOf(ev.ctx);
      if (guard && !critical) continue;
      const value = ev.args[1] ? asString(ev.args[1]) : first.split(/\s+/)[1];
      if (name.toLowerCase() === 'sv_allowcslua' && value === '0') continue;
      // An admin's own command (`lockdown <password>` for superadmins) is an admin feature,
      // whatever it sets; a hard-coded identity in front of it is not (a trigger).
      const behind = guard ?? (remote.length ? undefined : configOf(ev.ctx));
      const notTheAuthors =
        ev.api === 'RunConsoleCommand' &&
        !remote.length &&
        (ownersValue(ev.args[1], analysis) ||
          restoresReadValue(ev, name, analysis) ||
          (POINTER_CVARS.test(name) &&
            ev.args[1]?.k === 'unk' &&
            ev.args[1].partial === undefined &&
            sourcesOf([ev.args[1]]).length === 0));
      if (!behind && notTheAuthors) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'low',
            confidence: 0.3,
            pattern: `${ev.api}(${JSON.stringify(name)}) set to a value the addon does not choose`,
            file: ev.file,
            line: ev.line,
            verdictClass: 'informational',
            chain: chainFor(ev, []),
          }),
        );
        continue;
      }
      if (behind) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'low',
            confidence: 0.3,
            pattern: `${ev.api}(${JSON.stringify(first.slice(0, 40))}) behind ${behind.kind === 'guard' ? 'a rank check' : 'setting'} ${behind.label}`,
            file: ev.file,
            line: ev.line,
            verdictClass: 'informational',
            chain: chainFor(ev, []),
          }),
        );
        continue;
      }
      out.push(
        makeFinding(rule, analysis, {
          severity:
            critical &&
            (name.toLowerCase() === 'sv_allowcslua' || /password/i.test(name) || remote.length)
              ? 'critical'
              : 'high',
          confidence: 0.85,
          pattern: `${ev.api}(${name ? JSON.stringify(name) : remote[0]!.label})`.slice(0, 200),
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: chainFor(ev, remote),
        }),
      );
    }
    // `ply:ReplicateData("sv_allowcslua", "1")`: that client alone believes client Lua (or
    // cheats) is on, so its player runs scripts the server and its admins think are off.
    for (const ev of sharedViews(context).callsWhere(isReplicate)) {
      if (ev.realm === 'client') continue;
      const name = (asString(ev.args[1] ?? NIL) ?? '').trim();
      if (!CLIENT_UNLOCKS.test(name)) continue;
      const value = asString(ev.args[2] ?? NIL)?.trim();
      if (value === '0') continue;
      const trigger = triggerOf(ev.ctx);
      const guard = trigger ? undefined : guardOf(ev.ctx);
      out.push(
        makeFinding(rule, analysis, {
          // (Behind a rank check: staff given client Lua, the owner's choice.)
          severity: guard ? 'low' : 'high',
          confidence: guard ? 0.3 : 0.8,
          pattern: `${ev.api}(${JSON.stringify(name)}, ${JSON.stringify(value ?? '…')}) for one client${guard ? ` behind a rank check ${guard.label}` : ''}`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: chainFor(ev, []),
          techniques: trigger ? ['GB-023', 'GB-007'] : ['GB-023'],
          verdictClass: guard ? 'informational' : undefined,
        }),
      );
    }
    return out;
  },
};
