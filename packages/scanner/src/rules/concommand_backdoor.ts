// GB-005: a console command whose arguments reach code execution, the console or a rank
// change with no permission check (or behind a SteamID gate), or a known backdoor command.
import { PRIVILEGE_SINKS } from '../analysis/api.js';
import { asString } from '../analysis/values.js';
import {
  chainFor,
  decodedFor,
  guardOf,
  handlerOf,
  makeFinding,
  taintedSinkFinding,
  triggerOf,
} from './support.js';
import { taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** Registrations of commands a player types: the console's, and the admin mods' own. */
const COMMAND_APIS = new Set(['concommand.Add', 'ulx.command', 'sam.command', 'ix.command.Add']);

const isCommandApi = (a: string): boolean => COMMAND_APIS.has(a);

export const rule: Rule = {
  meta: {
    id: 'concommand_backdoor',
    category: 'backdoor',
    severity: 'critical',
    techniques: ['GB-005'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Console command backdoor',
        description:
          'A console command passes its arguments to RunString, the server console or a rank change without checking who runs it. Any player can type it in their console.',
        recommendation:
          'Remove the addon, or add an IsSuperAdmin() check at the top of the command. Audit your admin groups.',
      },
      fr: {
        title: 'Porte dérobée par commande console',
        description:
          "Une commande console transmet ses arguments à RunString, à la console du serveur ou à un changement de rang sans vérifier qui l'exécute. N'importe quel joueur peut la taper dans sa console.",
        recommendation:
          "Supprimez l'addon, ou ajoutez une vérification IsSuperAdmin() au début de la commande. Vérifiez vos groupes d'administration.",
      },
    },
  },
  check(context) {
    const { analysis, intel } = context;
    const out: Finding[] = [];
    for (const { ev, sources } of taintedSinks(
      analysis,
      ['concommand'],
      {
        exec: true,
        console: true,
        privilege: true,
      },
      sharedViews(context).sinkCalls(),
    )) {
      // Client commands run by the player on their own game, and ply:ConCommand only makes
      // the player's own console run something: neither reaches the server.
      if (ev.realm === 'client' || ev.api === 'Player:ConCommand') continue;
      out.push(taintedSinkFinding(rule, analysis, ev, sources, 'GB-005'));
    }
    // Privilege handed out by a command with a constant group and no check.
    for (const ev of analysis.calls) {
      if (!PRIVILEGE_SINKS.has(ev.api)) continue;
      const h = handlerOf(ev.ctx, isCommandApi);
      if (!h || guardOf(ev.ctx)) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.85,
          pattern: `${h.label} → ${ev.api}`,
          file: ev.file,
          line: ev.line,
          decoded: decodedFor(ev),
          chain: chainFor(ev, []),
          techniques: triggerOf(ev.ctx) ? ['GB-005', 'GB-008', 'GB-007'] : ['GB-005', 'GB-008'],
        }),
      );
    }
    for (const ev of analysis.calls) {
      if (ev.api !== 'concommand.Add') continue;
      const name = ev.args[0] ? asString(ev.args[0]) : undefined;
      if (!name || !intel.backdoorCommandNames.has(name.toLowerCase())) continue;
      out.push(
        makeFinding(rule, analysis, {
          severity: 'high',
          confidence: 0.8,
          pattern: `concommand.Add(${JSON.stringify(name)})`,
          file: ev.file,
          line: ev.line,
          chain: [
            {
              role: 'sink',
              label: `known backdoor command ${name}`,
              file_path: ev.file,
              line_number: ev.line,
            },
          ],
        }),
      );
    }
    return out;
  },
};
