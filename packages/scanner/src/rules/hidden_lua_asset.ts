// GB-014: Lua hidden in a file that claims to be something else (.vmt, .ttf, .txt, .dat…),
// worst when the addon also reads that file and executes it.
import { makeFinding } from './support.js';
import { taintedSinks } from './flows.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

// Used as code (`RunString(`, `http.Fetch "…"`), not named in a sentence: a README that says
// "do not use RunString in elements" holds no code.
const RISKY =
  /\b((RunString|RunStringEx|CompileString|loadstring|http\.Fetch|http\.Post|HTTP|timer\.Simple|getregistry|BroadcastLua|SendLua)\s*[("'{[]|_G\s*\[)/;

const ASSET =
  /\.(vmt|vtf|ttf|otf|txt|dat|json|png|jpg|jpeg|mp3|wav|ogg|pcf|mdl|vvd|phy|bsp|ain|nav|properties|cache)$/i;

export const rule: Rule = {
  meta: {
    id: 'hidden_lua_asset',
    category: 'obfuscation',
    severity: 'high',
    techniques: ['GB-014'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Lua code hidden in a non-Lua file',
        description:
          'A material, font, text or data file contains Lua code. Game assets never need code; hiding it there dodges scanners, and a loader elsewhere reads and runs it.',
        recommendation:
          'Remove the addon; look for the loader that reads this file and for copies of it in data/.',
      },
      fr: {
        title: 'Code Lua caché dans un fichier non Lua',
        description:
          "Un fichier de matériau, de police, de texte ou de données contient du code Lua. Les ressources du jeu n'ont jamais besoin de code ; le cacher là contourne les scanners, et un chargeur ailleurs le lit et l'exécute.",
        recommendation:
          "Supprimez l'addon ; cherchez le chargeur qui lit ce fichier et ses copies dans data/.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    const loaders = taintedSinks(
      analysis,
      ['file'],
      { exec: true, console: false },
      sharedViews(context).sinkCalls(),
    );
    for (const f of analysis.files) {
      if (f.kind !== 'lua_in_asset') continue;
      const idx = f.lines.findIndex((l) => RISKY.test(l));
      if (idx < 0) continue;
      const base = f.path.split('/').pop()!.toLowerCase();
      const loader = loaders.find(({ sources }) =>
        sources.some((s) => s.label.toLowerCase().includes(base)),
      );
      // Alone, a file is judged as a whole: an asset that parses as Lua. Read and compiled
      // by the addon, any file of any kind is a carrier: the code may sit in one of its
      // fields (a spreadsheet's formula cell, a config value) that the file does not parse.
      // (A skimmed file was never parsed: no watched name shows in it as code, only inside
      // strings or prose, as in a readme that mentions `http.Fetch (…)` between apostrophes.)
      const wholeLua =
        (f.parse === 'ok' || f.parse === 'recovered') && f.parseErrors <= 3 && ASSET.test(f.path);
      if (!wholeLua && !loader) continue;
      const isData = /(^|\/)data\//.test(f.path);
      out.push(
        makeFinding(rule, analysis, {
          severity: loader ? 'critical' : isData ? 'high' : 'high',
          confidence: loader ? 0.95 : 0.75,
          pattern: `Lua in ${f.path.split('/').pop()}`,
          file: f.path,
          line: idx + 1,
          decoded: f.lines[idx]!.trim().slice(0, 400),
          chain: loader
            ? [
                {
                  role: 'source',
                  label: `Lua hidden in ${f.path}`,
                  file_path: f.path,
                  line_number: idx + 1,
                },
                {
                  role: 'sink',
                  label: `${loader.ev.api}(file.Read(…))`,
                  file_path: loader.ev.file,
                  line_number: loader.ev.line,
                },
              ]
            : [],
          techniques: isData ? ['GB-014', 'GB-009'] : ['GB-014'],
          ...(loader
            ? { related: [{ file: loader.ev.file, line: loader.ev.line, context: 'loader' }] }
            : {}),
        }),
      );
    }
    return out;
  },
};
