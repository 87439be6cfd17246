// Shared queries rules make on the analysis: tainted sink calls, guard/trigger context,
// handlers, and turning an event into a Finding with snippet, decoded text and chain.
import type { ChainStep, Severity } from '@sentinelle/contracts';
import { identityTriggersIn } from '../analysis/guards.js';
import type { AddonAnalysis, CallEvent, Ctx, CtxFrame, OverrideEvent } from '../analysis/types.js';
import { partialText, type TaintSource, taintOf, textOf, type Value } from '../analysis/values.js';
import type { Finding, Rule } from './types.js';

export const SEVERITY_ORDER: Record<Severity, number> = { low: 1, medium: 2, high: 3, critical: 4 };

export function lower(sev: Severity, steps = 1): Severity {
  const order: Severity[] = ['low', 'medium', 'high', 'critical'];
  return order[Math.max(0, order.indexOf(sev) - steps)]!;
}

/** An API's name as a finding shows it: a method of an unknown object without its `?`. */
export function shownApi(api: string): string {
  return api.charCodeAt(0) === 63 /* ? */ ? api.slice(1) : api;
}

export function guardOf(ctx: Ctx): CtxFrame | undefined {
  return ctx.find((f) => f.kind === 'guard');
}

export function configOf(ctx: Ctx): CtxFrame | undefined {
  return ctx.find((f) => f.kind === 'config');
}

export function triggerOf(ctx: Ctx): CtxFrame | undefined {
  return ctx.find((f) => f.kind === 'trigger');
}

/** Innermost handler frame registered with one of the given APIs. */
export function handlerOf(ctx: Ctx, apis?: (api: string) => boolean): CtxFrame | undefined {
  for (let i = ctx.length - 1; i >= 0; i--) {
    const f = ctx[i]!;
    if (f.kind === 'handler' && (!apis || (f.api && apis(f.api)))) return f;
  }
  return undefined;
}

/** A net receiver's registration (a predicate for handlerOf and callsWhere, made once). */
export const isNetReceive = (api: string): boolean => api === 'net.Receive';
/** A web request: `http.Fetch`, `http.Post` or `HTTP{}`. */
export const isWebRequest = (api: string): boolean =>
  api === 'http.Fetch' || api === 'http.Post' || api === 'HTTP';

/** The URL of a web request: `http.Fetch`/`http.Post`'s first argument, `HTTP{ url = … }`'s field. */
export function requestUrl(ev: CallEvent): Value | undefined {
  const first = ev.args[0];
  if (ev.api !== 'HTTP') return first;
  return first?.k === 'table' ? first.t.getName('url') : undefined;
}

/** A value and, for a table, what it holds, a few levels deep (a request's parameters). */
export function deepValues(v: Value | undefined, depth = 0): Value[] {
  if (!v) return [];
  if (v.k === 'table' && depth < 3)
    return [...v.t.hash.values()].flatMap((x) => deepValues(x, depth + 1));
  return [v];
}

export function sourcesOf(values: readonly (Value | undefined)[]): TaintSource[] {
  const out: TaintSource[] = [];
  for (const v of values)
    // (A number the attacker chose carries no text of theirs: see TaintSource.numeric.)
    if (v) for (const s of taintOf(v) ?? []) if (!s.numeric && !out.includes(s)) out.push(s);
  return out;
}

export function sourcesOfKind(
  values: readonly (Value | undefined)[],
  kinds: readonly TaintSource['kind'][],
): TaintSource[] {
  return sourcesOf(values).filter((s) => kinds.includes(s.kind));
}

/**
 * The sources of the given kinds in code about to run: text quoted into it as a string
 * literal (`%q`) is a string there, not code (see TaintSource.quoted).
 */
export function codeSourcesOfKind(
  values: readonly (Value | undefined)[],
  kinds: readonly TaintSource['kind'][],
): TaintSource[] {
  return sourcesOf(values).filter((s) => !s.quoted && kinds.includes(s.kind));
}

/** A rank that holds power on a server (what a backdoor gives, what a wipe takes away). */
export const PRIVILEGED_GROUP =
  /^(superadmin|owner|root|admin|headadmin|developer|founder|manager|staff)$/i;

export function snippetAt(analysis: AddonAnalysis, file: string, line: number): string {
  let text: string | undefined;
  for (const f of analysis.files)
    if (f.path === file) {
      text = f.lines[line - 1];
      break;
    }
  if (text === undefined) {
    const map = analysis.maps.find((m) => m.path === file);
    text = map?.mapEntities?.split('\n')[line - 1];
  }
  return (text ?? '').trim().slice(0, 300);
}

