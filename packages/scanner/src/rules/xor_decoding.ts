// GB-027: XOR / arithmetic decoding loops (numeric table → bit.bxor/shift → string.char),
// the shape of KVacDoor-style loaders, reported with what they decode to.
import { codeArgIndex } from './flows.js';
import { makeFinding } from './support.js';
import { sharedViews, TEXT_MARKS } from './shared.js';
import { firstLineMatching } from './textSearch.js';
import type { Finding, Rule } from './types.js';

const LOOP =
  /(bit\.bxor|bit\.band|bxor|\s%\s*256)[\s\S]{0,80}|string\.char\s*\(\s*\(?\s*\w+\[\w+\]\s*[-+^~]/;

/** `string.char(` with XOR or arithmetic on the same line. */
const DECODING_LINE = /string\.char\s*\(.*(bit\.bxor|bxor\(|%\s*256|-\s*\d+\s*-)/;

/**
 * What tells a server, a player or the file itself apart, read where a decoding key is made:
 * the gamemode, map or address; a joining player's SteamID (a pack only one account opens);
 * the file's own line numbers (`debug.getinfo`), which change if anyone edits it.
 */
const SERVER_FACTS =
  /\b(engine\.ActiveGamemode|game\.GetMap|game\.GetIPAddress|GetHostName|game\.MaxPlayers|debug\.getinfo)\s*\(|:(SteamID64|SteamID|AccountID|UniqueID)\s*\(/;
/** Text joined from many unknown pieces (`«?»«?»«?»…`): built a character at a time. */
const UNKNOWN_PIECES = /^(?:«\?»){8}/;
export const rule: Rule = {
  meta: {
    id: 'xor_decoding',
    category: 'cryptographic',
    severity: 'medium',
    techniques: ['GB-027'],
    verdictClass: 'suspicious',
    text: {
      en: {
        title: 'XOR or arithmetic decoding loop',
        description:
          'A loop turns a table of numbers into text with XOR or arithmetic. Sentinelle ran the loop and shows what it decodes to; loaders use this to hide their code.',
        recommendation:
          'Read the decoded text; remove the addon if it is code that fetches or runs something.',
      },
      fr: {
        title: 'Boucle de décodage XOR ou arithmétique',
        description:
          "Une boucle transforme une table de nombres en texte par XOR ou calcul. Sentinelle a exécuté la boucle et montre ce qu'elle décode ; les chargeurs s'en servent pour cacher leur code.",
        recommendation:
          "Lisez le texte décodé ; supprimez l'addon s'il s'agit de code qui télécharge ou exécute quelque chose.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const shared = sharedViews(context);
    const out: Finding[] = [];
    for (const f of analysis.files) {
      // Files that call no `string.char` are skipped by the run's one pass over the text.
      const marked = (shared.textMarks(f) & TEXT_MARKS.stringChar) !== 0;
      const idx = marked ? firstLineMatching(f, DECODING_LINE) : -1;
      if (idx < 0) continue;
      // The decoded result: the longest decoded string of the file produced after the loop.
      const decoded = analysis.decodedStrings
        .filter(
          (d) => d.file === f.path && d.line >= idx + 1 && (d.how === 'char' || d.how === 'table'),
        )
        .sort((a, b) => b.text.length - a.text.length)[0];
      const executed =
        decoded &&
        analysis.payloads.some(
          (p) => p.file === f.path && p.text.slice(0, 50) === decoded.text.slice(0, 50),
        );
      const sensitive = decoded && /RunString|CompileString|http|HTTP|_G/.test(decoded.text);
      // Nothing decoded, yet the file compiles a text it built piece by piece from values the
      // scan cannot know: the loop's key comes from the server it runs on (its gamemode, map
      // or address), so the code is only readable where it is meant to run (GB-032).
      const blind =
        !executed &&
        !sensitive &&
        shared.sinkCalls().some(({ ev, exec }) => {
          const code = ev.args[codeArgIndex(ev.api)];
          return (
            exec &&
            ev.file === f.path &&
            code?.k === 'unk' &&
            UNKNOWN_PIECES.test(code.partial ?? '')
          );
        });
      // A key made from where it runs (the gamemode, the map, the address), from whom it runs
      // for or from the file's own layout: it decrypts on the servers or for the players it
      // targets and stays garbage under any test, as anti-analysis does. A licence key read
      // from a file is the owner's, and a paid addon's DRM may do that.
      const keyedToServer = blind && SERVER_FACTS.test(f.text);
      out.push(
        makeFinding(rule, analysis, {
          severity: executed || sensitive || blind ? 'high' : 'low',
          confidence: executed ? 0.9 : keyedToServer ? 0.75 : blind ? 0.6 : 0.5,
          ...(keyedToServer ? { verdictClass: 'backdoor' as const } : {}),
          pattern: executed
            ? 'XOR-decoded code executed'
            : blind
              ? 'code decoded with a key the server supplies at run time, then executed'
              : 'XOR/arithmetic decoding loop',
          file: f.path,
          line: idx + 1,
          decoded: decoded?.text.slice(0, 1000),
          techniques: blind ? ['GB-027', 'GB-032'] : ['GB-027', 'GB-026'],
        }),
      );
    }
    void LOOP;
    return out;
  },
};
