// GB-018: bulk reading of the server's files (file.Find over GAME/LUA + file.Read) with the
// contents sent to a remote host.
import { sourcesOfKind, makeFinding, chainFor, listsDataRoot } from './support.js';
import type { CallEvent } from '../analysis/types.js';
import { textOf, type Value } from '../analysis/values.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const isWebUpload = (api: string): boolean => api === 'http.Post' || api === 'HTTP';

/** A listing of the game's files, or of the whole of data/ from its root. */
function listsGameOrDataFiles(e: CallEvent): boolean {
  if (e.api !== 'file.Find') return false;
  const where = textOf(e.args[1] ?? { k: 'nil' }) ?? '';
  if (/^(GAME|LUA|MOD|lsv|BASE_PATH)$/i.test(where)) return true;
  return listsDataRoot(e);
}

export const rule: Rule = {
  meta: {
    id: 'file_stealer',
    category: 'data_exfiltration',
    severity: 'critical',
    techniques: ['GB-018'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Server files uploaded to a remote host',
        description:
          "The addon walks the server's files (Lua, configuration, data) and sends their contents over HTTP: your code, configs and secrets leave the machine.",
        recommendation:
          'Remove the addon, change every password found in your configuration files and rotate API keys.',
      },
      fr: {
        title: 'Fichiers du serveur envoyés à un hôte distant',
        description:
          "L'addon parcourt les fichiers du serveur (Lua, configuration, données) et envoie leur contenu en HTTP : votre code, vos configurations et vos secrets quittent la machine.",
        recommendation:
          "Supprimez l'addon, changez tous les mots de passe présents dans vos fichiers de configuration et renouvelez vos clés d'API.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    // Listings of the game's files, or of the whole of data/ from its root (every addon's
    // saved data, or on a client the player's own).
    const finds = analysis.calls.filter(listsGameOrDataFiles);
    if (!finds.length) return out;
    for (const ev of sharedViews(context).callsWhere(isWebUpload)) {
      const files = sourcesOfKind(ev.args, ['file']).concat(
        ev.args[0]?.k === 'table' ? sourcesOfKind([...ev.args[0].t.hash.values()], ['file']) : [],
      );
      // (Fields stored under keys the emulator did not know, `out[dir .. f] = file.Read(…)`,
      // count by what they carried.)
      const fieldValues = ev.args.flatMap((a): Value[] =>
        a.k !== 'table'
          ? [a]
          : [
              ...a.t.hash.values(),
              ...(a.t.unknownTaint ? [{ k: 'unk' as const, taint: a.t.unknownTaint }] : []),
            ],
      );
      const fromFiles = files.length ? files : sourcesOfKind(fieldValues, ['file']);
      if (!fromFiles.length) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.9,
          pattern: `${ev.api}(file contents) after file.Find(…, ${JSON.stringify(textOf(finds[0]!.args[1]!) ?? 'GAME')})`,
          file: ev.file,
          line: ev.line,
          chain: [
            {
              role: 'source',
              label: `file.Find(${textOf(finds[0]!.args[0]!) ?? '…'})`,
              file_path: finds[0]!.file,
              line_number: finds[0]!.line,
            },
            ...chainFor(ev, fromFiles),
          ],
        }),
      );
    }
    return out;
  },
};
