// Member and operations: the per-member marker of the last daily credit reset (so a reset is
// applied once per period, by the scheduler or lazily on the member's next call) and the time
// a scan's archive and result were purged after the retention window.
import type { Kysely, Migration } from 'kysely';

export const memberOperations: Migration = {
  async up(db: Kysely<unknown>) {
    // Local calendar date (YYYY-MM-DD in CREDIT_RESET_TZ) of the last reset period applied.
    await db.schema.alterTable('users').addColumn('credits_reset_period', 'text').execute();
    await db.schema.alterTable('scans').addColumn('purged_at', 'text').execute();
    await db.schema
      .createIndex('scans_retention')
      .on('scans')
      .columns(['purged_at', 'expires_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('scans_retention').execute();
    await db.schema.alterTable('scans').dropColumn('purged_at').execute();
    await db.schema.alterTable('users').dropColumn('credits_reset_period').execute();
  },
};
