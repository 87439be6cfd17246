// `npm run admin -- <command>`: manages staff username/password accounts in the same
// database as the server (DATA_DIR / DATABASE_URL). Passwords are read from stdin (hidden
// when typed at a terminal), never from the command line where `ps` and shell history see them.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase, type Db } from '../db/database.js';
import {
  STAFF_ACCOUNT_RANKS,
  STAFF_PASSWORD_MAX_LENGTH,
  StaffAccountError,
  createStaffAccount,
  deleteStaffAccount,
  listStaffAccounts,
  setStaffPassword,
  type StaffAccountRank,
} from '../services/staffAccounts.js';

const USAGE = `Usage: npm run admin -- <command>

Commands:
  create <username> [--rank support|administrator|super_admin]
      Creates a staff account (rank administrator by default). The password is read from
      stdin: typed (hidden) at a terminal, or the first line of piped input.
  passwd <username>     Sets a new password (from stdin) and ends the account's sessions.
  delete <username>     Deletes the account and its sessions.
  list                  Lists the accounts.

The database is the server's: DATA_DIR (default ./data) or DATABASE_URL.
Example: printf '%s\\n' "$PASSWORD" | npm run admin -- create alice --rank administrator`;

class UsageError extends Error {}

async function readPipedLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > STAFF_PASSWORD_MAX_LENGTH * 4) break;
  }
  return (text.split('\n')[0] ?? '').replace(/\r$/, '');
}

/** Reads a line at a terminal without echoing it. */
function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new UsageError('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return readPipedLine();
  const first = await readHidden('Password: ');
  const second = await readHidden('Repeat the password: ');
  if (first !== second) throw new UsageError('the two passwords differ');
  return first;
}

function oneUsername(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError('give exactly one username');
  return positionals[0]!;
}

async function run(db: Db, argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { rank: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  switch (command) {
    case 'create': {
      const username = oneUsername(rest);
      const rank = (values.rank ?? 'administrator') as StaffAccountRank;
      if (!(STAFF_ACCOUNT_RANKS as readonly string[]).includes(rank))
        throw new UsageError(`--rank must be one of ${STAFF_ACCOUNT_RANKS.join(', ')}`);
      const account = await createStaffAccount(db, {
        username,
        password: await readPassword(),
        rank,
      });
      console.log(`Created staff account "${account.username}" (${account.rank}).`);
      return;
    }
    case 'passwd': {
      const username = oneUsername(rest);
      if (!(await setStaffPassword(db, username, await readPassword())))
        throw new StaffAccountError(`no staff account "${username}"`);
      console.log(`Password of "${username}" changed; its sessions were ended.`);
      return;
    }
    case 'delete': {
      const username = oneUsername(rest);
      if (!(await deleteStaffAccount(db, username)))
        throw new StaffAccountError(`no staff account "${username}"`);
      console.log(`Deleted staff account "${username}".`);
      return;
    }
    case 'list': {
      const accounts = await listStaffAccounts(db);
      if (accounts.length === 0) console.log('No staff accounts.');
      for (const a of accounts)
        console.log(
          `${a.username}\t${a.rank}\tcreated ${a.created_at}\tlast login ${a.last_login ?? 'never'}`,
        );
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function main(): Promise<number> {
  let db: Db | null = null;
  try {
    const config = loadConfig();
    db = openDatabase(config.databaseUrl);
    await migrateToLatest(db);
    await run(db, process.argv.slice(2));
    return 0;
  } catch (error) {
    const parseError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (error instanceof UsageError || parseError) {
      console.error(`admin: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof StaffAccountError) {
      console.error(`admin: ${error.message}`);
      return 1;
    }
    console.error('admin: failed:', error);
    return 1;
  } finally {
    await db?.destroy();
  }
}

process.exitCode = await main();
