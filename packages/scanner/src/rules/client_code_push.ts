// GB-021: code pushed to every client (BroadcastLua/SendLua) that is remote or networked, or
// that installs a loader on clients; constant notification snippets are fine.
import { EXEC_SINKS } from '../analysis/api.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import { PLAYER_NAME_TEXT, taintOf } from '../analysis/values.js';
import {
  chainFor,
  codeSourcesOfKind,
  decodedFor,
  guardOf,
  makeFinding,
  sourcesOfKind,
  triggerOf,
} from './support.js';
import { backToItsAuthor, codeArgIndex } from './flows.js';
import type { Finding, Rule } from './types.js';

/**
 * Whether the server writes code to the network at all, and only its own: every
 * `net.WriteString`/`net.WriteData` (server side) carries a constant, or what was read from
 * the addon's own Lua files (`file.Read(…, "LUA")`).
 */
function onlyOwnCodeSent(calls: readonly CallEvent[]): boolean {
  let writes = 0;
  for (const ev of calls) {
    if (ev.api !== 'net.WriteString' && ev.api !== 'net.WriteData') continue;
    if (ev.realm === 'client') continue;
    writes++;
    const v = ev.args[0];
    if (v === undefined || v.k === 'str') continue;
    const t = taintOf(v);
    if (v.k !== 'unk' || t === undefined) return false;
    if (!t.every((s) => s.kind === 'file' && /"LUA"\)$/.test(s.label))) return false;
  }
  return writes > 0;
}

