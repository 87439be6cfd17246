// GB-016: periodic or start-up HTTP calls that report the server (IP, port, hostname) or poll
// for remote commands. A plain version check that parses a number stays low.
import { taintOf, textOf, type Value } from '../analysis/values.js';
import { findIoc } from '../intel/index.js';
import type { CallEvent } from '../analysis/types.js';
import { handlerOf, isChatWebhook, makeFinding, isWebRequest, requestUrl } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const SERVER_FACTS =
  /^(game\.GetIPAddress|GetHostName|game\.GetMap|engine\.ActiveGamemode|player\.GetCount|game\.MaxPlayers|engine\.GetAddons)$/;

function deep(v: Value | undefined, d = 0): Value[] {
  if (!v) return [];
  if (v.k === 'table' && d < 3) return [...v.t.hash.values()].flatMap((x) => deep(x, d + 1));
  return [v];
}

const isServerFact = (api: string): boolean => SERVER_FACTS.test(api);

/** The empty default of a setting, or text read only from the owner's files and convars. */
function ownerSetting(v: Value | undefined): boolean {
  if (v === undefined) return false;
  if (v.k === 'str' && v.v === '' && v.taint === undefined) return true;
  const sources = taintOf(v);
  return sources !== undefined && sources.every((s) => s.kind === 'file' || s.kind === 'convar');
}
const isTimer = (a: string): boolean => a.startsWith('timer.');

export const rule: Rule = {
  meta: {
    id: 'server_beacon',
    category: 'network_communication',
    severity: 'medium',
    techniques: ['GB-016'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Server reports itself to a remote host',
        description:
          "The addon sends the server's address, name or player counts to a remote host, or polls it for instructions on a timer. Backdoor panels use this to list infected servers.",
        recommendation:
          'Check the contacted domain; remove the addon if it is not a service you signed up for.',
      },
      fr: {
        title: 'Le serveur se signale à un hôte distant',
        description:
          "L'addon envoie l'adresse, le nom ou le nombre de joueurs du serveur à un hôte distant, ou l'interroge à intervalles réguliers pour recevoir des instructions. Les panneaux de portes dérobées s'en servent pour recenser les serveurs infectés.",
        recommendation:
          "Vérifiez le domaine contacté ; supprimez l'addon s'il ne s'agit pas d'un service auquel vous avez souscrit.",
      },
    },
  },
  check(context) {
    const { analysis, intel } = context;
    const shared = sharedViews(context);
    const out: Finding[] = [];
    const factCalls = new Map<string, CallEvent[]>();
    for (const c of shared.callsWhere(isServerFact))
      factCalls.set(c.file, [...(factCalls.get(c.file) ?? []), c]);
    // Lines where something ran from an HTTP callback, looked up once per fetch below.
    const callbackLines = new Set<string>();
    for (const c of analysis.calls)
      if (c.via === 'callback') callbackLines.add(`${c.file}:${c.line}`);
    for (const ev of shared.callsWhere(isWebRequest)) {
      const urlV = requestUrl(ev);
      const url = urlV ? (textOf(urlV) ?? '') : '';
      const payload = [
        urlV,
        ...(ev.api === 'http.Post' ? deep(ev.args[1]) : ev.api === 'HTTP' ? deep(ev.args[0]) : []),
      ];
      const partials = payload.map((v) => (v ? (textOf(v) ?? '') : '')).join(' ');
      const timer = handlerOf(ev.ctx, isTimer);
      const sameHandlerFacts = (factCalls.get(ev.file) ?? []).filter((c) => {
        const h = handlerOf(c.ctx);
        const hh = handlerOf(ev.ctx);
        return h?.id === hh?.id || (c.line >= ev.line - 2 && c.line <= ev.line + 12);
      });
      const reports = sameHandlerFacts.length > 0;
      const ioc = findIoc(intel, partials);
      const callbackExec = callbackLines.has(`${ev.file}:${ev.line}`);
      // A timer calling an API endpoint may be polling for orders; a chat webhook (Discord's
      // `/api/webhooks/…`) only takes messages: a relay of reports or chat, not a beacon.
      const polls = !!timer && /\.php|\/api|\/_\//.test(url) && !isChatWebhook(url);
      if (!reports && !ioc && !polls) continue;
      const periodic = !!timer && timer.api !== 'timer.Simple';
      // A URL put together from pieces or decoded (`{ "ht", "tps://", … }`), to dodge a search
      // for it, on a call that reports the server or repeats (GB-016: obfuscated is high).
      const hiddenUrl = urlV?.k === 'str' && urlV.dec !== undefined && (reports || periodic);
      const severe =
        ioc || callbackExec || ev.via === 'decoded' || ev.payloadDepth > 0 || hiddenUrl;
      // A destination the owner sets (`url = cfg.webhook`, read from their settings file or a
      // convar, empty until they fill it in) and no host written in the addon: a relay they
      // set up (GB-016's config-toggle dampener), not the author's list of servers. (A URL
      // the addon computes in a way not followed here is not known to be theirs.)
      const ownersHost = !/^[a-z][\w+.-]*:\/\/[^«/]/i.test(url) && ownerSetting(urlV);
      const beacon = periodic && !ownersHost;
      out.push(
        makeFinding(rule, analysis, {
          // Reporting the server once is what server lists and anti-cheats do: low. Polling on a
          // repeating timer is a beacon; obfuscation, IOCs or executed replies make it high.
          severity: severe ? 'high' : beacon ? 'medium' : 'low',
          confidence: severe ? 0.8 : beacon ? 0.5 : 0.3,
          pattern: `${ev.api}(${JSON.stringify(url.slice(0, 80))})${sameHandlerFacts.length ? ` with ${[...new Set(sameHandlerFacts.map((c) => c.api))].join(', ')}` : ''}`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: [
            ...(timer
              ? [
                  {
                    role: 'through' as const,
                    label: timer.label,
                    file_path: timer.file,
                    line_number: timer.line,
                  },
                ]
              : []),
            {
              role: 'sink',
              label: `${ev.api} ${url.slice(0, 100)}`,
              file_path: ev.file,
              line_number: ev.line,
            },
          ],
          verdictClass: severe ? 'backdoor' : beacon ? 'suspicious' : 'informational',
        }),
      );
    }
    return out;
  },
};
