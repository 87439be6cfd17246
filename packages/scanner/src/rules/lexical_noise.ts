// GB-031: layout and lexical noise: whole files on one line, machine-made identifiers,
// invisible or bidirectional Unicode.
import { makeFinding } from './support.js';
import type { Finding, Rule } from './types.js';

function longestLine(lines: readonly string[]): number {
  let longest = -Infinity;
  for (const l of lines) if (l.length > longest) longest = l.length;
  return longest;
}

/**
 * Count of the text's non-blank lines (lines that `trim` leaves something of), stopping at
 * `enough`. Found in the text rather than its lines: the files asked about have a long line,
 * and splitting them whole cost more than the rest of the rule (a few lines are enough).
 */
function nonBlankLines(text: string, enough: number): number {
  // `\s` is what `trim` removes; lines end at `\n`, `\r\n` or a lone `\r`.
  const nonBlank = /\S/g;
  const lineBreak = /[\n\r]/g;
  let n = 0;
  while (n < enough) {
    if (!nonBlank.test(text)) break;
    n++;
    // On past this line: its break, being blank, is skipped by the next search.
    lineBreak.lastIndex = nonBlank.lastIndex;
    if (!lineBreak.test(text)) break;
    nonBlank.lastIndex = lineBreak.lastIndex;
  }
  return n;
}

export const rule: Rule = {
  meta: {
    id: 'lexical_noise',
    category: 'obfuscation',
    severity: 'medium',
    techniques: ['GB-031'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Code made unreadable on purpose',
        description:
          'The file is packed onto one huge line, uses machine-generated names (_0x…), or contains invisible Unicode characters. Paid addons do this too, but it hides what the code does.',
        recommendation: 'Ask the author for readable source; weigh this with the other findings.',
      },
      fr: {
        title: 'Code rendu illisible volontairement',
        description:
          'Le fichier tient sur une seule ligne géante, utilise des noms générés (_0x…) ou contient des caractères Unicode invisibles. Des addons payants le font aussi, mais cela cache ce que fait le code.',
        recommendation: "Demandez à l'auteur un code lisible ; jugez-en avec les autres constats.",
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    for (const f of analysis.files) {
      const reasons: string[] = [];
      // Lines are split only for the rare file whose longest line could hold it all.
      const longest = f.facts?.longestLineLength ?? longestLine(f.lines);
      if (longest > 500 && f.text.length > 400 && nonBlankLines(f.text, 4) <= 3)
        reasons.push('whole file on one line');
      if (
        f.obfuscatedIdentifiers >= 5 &&
        f.obfuscatedIdentifiers / Math.max(1, f.identifierCount) > 0.05
      )
        reasons.push(`${f.obfuscatedIdentifiers} machine-made identifiers`);
      if ((f.facts?.invisibleCharCount ?? 0) > 0)
        reasons.push(`${f.facts!.invisibleCharCount} invisible Unicode characters`);
      if (!reasons.length) continue;
      const withSinks = analysis.calls.some(
        (c) => c.file === f.path && /^(RunString|CompileString|http\.|HTTP)/.test(c.api),
      );
      out.push(
        makeFinding(rule, analysis, {
          severity: withSinks ? 'medium' : 'low',
          confidence: withSinks ? 0.6 : 0.35,
          pattern: reasons.join(', '),
          file: f.path,
          line: 1,
          verdictClass: withSinks ? 'suspicious' : 'informational',
        }),
      );
    }
    return out;
  },
};
