// Known C2 hosts, panel paths and obfuscator fingerprints (threat intel §6) found in any
// string, decoded or not.
import { findFingerprint, findIoc } from '../intel/index.js';
import { makeFinding } from './support.js';
import { sharedViews, textFilterFor, TEXT_MARKS } from './shared.js';
import type { Finding, Rule } from './types.js';

const NOT_LATIN1 = /[\u0100-\uffff]/;

export const rule: Rule = {
  meta: {
    id: 'ioc_match',
    category: 'backdoor',
    severity: 'high',
    techniques: ['GB-016'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Known backdoor indicator',
        description:
          'A domain, URL path or code fingerprint of a known backdoor family (KVacDoor, Omega, Cipher-Panel…) appears in the addon.',
        recommendation:
          'Remove the addon, block the domain, rotate rcon_password and check data/ for persistence files.',
      },
      fr: {
        title: 'Indicateur de porte dérobée connue',
        description:
          "Un domaine, un chemin d'URL ou une empreinte de code d'une famille de portes dérobées connue (KVacDoor, Omega, Cipher-Panel…) apparaît dans l'addon.",
        recommendation:
          "Supprimez l'addon, bloquez le domaine, changez rcon_password et cherchez dans data/ des fichiers de persistance.",
      },
    },
  },
  check(context) {
    const { analysis, intel } = context;
    const shared = sharedViews(context);
    const out: Finding[] = [];
    const filter = textFilterFor(intel);
    // Files that put their own filter in front of HTTP (an HTTP firewall, as Nova does).
    const firewalls = new Set(
      analysis.overrides
        .filter((o) => /^(http\.Fetch|http\.Post|HTTP)$/.test(o.target))
        .map((o) => o.file),
    );
    for (const f of analysis.files) {
      // Most files contain no indicator at all: the run's one pass over the text says so.
      if ((shared.textMarks(f) & TEXT_MARKS.ioc) === 0) continue;
      for (let i = 0; i < f.lines.length; i++) {
        const line = f.lines[i]!;
        if (line.length < 4) continue;
        const ioc = findIoc(intel, line);
        const fp = ioc ? undefined : findFingerprint(intel, line);
        if (!ioc && !fp) continue;
        // A known host written bare, as an entry of a firewall's block list, is what the
        // firewall keeps out: nothing contacts it.
        const blocked =
          ioc !== undefined &&
          firewalls.has(f.path) &&
          (line.includes(`"${ioc}"`) || line.includes(`'${ioc}'`));
        out.push(
          makeFinding(rule, analysis, {
            confidence: blocked ? 0.3 : ioc ? 0.85 : 0.6,
            severity: blocked ? 'low' : ioc ? 'high' : 'medium',
            ...(blocked ? { verdictClass: 'informational' as const } : {}),
            pattern: ioc ? `IOC ${ioc}` : `fingerprint ${JSON.stringify(fp)}`,
            file: f.path,
            line: i + 1,
          }),
        );
        if (out.length > 200) return out;
      }
    }
    for (const d of analysis.decodedStrings) {
      // The filter reads latin1 (as decoders produce): a text with other characters is
      // searched in full (lower-casing one of those may give an ASCII letter).
      if (!NOT_LATIN1.test(d.text) && !filter.mayContain(d.text)) continue;
      const ioc = findIoc(intel, d.text);
      if (ioc)
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.9,
            pattern: `encoded IOC ${ioc}`,
            file: d.file,
            line: d.line,
            decoded: d.text.slice(0, 500),
          }),
        );
    }
    return out;
  },
};
