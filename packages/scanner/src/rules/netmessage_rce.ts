// GB-002: a string a client sends (net message or client convar) reaches code execution or
// the server console, with no permission check in front of it.
import { chainFor, decodedFor, guardOf, makeFinding, triggerOf } from './support.js';
import { taintedSinks } from './flows.js';
import type { Finding, Rule } from './types.js';

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
  check({ analysis }) {
    const out: Finding[] = [];
    for (const { ev, sources } of taintedSinks(analysis, ['net', 'clientinfo'])) {
      // Server → client messages run on clients: that is GB-021's business, not a server RCE.
      const fromClient = sources.filter((s) => s.kind === 'clientinfo' || ev.realm !== 'client');
      if (!fromClient.length) continue;
      const guard = guardOf(ev.ctx);
      const trigger = triggerOf(ev.ctx);
      const guarded = guard && !trigger;
      out.push(
        makeFinding(rule, analysis, {
          severity: guarded ? 'low' : 'critical',
          confidence: guarded ? 0.4 : trigger ? 0.97 : 0.92,
          pattern: `${ev.api}(${fromClient[0]!.label})`.slice(0, 200),
          file: ev.file,
          line: ev.line,
          decoded: decodedFor(ev),
          chain: chainFor(ev, fromClient),
          verdictClass: guarded ? 'informational' : 'backdoor',
          techniques: trigger ? ['GB-002', 'GB-007'] : ['GB-002'],
        }),
      );
    }
    return out;
  },
};
