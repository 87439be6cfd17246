// Scan retention: a scan is active for the retention window after upload; after it the
// archive file and the stored result are deleted, and the scan row stays as an expired record
// (the member's list shows it as expired; downloads answer 404 scan_expired).
import { rm } from 'node:fs/promises';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import { failScan } from './scans.js';

/** Past its window (even before the sweeper ran) or already purged. */
export function scanIsExpired(
  scan: { expires_at: string; purged_at: string | null },
  now: number,
): boolean {
  return scan.purged_at !== null || scan.expires_at <= nowIso(now);
}

/** Rows handled per sweep batch, so one sweep never holds the database for long. */
const BATCH = 200;

/**
 * Deletes archive and result of every scan past its window. A scan still queued that long is
 * failed (and refunded) first; a running one is left to its worker and purged next time.
 * The file goes first: a crash in between leaves a row the next sweep finishes.
 */
export async function purgeExpiredScans(db: Db, now: number): Promise<number> {
  let purged = 0;
  for (;;) {
    const due = await db
      .selectFrom('scans')
      .select(['id', 'archive_path', 'status'])
      .where('purged_at', 'is', null)
      .where('expires_at', '<=', nowIso(now))
      .where('status', '!=', 'running')
      .limit(BATCH)
      .execute();
    for (const scan of due) {
      if (scan.status === 'queued') {
        await failScan(db, scan.id, 'scan_expired', 'expired before it could run', now);
      }
      await rm(scan.archive_path, { force: true });
      await db
        .updateTable('scans')
        .set({ result_json: null, purged_at: nowIso(now) })
        .where('id', '=', scan.id)
        .where('purged_at', 'is', null)
        .execute();
      purged++;
    }
    if (due.length < BATCH) return purged;
  }
}
