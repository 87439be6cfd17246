// GB-029: aliases of execution/HTTP sinks (`local rs = RunString`, sinks in tables, sinks
// passed as callbacks) that end up receiving remote or network data.
import { EXEC_SINKS } from '../analysis/api.js';
import { chainFor, codeSourcesOfKind, makeFinding } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const isExecSinkName = (api: string): boolean => api in EXEC_SINKS;

export const rule: Rule = {
  meta: {
    id: 'sink_alias',
    category: 'obfuscation',
    severity: 'high',
    techniques: ['GB-029'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Execution function used under another name',
        description:
          'RunString or a similar function is stored under another name, in a table, or passed as a callback, and then receives remote or network data. This hides the call from simple searches.',
        recommendation: 'Remove the addon.',
      },
      fr: {
        title: "Fonction d'exécution utilisée sous un autre nom",
        description:
          "RunString ou une fonction semblable est rangée sous un autre nom, dans une table, ou passée en rappel, puis reçoit des données distantes ou réseau. Cela cache l'appel aux recherches simples.",
        recommendation: "Supprimez l'addon.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const ev of sharedViews(context).callsWhere(isExecSinkName)) {
      if (ev.via !== 'alias' && ev.via !== 'callback' && ev.via !== 'table_field') continue;
      if (ev.via === 'alias' && ev.alias === ev.api) {
        // `local RunString = RunString`: only suspicious when tainted (checked below).
      }
      const sources = codeSourcesOfKind(
        [ev.args[0]],
        ['http', 'net', 'chat', 'concommand', 'clientinfo'],
      );
      if (!sources.length) continue;
      // A client running what the server sends over net is GB-021's business (client_code_push).
      const clientLoader = ev.realm === 'client' && sources.every((s) => s.kind === 'net');
      out.push(
        makeFinding(rule, analysis, {
          ...(clientLoader
            ? { severity: 'low' as const, verdictClass: 'informational' as const }
            : {}),
          confidence: clientLoader ? 0.3 : 0.85,
          pattern: `${ev.alias ?? ev.api} = ${ev.api} (${ev.via})`,
          file: ev.file,
          line: ev.line,
          decoded: ev.decoded,
          chain: chainFor(ev, sources),
        }),
      );
    }
    return out;
  },
};
