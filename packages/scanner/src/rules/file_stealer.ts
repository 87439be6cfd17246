// GB-018: bulk reading of the server's files (file.Find over GAME/LUA + file.Read) with the
// contents sent to a remote host.
import { FILE_WRITE_SINKS } from '../analysis/api.js';
import { argText, sourcesOfKind, makeFinding, chainFor, listsDataRoot } from './support.js';
import type { AddonAnalysis, CallEvent } from '../analysis/types.js';
import { textOf, type TaintSource, type Value } from '../analysis/values.js';
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

/** The first folder of a data/ path (`advdupe2` of `advdupe2/«?»/x.txt`), lower-cased. */
function rootFolder(path: string | undefined): string | undefined {
  const m = /^\/?([\w .-]+)\//.exec(path ?? '');
  return m?.[1]!.toLowerCase();
}

/**
 * The data/ folders the file contents an upload carries were read from, when each was
 * listed (`file.Find("advdupe2/*", "DATA")`) and is not one the addon writes to: other
 * addons' saved files (on a client, the player's own dupes, E2 code and outfits), walked
 * and sent. An addon's own folder (its saves, its cache) is its data to sync.
 */
function othersFoldersUploaded(analysis: AddonAnalysis, sources: TaintSource[]): string[] {
  const listed = new Set<string>();
  const own = new Set<string>();
  for (const c of analysis.calls) {
    if (c.api === 'file.Find' && /^data$/i.test(argText(c.args[1]) ?? '')) {
      const root = rootFolder(argText(c.args[0]));
      if (root !== undefined) listed.add(root);
    } else if (FILE_WRITE_SINKS.has(c.api) || c.api === 'file.CreateDir') {
      const root = rootFolder(argText(c.args[0])) ?? argText(c.args[0])?.toLowerCase();
      if (root !== undefined) own.add(root);
    }
  }
  const folders = new Set<string>();
  for (const source of sources) {
    const read = analysis.calls.find(
      (c) => c.api === 'file.Read' && c.file === source.file && c.line === source.line,
    );
    const root = rootFolder(argText(read?.args[0]));
    if (root !== undefined && listed.has(root) && !own.has(root)) folders.add(root);
  }
  return [...folders];
}

/** `file.Read("translate_key.txt")`: one file of data/, named in full (data/ is the default). */
const ONE_DATA_FILE = /^file\.(?:Read|Open)\("([^"«]*)"(?:, "DATA"|, "data")?\)$/;

/**
 * The sources that can be the files a listing found: not one data/ file the addon names in
 * full (its own API key, its saved settings), unless the addon writes other files' contents
 * into it (a listing staged there, then read back and sent).
 */
function listedFiles(analysis: AddonAnalysis, sources: TaintSource[]): TaintSource[] {
  return sources.filter((s) => {
    const one = ONE_DATA_FILE.exec(s.label);
    if (one === null) return true;
    const path = one[1]!.toLowerCase();
    return analysis.calls.some(
      (c) =>
        FILE_WRITE_SINKS.has(c.api) &&
        argText(c.args[0])?.toLowerCase() === path &&
        sourcesOfKind([c.args[1]], ['file']).length > 0,
    );
  });
}

/** An upload the game sets off by itself (a hook, a timer), not one a player asks for. */
const unasked = (ev: CallEvent): boolean =>
  ev.ctx.some((f) => f.kind === 'handler' && /^(hook\.Add|timer\.)/.test(f.api ?? '')) &&
  !ev.ctx.some((f) => f.kind === 'handler' && f.api === 'concommand.Add');

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
          "The addon walks the server's files (Lua, configuration, data), or other addons' saved files on players' computers, and sends their contents over HTTP: your code, configs and secrets, or your players' dupes and code, leave the machine.",
        recommendation:
          'Remove the addon, change every password found in your configuration files and rotate API keys.',
      },
      fr: {
        title: 'Fichiers du serveur envoyés à un hôte distant',
        description:
          "L'addon parcourt les fichiers du serveur (Lua, configuration, données), ou les fichiers que d'autres addons ont enregistrés sur l'ordinateur des joueurs, et envoie leur contenu en HTTP : votre code, vos configurations et vos secrets, ou les dupes et le code de vos joueurs, quittent la machine.",
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
      if (!finds.length) {
        const folders = unasked(ev) ? othersFoldersUploaded(analysis, fromFiles) : [];
        if (folders.length === 0) continue;
        const client = ev.realm === 'client';
        out.push(
          makeFinding(rule, analysis, {
            // (On a client, the player's files: theirs to lose, not the server's.)
            severity: client ? 'high' : 'critical',
            confidence: 0.8,
            pattern: `${ev.api}(file contents) of ${client ? "the player's " : ''}data/ folders ${folders
              .slice(0, 4)
              .map((f) => `${f}/`)
              .join(', ')}, listed and read unasked`,
            file: ev.file,
            line: ev.line,
            chain: chainFor(ev, fromFiles),
            techniques: client ? ['GB-018', 'GB-017'] : ['GB-018'],
          }),
        );
        continue;
      }
      // (`file.Find("addons/*", "MOD")` to find its own folder, and its API key posted to the
      // web service it is for: nothing the listing found is sent.)
      if (listedFiles(analysis, fromFiles).length === 0) continue;
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
