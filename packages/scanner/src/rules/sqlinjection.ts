// GB-025: SQL built from client input without sql.SQLStr (injection), and tables created or
// filled by code fetched from the web.
import { DATABASE_QUERIES } from '../analysis/api.js';
import { partialText } from '../analysis/values.js';

/** What an SQL statement starts with or holds. */
const SQL_TEXT = /\b(select|insert|update|delete|replace|create|drop|alter)\b/i;
import { chainFor, guardOf, makeFinding, sourcesOfKind, shownApi } from './support.js';
import { sharedViews } from './shared.js';
import type { Finding, Rule } from './types.js';

const isDatabaseQuery = (api: string): boolean =>
  /^sql\.Query/.test(api) || DATABASE_QUERIES.has(api);

export const rule: Rule = {
  meta: {
    id: 'sqlinjection',
    category: 'code_execution',
    severity: 'medium',
    techniques: ['GB-025'],
    verdictClass: 'vulnerable',
    text: {
      en: {
        title: 'SQL query built from player input',
        description:
          'Text a player controls (chat, net message, console arguments) is pasted into an SQL query without sql.SQLStr. Players can read or destroy the server database.',
        recommendation:
          'Escape every value with sql.SQLStr (or use a safe query builder), or update the addon.',
      },
      fr: {
        title: 'Requête SQL construite à partir de données du joueur',
        description:
          'Du texte contrôlé par un joueur (chat, message net, arguments console) est collé dans une requête SQL sans sql.SQLStr. Les joueurs peuvent lire ou détruire la base du serveur.',
        recommendation:
          "Échappez chaque valeur avec sql.SQLStr (ou un constructeur de requêtes sûr), ou mettez l'addon à jour.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    for (const ev of sharedViews(context).callsWhere(isDatabaseQuery)) {
      // (A database object's query takes its text after the object, and must read as SQL:
      // `ply:query(access)` is ULib's permission check.)
      const database = DATABASE_QUERIES.has(ev.api);
      const text = ev.args[database ? 1 : 0];
      if (database && !SQL_TEXT.test(partialText(text ?? { k: 'nil' }))) continue;
      const raw = sourcesOfKind([text], ['net', 'chat', 'concommand', 'clientinfo']).filter(
        (s) => !s.escaped,
      );
      if (raw.length) {
        out.push(
          makeFinding(rule, analysis, {
            severity: guardOf(ev.ctx) ? 'low' : 'medium',
            confidence: 0.7,
            pattern: `${shownApi(ev.api)}(… .. ${raw[0]!.label})`.slice(0, 200),
            file: ev.file,
            line: ev.line,
            chain: chainFor(ev, raw),
          }),
        );
      }
      const remote = sourcesOfKind([text], ['http']);
      if (remote.length) {
        out.push(
          makeFinding(rule, analysis, {
            severity: 'high',
            confidence: 0.75,
            pattern: `${shownApi(ev.api)}(… remote content)`,
            file: ev.file,
            line: ev.line,
            chain: chainFor(ev, remote),
            verdictClass: 'backdoor',
          }),
        );
      }
    }
    return out;
  },
};