/** The value as shown in a pattern: strings quoted, unknowns with their partial text. */
export function show(v: Value | undefined): string {
  if (!v) return '';
  if (v.k === 'str') return JSON.stringify(v.v.length > 60 ? v.v.slice(0, 60) + '…' : v.v);
  if (v.k === 'num') return String(v.v);
  if (v.k === 'api') return v.name;
  if (v.k === 'fn') return 'function';
  if (v.k === 'table') return '{…}';
  if (v.k === 'unk') {
    if (v.taint?.length) return v.taint[0]!.label.slice(0, 80);
    return v.partial ? JSON.stringify(v.partial.slice(0, 60)) : '…';
  }
  return v.k;
}

export function callPattern(ev: CallEvent, argCount = 2): string {
  return `${ev.api}(${ev.args.slice(0, argCount).map(show).join(', ')})`.slice(0, 200);
}

export function chainFor(
  ev: CallEvent,
  sources: readonly TaintSource[],
  sinkLabel?: string,
): ChainStep[] {
  const chain: ChainStep[] = [];
  for (const s of sources.slice(0, 3))
    chain.push({ role: 'source', label: s.label, file_path: s.file, line_number: s.line });
  for (const f of ev.ctx) {
    if (f.kind === 'handler')
      chain.push({ role: 'through', label: f.label, file_path: f.file, line_number: f.line });
    else if (f.kind === 'payload')
      chain.push({
        role: 'through',
        label: `decoded payload run by ${f.label}`,
        file_path: f.file,
        line_number: f.line,
      });
    else if (f.kind === 'config')
      chain.push({
        role: 'guard',
        label: `setting ${f.label}`,
        file_path: f.file,
        line_number: f.line,
      });
    else chain.push({ role: f.kind, label: f.label, file_path: f.file, line_number: f.line });
  }
  if (ev.via !== 'direct')
    chain.push({
      role: 'through',
      label: `${ev.api} reached via ${ev.via}${ev.alias ? ` (${ev.alias})` : ''}`,
      file_path: ev.file,
      line_number: ev.line,
    });
  chain.push({
    role: 'sink',
    label: sinkLabel ?? ev.api,
    file_path: ev.file,
    line_number: ev.line,
  });
  return chain;
}

export interface FindingInit {
  severity?: Severity;
  confidence: number;
  pattern: string;
  file: string;
  line: number;
  decoded?: string | undefined;
  chain?: ChainStep[];
  techniques?: string[];
  verdictClass?: Finding['verdictClass'];
  related?: Finding['related'];
}

export function makeFinding(rule: Rule, analysis: AddonAnalysis, init: FindingInit): Finding {
  const f: Finding = {
    ruleId: rule.meta.id,
    severity: init.severity ?? rule.meta.severity,
    confidence: Math.max(0, Math.min(1, init.confidence)),
    pattern: init.pattern,
    file: init.file,
    line: init.line,
    snippet: snippetAt(analysis, init.file, init.line),
    chain: init.chain ?? [],
  };
  if (init.decoded) f.decoded = init.decoded.slice(0, 2000);
  if (init.techniques) f.techniques = init.techniques;
  if (init.verdictClass) f.verdictClass = init.verdictClass;
  if (init.related?.length) f.related = init.related;
  return f;
}

/** What an unguarded flow to a sink is: a critical backdoor, unless the flow says less. */
export interface SinkVerdict {
  severity: Severity;
  verdictClass: NonNullable<Finding['verdictClass']>;
  /** Said after the call in the pattern (`back to the player who sent it`). */
  note?: string;
}

const BACKDOOR: SinkVerdict = { severity: 'critical', verdictClass: 'backdoor' };

/**
 * The finding for player-controlled data (`sources`) reaching the sink call `ev`: `unguarded`
 * (a critical backdoor unless told otherwise), unless a rank check guards it and no identity
 * trigger turns that check into a gate.
 */
export function taintedSinkFinding(
  rule: Rule,
  analysis: AddonAnalysis,
  ev: CallEvent,
  sources: readonly TaintSource[],
  technique: string,
  confidence = 0.9,
  unguarded: SinkVerdict = BACKDOOR,
): Finding {
  const trigger = triggerOf(ev.ctx);
  const guarded = guardOf(ev.ctx) && !trigger;
  const note = unguarded.note === undefined ? '' : ` ${unguarded.note}`;
  return makeFinding(rule, analysis, {
    severity: guarded ? 'low' : unguarded.severity,
    confidence: guarded ? 0.4 : confidence,
    pattern: `${ev.api}(${sources[0]!.label})${note}`.slice(0, 200),
    file: ev.file,
    line: ev.line,
    decoded: decodedFor(ev),
    chain: chainFor(ev, sources),
    verdictClass: guarded ? 'informational' : unguarded.verdictClass,
    techniques: trigger ? [technique, 'GB-007'] : [technique],
  });
}

