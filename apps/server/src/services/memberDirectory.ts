// The staff view of members: search, totals, and the two edits staff may make: set a
// member's credits (one ledger row for the difference) and change their rank (which drops
// their sessions so the new rights apply at once).
import { sql } from 'kysely';
import type { Member, MemberStats, Rank } from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import { ApiProblem } from '../errors/apiProblem.js';
import type { Actor } from '../plugins/staffAuth.js';
import { balanceOf, record } from './creditLedger.js';
import { levelOf } from './levels.js';
import type { UserRow } from './members.js';

/** The member list answers at most this many (newest sign-ins first); `total` counts all matches. */
export const MEMBER_LIST_LIMIT = 1000;

/** LIKE pattern matching `term` anywhere, with %, _ and \ taken literally. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchFilter(search: string | undefined) {
  const term = search?.trim() ?? '';
  if (term === '') return null;
  const pattern = containing(term);
  return sql<boolean>`(u.username like ${pattern} escape '\\' or u.personaname like ${pattern} escape '\\' or u.steam_id like ${pattern} escape '\\')`;
}

export async function searchMembers(
  db: Db,
  search: string | undefined,
): Promise<{ members: Member[]; total: number }> {
  const filter = searchFilter(search);
  let query = db.selectFrom('users as u');
  if (filter) query = query.where(filter);
  const totalRow = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const rows = await query
    .selectAll('u')
    .select([
      sql<number>`coalesce((select sum(amount) from credit_transactions c where c.user_id = u.id), 0)`.as(
        'credits',
      ),
      // Scans the member ran (paid and not refunded), counted from the ledger so the figure
      // survives the 48-hour deletion of the scans themselves.
      sql<number>`(select count(*) from credit_transactions c where c.user_id = u.id and c.scan_id is not null and c.type = 'spend')
        - (select count(*) from credit_transactions c where c.user_id = u.id and c.scan_id is not null and c.type = 'refund')`.as(
        'scan_count',
      ),
    ])
    .orderBy('u.last_login', 'desc')
    .orderBy('u.id', 'desc')
    .limit(MEMBER_LIST_LIMIT)
    .execute();
  return {
    total: Number(totalRow?.n ?? 0),
    members: rows.map((row) => {
      const { level, progressPercent } = levelOf(row.xp);
      return {
        steam_id: row.steam_id,
        username: row.username,
        personaname: row.personaname,
        avatar: row.avatar_medium || row.avatar,
        avatarfull: row.avatar_full || row.avatar_medium || row.avatar,
        profile_url: row.profile_url,
        rank: row.rank,
        credits: Number(row.credits),
        level,
        level_progress_percentage: progressPercent,
        scan_count: Math.max(0, Number(row.scan_count)),
        first_login: row.first_login,
        last_login: row.last_login,
      };
    }),
  };
}

export async function memberStats(db: Db): Promise<MemberStats> {
  const row = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  return { total_members: Number(row?.n ?? 0) };
}

export async function memberBySteamId(db: Db, steamId: string): Promise<UserRow> {
  const member = await db
    .selectFrom('users')
    .selectAll()
    .where('steam_id', '=', steamId)
    .executeTakeFirst();
  if (!member) throw new ApiProblem('not_found', 404, { messageKey: 'member_not_found' });
  return member;
}

/**
 * Sets the balance to `credits` by writing one admin_add or admin_remove row for the
 * difference (none when it is already right), so the balance stays the ledger's sum.
 */
export async function setMemberCredits(
  db: Db,
  steamId: string,
  credits: number,
  actor: Actor,
  now = Date.now(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const member = await memberBySteamId(trx, steamId);
    const difference = credits - (await balanceOf(trx, member.id));
    if (difference !== 0) {
      await record(trx, {
        userId: member.id,
        type: difference > 0 ? 'admin_add' : 'admin_remove',
        amount: difference,
        message: `Balance set to ${credits} by ${actor.name}`,
        actorUserId: actor.kind === 'member' ? actor.user.id : null,
        actorStaffAccountId: actor.kind === 'staff' ? actor.account.id : null,
        at: now,
      });
    }
    return balanceOf(trx, member.id);
  });
}

/**
 * Gives a member a new rank. super_admin is never given nor taken here (it comes from
 * SENTINELLE_SUPER_ADMINS), and nobody changes their own rank. A real change drops the
 * member's sessions and unused login tickets.
 */
export async function setMemberRank(
  db: Db,
  steamId: string,
  rank: Rank,
  actor: Actor,
): Promise<Rank> {
  if (rank === 'super_admin') throw new ApiProblem('rank_not_assignable', 400);
  return db.transaction().execute(async (trx) => {
    const member = await memberBySteamId(trx, steamId);
    if (actor.kind === 'member' && actor.user.id === member.id)
      throw new ApiProblem('own_rank', 403);
    if (member.rank === 'super_admin')
      throw new ApiProblem('forbidden', 403, { messageKey: 'super_admin_rank_locked' });
    if (member.rank === rank) return rank;
    await trx.updateTable('users').set({ rank }).where('id', '=', member.id).execute();
    await dropMemberSessions(trx, member.id);
    return rank;
  });
}

/** Ends every session of a member: their next call needs a new sign-in. */
export async function dropMemberSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('login_tickets').where('user_id', '=', userId).execute();
}
