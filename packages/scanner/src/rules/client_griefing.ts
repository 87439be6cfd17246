// GB-022: client payloads that annoy or hijack players (forced URLs, sounds from remote
// commands, chat spam, language changes, infinite loops) driven remotely.
import {
  deepValues,
  handlerOf,
  isWebRequest,
  makeFinding,
  requestUrl,
  sourcesOf,
  sourcesOfKind,
} from './support.js';
import { asString, type Value } from '../analysis/values.js';
import { firstLineMatching } from './textSearch.js';
import { sharedViews, TEXT_MARKS } from './shared.js';
import type { CallEvent } from '../analysis/types.js';
import type { Finding, Rule } from './types.js';

const GRIEF =
  /^(sound\.PlayURL|gui\.OpenURL|\?:OpenURL|\?:RunJavascript|game\.MountGMA|RunConsoleCommand|\?:SetMaterial|\?:SetColor|chat\.AddText)$/;

/**
 * A loop with an empty body whose condition nothing can change while it spins (Lua runs one
 * thing at a time): `while true do end`, `while #player.GetHumans() > 0 do end`. The game
 * freezes for as long as the condition holds. A busy wait on the clock ends by itself, and a
 * condition that does the work (`while table.remove(t) do end`) is a loop of its own, as is
 * one calling a method that is no question (`while self:AcceptToken(NEWLINE) do end`,
 * `while stack:PopValue() do end` in a parser or an interpreter; `ply:IsValid()`,
 * `LocalPlayer():Alive()` change nothing).
 */
