// Sink tables and the code-argument lookup shared by the source → sink rules.
import { CLIENT_PUSH_SINKS, CONSOLE_SINKS, EXEC_SINKS, PRIVILEGE_SINKS } from '../analysis/api.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import type { TaintSource } from '../analysis/values.js';
import { sourcesOfKind } from './support.js';

export { CLIENT_PUSH_SINKS, CONSOLE_SINKS, EXEC_SINKS, PRIVILEGE_SINKS };

/** Index of the argument holding code / the command (method calls carry `self` first). */
export function codeArgIndex(api: string): number {
  return api.startsWith('Player:') ? 1 : 0;
}

export function isExecSink(api: string): boolean {
  return api in EXEC_SINKS && api !== 'CompileFile';
}

/** A call to an execution, console or privilege sink, with the kinds it is. */
export interface SinkCall {
  ev: CallEvent;
  exec: boolean;
  console: boolean;
  privilege: boolean;
}

/**
 * Execution or console sinks whose code/command argument carries data of the given kinds.
 * `sinkCalls` (the run's shared list of sink calls) saves classifying every call again.
 */
export function taintedSinks(
  analysis: AddonAnalysis,
  kinds: readonly TaintSource['kind'][],
  opts: { exec?: boolean; console?: boolean; privilege?: boolean } = { exec: true, console: true },
  sinkCalls?: readonly SinkCall[],
): Array<{ ev: CallEvent; sources: TaintSource[]; sink: 'exec' | 'console' | 'privilege' }> {
  const out: Array<{
    ev: CallEvent;
    sources: TaintSource[];
    sink: 'exec' | 'console' | 'privilege';
  }> = [];
  const calls =
    sinkCalls ??
    analysis.calls.map((ev) => ({
      ev,
      exec: isExecSink(ev.api),
      console: CONSOLE_SINKS.has(ev.api),
      privilege: PRIVILEGE_SINKS.has(ev.api),
    }));
  for (const { ev, exec, console, privilege } of calls) {
    let sink: 'exec' | 'console' | 'privilege' | undefined;
    let args = ev.args;
    if (opts.exec && exec) {
      sink = 'exec';
      args = [ev.args[codeArgIndex(ev.api)]!];
    } else if (opts.console && console) {
      sink = 'console';
      args = ev.args.slice(codeArgIndex(ev.api));
    } else if (opts.privilege && privilege) sink = 'privilege';
    if (!sink) continue;
    const sources = sourcesOfKind(args, kinds);
    if (sources.length) out.push({ ev, sources, sink });
  }
  return out;
}
