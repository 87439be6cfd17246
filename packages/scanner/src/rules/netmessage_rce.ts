// GB-002: a string a client sends (net message or client convar) reaches code execution or
// the server console, with no permission check in front of it.
import { type SinkVerdict, taintedSinkFinding, triggerOf } from './support.js';
import { backToItsAuthor, taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** What `ply:SendLua` of the player's own text back to them gives them (see backToItsAuthor). */
const OWN_CLIENT_ONLY: SinkVerdict = {
  severity: 'medium',
  verdictClass: 'vulnerable',
  note: 'back to the player who sent it',
};

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
          taintedSinkFinding(rule, analysis, ev, fromClient, 'GB-002', 0.6, OWN_CLIENT_ONLY),
        );
        continue;
      }
      const confidence = triggerOf(ev.ctx) ? 0.97 : 0.92;
      out.push(taintedSinkFinding(rule, analysis, ev, fromClient, 'GB-002', confidence));
    }
    return out;
  },
};
