// The staff view of scans: every scan with its member's name (anonymous ones too), totals,
// the original archives still kept, deleting a scan for good, and finding an archive to
// download from a name given in a URL without ever using that name as a path.
import { stat } from 'node:fs/promises';
import { rm } from 'node:fs/promises';
import { basename, resolve, sep } from 'node:path';
import { sql } from 'kysely';
import type { ScanListItem, ScanStats } from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import { scanIsExpired } from './retention.js';
import { scanListItem, type ScanRow } from './scans.js';

/** The admin list answers the newest this many scans. */
export const ADMIN_SCAN_LIST_LIMIT = 2000;

export type AdminScanItem = ScanListItem & { username: string };

export async function allScans(db: Db): Promise<AdminScanItem[]> {
  const rows = await db
    .selectFrom('scans as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select(['u.steam_id', 'u.username'])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(ADMIN_SCAN_LIST_LIMIT)
    .execute();
  return rows.map((row) => ({
    ...scanListItem(row, row.steam_id ?? ''),
    username: row.username ?? '',
  }));
}

/** A scan whose member is gone (or never signed in) counts as anonymous. */
export async function scanStats(db: Db): Promise<ScanStats> {
  const row = await db
    .selectFrom('scans')
    .select([sql<number>`count(*)`.as('total'), sql<number>`count(user_id)`.as('authenticated')])
    .executeTakeFirst();
  const total = Number(row?.total ?? 0);
  const authenticated = Number(row?.authenticated ?? 0);
  return {
    total_scans: total,
    authenticated_scans: authenticated,
    anonymous_scans: total - authenticated,
  };
}

/** The archive path of a scan, only if it lies inside the archives folder. */
export function archiveInside(archivesDir: string, scan: ScanRow): string | null {
  const root = resolve(archivesDir);
  const path = resolve(scan.archive_path);
  return path.startsWith(root + sep) ? path : null;
}

async function sizeOf(path: string | null): Promise<number | null> {
  if (!path) return null;
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/** Original archives still on disk: the stored file name (`<scan id>.zip`), its scan and size. */
export async function keptArchives(
  db: Db,
  archivesDir: string,
): Promise<{ filename: string; scan_id: string; size: number }[]> {
  const scans = await db
    .selectFrom('scans')
    .selectAll()
    .where('purged_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(ADMIN_SCAN_LIST_LIMIT)
    .execute();
  const files = [];
  for (const scan of scans) {
    const path = archiveInside(archivesDir, scan);
    const size = await sizeOf(path);
    if (path && size !== null) files.push({ filename: basename(path), scan_id: scan.id, size });
  }
  return files;
}

/**
 * The scan whose original archive `name` designates: its scan id, its stored file name
 * (`<scan id>.zip`, as /api/admin/files lists it), or else the uploaded file name (the
 * newest scan of that name). The name is only compared with database values.
 */
export async function scanForDownload(db: Db, name: string): Promise<ScanRow | undefined> {
  const byId = await db.selectFrom('scans').selectAll().where('id', '=', name).executeTakeFirst();
  if (byId) return byId;
  const stored = /^([0-9a-f]{32})\.zip$/i.exec(name);
  if (stored) {
    const scan = await db
      .selectFrom('scans')
      .selectAll()
      .where('id', '=', stored[1]!.toLowerCase())
      .executeTakeFirst();
    if (scan) return scan;
  }
  return db
    .selectFrom('scans')
    .selectAll()
    .where('filename', '=', name)
    .where('purged_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** The kept archive file of a scan, or null when it is gone (expired, deleted, outside). */
export async function keptArchiveOf(
  archivesDir: string,
  scan: ScanRow,
  now: number,
): Promise<{ path: string; size: number } | null> {
  if (scanIsExpired(scan, now)) return null;
  const path = archiveInside(archivesDir, scan);
  const size = await sizeOf(path);
  return path && size !== null ? { path, size } : null;
}

/** Deletes the scan row (its result with it) and its archive; nothing is refunded. */
export async function deleteScanForGood(
  db: Db,
  archivesDir: string,
  scanId: string,
): Promise<boolean> {
  const scan = await db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirst();
  if (!scan) return false;
  await db.deleteFrom('scans').where('id', '=', scanId).execute();
  const path = archiveInside(archivesDir, scan);
  if (path) await rm(path, { force: true });
  return true;
}

/** `name.zip` → `name_result.txt`, as the spec's client saves it. */
export function resultFileName(filename: string): string {
  const base = filename.replace(/\.zip$/i, '') || 'scan';
  return `${base}_result.txt`;
}

/** A Content-Disposition value for any file name: ASCII fallback plus the RFC 5987 UTF-8 form. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
