// GB-010: Lua run through the console (`lua_run`, `ulx luarun`) built by the addon.
import { asString, textOf } from '../analysis/values.js';
import { CONSOLE_SINKS } from '../analysis/api.js';
import { chainFor, guardOf, makeFinding, sourcesOf, sourcesOfKind, triggerOf } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const isConsoleSink = (api: string): boolean => CONSOLE_SINKS.has(api);

export const rule: Rule = {
  meta: {
    id: 'luarun_command',
    category: 'consoleCommand',
    severity: 'high',
    techniques: ['GB-010'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Lua run through lua_run / ulx luarun',
        description:
          'The addon builds a lua_run or ulx luarun console command: arbitrary Lua executed through the console, a classic way to hide code execution.',
        recommendation: 'Remove the addon and check who could trigger this command.',
      },
      fr: {
        title: 'Lua exécuté via lua_run / ulx luarun',
        description:
          "L'addon construit une commande console lua_run ou ulx luarun : du Lua arbitraire exécuté par la console, une façon classique de cacher une exécution de code.",
        recommendation: "Supprimez l'addon et vérifiez qui pouvait déclencher cette commande.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const ev of sharedViews(context).callsWhere(isConsoleSink)) {
      const args = ev.api === 'Player:ConCommand' ? ev.args.slice(1) : ev.args;
      const first = (textOf(args[0] ?? { k: 'nil' }) ?? '').trim();
      const second = args[1] ? asString(args[1]) : undefined;
      const isLuaRun =
        /^lua_run(_cl)?\b/.test(first) ||
        (first === 'ulx' && second === 'luarun') ||
        /^ulx\s+luarun\b/.test(first);
      // A command line whose command the network, the web or the chat picks: `lua_run` is
      // one of the commands it can pick. (On a client, the server is what sends it.)
      const remoteCommand =
        !isLuaRun && ev.realm !== 'client' && (first === '' || first.startsWith('«?»'))
          ? sourcesOfKind([args[0]], ['http', 'net', 'chat', 'concommand'])
          : [];
      if (!isLuaRun && remoteCommand.length === 0) continue;
      const sources = isLuaRun ? sourcesOf(args) : remoteCommand;
      const guarded = guardOf(ev.ctx) && !triggerOf(ev.ctx);
      const sev = guarded ? 'low' : sources.length || triggerOf(ev.ctx) ? 'critical' : 'high';
      out.push(
        makeFinding(rule, analysis, {
          severity: sev,
          confidence: guarded ? 0.3 : 0.85,
          pattern: isLuaRun
            ? `${ev.api}(${JSON.stringify(first.slice(0, 40))}${second ? `, "${second}"` : ''})`
            : `${ev.api}(any command, from ${sources[0]!.label})`.slice(0, 200),
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: chainFor(ev, sources),
          verdictClass: guarded ? 'informational' : 'backdoor',
          techniques: triggerOf(ev.ctx) ? ['GB-010', 'GB-007'] : ['GB-010'],
        }),
      );
    }
    return out;
  },
};
