// Views of one addon's analysis that several rules read (sink calls, literal positions in a
// file, what one pass over a file's text finds), computed at most once per `runRules` call
// instead of once per rule.
import { CONSOLE_SINKS, PRIVILEGE_SINKS } from '../analysis/api.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import type { ThreatIntel } from '../intel/types.js';
import { runsCode, type SinkCall } from './flows.js';
import { NEEDLE_MARK, NeedleFilter } from './textSearch.js';
import type { RuleContext } from './types.js';

/** Bits of {@link SharedViews.textMarks}: what the text of a file may hold. */
export const TEXT_MARKS = {
  /** An IOC host, URL fragment or fingerprint of the intel (ioc_match). */
  ioc: NEEDLE_MARK,
  /** `\27LJ`, the escape byte then `LJ`, or `string.dump` (bytecode_vm). */
  bytecode: 2,
  /** `string.char` (xor_decoding). */
  stringChar: 4,
  /** `lock` between quotes, of either kind (anti_analysis). */
  lock: 8,
  /** `while` (bytecode_vm's dispatch loop, client_griefing's frozen loop). */
  loop: 16,
  /** `SetClipboardText` (client_griefing's clipboard lure). */
  clipboard: 32,
} as const;

const textFilters = new WeakMap<ThreatIntel, NeedleFilter>();

/**
 * Every IOC host, URL fragment and fingerprint of the intel as one prefilter, with the other
 * rules' literals as marks. Fingerprints are matched in their own case (see findFingerprint),
 * so the filter need not fold them.
 */
export function textFilterFor(intel: ThreatIntel): NeedleFilter {
  let f = textFilters.get(intel);
  if (!f) {
    f = new NeedleFilter(
      [...intel.iocHosts, ...intel.iocUrlFragments],
      intel.fingerprints.map((x) => x.pattern),
      [
        ['\\27LJ', TEXT_MARKS.bytecode],
        [String.fromCharCode(27) + 'LJ', TEXT_MARKS.bytecode],
        ['string.dump', TEXT_MARKS.bytecode],
        ['string.char', TEXT_MARKS.stringChar],
        ...['"lock"', "'lock'", '"lock\'', '\'lock"'].map((n) => [n, TEXT_MARKS.lock] as const),
        ['while', TEXT_MARKS.loop],
        ['SetClipboardText', TEXT_MARKS.clipboard],
      ],
    );
    textFilters.set(intel, f);
  }
  return f;
}

const ascending = (a: number, b: number): number => a - b;

export class SharedViews {
  private sinks: SinkCall[] | undefined;
  /** Indexes into `analysis.calls` of each API's calls, in order. */
  private byApi: Map<string, number[]> | undefined;
  private readonly positions = new WeakMap<object, Map<string, number[]>>();
  private readonly marks = new WeakMap<object, number>();

  constructor(
    private readonly analysis: AddonAnalysis,
    private readonly intel: ThreatIntel,
  ) {}

  /** The calls of the addon that reach a sink of any kind, in the analysis' order. */
  sinkCalls(): SinkCall[] {
    if (!this.sinks) {
      this.sinks = [];
      for (const ev of this.analysis.calls) {
        const exec = runsCode(this.analysis, ev);
        const console = CONSOLE_SINKS.has(ev.api);
        const privilege = PRIVILEGE_SINKS.has(ev.api);
        if (exec || console || privilege) this.sinks.push({ ev, exec, console, privilege });
      }
    }
    return this.sinks;
  }

  /**
   * The calls whose API passes `test`, in the analysis' order. `test` runs once per distinct
   * API rather than once per call, which is what makes a rule's scan of the calls cheap.
   * `test` is a function made once, at module level, not an arrow written in the call: V8
   * keeps the compiled code of a closure only while some instance of it lives, so a closure
   * made per scan was compiled again after every full collection, a few times a corpus pass
   * for each rule (docs/decisions.md, "Session 23"). The same holds for any callback on a
   * scan's hot path.
   */
  callsWhere(test: (api: string) => boolean): CallEvent[] {
    if (!this.byApi) {
      this.byApi = new Map();
      const calls = this.analysis.calls;
      for (let i = 0; i < calls.length; i++) {
        const list = this.byApi.get(calls[i]!.api);
        if (list) list.push(i);
        else this.byApi.set(calls[i]!.api, [i]);
      }
    }
    const lists: number[][] = [];
    for (const [api, list] of this.byApi) if (test(api)) lists.push(list);
    const order = lists.length === 1 ? lists[0]! : lists.flat().sort(ascending);
    const calls = this.analysis.calls;
    const out: CallEvent[] = new Array(order.length);
    for (let i = 0; i < order.length; i++) out[i] = calls[order[i]!]!;
    return out;
  }

  /**
   * What the file's text may hold, as bits of TEXT_MARKS (in any case: a superset of the
   * literals as written, each rule then matching its own pattern). One pass over the text per
   * run answers every rule that asks, where a native search of each literal stopped at every
   * `g`, `s` or `L` of the text.
   */
  textMarks(file: { readonly text: string }): number {
    let marks = this.marks.get(file);
    if (marks === undefined) {
      marks = textFilterFor(this.intel).marksIn(file.text);
      this.marks.set(file, marks);
    }
    return marks;
  }

  /** Every position of `literal` in the file's text (overlapping ones too), found once per run. */
  positionsOf(file: { readonly text: string }, literal: string): number[] {
    let byLiteral = this.positions.get(file);
    if (!byLiteral) this.positions.set(file, (byLiteral = new Map()));
    let found = byLiteral.get(literal);
    if (!found) {
      found = [];
      const text = file.text;
      for (let at = text.indexOf(literal); at >= 0; at = text.indexOf(literal, at + 1))
        found.push(at);
      byLiteral.set(literal, found);
    }
    return found;
  }
}

/** The run's shared views, or fresh ones when a rule is checked on its own (tests). */
export function sharedViews(context: RuleContext): SharedViews {
  return context.shared ?? new SharedViews(context.analysis, context.intel);
}
