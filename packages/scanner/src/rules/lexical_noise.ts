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

/**
 * A bidirectional control (U+202A–U+202E, U+2066–U+2069), as a line's text holds it: the
 * code point, or its UTF-8 bytes read one character each.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]|\xE2\x80[\xAA-\xAE]|\xE2\x81[\xA6-\xA9]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');
/** A condition or comparison on a line: what a reviewer reads as a check. */
const CHECK_LINE = /\b(if|elseif|while|until)\b|==|~=|!=/;

/**
 * The line of a "Trojan Source" check, if the file has one: a bidirectional control inside a
 * string or a comment of a line that makes a check, so that the check reads otherwise than
 * it runs (`== "user‮ ⁦-- default group⁩ ⁦"`, which no group equals). Controls in names (an
 * obfuscator's invisible identifiers) or in text alone (a translation) are not this.
 */
function trojanSourceLine(lines: readonly string[]): number | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = line.search(BIDI_CONTROL);
    if (at < 0 || !CHECK_LINE.test(line)) continue;
    const before = line.slice(0, at);
    const quotes = (q: string) => before.split(q).length - 1 - (before.split(`\\${q}`).length - 1);
    if (quotes('"') % 2 === 1 || quotes("'") % 2 === 1 || before.includes('--')) return i + 1;
  }
  return undefined;
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
      // (Only in files that hold invisible characters: most hold none.)
      const trojan = (f.facts?.invisibleCharCount ?? 0) > 0 ? trojanSourceLine(f.lines) : undefined;
      if (trojan !== undefined) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'high',
            confidence: 0.85,
            pattern: 'bidirectional control characters inside a check (Trojan Source)',
            file: f.path,
            line: trojan,
            decoded: f.lines[trojan - 1]!.replace(BIDI_CONTROLS, '<bidi>').trim().slice(0, 400),
            verdictClass: 'backdoor',
          }),
        );
        continue;
      }
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
