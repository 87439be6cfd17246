// Token-level fallback: a Lua file that does not parse is itself an anomaly, and dangerous
// names inside it are reported from the raw text since the analysis could not follow them.
import { makeFinding } from './support.js';
import type { Finding, Rule } from './types.js';

const SINKS =
  /\b(RunString|RunStringEx|CompileString|loadstring|http\.Fetch|http\.Post|BroadcastLua)\b/;

export const rule: Rule = {
  meta: {
    id: 'parse_failure',
    category: 'anomaly',
    severity: 'low',
    techniques: ['GB-031'],
    verdictClass: 'informational',
    text: {
      en: {
        title: 'File that does not parse as Lua',
        description:
          'This Lua file has syntax errors, so it was checked at the token level only. Malformed or deliberately broken code can hide behaviour.',
        recommendation:
          'Check the file by hand, especially if it contains execution or HTTP calls.',
      },
      fr: {
        title: 'Fichier qui ne se lit pas comme du Lua',
        description:
          "Ce fichier Lua contient des erreurs de syntaxe ; il n'a été vérifié qu'au niveau des jetons. Du code malformé ou volontairement cassé peut cacher un comportement.",
        recommendation:
          "Vérifiez le fichier à la main, surtout s'il contient des appels d'exécution ou HTTP.",
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    for (const f of analysis.files) {
      // Only files the parser gave up on (fully or partly); skipped or skimmed ones were not parsed.
      if (f.parse !== 'failed' && f.parse !== 'recovered') continue;
      if (f.kind !== 'lua') continue;
      // Wiremod E2 extensions are a preprocessed dialect (`e2function`), not plain Lua.
      if (/\be2function\b|__e2setcost/.test(f.text)) continue;
      const idx = f.lines.findIndex((l) => SINKS.test(l));
      out.push(
        makeFinding(rule, analysis, {
          severity: idx >= 0 ? 'medium' : 'low',
          confidence: idx >= 0 ? 0.5 : 0.3,
          pattern:
            idx >= 0
              ? `unparsable file with ${SINKS.exec(f.lines[idx]!)![0]}`
              : 'unparsable Lua file',
          file: f.path,
          line: idx >= 0 ? idx + 1 : 1,
          verdictClass: idx >= 0 ? 'suspicious' : 'informational',
        }),
      );
    }
    return out;
  },
};
