// The reset period arithmetic: local reset times in several zones, both DST changes of
// Europe/Paris (23 h and 25 h days, a reset time in the spring gap and in the autumn overlap).
import { describe, expect, it } from 'vitest';
import { resetPeriodAt, timeUntil, zoneOffsetMs, zonedTimeToUtc } from './creditReset.js';

const utc = (iso: string) => Date.parse(iso);
const paris = { time: '00:00', timeZone: 'Europe/Paris' };

describe('zone offsets through Intl', () => {
  it('knows winter and summer time in Paris and fractional zones', () => {
    expect(zoneOffsetMs(utc('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000);
    expect(zoneOffsetMs(utc('2026-07-15T12:00:00Z'), 'Europe/Paris')).toBe(7_200_000);
    expect(zoneOffsetMs(utc('2026-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(19_800_000);
    expect(zoneOffsetMs(utc('2026-01-15T12:00:00Z'), 'America/New_York')).toBe(-18_000_000);
  });

  it('moves a time in the spring gap forward and takes the first of an autumn overlap', () => {
    // 2026-03-29 02:30 does not exist in Paris (02:00 → 03:00): it becomes 03:30 CEST.
    expect(zonedTimeToUtc({ year: 2026, month: 3, day: 29 }, 2, 30, 'Europe/Paris')).toBe(
      utc('2026-03-29T01:30:00Z'),
    );
    // 2026-10-25 02:30 happens twice (03:00 → 02:00): the first, still CEST.
    expect(zonedTimeToUtc({ year: 2026, month: 10, day: 25 }, 2, 30, 'Europe/Paris')).toBe(
      utc('2026-10-25T00:30:00Z'),
    );
  });
});

describe('reset periods', () => {
  it('starts at local midnight in Paris, winter and summer', () => {
    expect(resetPeriodAt(utc('2026-01-15T10:00:00Z'), paris)).toEqual({
      key: '2026-01-15',
      startsAt: utc('2026-01-14T23:00:00Z'),
      nextAt: utc('2026-01-15T23:00:00Z'),
    });
    expect(resetPeriodAt(utc('2026-07-15T10:00:00Z'), paris)).toEqual({
      key: '2026-07-15',
      startsAt: utc('2026-07-14T22:00:00Z'),
      nextAt: utc('2026-07-15T22:00:00Z'),
    });
  });

  it('belongs to the previous local day just before the reset time, to the new one at it', () => {
    const justBefore = resetPeriodAt(utc('2026-01-14T22:59:59.999Z'), paris);
    expect(justBefore.key).toBe('2026-01-14');
    expect(justBefore.nextAt).toBe(utc('2026-01-14T23:00:00Z'));
    expect(resetPeriodAt(utc('2026-01-14T23:00:00Z'), paris).key).toBe('2026-01-15');
  });

  it('has a 23-hour day at the spring change and a 25-hour day at the autumn change', () => {
    const spring = resetPeriodAt(utc('2026-03-29T12:00:00Z'), paris);
    expect(spring.nextAt - spring.startsAt).toBe(23 * 3_600_000);
    const autumn = resetPeriodAt(utc('2026-10-25T12:00:00Z'), paris);
    expect(autumn.nextAt - autumn.startsAt).toBe(25 * 3_600_000);
  });

  it('honours another reset time and zone', () => {
    const ny = resetPeriodAt(utc('2026-01-15T12:00:00Z'), {
      time: '06:30',
      timeZone: 'America/New_York',
    });
    expect(ny.startsAt).toBe(utc('2026-01-15T11:30:00Z'));
    expect(ny.key).toBe('2026-01-15');
    const early = resetPeriodAt(utc('2026-01-15T11:00:00Z'), {
      time: '06:30',
      timeZone: 'America/New_York',
    });
    expect(early.key).toBe('2026-01-14');
    expect(early.nextAt).toBe(utc('2026-01-15T11:30:00Z'));
  });

  it('counts down in hours, minutes and seconds', () => {
    expect(timeUntil(utc('2026-01-15T23:00:00Z'), utc('2026-01-15T20:58:30.200Z'))).toEqual({
      hours: 2,
      minutes: 1,
      seconds: 30,
      total_seconds: 7290,
    });
    expect(timeUntil(0, 5).total_seconds).toBe(0);
  });
});
