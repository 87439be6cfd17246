// GB-026: strings hidden by escapes, string.char runs, base64, reversal or splitting, judged
// on their plaintext: only decoded API names, URLs or code are reported.
import { makeFinding } from './support.js';
import type { DecodedStringEvent } from '../analysis/types.js';
import type { Finding, Rule } from './types.js';

const SENSITIVE =
  /\b(RunString|RunStringEx|CompileString|CompileFile|loadstring|http|Fetch|Post|HTTP|BroadcastLua|SendLua|SetUserGroup|getregistry|getfenv|RunConsoleCommand|ConsoleCommand|rcon_password|sv_password|timer|Simple|net\.Receive)\b|https?:\/\//;

function plaintextWorthReporting(d: DecodedStringEvent): boolean {
  if (d.how === 'table') return SENSITIVE.test(d.text) && /[(.]/.test(d.text);
  if (d.how === 'concat')
    return /^(RunString|RunStringEx|CompileString|loadstring|BroadcastLua|SendLua|SetUserGroup|RunConsoleCommand|getregistry|getfenv)$/.test(
      d.text,
    );
  return SENSITIVE.test(d.text);
}

export const rule: Rule = {
  meta: {
    id: 'string_encoding',
    category: 'obfuscation',
    severity: 'medium',
    techniques: ['GB-026'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'Encoded strings hiding code or addresses',
        description:
          'Strings are written as escapes, character codes, base64, reversed or split pieces, and decode to function names, web addresses or code. Honest code has no reason to hide these.',
        recommendation:
          'Read the decoded text shown here; remove the addon if it hides execution or remote addresses.',
      },
      fr: {
        title: 'Chaînes encodées cachant du code ou des adresses',
        description:
          "Des chaînes sont écrites en séquences d'échappement, codes de caractères, base64, à l'envers ou en morceaux, et se décodent en noms de fonctions, adresses web ou code. Un code honnête n'a aucune raison de les cacher.",
        recommendation:
          "Lisez le texte décodé affiché ici ; supprimez l'addon s'il cache une exécution de code ou des adresses distantes.",
      },
    },
  },
  check({ analysis }) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const d of analysis.decodedStrings) {
      if (!plaintextWorthReporting(d)) continue;
      const key = `${d.file}:${d.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(
        makeFinding(rule, analysis, {
          confidence: 0.7,
          pattern: `${d.how}-encoded "${d.text.slice(0, 60)}"`,
          file: d.file,
          line: d.line,
          decoded: d.text.slice(0, 1000),
        }),
      );
    }
    return out;
  },
};
