// GB-017: player IPs, SteamIDs and chat posted to a hard-coded remote host or webhook, with
// no configuration toggle in front of it.
import { textOf } from '../analysis/values.js';
import type { CallEvent } from '../analysis/types.js';
import {
  deepValues,
  guardOf,
  isChatWebhook,
  makeFinding,
  sourcesOfKind,
  isWebRequest,
  requestUrl,
} from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

/** The calls whose results flowed into this call's arguments, approximated by same-handler calls. */
function innermostHandler(ev: CallEvent): string {
  // Known by the file that registered it: a helper in another file that the handler calls
  // (`Lib.Report(ply:IPAddress())`) runs in the same handler.
  for (let i = ev.ctx.length - 1; i >= 0; i--) {
    const f = ev.ctx[i]!;
    if (f.kind === 'handler') return `${f.file}#${f.id}`;
  }
  return `${ev.file}#top`;
}

export const rule: Rule = {
  meta: {
    id: 'dataexfiltration',
    category: 'data_exfiltration',
    severity: 'high',
    techniques: ['GB-017'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Player data sent to a remote host',
        description:
          "Players' IP addresses, SteamIDs or chat are posted to a hard-coded web address or webhook that the server owner cannot turn off.",
        recommendation:
          'Remove the addon; if you need a relay, use one whose webhook you configure yourself and that never sends IP addresses.',
      },
      fr: {
        title: 'Données des joueurs envoyées à un hôte distant',
        description:
          'Les adresses IP, SteamID ou messages de chat des joueurs sont envoyés à une adresse web ou un webhook écrits en dur, que le propriétaire du serveur ne peut pas désactiver.',
        recommendation:
          "Supprimez l'addon ; si vous avez besoin d'un relais, utilisez-en un dont vous configurez vous-même le webhook et qui n'envoie jamais d'adresses IP.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    const ipHandlers = new Set<string>();
    for (const c of analysis.calls)
      if (c.api === 'Player:IPAddress') ipHandlers.add(innermostHandler(c));
    const requests = sharedViews(context).callsWhere(isWebRequest);
    for (const ev of requests) {
      const urlV = requestUrl(ev);
      const url = urlV === undefined ? undefined : textOf(urlV);
      if (!url || !/^https?:\/\//i.test(url)) continue; // URL from configuration: owner's choice
      const values = ev.args.flatMap((a) => deepValues(a));
      const chatSources = sourcesOfKind(values, ['chat']);
      const chat = chatSources.length > 0;
      // What a player types into the chat box, key by key and whether or not they send it:
      // a keylogger, not a chat relay.
      const typed = chatSources.some((s) => s.label.includes('ChatTextChanged'));
      const ips = ipHandlers.has(innermostHandler(ev)) ? ['IP address'] : [];
      const text = values.map((v) => textOf(v) ?? '').join(' ');
      const ipInText = /\bip\b|IPAddress/i.test(text) || ips.length > 0;
      if (!chat && !ipInText) continue;
      if (guardOf(ev.ctx)) continue;
      const webhook = isChatWebhook(url);
      out.push(
        makeFinding(rule, analysis, {
          severity: ipInText || typed ? 'high' : 'medium',
          confidence: ipInText || typed ? 0.8 : 0.5,
          pattern: `${ev.api}(${JSON.stringify(url.slice(0, 80))}) with ${[ipInText ? 'IP addresses' : '', typed ? 'what players type in the chat box' : chat ? 'chat' : ''].filter(Boolean).join(' and ')}`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: [
            {
              role: 'sink',
              label: `${webhook ? 'webhook' : 'remote host'} ${url.slice(0, 100)}`,
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
