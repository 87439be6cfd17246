// Members signed in through Steam: created on first sign-in with their starting credits (one
// transaction), refreshed on each sign-in, and shown as the contracts' User.
import { RANK_TABLE, type User } from '@sentinelle/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { UsersTable } from '../db/schema.js';
import { balanceOf, record } from './creditLedger.js';
import { levelOf } from './levels.js';
import { dropMemberSessions } from './memberDirectory.js';
import { notifyStaff } from './notifications.js';

export type UserRow = Selectable<UsersTable>;

export interface SignInPolicy {
  startingCredits: number;
  superAdmins: readonly string[];
}

/** Finds or creates the member of a verified SteamID64 and stamps the sign-in. */
export async function signInSteamMember(
  db: Db,
  steamId: string,
  policy: SignInPolicy,
): Promise<UserRow> {
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('users')
      .selectAll()
      .where('steam_id', '=', steamId)
      .executeTakeFirst();
    const superAdmin = policy.superAdmins.includes(steamId);
    if (existing) {
      const rank = superAdmin ? 'super_admin' : existing.rank;
      await trx
        .updateTable('users')
        .set({ last_login: now, rank })
        .where('id', '=', existing.id)
        .execute();
      // Promoted by SENTINELLE_SUPER_ADMINS: sessions opened under the old rank end.
      if (rank !== existing.rank) await dropMemberSessions(trx, existing.id);
      return { ...existing, last_login: now, rank };
    }
    const name = `Player ${steamId.slice(-5)}`;
    const created = await trx
      .insertInto('users')
      .values({
        steam_id: steamId,
        username: name,
        personaname: name,
        avatar: '',
        avatar_medium: '',
        avatar_full: '',
        profile_url: `https://steamcommunity.com/profiles/${steamId}`,
        rank: superAdmin ? 'super_admin' : 'member',
        xp: 0,
        first_login: now,
        last_login: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await notifyStaff(trx, { type: 'new_member', steamId, steamUsername: name });
    if (policy.startingCredits > 0) {
      await record(trx, {
        userId: created.id,
        type: 'reset',
        amount: policy.startingCredits,
        message: 'Starting credits',
      });
    }
    return created;
  });
}

export async function memberById(db: Db, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function toUser(db: Db, row: UserRow): Promise<User> {
  const { level, progressPercent } = levelOf(row.xp);
  const rankInfo = RANK_TABLE[row.rank];
  return {
    username: row.username,
    steamid: row.steam_id,
    avatar: row.avatar_full || row.avatar_medium || row.avatar,
    level,
    level_progress_percentage: progressPercent,
    xp: row.xp,
    credits: await balanceOf(db, row.id),
    is_admin: rankInfo.permissions.admin_access,
    rank: row.rank,
    rank_info: rankInfo,
    account_kind: 'steam',
  };
}
