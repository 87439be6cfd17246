// GB-001: code downloaded over HTTP reaches RunString/CompileString (a remote stager).
import { findIoc } from '../intel/index.js';
import { partialText } from '../analysis/values.js';
import { chainFor, decodedFor, isObfuscated, makeFinding } from './support.js';
import { taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

export const rule: Rule = {
  meta: {
    id: 'runstring',
    category: 'code_execution',
    severity: 'critical',
    techniques: ['GB-001'],
    verdictClass: 'remote_loader',
    text: {
      en: {
        title: 'Remote code downloaded and executed',
        description:
          'The body of an HTTP response reaches a code-execution function (RunString, CompileString, loadstring…). Whoever controls the remote server can run any code on yours, at any time.',
        recommendation:
          'Remove the addon. Block the contacted domain, rotate rcon_password and sv_password, audit your admin groups and look in data/ for files it may have written.',
      },
      fr: {
        title: 'Code distant téléchargé puis exécuté',
        description:
          "Le corps d'une réponse HTTP atteint une fonction d'exécution de code (RunString, CompileString, loadstring…). Celui qui contrôle le serveur distant peut exécuter n'importe quel code sur le vôtre, à tout moment.",
        recommendation:
          "Supprimez l'addon. Bloquez le domaine contacté, changez rcon_password et sv_password, vérifiez vos groupes d'administration et cherchez dans data/ les fichiers qu'il a pu écrire.",
      },
    },
  },
  check(context) {
    const { analysis, intel } = context;
    const out: Finding[] = [];
    for (const { ev, sources, sink } of taintedSinks(
      analysis,
      ['http'],
      {
        exec: true,
        console: false,
      },
      sharedViews(context).sinkCalls(),
    )) {
      if (sink !== 'exec') continue;
      const urls = sources.map((s) => s.label).join(' ');
      const ioc = findIoc(intel, urls);
      const keyed = /[?&](key|token|id|sid|k|ip)=/i.test(urls);
      const obfuscated = isObfuscated(ev) || ev.via !== 'direct';
      const clientPush = ev.api === 'BroadcastLua' || ev.api === 'Player:SendLua';
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.95,
          pattern: `${ev.api}(${sources[0]!.label})`.slice(0, 200),
          file: ev.file,
          line: ev.line,
          decoded: decodedFor(ev),
          chain: chainFor(ev, sources),
          techniques: clientPush ? ['GB-001', 'GB-021'] : ['GB-001'],
          verdictClass: ioc || keyed || obfuscated ? 'backdoor' : 'remote_loader',
          ...(ioc
            ? {
                related: [
                  {
                    file: ev.file,
                    line: ev.line,
                    context: `IOC ${ioc} in ${partialText(ev.args[0]!).slice(0, 80)}`,
                  },
                ],
              }
            : {}),
        }),
      );
    }
    return out;
  },
};
