// GB-006: a PlayerSay handler whose chat text reaches code execution or the console, or that
// hands out ranks / runs code on a secret chat command without a rank check.
import { PRIVILEGE_SINKS } from '../analysis/api.js';
import {
  chainFor,
  decodedFor,
  guardOf,
  handlerOf,
  makeFinding,
  taintedSinkFinding,
  triggerOf,
} from './support.js';
import { runsCode, taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** Handlers any player reaches by typing in the chat: PlayerSay, and DarkRP's chat commands. */
const isChatHandler = (api: string) =>
  api === 'hook.Add:PlayerSay' ||
  api === 'hook.Add:PlayerSayTransform' ||
  api === 'DarkRP.defineChatCommand';

export const rule: Rule = {
  meta: {
    id: 'chatcommand_backdoor',
    category: 'backdoor',
    severity: 'critical',
    techniques: ['GB-006'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Chat command backdoor',
        description:
          'A chat hook (PlayerSay) runs code, console commands or rank changes from what a player types, with no rank check. Typing the secret text in chat is enough to take over the server.',
        recommendation: 'Remove the addon and audit your admin groups and bans.',
      },
      fr: {
        title: 'Porte dérobée par commande de chat',
        description:
          "Un hook de chat (PlayerSay) exécute du code, des commandes console ou des changements de rang à partir de ce qu'un joueur tape, sans vérifier son rang. Taper le texte secret dans le chat suffit à prendre le contrôle du serveur.",
        recommendation:
          "Supprimez l'addon et vérifiez vos groupes d'administration et vos bannissements.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const { ev, sources } of taintedSinks(
      analysis,
      ['chat'],
      {
        exec: true,
        console: true,
        privilege: true,
      },
      sharedViews(context).sinkCalls(),
    )) {
      if (ev.realm === 'client') continue;
      out.push(taintedSinkFinding(rule, analysis, ev, sources, 'GB-006'));
    }
    for (const ev of analysis.calls) {
      if (!PRIVILEGE_SINKS.has(ev.api) && !runsCode(analysis, ev)) continue;
      const h = handlerOf(ev.ctx, isChatHandler);
      if (!h || ev.realm === 'client' || (guardOf(ev.ctx) && !triggerOf(ev.ctx))) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.85,
          pattern: `${h.api === 'DarkRP.defineChatCommand' ? h.label : 'PlayerSay'} → ${ev.api}`,
          file: ev.file,
          line: ev.line,
          decoded: decodedFor(ev),
          chain: chainFor(ev, []),
          techniques: PRIVILEGE_SINKS.has(ev.api) ? ['GB-006', 'GB-008'] : ['GB-006'],
        }),
      );
    }
    return out;
  },
};
