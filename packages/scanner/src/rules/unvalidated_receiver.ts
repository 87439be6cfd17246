// GB-004 without a known name: a server net receiver that any player can trigger (no rank
// check) and that acts on what the client sends where the client must not choose: an amount
// of money, the name of a file the server writes, or the player it kicks, bans or kills. A
// vulnerable addon to fix, not malware.
import type { CallEvent } from '../analysis/types.js';
import { taintOf, type Value } from '../analysis/values.js';
import {
  actsOnTally,
  amountBoundedByServer,
  guardOf,
  handlerOf,
  makeFinding,
  shownApi,
  isNetReceive,
} from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** Money of the usual economies (DarkRP, Pointshop 1 and 2), as methods of the player. */
const MONEY =
  /^(Player|\?):(addMoney|AddMoney|SetMoney|PS_GivePoints|PS2_AddStandardPoints|PS2_AddPremiumPoints)$/;
const FILE_WRITES = /^file\.(Write|Append)$/;
/** Actions on a player, as methods (the player first) or by SteamID. */
const PLAYER_ACTIONS = /^(Player|\?):(Kick|Ban|Kill|KillSilent)$|^game\.KickID$/;

/** What the client sent, unescaped, in `v` (a net read of any type). */
function sentByClient(v: Value | undefined): boolean {
  return v !== undefined && (taintOf(v)?.some((t) => t.kind === 'net' && !t.escaped) ?? false);
}

/** What a client-controlled value decides in this call, if it is one this rule judges. */
function clientChoice(ev: CallEvent): string | undefined {
  // (A method's object comes first: the amount is the first argument after it.)
  if (MONEY.test(ev.api)) return ev.args.slice(1).some(sentByClient) ? 'the amount' : undefined;
  if (FILE_WRITES.test(ev.api)) return sentByClient(ev.args[0]) ? 'the file name' : undefined;
  // (The sender itself, the receiver's `ply`, is the server's own knowledge: kicking it is a
  // honeypot's answer. An entity or a SteamID read from the message is the client's choice.)
  if (PLAYER_ACTIONS.test(ev.api))
    return sentByClient(ev.args[0]) ? 'the player it kicks, bans or kills' : undefined;
  return undefined;
}

const isStateChange = (api: string): boolean =>
  MONEY.test(api) || FILE_WRITES.test(api) || PLAYER_ACTIONS.test(api);

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
          'A net message any player can send, with no rank check, lets the client choose an amount of money it is given, the name of a file the server writes, or a player the server kicks, bans or kills. Cheaters use such receivers to give themselves money, overwrite saved data or throw other players out.',
        recommendation:
          'Update the addon, or make the receiver check the player and compute amounts, file names and targets on the server.',
      },
      fr: {
        title: 'Récepteur réseau qui fait confiance aux joueurs',
        description:
          "Un message net que n'importe quel joueur peut envoyer, sans vérification de rang, laisse le client choisir une somme d'argent qui lui est donnée, le nom d'un fichier que le serveur écrit, ou un joueur que le serveur expulse, bannit ou tue. Des tricheurs s'en servent pour se donner de l'argent, écraser des données sauvegardées ou chasser d'autres joueurs.",
        recommendation:
          "Mettez l'addon à jour, ou faites vérifier le joueur par le récepteur et calculer sommes, noms de fichiers et cibles côté serveur.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const ev of sharedViews(context).callsWhere(isStateChange)) {
      // (On a client, a receiver hears the server: caching what it sends is normal.)
      if (ev.realm === 'client' || guardOf(ev.ctx)) continue;
      const receiver = handlerOf(ev.ctx, isNetReceive);
      if (!receiver) continue;
      const choice = clientChoice(ev);
      if (!choice) continue;
      if (PLAYER_ACTIONS.test(ev.api) && actsOnTally(analysis, receiver, ev)) continue;
      if (MONEY.test(ev.api) && amountBoundedByServer(analysis, receiver, ev)) continue;
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
