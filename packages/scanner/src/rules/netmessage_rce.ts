// GB-002: a string a client sends (net message or client convar) reaches code execution or
// the server console, with no permission check in front of it.
import type { CallEvent } from '../analysis/types.js';
import type { TaintSource } from '../analysis/values.js';
import { handlerOf, isNetReceive, makeFinding, taintedSinkFinding, triggerOf } from './support.js';
import { taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/**
 * `ply:SendLua(text)` where the player is the one whose own input the text is: a net message's
 * sender in that message's receiver, or an STool's owner with their own tool convars. The code
 * runs only on the client that wrote it, which could run Lua anyway unless the server forbids
 * client Lua (`sv_allowcslua 0`): a way around that setting for cheaters, not a way into the
 * server or anyone else's client.
 */
function backToItsAuthor(ev: CallEvent, sources: readonly TaintSource[]): boolean {
  if (ev.api !== 'Player:SendLua') return false;
  const to = ev.args[0];
  if (to?.k !== 'unk' || to.actor === undefined) return false;
  if (to.actor === 'tool owner')
    return sources.every(
      (s) => s.kind === 'clientinfo' && s.label.startsWith('Tool:GetClientInfo'),
    );
  return handlerOf(ev.ctx, isNetReceive) === to.actor && sources.every((s) => s.kind === 'net');
}

export const rule: Rule = {
  meta: {
    id: 'netmessage_rce',
    category: 'backdoor',
    severity: 'critical',
    techniques: ['GB-002'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Network message executed as code',
        description:
          'Data a client controls (a net message or a client convar) reaches RunString, CompileString or the server console without any permission check: any player can run code on the server.',
        recommendation:
          'Remove the addon, or restrict the receiver to superadmins and never execute client data. Check your admin groups and server configuration for changes.',
      },
      fr: {
        title: 'Message réseau exécuté comme du code',
        description:
          "Des données contrôlées par un client (message net ou convar client) atteignent RunString, CompileString ou la console du serveur sans vérification de permission : n'importe quel joueur peut exécuter du code sur le serveur.",
        recommendation:
          "Supprimez l'addon, ou réservez ce récepteur aux superadmins et n'exécutez jamais de données venant d'un client. Vérifiez vos groupes d'administration et la configuration du serveur.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const { ev, sources } of taintedSinks(
      analysis,
      ['net', 'clientinfo'],
      undefined,
      sharedViews(context).sinkCalls(),
    )) {
      // Server → client messages run on clients: that is GB-021's business, not a server RCE.
      // ply:ConCommand only makes a player's own console run something (concommand_backdoor).
      if (ev.api === 'Player:ConCommand') continue;
      const fromClient = sources.filter((s) => s.kind === 'clientinfo' || ev.realm !== 'client');
      if (!fromClient.length) continue;
      if (backToItsAuthor(ev, fromClient)) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'medium',
            confidence: 0.6,
            verdictClass: 'vulnerable',
            pattern: `${ev.api}(${fromClient[0]!.label}) back to the player who sent it`.slice(
              0,
              200,
            ),
            file: ev.file,
            line: ev.line,
            techniques: ['GB-002'],
          }),
        );
        continue;
      }
      const confidence = triggerOf(ev.ctx) ? 0.97 : 0.92;
      out.push(taintedSinkFinding(rule, analysis, ev, fromClient, 'GB-002', confidence));
    }
    return out;
  },
};
