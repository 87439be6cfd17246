// Problem reports: sent by signed-in members from the result page (spec §5 rules), read and
// handled by staff. The category is stored as the member-form key whatever spelling came in.
import { randomBytes } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import {
  REPORT_CATEGORIES,
  REPORT_CATEGORY_FRENCH_LABELS,
  type Language,
  type Report,
  type ReportCategory,
  type ReportStats,
  type ReportStatus,
} from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { ReportsTable } from '../db/schema.js';
import { notifyStaff } from './notifications.js';
import type { UserRow } from './members.js';

type ReportRow = Selectable<ReportsTable>;

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

/** Every accepted spelling → key: the key, its snake_case, its French label (any case/accents). */
const CATEGORY_SPELLINGS = new Map<string, ReportCategory>(
  REPORT_CATEGORIES.flatMap((key) => [
    [fold(key), key],
    [fold(snakeCase(key)), key],
    [fold(REPORT_CATEGORY_FRENCH_LABELS[key]), key],
  ]),
);

/** The member-form key of a category as sent, or null when it is none of them. */
export function reportCategoryOf(sent: string): ReportCategory | null {
  return CATEGORY_SPELLINGS.get(fold(sent)) ?? null;
}

function toReport(row: ReportRow): Report {
  return {
    id: row.id,
    category: row.category,
    status: row.status,
    message: row.message,
    author_steamid: row.author_steamid,
    author_username: row.author_username,
    language: row.language,
    scan_id: row.scan_id,
    filename: row.filename,
    managed_by: row.managed_by,
    managed_by_steamid: row.managed_by_steamid,
    created_at: row.created_at,
  };
}

export interface NewReport {
  category: ReportCategory;
  message: string;
  fileName: string;
  scanId: string;
  language: Language;
}

/** Stores the report and tells staff, in one transaction. */
export async function createReport(
  db: Db,
  author: UserRow,
  report: NewReport,
  now = Date.now(),
): Promise<Report> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('reports')
      .values({
        id: randomBytes(12).toString('hex'),
        category: report.category,
        status: 'open',
        message: report.message,
        author_user_id: author.id,
        author_steamid: author.steam_id,
        author_username: author.username,
        language: report.language,
        scan_id: report.scanId,
        filename: report.fileName,
        managed_by: null,
        managed_by_steamid: null,
        created_at: nowIso(now),
        updated_at: nowIso(now),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await notifyStaff(
      trx,
      {
        type: 'new_report',
        steamId: author.steam_id,
        steamUsername: author.username,
        scanId: report.scanId,
        category: report.category,
      },
      now,
    );
    return toReport(row);
  });
}

export async function listReports(db: Db): Promise<Report[]> {
  const rows = await db
    .selectFrom('reports')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toReport);
}

/** open counts reports still to handle (open, in_progress); closed counts closed and cancelled. */
export async function reportStats(db: Db): Promise<ReportStats> {
  const rows = await db
    .selectFrom('reports')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  const count = (...statuses: ReportStatus[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0);
  return {
    total_reports: count('open', 'in_progress', 'closed', 'cancelled'),
    open_reports: count('open', 'in_progress'),
    closed_reports: count('closed', 'cancelled'),
  };
}

/** Any status may move to any other; the acting staff member is recorded as its manager. */
export async function setReportStatus(
  db: Db,
  id: string,
  status: ReportStatus,
  manager: { name: string; steamId: string | null },
  now = Date.now(),
): Promise<Report | undefined> {
  const row = await db
    .updateTable('reports')
    .set({
      status,
      managed_by: manager.name,
      managed_by_steamid: manager.steamId,
      updated_at: nowIso(now),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toReport(row) : undefined;
}

export async function deleteReport(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('reports').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
