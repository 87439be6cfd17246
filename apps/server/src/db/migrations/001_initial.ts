// First schema: members, sessions and login tickets, OpenID nonces, scans (the persisted
// queue) and the credit ledger.
import { sql, type Kysely, type Migration } from 'kysely';

export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('steam_id', 'text', (c) => c.notNull().unique())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('personaname', 'text', (c) => c.notNull())
      .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar_medium', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar_full', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('profile_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('rank', 'text', (c) => c.notNull().defaultTo('member'))
      .addColumn('xp', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('first_login', 'text', (c) => c.notNull())
      .addColumn('last_login', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_activity', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('login_tickets')
      .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();

    await db.schema
      .createTable('openid_nonces')
      .addColumn('nonce_key', 'text', (c) => c.primaryKey())
      .addColumn('nonce_time', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('scans')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('file_size', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('scan_type', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('archive_path', 'text', (c) => c.notNull())
      .addColumn('cost', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('result_json', 'text')
      .addColumn('score', 'integer')
      .addColumn('threat_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('scans_status_created')
      .on('scans')
      .columns(['status', 'created_at'])
      .execute();
    await db.schema
      .createIndex('scans_user_created')
      .on('scans')
      .columns(['user_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('credit_transactions')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('scan_id', 'text')
      .addColumn('actor_user_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('credit_transactions_user')
      .on('credit_transactions')
      .columns(['user_id', 'created_at'])
      .execute();
    // At most one refund per scan, whatever races between a cancel and a failing worker.
    await sql`CREATE UNIQUE INDEX credit_transactions_one_refund ON credit_transactions (scan_id) WHERE type = 'refund'`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'credit_transactions',
      'scans',
      'openid_nonces',
      'login_tickets',
      'sessions',
      'users',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
