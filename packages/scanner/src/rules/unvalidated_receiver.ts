// GB-004 without a known name: a server net receiver that any player can trigger (no rank
// check) and that acts on what the client sends where the client must not choose: an amount
// of money, or the name of a file the server writes. A vulnerable addon to fix, not malware.
import type { CallEvent } from '../analysis/types.js';
import { taintOf, type Value } from '../analysis/values.js';
import { guardOf, handlerOf, makeFinding, shownApi } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** Money of the usual economies (DarkRP, Pointshop 1 and 2), as methods of the player. */
const MONEY =
  /^(Player|\?):(addMoney|AddMoney|SetMoney|PS_GivePoints|PS2_AddStandardPoints|PS2_AddPremiumPoints)$/;
const FILE_WRITES = /^file\.(Write|Append)$/;

/** What the client sent, unescaped, in `v` (a net read of any type). */
function sentByClient(v: Value | undefined): boolean {
  return v !== undefined && (taintOf(v)?.some((t) => t.kind === 'net' && !t.escaped) ?? false);
}

/** What a client-controlled value decides in this call, if it is one this rule judges. */
function clientChoice(ev: CallEvent): string | undefined {
  // (A method's object comes first: the amount is the first argument after it.)
  if (MONEY.test(ev.api)) return ev.args.slice(1).some(sentByClient) ? 'the amount' : undefined;
  if (FILE_WRITES.test(ev.api)) return sentByClient(ev.args[0]) ? 'the file name' : undefined;
  return undefined;
}

export const rule: Rule = {
  meta: {
    id: 'unvalidated_receiver',
    category: 'network',
    severity: 'medium',
    techniques: ['GB-004'],
    verdictClass: 'vulnerable',
    text: {
      en: {
        title: 'Net receiver trusting what players send',
        description:
          'A net message any player can send, with no rank check, lets the client choose an amount of money it is given or the name of a file the server writes. Cheaters use such receivers to give themselves money or overwrite saved data.',
        recommendation:
          'Update the addon, or make the receiver check the player and compute amounts and file names on the server.',
      },
      fr: {
        title: 'Récepteur réseau qui fait confiance aux joueurs',
        description:
          "Un message net que n'importe quel joueur peut envoyer, sans vérification de rang, laisse le client choisir une somme d'argent qui lui est donnée ou le nom d'un fichier que le serveur écrit. Des tricheurs s'en servent pour se donner de l'argent ou écraser des données sauvegardées.",
        recommendation:
          "Mettez l'addon à jour, ou faites vérifier le joueur par le récepteur et calculer sommes et noms de fichiers côté serveur.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const ev of sharedViews(context).callsWhere(
      (api) => MONEY.test(api) || FILE_WRITES.test(api),
    )) {
      // (On a client, a receiver hears the server: caching what it sends is normal.)
      if (ev.realm === 'client' || guardOf(ev.ctx)) continue;
      const receiver = handlerOf(ev.ctx, (api) => api === 'net.Receive');
      if (!receiver) continue;
      const choice = clientChoice(ev);
      if (!choice) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.6,
          pattern: `${shownApi(ev.api)}: ${choice} chosen by the client in ${receiver.label}`,
          file: ev.file,
          line: ev.line,
          chain: [
            {
              role: 'source',
              label: receiver.label,
              file_path: receiver.file,
              line_number: receiver.line,
            },
            {
              role: 'sink',
              label: shownApi(ev.api),
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
