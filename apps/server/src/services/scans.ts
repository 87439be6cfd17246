// Business rules of a scan's life: accepting it (credits taken in the same transaction that
// records it), reading it as its owner, cancelling, and recording how the worker ended.
import {
  SCAN_RETENTION_SECONDS,
  XP_PER_SCAN,
  type Language,
  type ScanListItem,
  type ScanResult,
  type ScanType,
} from '@sentinelle/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { ScansTable } from '../db/schema.js';
import { ApiProblem } from '../errors/apiProblem.js';
import { balanceOf, record, refundScan } from './creditLedger.js';
import { notifyStaff } from './notifications.js';

export type ScanRow = Selectable<ScansTable>;

/** The columns a scan list shows. */
export type ScanListRow = Pick<
  ScanRow,
  | 'id'
  | 'filename'
  | 'score'
  | 'scan_type'
  | 'status'
  | 'created_at'
  | 'completed_at'
  | 'file_size'
  | 'threat_count'
  | 'expires_at'
>;

/** One line of a scan list, as both the member's own list and the staff history show it. */
export function scanListItem(row: ScanListRow, steamId: string): ScanListItem {
  return {
    scan_id: row.id,
    filename: row.filename,
    steam_id: steamId,
    score: row.score,
    scan_type: row.scan_type,
    status: row.status,
    upload_date: row.created_at,
    scan_date: row.completed_at,
    file_size: row.file_size,
    threat_count: row.threat_count,
    expires_at: row.expires_at,
  };
}

export interface AcceptedUpload {
  scanId: string;
  userId: number;
  filename: string;
  fileSize: number;
  scanType: ScanType;
  language: Language;
  archivePath: string;
  cost: number;
  /** How long archive and result are kept; SCAN_RETENTION_SECONDS by default. */
  retentionSeconds?: number;
}

/** Throws insufficient_credits when the member cannot pay `cost`. */
export async function assertCanPay(db: Db, userId: number, cost: number): Promise<void> {
  const balance = await balanceOf(db, userId);
  if (balance < cost) {
    throw new ApiProblem('insufficient_credits', 402, { details: { balance, required: cost } });
  }
}

/** One transaction: balance check, spend row, queued scan row. Nothing is written on refusal. */
export async function acceptScan(db: Db, upload: AcceptedUpload, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const balance = await balanceOf(trx, upload.userId);
    if (balance < upload.cost) {
      throw new ApiProblem('insufficient_credits', 402, {
        details: { balance, required: upload.cost },
      });
    }
    await trx
      .insertInto('scans')
      .values({
        id: upload.scanId,
        user_id: upload.userId,
        filename: upload.filename,
        file_size: upload.fileSize,
        status: 'queued',
        scan_type: upload.scanType,
        language: upload.language,
        archive_path: upload.archivePath,
        cost: upload.cost,
        result_json: null,
        score: null,
        threat_count: 0,
        error_code: null,
        error_message: null,
        created_at: nowIso(now),
        started_at: null,
        completed_at: null,
        expires_at: nowIso(now + (upload.retentionSeconds ?? SCAN_RETENTION_SECONDS) * 1000),
      })
      .execute();
    await record(trx, {
      userId: upload.userId,
      type: 'spend',
      amount: -upload.cost,
      message: `Scan of ${upload.filename}`,
      scanId: upload.scanId,
      at: now,
    });
    const member = await trx
      .selectFrom('users')
      .select(['steam_id', 'username'])
      .where('id', '=', upload.userId)
      .executeTakeFirst();
    await notifyStaff(
      trx,
      {
        type: 'new_scan',
        scanId: upload.scanId,
        steamId: member?.steam_id,
        steamUsername: member?.username,
      },
      now,
    );
  });
}

/** The scan as its owner may see it; someone else's scan is reported as not found. */
export async function scanOfOwner(db: Db, scanId: string, userId: number): Promise<ScanRow> {
  const scan = await db.selectFrom('scans').selectAll().where('id', '=', scanId).executeTakeFirst();
  if (!scan || scan.user_id !== userId)
    throw new ApiProblem('not_found', 404, { messageKey: 'scan_not_found' });
  return scan;
}

/** Marks a queued or running scan cancelled and refunds it; false when it had already ended. */
export async function cancelScan(db: Db, scanId: string, now = Date.now()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const scan = await trx
      .updateTable('scans')
      .set({ status: 'cancelled', completed_at: nowIso(now) })
      .where('id', '=', scanId)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
    if (!scan) return false;
    await refundScan(trx, scan, now);
    return true;
  });
}

/** Takes the oldest queued scan for a worker; the status guard makes the claim exclusive. */
export async function claimNextQueued(db: Db, now = Date.now()): Promise<ScanRow | undefined> {
  const next = await db
    .selectFrom('scans')
    .select('id')
    .where('status', '=', 'queued')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (!next) return undefined;
  return db
    .updateTable('scans')
    .set({ status: 'running', started_at: nowIso(now) })
    .where('id', '=', next.id)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Stores a finished result and gives the member their XP; ignored if the scan was cancelled meanwhile. */
export async function completeScan(
  db: Db,
  scanId: string,
  result: ScanResult,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const scan = await trx
      .updateTable('scans')
      .set({
        status: 'completed',
        result_json: JSON.stringify(result),
        score: result.score,
        threat_count: result.threats.length,
        completed_at: nowIso(now),
      })
      .where('id', '=', scanId)
      .where('status', '=', 'running')
      .returning(['user_id'])
      .executeTakeFirst();
    if (!scan) return false;
    if (scan.user_id !== null) {
      await trx
        .updateTable('users')
        .set({ xp: sql`xp + ${XP_PER_SCAN}` })
        .where('id', '=', scan.user_id)
        .execute();
    }
    return true;
  });
}

/** Records a failure (unreadable archive, timeout, crash) and refunds; ignored if already ended. */
export async function failScan(
  db: Db,
  scanId: string,
  errorCode: string,
  errorMessage: string,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const scan = await trx
      .updateTable('scans')
      .set({
        status: 'failed',
        error_code: errorCode,
        error_message: errorMessage.slice(0, 500),
        completed_at: nowIso(now),
      })
      .where('id', '=', scanId)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
    if (!scan) return false;
    await refundScan(trx, scan, now);
    return true;
  });
}

/** After a restart: scans a dead process left running go back to the queue. */
export async function requeueInterrupted(db: Db): Promise<number> {
  const result = await db
    .updateTable('scans')
    .set({ status: 'queued', started_at: null })
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** At shutdown: the scans this process was still running go back to the queue. */
export async function requeueScans(db: Db, scanIds: readonly string[]): Promise<number> {
  if (scanIds.length === 0) return 0;
  const result = await db
    .updateTable('scans')
    .set({ status: 'queued', started_at: null })
    .where('id', 'in', scanIds)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function queueCounts(db: Db): Promise<{ queued: number; running: number }> {
  const rows = await db
    .selectFrom('scans')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { queued: count('queued'), running: count('running') };
}

/** The stored result, with its texts switched to the language the reader asked for. */
export function resultIn(scan: ScanRow, language: Language): ScanResult {
  const result = JSON.parse(scan.result_json ?? 'null') as ScanResult;
  return {
    ...result,
    threats: result.threats.map((t) => ({ ...t, ...t.localized[language] })),
    recommendations: result.recommendations.map((r) => ({ ...r, text: r.localized[language] })),
  };
}
