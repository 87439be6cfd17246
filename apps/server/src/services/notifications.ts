// Staff notifications (new member, new report, new scan). One row per event is shared by all
// staff; each staff member's read and delete marks live in notification_states, so one
// admin reading or deleting a notification changes nothing for the others.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Notification, NotificationType } from '@sentinelle/contracts';
import type { Database } from '../db/schema.js';
import { nowIso } from '../db/database.js';

/** Notifications older than this are pruned when a new one arrives. */
export const NOTIFICATION_RETENTION_DAYS = 30;
/** The panel shows the newest ones; older ones stay countable until pruned. */
export const NOTIFICATION_LIST_LIMIT = 200;

export interface NewNotification {
  type: NotificationType;
  steamId?: string;
  steamUsername?: string;
  scanId?: string;
  category?: string;
}

/** Records an event for staff; takes a transaction so it commits with the event itself. */
export async function notifyStaff(
  db: Kysely<Database>,
  event: NewNotification,
  now = Date.now(),
): Promise<string> {
  const id = randomBytes(12).toString('hex');
  await db
    .insertInto('notifications')
    .values({
      id,
      type: event.type,
      steam_id: event.steamId ?? '',
      steam_username: event.steamUsername ?? '',
      scan_id: event.scanId ?? '',
      category: event.category ?? '',
      created_at: nowIso(now),
    })
    .execute();
  await db
    .deleteFrom('notifications')
    .where('created_at', '<', nowIso(now - NOTIFICATION_RETENTION_DAYS * 86_400_000))
    .execute();
  return id;
}

/** The notifications `reader` has not deleted, newest first, with their own read flag. */
function visibleTo(db: Kysely<Database>, reader: string) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('notification_states as s', (join) =>
      join.onRef('s.notification_id', '=', 'n.id').on('s.reader', '=', reader),
    )
    .where('s.deleted_at', 'is', null);
}

export async function unreadCount(db: Kysely<Database>, reader: string): Promise<number> {
  const row = await visibleTo(db, reader)
    .where('s.read_at', 'is', null)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function notificationsFor(
  db: Kysely<Database>,
  reader: string,
): Promise<Notification[]> {
  const rows = await visibleTo(db, reader)
    // The member's current name: a first sign-in is announced before Steam gave their name.
    .leftJoin('users as u', 'u.steam_id', 'n.steam_id')
    .select([
      'n.id',
      'n.type',
      'n.steam_id',
      sql<string>`coalesce(u.username, n.steam_username)`.as('steam_username'),
      'n.scan_id',
      'n.category',
      'n.created_at',
      's.read_at',
    ])
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(NOTIFICATION_LIST_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    read: r.read_at !== null,
    created_at: r.created_at,
    data: {
      ...(r.steam_id ? { steam_id: r.steam_id } : {}),
      ...(r.steam_username ? { steam_username: r.steam_username } : {}),
      ...(r.scan_id ? { scan_id: r.scan_id } : {}),
      ...(r.category ? { category: r.category } : {}),
    },
  }));
}

async function isVisible(db: Kysely<Database>, reader: string, id: string): Promise<boolean> {
  const row = await visibleTo(db, reader).where('n.id', '=', id).select('n.id').executeTakeFirst();
  return row !== undefined;
}

/** Marks one read for this reader; false when it does not exist or they deleted it. */
export async function markRead(
  db: Kysely<Database>,
  reader: string,
  id: string,
  now = Date.now(),
): Promise<boolean> {
  if (!(await isVisible(db, reader, id))) return false;
  await db
    .insertInto('notification_states')
    .values({ notification_id: id, reader, read_at: nowIso(now), deleted_at: null })
    .onConflict((oc) =>
      oc
        .columns(['notification_id', 'reader'])
        .doUpdateSet({ read_at: sql`coalesce(notification_states.read_at, excluded.read_at)` }),
    )
    .execute();
  return true;
}

/** Marks every notification this reader still sees as read; answers how many changed. */
export async function markAllRead(
  db: Kysely<Database>,
  reader: string,
  now = Date.now(),
): Promise<number> {
  // "WHERE true" keeps SQLite from reading ON CONFLICT as part of the SELECT (its docs' advice).
  const result = await sql`
    INSERT INTO notification_states (notification_id, reader, read_at, deleted_at)
    SELECT n.id, ${reader}, ${nowIso(now)}, NULL FROM notifications n
    WHERE true AND NOT EXISTS (
      SELECT 1 FROM notification_states s
      WHERE s.notification_id = n.id AND s.reader = ${reader}
        AND (s.read_at IS NOT NULL OR s.deleted_at IS NOT NULL))
    ON CONFLICT (notification_id, reader) DO UPDATE SET read_at = excluded.read_at`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Hides one notification from this reader only. */
export async function deleteFor(
  db: Kysely<Database>,
  reader: string,
  id: string,
  now = Date.now(),
): Promise<boolean> {
  if (!(await isVisible(db, reader, id))) return false;
  await db
    .insertInto('notification_states')
    .values({ notification_id: id, reader, read_at: null, deleted_at: nowIso(now) })
    .onConflict((oc) =>
      oc.columns(['notification_id', 'reader']).doUpdateSet({ deleted_at: nowIso(now) }),
    )
    .execute();
  return true;
}

/** Hides every notification from this reader only; new ones will still arrive. */
export async function deleteAllFor(
  db: Kysely<Database>,
  reader: string,
  now = Date.now(),
): Promise<number> {
  const result = await sql`
    INSERT INTO notification_states (notification_id, reader, read_at, deleted_at)
    SELECT n.id, ${reader}, NULL, ${nowIso(now)} FROM notifications n
    WHERE true AND NOT EXISTS (
      SELECT 1 FROM notification_states s
      WHERE s.notification_id = n.id AND s.reader = ${reader} AND s.deleted_at IS NOT NULL)
    ON CONFLICT (notification_id, reader) DO UPDATE SET deleted_at = excluded.deleted_at`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}
