// The credit ledger: every change of a member's credits is a signed row, and the balance is
// always their sum. Functions take a Kysely handle so callers can run them inside their own
// transaction (a spend is taken in the same transaction that creates the scan).
import { sql, type Kysely } from 'kysely';
import type { CreditTransaction, CreditTransactionType } from '@sentinelle/contracts';
import type { Database } from '../db/schema.js';
import { nowIso } from '../db/database.js';

export interface LedgerEntry {
  userId: number;
  type: CreditTransactionType;
  amount: number;
  message: string;
  scanId?: string | null;
  actorUserId?: number | null;
  /** The staff username/password account that made the change (it is not a member). */
  actorStaffAccountId?: number | null;
  /** When it happened (ms since epoch); the app's clock, Date.now() by default. */
  at?: number;
}

export async function balanceOf(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('credit_transactions')
    .select(sql<number>`coalesce(sum(amount), 0)`.as('balance'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.balance ?? 0);
}

export async function record(db: Kysely<Database>, entry: LedgerEntry): Promise<void> {
  await db
    .insertInto('credit_transactions')
    .values({
      user_id: entry.userId,
      type: entry.type,
      amount: entry.amount,
      message: entry.message,
      scan_id: entry.scanId ?? null,
      actor_user_id: entry.actorUserId ?? null,
      actor_staff_account_id: entry.actorStaffAccountId ?? null,
      created_at: nowIso(entry.at),
    })
    .execute();
}

/**
 * Gives back what a scan cost, once: the unique index on refunds makes a second attempt
 * (say a cancel racing a failing worker) a no-op.
 */
export async function refundScan(
  db: Kysely<Database>,
  scan: { id: string; user_id: number | null; cost: number; filename: string },
  now = Date.now(),
): Promise<void> {
  if (scan.user_id === null || scan.cost <= 0) return;
  await db
    .insertInto('credit_transactions')
    .values({
      user_id: scan.user_id,
      type: 'refund',
      amount: scan.cost,
      message: `Refund for ${scan.filename}`,
      scan_id: scan.id,
      actor_user_id: null,
      created_at: nowIso(now),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function historyOf(
  db: Kysely<Database>,
  userId: number,
  limit = 100,
): Promise<CreditTransaction[]> {
  const rows = await db
    .selectFrom('credit_transactions')
    .select(['type', 'amount', 'message', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    type: r.type,
    amount: r.amount,
    message: r.message,
    date: r.created_at,
  }));
}