/** A receiver's handler frame: `net.Receive("name")`, or the old `usermessage.Hook("name")`. */
const RECEIVER_LABEL = /^(?:net\.Receive|usermessage\.Hook)\("([^"]+)"\)$/;
/** `net.Start("name")` (or `umsg.Start`) in a line of code: the last before the write counts. */
const NET_START = /\b(?:net|umsg)\.Start\s*\(\s*["']([^"']+)["']/g;
/** What writes text into a message for clients. */
const isMessageWrite = (api: string): boolean =>
  api === 'net.WriteString' || api === 'net.WriteData' || api === 'umsg.String';

/**
 * Web content the server writes into a net message whose client receiver runs what it reads
 * (the receiver shipped as a client file rather than pushed): every client runs what the web
 * host serves. The same for what a player sent the server, relayed outside any rank check:
 * any player runs code on every other player's client (a relay of "expressions" or "effects"
 * whose only filter is in the sender's own editor). The message is the nearest `net.Start` on
 * the write's line or the ten above.
 */
function webContentToClientLoaders(
  analysis: AddonAnalysis,
  loaders: ReadonlyMap<string, CallEvent>,
): Finding[] {
  const found: Finding[] = [];
  if (loaders.size === 0) return found;
  for (const ev of analysis.calls) {
    if (!isMessageWrite(ev.api) || ev.realm === 'client') continue;
    let sources = codeSourcesOfKind([ev.args[0]], ['http']);
    // (An admin's own broadcast of code to clients is an admin tool.)
    const relayed = !sources.length && guardOf(ev.ctx) === undefined;
    if (relayed) sources = codeSourcesOfKind([ev.args[0]], ['net']);
    if (!sources.length) continue;
    const lines = analysis.files.find((f) => f.path === ev.file)?.lines ?? [];
    let name: string | undefined;
    for (let i = ev.line - 1; i >= 0 && i >= ev.line - 11 && name === undefined; i--) {
      const line = lines[i] ?? '';
      // (On the write's own line, only a start before the write counts.)
      const upTo = i === ev.line - 1 ? line.slice(0, Math.max(0, line.lastIndexOf(ev.api))) : line;
      for (const m of upTo.matchAll(NET_START)) name = m[1];
    }
    const receiver = name === undefined ? undefined : loaders.get(name);
    if (!receiver) continue;
    found.push(
      makeFinding(rule, analysis, {
        confidence: 0.85,
        pattern: `${ev.api}(${sources[0]!.label}) ${relayed ? 'relayed ' : ''}to the client receiver of "${name}", which runs it`,
        file: ev.file,
        line: ev.line,
        chain: [
          ...chainFor(ev, sources, `${ev.api} → clients`),
          {
            role: 'sink',
            label: `client ${receiver.api}(net message "${name}")`,
            file_path: receiver.file,
            line_number: receiver.line,
          },
        ],
        techniques: relayed ? ['GB-021', 'GB-002'] : ['GB-021', 'GB-001'],
      }),
    );
  }
  return found;
}

/**
 * An HTML panel given the client's Lua (`html:SetAllowLua(true)`: its page may call
 * `lua.Run(code)`) in an addon that opens web pages in panels: whoever serves the page runs
 * Lua on each player who sees it. A panel showing only the addon's own HTML (`SetHTML`,
 * `asset://` pages) gives the page nothing from the web.
 */
function webPagesWithLua(analysis: AddonAnalysis): Finding[] {
  const allow = analysis.calls.find(
    (ev) => ev.api === '?:SetAllowLua' && ev.args[1]?.k === 'bool' && ev.args[1].v,
  );
  if (allow === undefined) return [];
  const page = analysis.calls.find((ev) => {
    if (ev.api !== '?:OpenURL') return false;
    const url = ev.args[1]?.k === 'str' ? ev.args[1].v : undefined;
    return url === undefined || /^https?:/i.test(url);
  });
  if (page === undefined) return [];
  const url = page.args[1]?.k === 'str' ? page.args[1].v : 'a URL set at run time';
  return [
    makeFinding(rule, analysis, {
      confidence: 0.8,
      pattern: `SetAllowLua(true) on a panel that opens ${url.slice(0, 120)}`,
      file: allow.file,
      line: allow.line,
      chain: [
        {
          role: 'source',
          label: `web page ${url.slice(0, 120)}`,
          file_path: page.file,
          line_number: page.line,
        },
        {
          role: 'sink',
          label: "the page's lua.Run (SetAllowLua)",
          file_path: allow.file,
          line_number: allow.line,
        },
      ],
      techniques: ['GB-021', 'GB-001'],
    }),
  ];
}

export const rule: Rule = {
  meta: {
    id: 'client_code_push',
    category: 'code_execution',
    severity: 'high',
    techniques: ['GB-021'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Code pushed to players',
        description:
          'The server sends Lua to clients (BroadcastLua/SendLua) that comes from the web or the network, or installs a loader that executes whatever is sent later. Your players run code they never agreed to.',
        recommendation: 'Remove the addon unless the pushed code is a fixed, readable snippet.',
      },
      fr: {
        title: 'Code envoyé aux joueurs',
        description:
          "Le serveur envoie aux clients du Lua (BroadcastLua/SendLua) venant du web ou du réseau, ou installe un chargeur qui exécute ce qui sera envoyé plus tard. Vos joueurs exécutent du code qu'ils n'ont jamais accepté.",
        recommendation:
          "Supprimez l'addon, sauf si le code envoyé est un court extrait fixe et lisible.",
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    const sendsOnlyOwnCode = onlyOwnCodeSent(analysis.calls);
    /** Client receivers that run what they read, by message name. */
    const clientLoaders = new Map<string, CallEvent>();
    for (const ev of analysis.calls) {
      // ULib.clientRPC(players, name, …): every client calls the global function of that name
      // with the arguments. A name the web or a sender chooses can be RunString.
      const rpc = ev.api === 'ULib.clientRPC';
      if (ev.api === 'BroadcastLua' || ev.api === 'Player:SendLua' || rpc) {
        const arg = ev.args[rpc ? 1 : codeArgIndex(ev.api)];
        const sources = codeSourcesOfKind(
          [arg],
          ['http', 'net', 'chat', 'concommand', 'file', 'sql'],
        );
        if (!sources.length) {
          // A player's name pasted into the code (`'chat.AddText("' .. ply:Nick() .. '")'`):
          // the player chooses it, and a name that closes the string runs on every client.
          if (!rpc && arg?.k === 'unk' && arg.partial?.includes(PLAYER_NAME_TEXT))
            out.push(
              makeFinding(rule, analysis, {
                severity: 'high',
                confidence: 0.75,
                pattern: `${ev.api} of code with a player's name in it`,
                file: ev.file,
                line: ev.line,
                decoded: arg.partial.slice(0, 200),
                chain: chainFor(ev, []),
                verdictClass: 'vulnerable',
              }),
            );
          continue;
        }
        // A player's own text sent back to them alone reaches no one else's client
        // (netmessage_rce reports what it does give them).
        if (backToItsAuthor(ev, sources)) continue;
        // An admin's own broadcast (an announcement tool behind a rank check).
        const admin = guardOf(ev.ctx) !== undefined && triggerOf(ev.ctx) === undefined;
        out.push(
          makeFinding(rule, analysis, {
            ...(admin ? { severity: 'low', verdictClass: 'informational' } : {}),
            confidence: admin ? 0.3 : 0.85,
            pattern: `${ev.api}(${sources[0]!.label})`.slice(0, 200),
            file: ev.file,
            line: ev.line,
            decoded: decodedFor(ev),
            chain: chainFor(ev, sources),
          }),
        );
      } else if (ev.api in EXEC_SINKS && ev.realm === 'client') {
        // A client-side net receiver executing what the server sends: a loader when it was
        // itself pushed from the server as a payload, suspicious otherwise (anti-cheats do it).
        const sources = sourcesOfKind([ev.args[0]], ['net']);
        if (!sources.length) continue;
        for (const f of ev.ctx) {
          const m = f.kind === 'handler' ? RECEIVER_LABEL.exec(f.label) : null;
          if (m) clientLoaders.set(m[1]!, ev);
        }
        // An anti-cheat pushes the same loader to send its own checks (catalogue, GB-021): when
        // everything the addon writes to the network is its own shipped Lua or constants, the
        // loader only ever runs that.
        const pushed =
          !sendsOnlyOwnCode &&
          ev.ctx.some(
            (f) =>
              f.kind === 'payload' && (f.label === 'BroadcastLua' || f.label === 'Player:SendLua'),
          );
        out.push(
          makeFinding(rule, analysis, {
            severity: pushed ? 'high' : 'low',
            confidence: pushed ? 0.85 : 0.3,
            pattern: `client ${ev.api}(${sources[0]!.label})`.slice(0, 200),
            file: ev.file,
            line: ev.line,
            decoded: decodedFor(ev),
            chain: chainFor(ev, sources),
            verdictClass: pushed ? 'backdoor' : 'informational',
          }),
        );
      }
    }
    out.push(...webPagesWithLua(analysis));
    // Remote content relayed to clients over the net library, where a pushed loader runs it.
    const loader = out.find((f) => f.pattern.startsWith('client ') && f.severity === 'high');
    if (!loader) out.push(...webContentToClientLoaders(analysis, clientLoaders));
    if (loader) {
      for (const ev of analysis.calls) {
        if (!isMessageWrite(ev.api)) continue;
        const sources = codeSourcesOfKind([ev.args[0]], ['http']);
        if (!sources.length) continue;
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.85,
            pattern: `${ev.api}(${sources[0]!.label}) to the pushed client loader`,
            file: ev.file,
            line: ev.line,
            chain: [
              ...chainFor(ev, sources, `${ev.api} → clients`),
              {
                role: 'sink',
                label: 'client loader RunString',
                file_path: loader.file,
                line_number: loader.line,
              },
            ],
            techniques: ['GB-021', 'GB-001'],
          }),
        );
      }
    }
    return out;
  },
};
