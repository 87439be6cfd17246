// Sink tables and the code-argument lookup shared by the source → sink rules.
import {
  CLIENT_PUSH_SINKS,
  codeArgIndex,
  CONSOLE_SINKS,
  EXEC_SINKS,
  PRIVILEGE_SINKS,
} from '../analysis/api.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import type { TaintSource, Value } from '../analysis/values.js';
import { codeSourcesOfKind, handlerOf, isNetReceive, sourcesOfKind } from './support.js';

export { CLIENT_PUSH_SINKS, codeArgIndex, CONSOLE_SINKS, EXEC_SINKS, PRIVILEGE_SINKS };

export function isExecSink(api: string): boolean {
  return api in EXEC_SINKS && api !== 'CompileFile';
}

/**
 * A call that runs what it is given as code: an execution sink, unless it compiled text into
 * a sandbox of pure functions (`setfenv(f, { sqrt = math.sqrt })`, a calculator), where the
 * text runs as arithmetic and reaches nothing of the server's.
 */
export function runsCode(analysis: AddonAnalysis, ev: CallEvent): boolean {
  return isExecSink(ev.api) && !analysis.sandboxedCompiles.has(`${ev.file}:${ev.line}`);
}

/**
 * Commands that only print what they are given (`say`, `ulx asay` open to every player):
 * RunConsoleCommand quotes each argument, so text in them cannot become another command.
 * (game.ConsoleCommand takes one whole line, where it could.)
 */
const CHAT_ONLY_COMMANDS = /^(say|say_team|echo|ulx (asay|psay|tsay|csay|me))$/i;

export function chatOnlyCommand(ev: CallEvent): boolean {
  if (ev.api !== 'RunConsoleCommand') return false;
  const cmd = fixedText(ev.args[0]);
  if (cmd === undefined) return false;
  const sub = cmd.toLowerCase() === 'ulx' ? fixedText(ev.args[1]) : '';
  return sub !== undefined && CHAT_ONLY_COMMANDS.test(sub ? `${cmd} ${sub}` : cmd);
}

/** The console commands the addon adds itself (`concommand.Add("x", …)`), by analysis. */
const ownCommandsOf = new WeakMap<AddonAnalysis, Set<string>>();

/**
 * `RunConsoleCommand("wire_sound_browser_open", text)`: one of the addon's own commands, its
 * arguments quoted one by one. What it does with them is judged in its handler, which the
 * emulator runs with the arguments as attacker data.
 */
export function runsOwnCommand(analysis: AddonAnalysis, ev: CallEvent): boolean {
  if (ev.api !== 'RunConsoleCommand') return false;
  const cmd = fixedText(ev.args[0]);
  if (cmd === undefined) return false;
  let own = ownCommandsOf.get(analysis);
  if (own === undefined) {
    own = new Set();
    for (const c of analysis.calls) {
      if (c.api !== 'concommand.Add') continue;
      const name = fixedText(c.args[0]);
      if (name !== undefined) own.add(name.toLowerCase());
    }
    ownCommandsOf.set(analysis, own);
  }
  return own.has(cmd.toLowerCase());
}

/** The text of a string the code wrote itself (no attacker data in it). */
function fixedText(v: Value | undefined): string | undefined {
  return v?.k === 'str' && !v.taint ? v.v.trim() : undefined;
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
      exec: runsCode(analysis, ev),
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
      if (chatOnlyCommand(ev) || runsOwnCommand(analysis, ev)) continue;
      sink = 'console';
      args = ev.args.slice(codeArgIndex(ev.api));
    } else if (opts.privilege && privilege) sink = 'privilege';
    if (!sink) continue;
    // (Text quoted into the code as a literal is no code; a console line or a rank it is.)
    const sources = sink === 'exec' ? codeSourcesOfKind(args, kinds) : sourcesOfKind(args, kinds);
    if (sources.length) out.push({ ev, sources, sink });
  }
  return out;
}

/**
 * `ply:SendLua(text)` where the player is the one whose own input the text is: a net message's
 * sender in that message's receiver, or an STool's owner with their own tool convars. The code
 * runs only on the client that wrote it, which could run Lua anyway unless the server forbids
 * client Lua (`sv_allowcslua 0`): a way around that setting for cheaters, not a way into the
 * server or anyone else's client.
 */
export function backToItsAuthor(ev: CallEvent, sources: readonly TaintSource[]): boolean {
  if (ev.api !== 'Player:SendLua') return false;
  const to = ev.args[0];
  if (to?.k !== 'unk' || to.actor === undefined) return false;
  if (to.actor === 'tool owner')
    return sources.every(
      (s) => s.kind === 'clientinfo' && s.label.startsWith('Tool:GetClientInfo'),
    );
  return handlerOf(ev.ctx, isNetReceive) === to.actor && sources.every((s) => s.kind === 'net');
}
