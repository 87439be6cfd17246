// Opens the SQLite database (WAL mode) through Kysely and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  SqliteDialect,
  type MigrationProvider,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { sqlitePathOf } from '../config.js';

export type Db = Kysely<Database>;

export function openDatabase(databaseUrl: string): Db {
  const path = sqlitePathOf(databaseUrl);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
}

/** Distinct SQL texts kept prepared; the app has a few dozen, so this is never reached in use. */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * Kysely prepares every query anew; preparing was the largest single cost of a simple read.
 * Queries run to completion synchronously (we never stream), so a prepared statement can be
 * reused for every execution of the same SQL text.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(query: string) {
      let statement = cache.get(query);
      if (!statement) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        statement = sqlite.prepare(query);
        cache.set(query, statement);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}

export function nowIso(now = Date.now()): string {
  return new Date(now).toISOString();
}
