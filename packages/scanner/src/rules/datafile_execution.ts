// GB-009: code loaded from local data (data/ files, SQLite) and executed, and code written
// into data files for a loader to run later (persistence).
import type { CallEvent } from '../analysis/types.js';
import { looksLikeLua } from '../archive/contentSniffing.js';
import { textOf, type TaintSource } from '../analysis/values.js';
import { chainFor, decodedFor, guardOf, makeFinding, sourcesOfKind, triggerOf } from './support.js';
import { taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const ASSET_EXT = /\.(vmt|vtf|ttf|otf|txt|dat|json|png|jpg|mp3|wav|ogg|mdl|pcf|cfg|db)\b/i;
/**
 * Fonts, textures, images, sounds and models: nothing legitimate runs one as code (GB-014).
 * Text-like assets (.txt, .json, .cfg, .vmt…) stay high: some addons ship settings as Lua.
 */
const MEDIA_EXT = /\.(ttf|otf|vtf|png|jpe?g|mp3|wav|ogg|mdl|vvd|phy|pcf)\b/i;
// (`HTTP` only as a call: the word is also English, in the comments of other languages' code.)
const DANGEROUS_IN_PAYLOAD =
  /\b(RunString|RunStringEx|CompileString|loadstring|http\.Fetch|http\.Post|BroadcastLua|SendLua)\b|\bHTTP[({]/;

function pathOf(s: TaintSource): string {
  return /\("([^"]*)"/.exec(s.label)?.[1] ?? '';
}

/** Whether two file paths the emulator knows (`«?»` for unknown parts) can be the same file. */
function samePath(a: string, b: string): boolean {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (a === b) return true;
  return (
    (a.includes('«?»') && wildcardPattern(a).test(b)) ||
    (b.includes('«?»') && wildcardPattern(b).test(a))
  );
}

/** A path with unknown parts (`«?»`) as a pattern matching any path it can be. */
function wildcardPattern(path: string): RegExp {
  let source = '^';
  const parts = path.split('«?»');
  for (let i = 0; i < parts.length; i++)
    source += (i > 0 ? '.*' : '') + parts[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(source + '$');
}

/**
 * The data files the addon itself writes, by path, and whether every write of each is the
 * owner's or an admin's: a constant without code in it (a template for the owner to edit), or
 * behind a rank check (an admin's editor). Such a file is a settings file in Lua, which the
 * catalogue counts as legitimate (GB-009: who can write it).
 */
function ownWrites(calls: readonly CallEvent[]): Array<{ path: string; owners: boolean }> {
  const out: Array<{ path: string; owners: boolean }> = [];
  for (const ev of calls) {
    if (ev.api !== 'file.Write' && ev.api !== 'file.Append') continue;
    const path = ev.args[0] ? textOf(ev.args[0]) : undefined;
    if (!path) continue;
    const content = ev.args[1];
    const owners =
      (guardOf(ev.ctx) !== undefined && !triggerOf(ev.ctx)) ||
      (content?.k === 'str' && !DANGEROUS_IN_PAYLOAD.test(content.v));
    out.push({ path, owners });
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'datafile_execution',
    category: 'persistence',
    severity: 'high',
    techniques: ['GB-009'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Code executed from a data file or the database',
        description:
          'The addon runs code it reads from a file or from SQLite, or writes code into a data file. Backdoors use this to survive removal: a loader keeps running whatever was stored.',
        recommendation:
          'Look at the stored file or table (for example under data/), delete injected code, and remove the addon if it writes code for something else to run.',
      },
      fr: {
        title: 'Code exécuté depuis un fichier de données ou la base',
        description:
          "L'addon exécute du code lu dans un fichier ou dans SQLite, ou écrit du code dans un fichier de données. Les portes dérobées s'en servent pour survivre à leur suppression : un chargeur exécute ce qui a été stocké.",
        recommendation:
          "Examinez le fichier ou la table concernés (par exemple sous data/), supprimez le code injecté, et retirez l'addon s'il écrit du code que quelque chose d'autre exécute.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    const written = ownWrites(analysis.calls);
    /** Paths of the data files a high-severity loader runs. */
    const loaded: string[] = [];
    for (const { ev, sources } of taintedSinks(
      analysis,
      ['file', 'sql'],
      {
        exec: true,
        console: false,
      },
      sharedViews(context).sinkCalls(),
    )) {
      const guarded = guardOf(ev.ctx) && !triggerOf(ev.ctx);
      const shippedLua = sources.every(
        (s) => s.kind === 'file' && /"LUA"|\.lua"|\/lua\//.test(s.label) && !/"DATA"/.test(s.label),
      );
      // Client-side editors running the player's own saved scripts only affect that player.
      const clientOwn = ev.realm === 'client' && sources.every((s) => s.kind === 'file');
      const assetPath = sources.some((s) => ASSET_EXT.test(pathOf(s)) && !/"DATA"/.test(s.label));
      // `CompileString("return { " .. data .. " }")`: a data deserialiser, not a code loader.
      const code = ev.args[0];
      const deserialiser = code?.k === 'unk' && /^\s*return[\s{(]/.test(code.partial ?? '');
      // A file only the owner or an admin writes (see ownWrites).
      const settings = sources.every((s) => {
        if (s.kind !== 'file') return false;
        const path = pathOf(s);
        let writes = 0;
        for (const w of written) {
          if (!samePath(w.path, path)) continue;
          if (!w.owners) return false;
          writes++;
        }
        return writes > 0;
      });
      const media =
        !guarded && sources.some((s) => MEDIA_EXT.test(pathOf(s)) && !/"DATA"/.test(s.label));
      const sev = media
        ? 'critical'
        : guarded || shippedLua || clientOwn || deserialiser || settings
          ? 'low'
          : 'high';
      if (sev === 'high') for (const s of sources) if (s.kind === 'file') loaded.push(pathOf(s));
      out.push(
        makeFinding(rule, analysis, {
          severity: sev,
          confidence: media ? 0.9 : guarded || shippedLua ? 0.3 : 0.8,
          pattern: `${ev.api}(${sources[0]!.label})`.slice(0, 200),
          file: ev.file,
          line: ev.line,
          decoded: decodedFor(ev),
          chain: chainFor(ev, sources),
          verdictClass: media ? 'backdoor' : sev === 'low' ? 'informational' : 'suspicious',
          techniques: assetPath ? ['GB-009', 'GB-014'] : ['GB-009'],
        }),
      );
    }
    // Remote content or Lua code written into data files / the database. Caching downloads
    // (images, emoji lists) is ordinary; it matters when something executes stored files.
    const hasLoader = out.some((f) => f.severity === 'high');
    for (const ev of analysis.calls) {
      const write = ev.api === 'file.Write' || ev.api === 'file.Append';
      const sqlWrite = ev.api === 'sql.Query' || ev.api === 'sql.QueryValue';
      if (!write && !sqlWrite) continue;
      const content = write ? ev.args[1] : ev.args[0];
      const remote = sourcesOfKind([content], ['http']);
      // (Lua, not another language's source an editor keeps there: E2 chips, JavaScript.)
      const code =
        content?.k === 'str' &&
        DANGEROUS_IN_PAYLOAD.test(content.v) &&
        looksLikeLua(Buffer.from(content.v, 'latin1'))
          ? content.v
          : undefined;
      if (!code && (!remote.length || !hasLoader || ev.realm === 'client')) continue;
      // A web reply stored in the very file a loader runs: remote code execution in two
      // steps (GB-001 through GB-009), however far apart the two are.
      const path = write && ev.args[0] ? textOf(ev.args[0]) : undefined;
      const staged =
        remote.length > 0 && path !== undefined && loaded.some((p) => samePath(p, path));
      out.push(
        makeFinding(rule, analysis, {
          severity: ev.api === 'file.Append' || code || staged ? 'critical' : 'high',
          confidence: 0.85,
          pattern: `${ev.api}(${remote.length ? remote[0]!.label : 'Lua code'})`.slice(0, 200),
          file: ev.file,
          line: ev.line,
          decoded: code ? code.slice(0, 1000) : decodedFor(ev),
          chain: chainFor(ev, remote, `${ev.api} (stored for later execution)`),
          verdictClass: 'backdoor',
          techniques: sqlWrite ? ['GB-009', 'GB-025'] : staged ? ['GB-001', 'GB-009'] : ['GB-009'],
        }),
      );
    }
    return out;
  },
};
