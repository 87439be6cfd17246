// A member's credit overview (spec §3 "Credits info"): balance, countdown to the next daily
// reset and the ledger newest first, each row described in the reader's language from its
// type (stored messages are English notes for the staff; members read these).
import type { CreditsInfo, CreditTransactionType, Language } from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import { balanceOf } from './creditLedger.js';
import { RESET_MESSAGE, timeUntil, type CreditResets } from './creditReset.js';

/** The ledger shown to a member is capped; the balance is always the sum of all rows. */
export const HISTORY_LIMIT = 500;

const DESCRIPTIONS: Record<CreditTransactionType, Record<Language, string>> = {
  spend: { en: 'Scan of {file}', fr: 'Analyse de {file}' },
  map_protection: { en: 'Map protection of {file}', fr: 'Protection de carte pour {file}' },
  refund: { en: 'Refund for {file}', fr: 'Remboursement pour {file}' },
  reset: {
    en: 'Daily reset: {credits} credits',
    fr: 'Réinitialisation quotidienne : {credits} crédits',
  },
  admin_add: { en: 'Credits added by the staff', fr: "Crédits ajoutés par l'équipe" },
  admin_remove: { en: 'Credits removed by the staff', fr: "Crédits retirés par l'équipe" },
  purchase: { en: 'Credits purchased', fr: 'Achat de crédits' },
};
const STARTING = { en: 'Starting credits', fr: 'Crédits de départ' } as const;
const UNKNOWN_FILE = { en: 'a deleted scan', fr: 'une analyse supprimée' } as const;

interface LedgerRow {
  type: CreditTransactionType;
  amount: number;
  message: string;
  filename: string | null;
}

export function describeTransaction(row: LedgerRow, language: Language): string {
  if (row.type === 'reset' && !row.message.startsWith(RESET_MESSAGE)) return STARTING[language];
  const credits = /(\d+) credits$/.exec(row.message)?.[1] ?? String(row.amount);
  return DESCRIPTIONS[row.type][language]
    .replace('{file}', row.filename ?? UNKNOWN_FILE[language])
    .replace('{credits}', credits);
}

export async function creditsInfo(
  db: Db,
  resets: CreditResets,
  userId: number,
  language: Language,
  now: number,
): Promise<CreditsInfo> {
  let resetInProgress = false;
  try {
    await resets.applyDue(userId, now);
  } catch {
    // The database was busy; the job or the next call applies it. Say so rather than fail.
    resetInProgress = true;
  }
  const rows = await db
    .selectFrom('credit_transactions as t')
    .leftJoin('scans as s', 's.id', 't.scan_id')
    .select(['t.type', 't.amount', 't.message', 't.created_at', 's.filename'])
    .where('t.user_id', '=', userId)
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  return {
    credits: await balanceOf(db, userId),
    time_until_reset: timeUntil(resets.period(now).nextAt, now),
    transactions: rows.map((row) => ({
      type: row.type,
      amount: row.amount,
      message: describeTransaction(row, language),
      date: row.created_at,
    })),
    reset_in_progress: resetInProgress || resets.sweepInProgress,
  };
}
