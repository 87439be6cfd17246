// Staff username/password accounts (created with `npm run admin -- create`), their login and
// their sessions. A staff account acts with its own rank on the staff calls; it is not a
// Steam member (no credits, no scans).
import type { Selectable } from 'kysely';
import { RANK_TABLE, type Rank, type User } from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { StaffAccountsTable } from '../db/schema.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import {
  hashToken,
  newToken,
  revokeSessionIn,
  touchSessionIn,
  type SessionCheck,
} from './sessions.js';

export type StaffAccountRow = Selectable<StaffAccountsTable>;

/** Ranks a staff account may hold: a staff account with no staff rights would be useless. */
export const STAFF_ACCOUNT_RANKS = [
  'support',
  'administrator',
  'super_admin',
] as const satisfies readonly Rank[];
export type StaffAccountRank = (typeof STAFF_ACCOUNT_RANKS)[number];
export const STAFF_USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$/;
export const STAFF_PASSWORD_MIN_LENGTH = 12;
export const STAFF_PASSWORD_MAX_LENGTH = 1024;

export class StaffAccountError extends Error {}

export async function createStaffAccount(
  db: Db,
  input: { username: string; password: string; rank: StaffAccountRank },
  now = Date.now(),
): Promise<StaffAccountRow> {
  if (!STAFF_USERNAME_PATTERN.test(input.username))
    throw new StaffAccountError(
      'the username must be 3 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  if (input.password.length < STAFF_PASSWORD_MIN_LENGTH)
    throw new StaffAccountError(
      `the password must have at least ${STAFF_PASSWORD_MIN_LENGTH} characters`,
    );
  if (input.password.length > STAFF_PASSWORD_MAX_LENGTH)
    throw new StaffAccountError(
      `the password must have at most ${STAFF_PASSWORD_MAX_LENGTH} characters`,
    );
  if (!(STAFF_ACCOUNT_RANKS as readonly string[]).includes(input.rank))
    throw new StaffAccountError(`the rank must be one of ${STAFF_ACCOUNT_RANKS.join(', ')}`);
  const existing = await staffAccountByUsername(db, input.username);
  if (existing)
    throw new StaffAccountError(`the staff account "${existing.username}" already exists`);
  return db
    .insertInto('staff_accounts')
    .values({
      username: input.username,
      password_hash: await hashPassword(input.password),
      rank: input.rank,
      created_at: nowIso(now),
      last_login: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function staffAccountByUsername(
  db: Db,
  username: string,
): Promise<StaffAccountRow | undefined> {
  return db
    .selectFrom('staff_accounts')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirst();
}

export async function staffAccountById(db: Db, id: number): Promise<StaffAccountRow | undefined> {
  return db.selectFrom('staff_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listStaffAccounts(db: Db): Promise<StaffAccountRow[]> {
  return db.selectFrom('staff_accounts').selectAll().orderBy('username').execute();
}

/** Deletes the account; its sessions go with it (foreign-key cascade). */
export async function deleteStaffAccount(db: Db, username: string): Promise<boolean> {
  const result = await db
    .deleteFrom('staff_accounts')
    .where('username', '=', username)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Sets a new password and drops every open session of the account. */
export async function setStaffPassword(
  db: Db,
  username: string,
  password: string,
): Promise<boolean> {
  if (password.length < STAFF_PASSWORD_MIN_LENGTH || password.length > STAFF_PASSWORD_MAX_LENGTH)
    throw new StaffAccountError(
      `the password must have ${STAFF_PASSWORD_MIN_LENGTH} to ${STAFF_PASSWORD_MAX_LENGTH} characters`,
    );
  const account = await staffAccountByUsername(db, username);
  if (!account) return false;
  const password_hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('staff_accounts')
      .set({ password_hash })
      .where('id', '=', account.id)
      .execute();
    await trx.deleteFrom('staff_sessions').where('staff_account_id', '=', account.id).execute();
  });
  return true;
}

/**
 * Checks a username and password and opens a session; null when either is wrong. An unknown
 * username still costs one scrypt check (against a decoy hash), so timing does not tell
 * which usernames exist.
 */
export async function staffLogin(
  db: Db,
  username: string,
  password: string,
  inactivitySeconds: number,
  now = Date.now(),
): Promise<string | null> {
  const account = await staffAccountByUsername(db, username);
  const matches = await verifyPassword(password, account?.password_hash ?? (await decoyHash()));
  if (!account || !matches) return null;
  const token = newToken();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('staff_sessions')
      .values({
        token_hash: hashToken(token),
        staff_account_id: account.id,
        created_at: nowIso(now),
        last_activity: nowIso(now),
        expires_at: nowIso(now + inactivitySeconds * 1000),
        revoked_at: null,
      })
      .execute();
    await trx
      .updateTable('staff_accounts')
      .set({ last_login: nowIso(now) })
      .where('id', '=', account.id)
      .execute();
  });
  return token;
}

/** Same contract as touchSession() for member sessions, for a staff token. */
export async function touchStaffSession(
  db: Db,
  token: string,
  inactivitySeconds: number,
  now = Date.now(),
): Promise<SessionCheck> {
  return touchSessionIn(db, 'staff_sessions', token, inactivitySeconds, now);
}

export async function revokeStaffSession(db: Db, token: string, now = Date.now()): Promise<void> {
  await revokeSessionIn(db, 'staff_sessions', token, now);
}

/** /api/auth/me for a staff session: a User with no Steam identity, credits or level. */
export function staffUser(account: StaffAccountRow): User {
  const rankInfo = RANK_TABLE[account.rank];
  return {
    username: account.username,
    steamid: '',
    avatar: '',
    level: 0,
    level_progress_percentage: 0,
    xp: 0,
    credits: 0,
    is_admin: rankInfo.permissions.admin_access,
    rank: account.rank,
    rank_info: rankInfo,
    account_kind: 'staff',
  };
}

/** True for a live staff token; used to tell a staff account it cannot use the member calls. */
export async function isLiveStaffToken(db: Db, token: string, now = Date.now()): Promise<boolean> {
  const session = await db
    .selectFrom('staff_sessions')
    .select('id')
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowIso(now))
    .executeTakeFirst();
  return session !== undefined;
}
