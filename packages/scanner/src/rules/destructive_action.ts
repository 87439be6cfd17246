// GB-024: destructive actions (DROP TABLE / DELETE FROM, file.Delete loops over data/) when
// triggered remotely, every table or the whole of data/ wiped, and banning or kicking every
// player on anyone's word.
import { asString, NIL, taintOf, textOf } from '../analysis/values.js';
import {
  actsOnTally,
  guardOf,
  handlerOf,
  listsDataRoot,
  makeFinding,
  isNetReceive,
} from './support.js';
import { sharedViews } from './shared.js';
import type { AddonAnalysis } from '../analysis/types.js';
import type { Finding, Rule } from './types.js';

const DESTRUCTIVE = /^(sql\.Query|file\.Delete$|Player:Kick$|Player:Ban$|game\.CleanUpMap$)/;

const isDestructive = (api: string): boolean => DESTRUCTIVE.test(api);
const isRemoteHandler = (a: string): boolean =>
  a.startsWith('http') || a === 'HTTP' || a === 'net.Receive';
const isCommandHandler = (a: string): boolean =>
  a === 'hook.Add:PlayerSay' || a === 'net.Receive' || a === 'concommand.Add';
const isChatOrCommand = (a: string): boolean =>
  a === 'concommand.Add' || a === 'hook.Add:PlayerSay';
const isTimerCreate = (a: string): boolean => a === 'timer.Create';

/**
 * The table a query of one statement empties whole (`DELETE FROM t`, no WHERE). Not DROP: a
 * migration rebuilding its own table drops the old one, often in a batch of statements.
 */
