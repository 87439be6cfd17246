// Staff and back-office tables: username/password staff accounts and their sessions, problem
// reports, staff notifications with a per-reader state, and who (staff account) edited credits.
import { sql, type Kysely, type Migration } from 'kysely';

export const staffBackoffice: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('staff_accounts')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      // NOCASE: "Admin" and "admin" are the same account, at creation and at login.
      .addColumn('username', 'text', (c) =>
        c
          .notNull()
          .unique()
          .modifyEnd(sql`collate nocase`),
      )
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('rank', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_login', 'text')
      .execute();

    // Separate from `sessions` (whose user_id is a Steam member): a staff token can never be
    // mistaken for a member's, and deleting an account drops its sessions by cascade.
    await db.schema
      .createTable('staff_sessions')
      .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('staff_account_id', 'integer', (c) =>
        c.notNull().references('staff_accounts.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_activity', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();

    await db.schema
      .createTable('reports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('author_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('author_steamid', 'text', (c) => c.notNull())
      .addColumn('author_username', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('scan_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('filename', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('managed_by', 'text')
      .addColumn('managed_by_steamid', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reports_created').on('reports').column('created_at').execute();

    await db.schema
      .createTable('notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('steam_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('steam_username', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('scan_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notifications_created')
      .on('notifications')
      .column('created_at')
      .execute();

    // A notification is shared by all staff; whether one staff member read or deleted it is a
    // row here keyed by the reader ('member:<users.id>' or 'staff:<staff_accounts.id>').
    await db.schema
      .createTable('notification_states')
      .addColumn('notification_id', 'text', (c) =>
        c.notNull().references('notifications.id').onDelete('cascade'),
      )
      .addColumn('reader', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .addColumn('deleted_at', 'text')
      .addPrimaryKeyConstraint('notification_states_pk', ['notification_id', 'reader'])
      .execute();
    await db.schema
      .createIndex('notification_states_reader')
      .on('notification_states')
      .column('reader')
      .execute();

    await db.schema
      .alterTable('credit_transactions')
      .addColumn('actor_staff_account_id', 'integer')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('credit_transactions')
      .dropColumn('actor_staff_account_id')
      .execute();
    for (const table of [
      'notification_states',
      'notifications',
      'reports',
      'staff_sessions',
      'staff_accounts',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
