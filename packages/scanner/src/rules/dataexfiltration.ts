// GB-017: player IPs, SteamIDs and chat posted to a hard-coded remote host or webhook, with
// no configuration toggle in front of it.
import { NIL, textOf } from '../analysis/values.js';
import type { FunctionDeclaration, Node } from '../lua/ast.js';
import { functionBody } from '../lua/parser.js';
import { pushChildren } from '../lua/walk.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import {
  chainFor,
  configOf,
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

/** A form field for an account's secret: a password or a second-factor code. */
const PASSWORD_FIELD =
  /^(pass(word)?|passwd|pwd|pw|two_?factor(_?code)?|steam_?guard(_?code)?|auth_?code|2fa|otp)$/i;

/**
 * The name of a field a request posts from the client a player typed a secret into: a table
 * key (`password = entry:GetValue()`) or a query parameter (`"&password=" .. p`) whose value
 * the addon does not hold itself. On a player's client, such a value can only come from the
 * player: a fake sign-in window (GB-017, GB-022). A constant is the addon's own API key.
 */
function typedSecretField(ev: CallEvent): string | undefined {
  if (ev.realm !== 'client') return undefined;
  for (const a of ev.args) {
    if (a.k === 'table') {
      for (const [k, v] of a.t.hash)
        if (typeof k === 'string' && PASSWORD_FIELD.test(k) && v.k !== 'str' && v.k !== 'num')
          return k;
    } else if (a.k === 'unk' && a.partial !== undefined) {
      for (const m of a.partial.matchAll(/[?&]([a-z_0-9]{2,24})=(?=«)/gi))
        if (PASSWORD_FIELD.test(m[1]!)) return m[1];
    }
  }
  return undefined;
}

/** The methods a function's body calls on anything (`ch:Stop()` gives `Stop`). */
function methodsCalled(fn: FunctionDeclaration): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [...functionBody(fn)];
  for (let budget = 2000; stack.length > 0 && budget > 0; budget--) {
    const n = stack.pop()!;
    if (n.type === 'CallExpression' && n.base.type === 'MemberExpression')
      names.add(n.base.identifier.name);
    pushChildren(stack, n, false);
  }
  return names;
}

/**
 * A stream opened on a player's client only to be requested: `sound.PlayURL(url, "noplay",
 * cb)` whose callback stops the channel or drops it unplayed (or has none), to a host
 * written in the code, with values of the client in the query (`?u=«?»&n=«?»`). No one hears
 * it: the request is the point, and it hands the host the player's IP address with what the
 * query says about them (GB-017, a beacon without http.*). A stream preloaded for later
 * keeps its channel (a callback storing it plays nothing here, and is left alone).
 */
function unheardStream(ev: CallEvent): string | undefined {
  if (ev.api !== 'sound.PlayURL' || ev.realm !== 'client') return undefined;
  if (!/\bnoplay\b/i.test(textOf(ev.args[1] ?? NIL) ?? '')) return undefined;
  const url = textOf(ev.args[0] ?? NIL);
  if (url === undefined || !/^https?:\/\/[^/?#«]+[/?].*[?&][\w-]+=«/i.test(url)) return undefined;
  const callback = ev.args[2];
  if (callback !== undefined && callback.k === 'fn') {
    const body = functionBody(callback.node);
    const called = methodsCalled(callback.node);
    if (called.has('Play')) return undefined;
    if (body.length > 0 && !called.has('Stop')) return undefined;
  } else if (callback !== undefined && callback.k !== 'nil') return undefined;
  return url;
}

const isStream = (api: string): boolean => api === 'sound.PlayURL';

/** Whether the request's scheme and host appear as written in the file's text. */
function hostWrittenIn(analysis: AddonAnalysis, file: string, url: string): boolean {
  const host = /^https?:\/\/[^/?#«]+/i.exec(url)?.[0];
  if (host === undefined) return false;
  return analysis.files.find((f) => f.path === file)?.text.includes(host) ?? false;
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
          "Players' IP addresses, SteamIDs, chat or the passwords they type into a sign-in window are posted to a hard-coded web address or webhook that the server owner cannot turn off.",
        recommendation:
          'Remove the addon; if you need a relay, use one whose webhook you configure yourself and that never sends IP addresses.',
      },
      fr: {
        title: 'Données des joueurs envoyées à un hôte distant',
        description:
          "Les adresses IP, SteamID, messages de chat des joueurs ou les mots de passe qu'ils tapent dans une fenêtre de connexion sont envoyés à une adresse web ou un webhook écrits en dur, que le propriétaire du serveur ne peut pas désactiver.",
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
      const secret = typedSecretField(ev);
      if (secret !== undefined) {
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.8,
            pattern: `${ev.api}(${JSON.stringify(url.slice(0, 80))}) with the "${secret}" a player types in`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
            techniques: ['GB-017', 'GB-022'],
            chain: [
              {
                role: 'source',
                label: `"${secret}" field`,
                file_path: ev.file,
                line_number: ev.line,
              },
              {
                role: 'sink',
                label: `remote host ${url.slice(0, 100)}`,
                file_path: ev.file,
                line_number: ev.line,
              },
            ],
          }),
        );
        continue;
      }
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
      // Behind a setting the owner turns on (`if not Config.VPNCheck then return end`), to an
      // address written plainly in the code: a feature they chose and can read, such as a VPN
      // lookup by IP (GB-017 names the missing toggle as the mark of a grabber). An address
      // only decoding reveals stays what it was.
      const setting =
        ev.decoded === undefined && hostWrittenIn(analysis, ev.file, url)
          ? configOf(ev.ctx)
          : undefined;
      const severity = setting ? 'low' : ipInText || typed ? 'high' : 'medium';
      out.push(
        makeFinding(rule, analysis, {
          severity,
          confidence: ipInText || typed ? 0.8 : 0.5,
          pattern: `${ev.api}(${JSON.stringify(url.slice(0, 80))}) with ${[ipInText ? 'IP addresses' : '', typed ? 'what players type in the chat box' : chat ? 'chat' : ''].filter(Boolean).join(' and ')}${setting ? ', behind a setting' : ''}`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: setting
            ? chainFor(ev, [], `${webhook ? 'webhook' : 'remote host'} ${url.slice(0, 100)}`)
            : [
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
    for (const ev of sharedViews(context).callsWhere(isStream)) {
      const url = unheardStream(ev);
      if (url === undefined) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.75,
          pattern: `${ev.api}(${JSON.stringify(url.slice(0, 80))}) opened "noplay" and never played: a request carrying what the client knows`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          techniques: ['GB-017', 'GB-016'],
          chain: chainFor(ev, [], `remote host ${url.slice(0, 100)}`),
        }),
      );
    }
    return out;
  },
};