const FREEZE =
  /\bwhile\s+(?![^\n]*(?:Time\b|Time\(|os\.clock|os\.time|remove|Read|pop|next|resume|yield|gsub|Step|Think|\bcall|:\s*(?!Is|Get|Has|Can|Should|Alive|Health|Armor|Nick|Name|Team|SteamID|EntIndex|UserID|Ping)[A-Za-z_]\w*\s*\())[^\n]{1,120}?\s+do\s+end\b/;

/** A command line for Windows' Run box or a shell: what a clipboard lure has the player paste. */
const SHELL_COMMAND =
  /\b(powershell|pwsh|cmd(\.exe)?\s+\/[ck]|mshta|rundll32|regsvr32|certutil|bitsadmin|wscript|cscript|msiexec)\b|\b(iex|Invoke-Expression|Invoke-WebRequest|irm|iwr)\b|\b(curl|wget)\b[^|\n]*\|\s*(ba|z)?sh\b/i;

/** What forces a page or a sound on a player. */
const FORCED = /^(sound\.PlayURL|gui\.OpenURL|\?:OpenURL|\?:RunJavascript)$/;
/** The server pushing code to clients (the payload frame's carrier). */
const PUSHED = /^(Player:SendLua|\?:SendLua|BroadcastLua)$/;
/** Handlers that run again and again: a repeating timer, a per-frame hook. */
const REPEATING =
  /^(timer\.Create|hook\.Add:(Think|Tick|HUDPaint|PostRender|RenderScreenspaceEffects))$/;

/**
 * `ply:SendLua('timer.Create("a", 1, 0, function() gui.OpenURL(ad) end)')`: code the server
 * pushes to players that opens a page or plays a sound over and over (advertising, a
 * screamer). A page opened once, on a player's command, is a server's rules or shop.
 */
function repeatsOnClients(ev: CallEvent): boolean {
  if (!FORCED.test(ev.api)) return false;
  const ctx = ev.ctx;
  for (let i = 0; i < ctx.length; i++) {
    if (ctx[i]!.kind !== 'payload' || !PUSHED.test(ctx[i]!.label)) continue;
    for (let j = i + 1; j < ctx.length; j++)
      if (ctx[j]!.kind === 'handler' && REPEATING.test(ctx[j]!.api ?? '')) return true;
  }
  return false;
}

/** An HTML panel's callback for its page's text (`DHTML:ConsoleMessage`). */
const isPageCallback = (api: string): boolean => api.startsWith('DHTML:');

/**
 * A web request a player's client makes where the server picks the address and also the
 * rest of the request: the method or the body. Clients that load an image or a stream the
 * server names send a plain GET; these are requests to order, the players' connections lent
 * to whoever feeds the server (an HTTP flood, GB-022).
 */
function directedRequest(ev: CallEvent): string | undefined {
  if (ev.realm !== 'client') return undefined;
  const url = requestUrl(ev);
  if (!sourcesOfKind([url], ['net']).length) return undefined;
  const rest: Value[] = [];
  if (ev.api === 'HTTP') {
    const t = ev.args[0]?.k === 'table' ? ev.args[0].t : undefined;
    if (t !== undefined)
      for (const field of ['method', 'body', 'parameters'])
        rest.push(...deepValues(t.getName(field)));
  } else rest.push(...deepValues(ev.args[1]));
  return sourcesOfKind(rest, ['net']).length ? 'the method or body the server sends' : undefined;
}

export const rule: Rule = {
  meta: {
    id: 'client_griefing',
    category: 'social_engineering',
    severity: 'medium',
    techniques: ['GB-022'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Remote-controlled griefing of players',
        description:
          "Client code plays sounds, opens web pages, spams chat, changes settings, freezes the game or sends web requests from players' connections on orders received from the network or the web.",
        recommendation: 'Remove the addon.',
      },
      fr: {
        title: 'Nuisances envers les joueurs pilotées à distance',
        description:
          'Du code client joue des sons, ouvre des pages web, inonde le chat, modifie des réglages, bloque le jeu ou envoie des requêtes web depuis la connexion des joueurs sur ordre reçu du réseau ou du web.',
        recommendation: "Supprimez l'addon.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const shared = sharedViews(context);
    const out: Finding[] = [];
    for (const ev of shared.callsWhere(isWebRequest)) {
      const directed = directedRequest(ev);
      if (directed === undefined) continue;
      out.push(
        makeFinding(rule, analysis, {
          severity: 'high',
          confidence: 0.75,
          pattern: `${ev.api} to an address the server sends, with ${directed}`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          techniques: ['GB-022', 'GB-016'],
        }),
      );
    }
    // "ClickFix": a shell command put on the player's clipboard, for a window to tell them to
    // paste it in Windows' Run box, where it runs on their own computer, outside the game.
    // Read from the text: the command may come from the web, with a fallback written in the
    // file (editors copy code and addresses to the clipboard all the time).
    for (const f of analysis.files) {
      // (Files without the name are ruled out by the run's one pass over the text.)
      if ((shared.textMarks(f) & TEXT_MARKS.clipboard) === 0) continue;
      const shell = SHELL_COMMAND.exec(f.text);
      if (shell === null) continue;
      const idx = firstLineMatching(f, /\bSetClipboardText\s*\(/);
      if (idx < 0) continue;
      const command = shell[0];
      out.push(
        makeFinding(rule, analysis, {
          severity: 'high',
          confidence: 0.8,
          pattern: `SetClipboardText with a ${JSON.stringify(command)} command for the player to paste`,
          file: f.path,
          line: idx + 1,
          techniques: ['GB-022'],
        }),
      );
    }
    for (const ev of analysis.calls) {
      if (!GRIEF.test(ev.api)) continue;
      if (repeatsOnClients(ev)) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'high',
            confidence: 0.7,
            pattern: `${ev.api} repeated on every client (pushed by the server)`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
          }),
        );
        continue;
      }
      // A web page asking its panel to follow a link or switch page (what it logs, handled
      // by the addon's ConsoleMessage) is a page being browsed, not griefing.
      if (/OpenURL$/.test(ev.api) && handlerOf(ev.ctx, isPageCallback)) continue;
      const sources = sourcesOf(ev.args).filter((s) => s.kind === 'net' || s.kind === 'http');
      const lang =
        ev.api === 'RunConsoleCommand' &&
        /^(gmod_language|cl_language|connect)$/.test(asString(ev.args[0] ?? { k: 'nil' }) ?? '');
      if (ev.api === 'RunConsoleCommand' && !lang) continue;
      if (!sources.length && !(lang && ev.realm === 'client')) continue;
      if (ev.api === 'chat.AddText' && !sources.some((s) => s.kind === 'http')) continue;
      // A server applying the material/colour a player picked (tools, outfit editors) is not
      // griefing; on clients (sent by the server) or from the web it is.
      if (
        (ev.api === '?:SetMaterial' || ev.api === '?:SetColor') &&
        ev.realm !== 'client' &&
        !sources.some((s) => s.kind === 'http')
      )
        continue;
      if (ev.api === 'sound.PlayURL' && !sources.length) continue;
      const severe = ev.realm === 'client' && (sources.length > 0 || lang);
      out.push(
        makeFinding(rule, analysis, {
          severity: severe ? 'high' : 'medium',
          confidence: 0.6,
          pattern: `${ev.api} driven remotely`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
        }),
      );
    }
    // `while true do end` freezes the client: a crash payload.
    for (const f of analysis.files) {
      // Files without `while` are ruled out by the run's one pass over the text.
      if ((shared.textMarks(f) & TEXT_MARKS.loop) === 0) continue;
      const idx = firstLineMatching(f, FREEZE, { startsWith: 'while', positions: shared });
      if (idx < 0) continue;
      const loop = FREEZE.exec(f.lines[idx]!)?.[0] ?? 'while true do end';
      // (On the server, every player's game stops with it: sabotage, GB-024.)
      const server = f.realm === 'server';
      out.push(
        makeFinding(rule, analysis, {
          severity: 'high',
          confidence: 0.6,
          pattern: server ? `${loop}: the server freezes` : loop,
          file: f.path,
          line: idx + 1,
          techniques: server ? ['GB-024'] : undefined,
        }),
      );
    }
    return out;
  },
};