/** Decoded text for an event: the payload line, or the call with its decoded arguments. */
export function decodedFor(ev: CallEvent): string | undefined {
  if (ev.decoded) return ev.decoded;
  const enc =
    ev.via === 'decoded' || ev.args.some((a) => a.k === 'str' && a.dec && a.dec !== 'concat');
  if (!enc) return undefined;
  return `${ev.api}(${ev.args.map((a) => (a.k === 'str' ? JSON.stringify(a.v.slice(0, 200)) : partialText(a).slice(0, 200))).join(', ')})`;
}

/** The event was written through obfuscation (decoded names, escaped strings, payloads). */
export function isObfuscated(ev: CallEvent): boolean {
  return (
    ev.via === 'decoded' ||
    ev.via === 'registry' ||
    ev.payloadDepth > 0 ||
    ev.args.some((a) => a.k === 'str' && !!a.dec && a.dec !== 'concat' && a.dec !== 'table')
  );
}

export function argText(v: Value | undefined): string | undefined {
  return v ? textOf(v) : undefined;
}

/** Events that ran inside the handler frame `id`. */
export function eventsInHandler(analysis: AddonAnalysis, id: number | undefined): CallEvent[] {
  if (id === undefined) return [];
  return analysis.calls.filter((c) => c.ctx.some((f) => f.id === id));
}

/** Events run inside each net.Receive handler function, keyed `file:offset of the function`. */
export function eventsByNetHandler(analysis: AddonAnalysis): Map<string, CallEvent[]> {
  const byFunction = new Map<string, CallEvent[]>();
  for (const c of analysis.calls) {
    for (const f of c.ctx) {
      if (f.api !== 'net.Receive' || f.fnOffset === undefined) continue;
      const key = `${f.file}:${f.fnOffset}`;
      let list = byFunction.get(key);
      if (!list) byFunction.set(key, (list = []));
      if (list[list.length - 1] !== c) list.push(c);
    }
  }
  return byFunction;
}

const SANCTION =
  /^(Player:(Ban|Kick|Kill|KillSilent)|ULib\.(ban|kick|addBan)|ulx\.(ban|kick)|game\.KickID|RunConsoleCommand|sam\.player\.ban|serverguard\.|Nova_|nova\.|SNTE|\?:(Ban|Kick|ban|kick|BanPlayer|KickPlayer))/;

/** A handler that bans or kicks (honeypots of anti-exploit addons). */
export function sanctions(events: readonly CallEvent[]): CallEvent | undefined {
  return events.find(isSanction);
}

/** Whether the call bans or kicks (a ban through the admin mod's console command included). */
export function isSanction(e: CallEvent): boolean {
  if (!SANCTION.test(e.api)) return false;
  if (e.api === 'RunConsoleCommand')
    return (
      /^(kickid|banid|ulx|sam|fadmin)$/i.test(argText(e.args[0]) ?? '') &&
      /ban|kick/i.test(e.args.map(argText).join(' '))
    );
  return true;
}

/** One finding per (rule, file, line): keeps the most severe, then the most confident. */
export function dedupe(findings: Finding[]): Finding[] {
  const best = new Map<string, Finding>();
  for (const f of findings) {
    const key = `${f.ruleId}|${f.file}|${f.line}`;
    const cur = best.get(key);
    if (
      !cur ||
      SEVERITY_ORDER[f.severity] > SEVERITY_ORDER[cur.severity] ||
      (f.severity === cur.severity && f.confidence > cur.confidence)
    )
      best.set(key, f);
  }
  return [...best.values()];
}

/** Whether a URL is a chat webhook (Discord's `/api/webhooks/…`): it takes messages only. */
export function isChatWebhook(url: string): boolean {
  return /\/api\/webhooks\b/i.test(url);
}

/** Whether a `file.Find` call lists the root of `data/` itself (`"*"` or `"/*"`, `"DATA"`). */
export function listsDataRoot(ev: CallEvent): boolean {
  return /^\/?\*$/.test(argText(ev.args[0]) ?? '') && /^data$/i.test(argText(ev.args[1]) ?? '');
}

/**
 * An order comparison in a condition (`<`, `>`, `<=`, `>=`, not `==` nor `~=`), and what it
 * compares: `votes >= needed`, `table.Count(votes[t]) > n / 2`.
 */