const EMPTIED_TABLE = /^\s*DELETE\s+FROM\s+[`"'[]?(\w+)[`"'\]]?\s*;?\s*$/i;
/** A table the addon makes (`CREATE TABLE IF NOT EXISTS name`), in its code or its queries. */
const CREATED_TABLE =
  /\bCREATE\s+(?:TEMP(?:ORARY)?\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"'[]?(\w+)/gi;

/**
 * The tables the addon makes, lower-cased; undefined when one is made under a name written
 * at run time (`"CREATE TABLE " .. prefix .. "_data"`): then any table may be its own.
 */
function tablesMade(analysis: AddonAnalysis): Set<string> | undefined {
  const made = new Set<string>();
  const texts: string[] = [];
  for (const ev of analysis.calls)
    if (/^sql\.Query/.test(ev.api)) texts.push(ev.args[0] ? (textOf(ev.args[0]) ?? '') : '');
  for (const f of analysis.files) if (f.kind === 'lua') texts.push(...f.lines);
  for (const text of texts) {
    if (!/CREATE/i.test(text)) continue;
    for (const m of text.matchAll(CREATED_TABLE)) made.add(m[1]!.toLowerCase());
    if (
      /\bCREATE\s+(?:TEMP(?:ORARY)?\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"'[]?\s*["']\s*\.\./i.test(
        text,
      )
    )
      return undefined;
  }
  return made;
}

export const rule: Rule = {
  meta: {
    id: 'destructive_action',
    category: 'file_system',
    severity: 'high',
    techniques: ['GB-024'],
    verdictClass: 'backdoor',
    text: {
      en: {
        title: 'Destructive action',
        description:
          'The addon deletes database tables, wipes data files or kicks every player, outside any admin-checked command.',
        recommendation:
          'Remove the addon and restore your database and data/ folder from a backup.',
      },
      fr: {
        title: 'Action destructrice',
        description:
          "L'addon supprime des tables de la base, efface des fichiers de données ou expulse tous les joueurs, en dehors de toute commande réservée aux administrateurs.",
        recommendation:
          "Supprimez l'addon et restaurez votre base de données et votre dossier data/ depuis une sauvegarde.",
      },
    },
  },
  check(context) {
    const { analysis } = context;
    const out: Finding[] = [];
    // Handlers that list files and delete them (wiping a folder), as opposed to replacing one cache file.
    const bulkDeleteHandlers = new Set<number>();
    // Handlers that list the root of data/ itself: deleting what they list wipes every addon's
    // saved data, not one addon's cache folder.
    const rootListers = new Set<number>();
    for (const ev of analysis.calls) {
      if (ev.api !== 'file.Find') continue;
      const root = listsDataRoot(ev);
      for (const f of ev.ctx)
        if (f.kind === 'handler' && f.id !== undefined) {
          bulkDeleteHandlers.add(f.id);
          if (root) rootListers.add(f.id);
        }
    }
    /** The tables the addon makes (see tablesMade), once a wipe asks. */
    let made: Set<string> | undefined | null = null;
    // Only queries, deletions, kicks and bans can destroy.
    for (const ev of sharedViews(context).callsWhere(isDestructive)) {
      if (guardOf(ev.ctx)) continue;
      const remote = handlerOf(ev.ctx, isRemoteHandler);
      const q = ev.args[0] ? (textOf(ev.args[0]) ?? '') : '';
      const target = ev.args[0];
      if (
        (ev.api === 'Player:Ban' || ev.api === 'Player:Kick') &&
        target?.k === 'unk' &&
        target.everyone
      ) {
        // Every player banned: nothing legitimate does that unasked. Every player kicked: a
        // restart script may, but not on any player's word (chat, a net message) or the web's.
        const anyone = handlerOf(ev.ctx, isCommandHandler);
        if (ev.api === 'Player:Ban' || anyone || remote) {
          out.push(
            makeFinding(rule, analysis, {
              confidence: 0.8,
              pattern: `${ev.api} of every player${anyone || remote ? ` from ${(anyone ?? remote)!.label}` : ''}`,
              file: ev.file,
              line: ev.line,
              decoded: ev.decoded,
            }),
          );
        }
        continue;
      }
      // A console command or a chat word any player can use (no rank check above), on the
      // server: a client's own command clears that player's own files.
      const anyPlayer = ev.realm === 'client' ? undefined : handlerOf(ev.ctx, isChatOrCommand);
      // A net message any player can send, on the server: whole tables wiped on its word.
      const anySender = ev.realm === 'client' ? undefined : handlerOf(ev.ctx, isNetReceive);
      const asker = anyPlayer ?? anySender;
      // The web's order (a net message's is judged by the receiver rules).
      const webOrder = remote !== undefined && remote.api !== 'net.Receive';
      if (/^sql\.Query/.test(ev.api) && /\b(DROP\s+TABLE|DELETE\s+FROM|TRUNCATE)\b/i.test(q)) {
        // A whole table dropped or emptied on any player's word; a row deleted is a feature.
        const wipe = /\b(DROP\s+TABLE|TRUNCATE)\b/i.test(q) || !/\bWHERE\b/i.test(q);
        // Every table the database lists, dropped one by one: nothing keeps its own tables so.
        const everyTable =
          wipe &&
          (taintOf(target ?? NIL) ?? []).some(
            (t) => t.kind === 'sql' && /sqlite_master/i.test(t.label),
          );
        // A table the addon never makes, emptied whole: another addon's data.
        // (On a client, the database is the player's own.)
        const wiped = ev.realm === 'client' ? undefined : EMPTIED_TABLE.exec(q)?.[1]?.toLowerCase();
        if (wiped !== undefined && made === null) made = tablesMade(analysis);
        const foreign = wiped !== undefined && !!made && !made.has(wiped);
        if (!webOrder && !everyTable && !((anyPlayer || anySender) && wipe) && !foreign) continue;
        out.push(
          makeFinding(rule, analysis, {
            severity: 'high',
            confidence: 0.85,
            pattern: `${ev.api}(${JSON.stringify(q.slice(0, 60))})${foreign && !webOrder && !everyTable && !asker ? ', a table the addon never makes' : ''}`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
          }),
        );
      } else if (
        ev.api === 'file.Delete' &&
        ((webOrder && bulkDeleteHandlers.has(remote.id!)) ||
          (anyPlayer !== undefined && bulkDeleteHandlers.has(anyPlayer.id!)) ||
          ev.ctx.some((f) => f.id !== undefined && rootListers.has(f.id)))
      ) {
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.8,
            pattern: `file.Delete(${asString(ev.args[0] ?? { k: 'nil' }) ?? '…'}) on remote order`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
          }),
        );
      } else if (
        ev.api === 'game.CleanUpMap' &&
        !webOrder &&
        asker !== undefined &&
        // (A vote: enough players asked for it.)
        !actsOnTally(analysis, asker, ev)
      ) {
        // Any player's word wipes everyone's props and entities (admin mods check rank for
        // theirs); from a repeating timer it goes on until the server restarts (GB-022/024).
        const repeated = handlerOf(ev.ctx, isTimerCreate) !== undefined;
        out.push(
          makeFinding(rule, analysis, {
            severity: repeated ? 'high' : 'medium',
            confidence: 0.75,
            pattern: `game.CleanUpMap${repeated ? ' over and over' : ''} on any player's word (${asker.label})`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
            techniques: repeated ? ['GB-024', 'GB-022'] : ['GB-024'],
          }),
        );
      } else if (
        (ev.api === 'Player:Kick' || ev.api === 'Player:Ban' || ev.api === 'game.CleanUpMap') &&
        remote &&
        remote.api !== 'net.Receive'
      ) {
        out.push(
          makeFinding(rule, analysis, {
            confidence: 0.75,
            pattern: `${ev.api} on remote order`,
            file: ev.file,
            line: ev.line,
            decoded: ev.decoded,
          }),
        );
      }
    }
    return out;
  },
};
