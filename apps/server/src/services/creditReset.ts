// The daily credit reset: which reset period an instant falls in (a local wall-clock time in
// an IANA zone, DST-safe through Intl), the countdown to the next one, and applying it once per
// member and period — by the maintenance job, or lazily on the member's next call.
import type { TimeUntilReset } from '@sentinelle/contracts';
import type { Db } from '../db/database.js';
import { balanceOf, record } from './creditLedger.js';

export interface ResetSchedule {
  /** HH:MM, local to timeZone. */
  time: string;
  timeZone: string;
  /** The balance a reset tops a member up to. */
  allowance: number;
}

export interface ResetPeriod {
  /** Local date (YYYY-MM-DD) of the day this period's reset happened. */
  key: string;
  startsAt: number;
  nextAt: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localTimeOf(instant: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Local time minus UTC at this instant, in ms (Paris: +1 h in winter, +2 h in summer). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const l = localTimeOf(whole, timeZone);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) - whole;
}

/**
 * The UTC instant of a local wall-clock time. A time that happens twice (autumn) is the first
 * one; a time that does not exist (spring gap) moves forward by the gap, as java.time does.
 */
export function zonedTimeToUtc(
  date: { year: number; month: number; day: number },
  hour: number,
  minute: number,
  timeZone: string,
): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // Zones change offset at most once within a day either side of a reset time.
  const offsets = [
    ...new Set([zoneOffsetMs(wall - DAY_MS, timeZone), zoneOffsetMs(wall + DAY_MS, timeZone)]),
  ];
  const valid = offsets.map((o) => wall - o).filter((t) => zoneOffsetMs(t, timeZone) === wall - t);
  if (valid.length > 0) return Math.min(...valid);
  return wall - Math.min(...offsets);
}

function shiftDays(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const keyOf = (d: { year: number; month: number; day: number }) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The reset period `now` falls in: from the last reset instant (inclusive) to the next one. */
export function resetPeriodAt(
  now: number,
  schedule: Pick<ResetSchedule, 'time' | 'timeZone'>,
): ResetPeriod {
  const [hour, minute] = schedule.time.split(':').map(Number) as [number, number];
  const today = localTimeOf(now, schedule.timeZone);
  const at = (d: { year: number; month: number; day: number }) =>
    zonedTimeToUtc(d, hour, minute, schedule.timeZone);
  const todays = at(today);
  if (now >= todays) {
    const tomorrow = shiftDays(today, 1);
    return { key: keyOf(today), startsAt: todays, nextAt: at(tomorrow) };
  }
  const yesterday = shiftDays(today, -1);
  return { key: keyOf(yesterday), startsAt: at(yesterday), nextAt: todays };
}

export function timeUntil(nextAt: number, now: number): TimeUntilReset {
  const total = Math.max(0, Math.ceil((nextAt - now) / 1000));
  return {
    hours: Math.floor(total / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
    total_seconds: total,
  };
}

export const RESET_MESSAGE = 'Daily reset';

/**
 * Applies resets for one schedule. The period of the current instant is cached until it ends,
 * so the per-request check is a string comparison with the member's marker.
 */
export class CreditResets {
  private cached: ResetPeriod | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    readonly schedule: ResetSchedule,
    private readonly clock: () => number,
  ) {}

  period(now = this.clock()): ResetPeriod {
    const c = this.cached;
    if (c && now >= c.startsAt && now < c.nextAt) return c;
    this.cached = resetPeriodAt(now, this.schedule);
    return this.cached;
  }

  get sweepInProgress(): boolean {
    return this.sweeping !== null;
  }

  /** True when the member's marker shows this period's reset is not applied yet. */
  isDue(marker: string | null, now = this.clock()): boolean {
    return marker === null || marker < this.period(now).key;
  }

  /**
   * Brings the member to the allowance for the current period, once: the marker update is
   * conditional, so concurrent callers (requests, the job, other instances) write one reset.
   * A balance already at or above the allowance is left alone (no row). A member who joined
   * during this period already got their starting credits for it: their first reset is the
   * next one. Returns the amount added.
   */
  async applyDue(userId: number, now = this.clock()): Promise<number> {
    const { key, startsAt } = this.period(now);
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .select(['credits_reset_period', 'first_login'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user || (user.credits_reset_period !== null && user.credits_reset_period >= key)) {
        return 0;
      }
      const claimed = await trx
        .updateTable('users')
        .set({ credits_reset_period: key })
        .where('id', '=', userId)
        .where((eb) =>
          eb.or([eb('credits_reset_period', 'is', null), eb('credits_reset_period', '<', key)]),
        )
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return 0;
      if (user.credits_reset_period === null && Date.parse(user.first_login) >= startsAt) return 0;
      const balance = await balanceOf(trx, userId);
      const amount = this.schedule.allowance - balance;
      if (amount <= 0) return 0;
      await record(trx, {
        userId,
        type: 'reset',
        amount,
        message: `${RESET_MESSAGE}: ${this.schedule.allowance} credits`,
        at: now,
      });
      return amount;
    });
  }

  /** Applies the current period's reset to every member who has not had it; returns how many changed. */
  async sweep(now = this.clock()): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      const { key } = this.period(now);
      const due = await this.db
        .selectFrom('users')
        .select('id')
        .where((eb) =>
          eb.or([eb('credits_reset_period', 'is', null), eb('credits_reset_period', '<', key)]),
        )
        .execute();
      let changed = 0;
      for (const { id } of due) if ((await this.applyDue(id, now)) > 0) changed++;
      return changed;
    })().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }
}