const ORDER_COMPARISON = /([\w\].)]+)\s*(?<![<>~=])([<>]=?)(?![<>=])\s*([^\s)][^\s]*)/g;
/** A plain number: a comparison with one is a check of a value, not of a count reached. */
const NUMBER_LITERAL = /^-?\d+(\.\d+)?$/;

/** A line with what its strings say blanked out: `t:Kick("score < 5")` compares nothing. */
function withoutStrings(text: string): string {
  return text.replace(/"[^"]*"|'[^']*'/g, '""');
}

/**
 * Whether a line is an `if` comparing a count the code keeps (a variable or a table entry,
 * not a call's answer like `t:Health()`) or a computed bound: a quorum (`votes >= 3`,
 * `table.Count(votes[t]) > player.GetCount() / 2`).
 */
function isTallyCondition(text: string): boolean {
  if (!/\bif\b/.test(text)) return false;
  const line = withoutStrings(text);
  for (const m of line.matchAll(ORDER_COMPARISON)) {
    const left = m[1]!;
    const right = m[3]!.replace(/\bthen\b.*/, '');
    if (NUMBER_LITERAL.test(left)) continue;
    if (!NUMBER_LITERAL.test(right) || !left.endsWith(')')) return true;
  }
  return /\bif\b[^\n]*(?:\[|#|Count\s*\()[^\n]*[<>]/.test(line);
}

/**
 * Whether a handler acts only once a count it keeps reaches a threshold (a vote: each player
 * names whom they vote against, or asks for a cleanup, and enough votes act): the player
 * chooses a ballot, not the outcome. Read from the handler's own lines up to the call, in its
 * file.
 */
export function actsOnTally(analysis: AddonAnalysis, handler: CtxFrame, ev: CallEvent): boolean {
  return someHandlerLine(analysis, handler, ev, ev.line, isTallyCondition);
}

/**
 * Whether `test` holds for one of a handler's own lines in the event's file, read upwards from
 * line `last` to the handler's first.
 */
function someHandlerLine(
  analysis: AddonAnalysis,
  handler: CtxFrame,
  ev: CallEvent,
  last: number,
  test: (text: string) => boolean,
): boolean {
  if (handler.file !== ev.file || handler.line > ev.line) return false;
  for (let line = last; line >= handler.line; line--)
    if (test(snippetAt(analysis, ev.file, line))) return true;
  return false;
}

/** Money given by a method call, and the text of its argument (`ply:addMoney(-amount)`). */
const MONEY_CALL = /\b(?:addMoney|AddMoney|SetMoney|PS_GivePoints|PS2_Add\w*Points)\s*\(([^()]*)\)/;
const LUA_KEYWORDS = new Set(['and', 'or', 'not', 'nil', 'true', 'false', 'math', 'floor']);

/**
 * Whether the amount a receiver's money call gives was checked, in the handler's lines up to
 * the call, against what the server holds: an `if` comparing it with a value that is not a
 * number (`amount > balance`), or asking `canAfford(amount)`. A deposit or a withdrawal lets
 * the player choose how much, within their own money; a bound written as a number does not
 * stop them choosing any amount up to it.
 */
export function amountBoundedByServer(
  analysis: AddonAnalysis,
  handler: CtxFrame,
  ev: CallEvent,
): boolean {
  const arg = MONEY_CALL.exec(snippetAt(analysis, ev.file, ev.line))?.[1];
  const names = (arg?.match(/[A-Za-z_]\w*/g) ?? []).filter((n) => !LUA_KEYWORDS.has(n));
  if (names.length === 0) return false;
  const mentions = (text: string): boolean =>
    names.some((n) => new RegExp(`(?<![\\w.:])${n}(?!\\w)`).test(text));
  return someHandlerLine(analysis, handler, ev, ev.line - 1, (line) => {
    const text = withoutStrings(line);
    if (!/\bif\b/.test(text)) return false;
    const afford = /[Cc]anAfford\s*\(([^()]*)\)/.exec(text);
    if (afford && mentions(afford[1]!)) return true;
    for (const m of text.matchAll(ORDER_COMPARISON)) {
      const left = m[1]!;
      const right = m[3]!.replace(/\bthen\b.*/, '');
      const other = mentions(left) ? right : mentions(right) ? left : undefined;
      if (other !== undefined && !NUMBER_LITERAL.test(other) && !mentions(other)) return true;
    }
    return false;
  });
}

/**
 * The literal identity gates of a replacement: the one the emulator judged through the
 * helpers it calls (OverrideEvent.spares), else those written in its own body.
 */
export function overrideGates(ov: OverrideEvent): string[] {
  if (ov.spares !== undefined) return [ov.spares];
  return ov.fn ? identityTriggersIn(ov.fn, () => true) : [];
}
