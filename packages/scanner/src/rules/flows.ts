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

/** Execution or console sinks whose code/command argument carries data of the given kinds. */
export function taintedSinks(
  analysis: AddonAnalysis,
  kinds: readonly TaintSource['kind'][],
  opts: { exec?: boolean; console?: boolean; privilege?: boolean } = { exec: true, console: true },
): Array<{ ev: CallEvent; sources: TaintSource[]; sink: 'exec' | 'console' | 'privilege' }> {
  const out: Array<{
    ev: CallEvent;
    sources: TaintSource[];
    sink: 'exec' | 'console' | 'privilege';
  }> = [];
  for (const ev of analysis.calls) {
    let sink: 'exec' | 'console' | 'privilege' | undefined;
    let args = ev.args;
    if (opts.exec && isExecSink(ev.api)) {
      sink = 'exec';
      args = [ev.args[codeArgIndex(ev.api)]!];
    } else if (opts.console && CONSOLE_SINKS.has(ev.api)) {
      sink = 'console';
      args = ev.args.slice(codeArgIndex(ev.api));
    } else if (opts.privilege && PRIVILEGE_SINKS.has(ev.api)) sink = 'privilege';
    if (!sink) continue;
    const sources = sourcesOfKind(args, kinds);
    if (sources.length) out.push({ ev, sources, sink });
  }
  return out;
}
