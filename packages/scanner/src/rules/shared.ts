// Views of one addon's analysis that several rules read (sink calls, literal positions in a
// file), computed at most once per `runRules` call instead of once per rule.
import { CONSOLE_SINKS, PRIVILEGE_SINKS } from '../analysis/api.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import { isExecSink, type SinkCall } from './flows.js';
import type { RuleContext } from './types.js';

export class SharedViews {
  private sinks: SinkCall[] | undefined;
  /** Indexes into `analysis.calls` of each API's calls, in order. */
  private byApi: Map<string, number[]> | undefined;
  private readonly positions = new WeakMap<object, Map<string, number[]>>();

  constructor(private readonly analysis: AddonAnalysis) {}

  /** The calls of the addon that reach a sink of any kind, in the analysis' order. */
  sinkCalls(): SinkCall[] {
    if (!this.sinks) {
      this.sinks = [];
      for (const ev of this.analysis.calls) {
        const exec = isExecSink(ev.api);
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
    const order = lists.length === 1 ? lists[0]! : lists.flat().sort((a, b) => a - b);
    return order.map((i) => this.analysis.calls[i]!);
  }

  /**
   * Whether the file's text may call `string.<fn>`: `g.` followed by `fn` occurs in it. The
   * places of `g.` are found once per run for all the functions asked about (`dump`, `char`):
   * one native search where one per function stopped as often, at every `g` of the text.
   */
  mayCallString(file: { readonly text: string }, fn: string): boolean {
    const text = file.text;
    for (const at of this.positionsOf(file, 'g.')) if (text.startsWith(fn, at + 2)) return true;
    return false;
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
  return context.shared ?? new SharedViews(context.analysis);
}
