// GB-030: GLua C-style operators used as an obfuscation fingerprint (`!true`, `!false`,
// `!1`); only a weak signal, reported when the file also hides things.
import { makeFinding } from './support.js';
import { firstLineMatching } from './textSearch.js';
import type { Finding, Rule } from './types.js';

const NOT_LITERAL = /![ \t]*(true|false|[01])\b/;

export const rule: Rule = {
  meta: {
    id: 'glua_syntax_fingerprint',
    category: 'anomaly',
    severity: 'low',
    techniques: ['GB-030'],
    verdictClass: 'informational',
    text: {
      en: {
        title: 'Obfuscator-style GLua syntax',
        description:
          'Constructs such as !true or !1 appear together with obfuscation. Alone they are harmless GLua; here they are a fingerprint of generated code.',
        recommendation: 'No action on its own; see the other findings of this file.',
      },
      fr: {
        title: "Syntaxe GLua typique d'un obfuscateur",
        description:
          "Des constructions comme !true ou !1 apparaissent avec de l'obfuscation. Seules, elles sont du GLua inoffensif ; ici elles signent du code généré.",
        recommendation: 'Aucune action en soi ; voyez les autres constats de ce fichier.',
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    // The operators alone are ordinary GLua: only files that also hide things are read.
    const decodedKeyFiles = new Set(
      analysis.indexes.filter((i) => i.keyDecoded).map((i) => i.file),
    );
    for (const f of analysis.files) {
      const obfuscated = f.obfuscatedIdentifiers > 3 || decodedKeyFiles.has(f.path);
      if (!obfuscated) continue;
      const idx = firstLineMatching(f, NOT_LITERAL, { startsWith: '!' });
      if (idx < 0) continue;
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.4,
          pattern: NOT_LITERAL.exec(f.lines[idx]!)?.[0] ?? '!true',
          file: f.path,
          line: idx + 1,
        }),
      );
    }
    return out;
  },
};
