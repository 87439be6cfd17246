// Login tickets and sessions. A ticket is what /auth/success carries: single use, 60 s. It is
// exchanged for an opaque session token; both are stored only as sha256 hashes. A session
// dies after the inactivity limit, on logout, or when revoked. Staff sessions (another table)
// are checked and revoked by the same code.
import { createHash, randomBytes } from 'node:crypto';
import { LOGIN_TICKET_TTL_SECONDS } from '@sentinelle/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** An opaque bearer token (or login ticket): 256 random bits. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function issueLoginTicket(db: Db, userId: number, now = Date.now()): Promise<string> {
  const ticket = newToken();
  await db
    .insertInto('login_tickets')
    .values({
      ticket_hash: hashToken(ticket),
      user_id: userId,
      created_at: nowIso(now),
      expires_at: nowIso(now + LOGIN_TICKET_TTL_SECONDS * 1000),
      used_at: null,
    })
    .execute();
  return ticket;
}

/** Spends a ticket (once) and opens a session; null when the ticket is unknown, used or expired. */
export async function exchangeTicket(
  db: Db,
  ticket: string,
  inactivitySeconds: number,
  now = Date.now(),
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('login_tickets')
      .set({ used_at: nowIso(now) })
      .where('ticket_hash', '=', hashToken(ticket))
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso(now))
      .returning(['user_id'])
      .executeTakeFirst();
    if (!spent) return null;
    const token = newToken();
    await trx
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        user_id: spent.user_id,
        created_at: nowIso(now),
        last_activity: nowIso(now),
        expires_at: nowIso(now + inactivitySeconds * 1000),
        revoked_at: null,
      })
      .execute();
    return token;
  });
}

/** Calls closer together than this refresh the session once. */
export const ACTIVITY_WRITE_INTERVAL_MS = 5_000;

export type SessionCheck =
  { kind: 'ok'; userId: number } | { kind: 'expired' } | { kind: 'unknown' };

/** Member sessions and staff sessions are kept in two tables with the same token columns. */
export type SessionTable = 'sessions' | 'staff_sessions';

/** The column naming who a session belongs to: a member, or a staff account. */
const SESSION_OWNER = { sessions: 'user_id', staff_sessions: 'staff_account_id' } as const;

/**
 * Looks a bearer token up in `table` and, when alive, counts this call as activity. Activity
 * is recorded at most every ACTIVITY_WRITE_INTERVAL_MS: a burst of calls costs one write, and
 * the inactivity limit (minutes) moves by no more than that.
 */
export async function touchSessionIn(
  db: Db,
  table: SessionTable,
  token: string,
  inactivitySeconds: number,
  now = Date.now(),
): Promise<SessionCheck> {
  const session = await db
    .selectFrom(table)
    .select(['id', 'last_activity', 'expires_at', 'revoked_at'])
    .select(sql<number>`${sql.ref(SESSION_OWNER[table])}`.as('owner_id'))
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!session || session.revoked_at !== null) return { kind: 'unknown' };
  if (session.expires_at <= nowIso(now)) return { kind: 'expired' };
  if (now - Date.parse(session.last_activity) < ACTIVITY_WRITE_INTERVAL_MS) {
    return { kind: 'ok', userId: session.owner_id };
  }
  await db
    .updateTable(table)
    .set({ last_activity: nowIso(now), expires_at: nowIso(now + inactivitySeconds * 1000) })
    .where('id', '=', session.id)
    .execute();
  return { kind: 'ok', userId: session.owner_id };
}

/** Looks a member's bearer token up and, when alive, counts this call as activity. */
export async function touchSession(
  db: Db,
  token: string,
  inactivitySeconds: number,
  now = Date.now(),
): Promise<SessionCheck> {
  return touchSessionIn(db, 'sessions', token, inactivitySeconds, now);
}

/** Ends the session a token opened in `table`; one already revoked keeps its first time. */
export async function revokeSessionIn(
  db: Db,
  table: SessionTable,
  token: string,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable(table)
    .set({ revoked_at: nowIso(now) })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSession(db: Db, token: string, now = Date.now()): Promise<void> {
  await revokeSessionIn(db, 'sessions', token, now);
}

/** The database side of rule 7: a nonce is claimed once, ever (old ones are pruned). */
export async function claimOpenIdNonce(
  db: Db,
  key: string,
  time: Date,
  now = Date.now(),
): Promise<boolean> {
  await db
    .deleteFrom('openid_nonces')
    .where('nonce_time', '<', nowIso(now - 15 * 60 * 1000))
    .execute();
  const inserted = await db
    .insertInto('openid_nonces')
    .values({ nonce_key: key, nonce_time: time.toISOString(), created_at: nowIso(now) })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}
