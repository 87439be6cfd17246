// Credits through the API on a real SQLite file: the overview and its countdown, the refused
// purchase, the daily reset moved by an injected clock (once, also after a restart, never
// downwards), and 50 concurrent scan submissions against a balance that pays for 5.
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiErrorSchema,
  myCreditsResponseSchema,
  meResponseSchema,
  scanStatusResponseSchema,
} from '@sentinelle/contracts';
import { balanceOf, record } from '../../../services/creditLedger.js';
import {
  MEMBER_A,
  manualClock,
  multipart,
  signIn,
  startTestApp,
  userIdOf,
  waitFor,
  type TestContext,
} from '../../../testing/testApp.js';

const contexts: TestContext[] = [];
/** Fixed dates in a year that is always ahead of the wall clock (rows stamped by it sort first). */
const YEAR = new Date().getUTCFullYear() + 1;
const at = (monthDayTime: string) => Date.parse(`${YEAR}-${monthDayTime}Z`);
afterEach(async () => {
  while (contexts.length > 0) await contexts.pop()!.close();
});

const SMALL_ZIP = zipSync({
  'lua/autorun/server/hello.lua': new TextEncoder().encode('print("hi")\n'),
});

function uploadScan(ctx: TestContext, token: string) {
  const { payload, headers } = multipart([
    { name: 'file', filename: 'hello.zip', content: SMALL_ZIP },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/scan',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

async function myCredits(ctx: TestContext, token: string, language = 'en') {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/credits/my-credits?language=${language}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return myCreditsResponseSchema.parse(response.json());
}

async function ledgerOf(ctx: TestContext, steamId: string) {
  const userId = await userIdOf(ctx, steamId);
  const rows = await ctx.app.db
    .selectFrom('credit_transactions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return { userId, rows };
}

async function waitUntilIdle(ctx: TestContext) {
  await waitFor(async () => {
    const open = await ctx.app.db
      .selectFrom('scans')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .execute();
    return open.length === 0 ? true : undefined;
  }, 40_000);
}

describe('GET /api/credits/my-credits', () => {
  it('needs a session', async () => {
    const ctx = await startTestApp();
    contexts.push(ctx);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/credits/my-credits' });
    expect(response.statusCode).toBe(401);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('not_authenticated');
  });

  it('shows the balance, the countdown to the Paris reset and the ledger newest first, localised', async () => {
    const clock = manualClock(at('01-15T10:00:00'));
    const ctx = await startTestApp({ uploadRateLimitPerMinute: 1000 }, undefined, {
      clock: clock.now,
    });
    contexts.push(ctx);
    const token = await signIn(ctx, MEMBER_A);
    const first = await myCredits(ctx, token);
    expect(first.credits).toBe(10);
    // Next reset: 2026-01-16 00:00 Paris = 2026-01-15T23:00Z, 13 h after the clock.
    expect(first.time_until_reset).toEqual({
      hours: 13,
      minutes: 0,
      seconds: 0,
      total_seconds: 46_800,
    });
    expect(first.reset_in_progress).toBe(false);
    expect(first.transactions).toEqual([
      { type: 'reset', amount: 10, message: 'Starting credits', date: expect.any(String) },
    ]);

    clock.advance(61_000);
    expect((await uploadScan(ctx, token)).statusCode).toBe(202);
    await waitUntilIdle(ctx);
    const fr = await myCredits(ctx, token, 'fr');
    expect(fr.credits).toBe(8);
    expect(fr.time_until_reset.total_seconds).toBe(46_800 - 61);
    expect(fr.transactions.map((t) => [t.type, t.amount, t.message])).toEqual([
      ['spend', -2, 'Analyse de hello.zip'],
      ['reset', 10, 'Crédits de départ'],
    ]);
    // The balance shown is the ledger's sum, and /me agrees.
    const me = meResponseSchema.parse(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${token}` },
        })
      ).json(),
    );
    expect(me.credits).toBe(fr.transactions.reduce((sum, t) => sum + t.amount, 0));
  });
});

describe('POST /api/credits/add-credits', () => {
  it('answers that buying is not available, in the asked language, and writes nothing', async () => {
    const ctx = await startTestApp();
    contexts.push(ctx);
    const token = await signIn(ctx, MEMBER_A);
    for (const [language, text] of [
      ['en', 'Buying credits is not available'],
      ['fr', "L'achat de crédits n'est pas disponible"],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/credits/add-credits?language=${language}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(501);
      const body = apiErrorSchema.parse(response.json());
      expect(body.error).toEqual({ code: 'purchase_unavailable', message: text });
    }
    const { rows } = await ledgerOf(ctx, MEMBER_A);
    expect(rows.map((r) => r.type)).toEqual(['reset']);
  });
});

describe('daily reset', () => {
  it('tops the balance up to the allowance once when the clock passes the reset time', async () => {
    const clock = manualClock(at('01-15T10:00:00'));
    const ctx = await startTestApp({ uploadRateLimitPerMinute: 1000 }, undefined, {
      clock: clock.now,
    });
    contexts.push(ctx);
    let token = await signIn(ctx, MEMBER_A);
    expect((await uploadScan(ctx, token)).statusCode).toBe(202);
    await waitUntilIdle(ctx);
    expect((await myCredits(ctx, token)).credits).toBe(8);

    // One second past midnight in Paris (23:00Z in winter).
    clock.set(at('01-15T23:00:01'));
    token = await signIn(ctx, MEMBER_A); // the old session lapsed after 30 minutes
    await ctx.app.maintenance.runOnce();
    const after = await myCredits(ctx, token);
    await myCredits(ctx, token);
    await ctx.app.maintenance.runOnce();
    expect(after.credits).toBe(10);
    expect(after.transactions[0]).toMatchObject({
      type: 'reset',
      amount: 2,
      message: 'Daily reset: 10 credits',
    });
    const { userId, rows } = await ledgerOf(ctx, MEMBER_A);
    expect(rows.filter((r) => r.type === 'reset' && r.amount === 2)).toHaveLength(1);
    expect(await balanceOf(ctx.app.db, userId)).toBe(10);
    expect((await myCredits(ctx, token)).time_until_reset.total_seconds).toBe(24 * 3600 - 1);
  });

  it('never takes credits away: a balance above the allowance is left as it is', async () => {
    const clock = manualClock(at('07-01T08:00:00'));
    const ctx = await startTestApp({}, undefined, { clock: clock.now });
    contexts.push(ctx);
    await signIn(ctx, MEMBER_A);
    const { userId } = await ledgerOf(ctx, MEMBER_A);
    await record(ctx.app.db, {
      userId,
      type: 'admin_add',
      amount: 25,
      message: 'gift',
      at: clock.now(),
    });
    clock.set(at('07-01T22:00:05')); // past midnight, summer time
    await ctx.app.maintenance.runOnce();
    const { rows } = await ledgerOf(ctx, MEMBER_A);
    expect(rows.filter((r) => r.type === 'reset')).toHaveLength(1); // only the starting credits
    expect(await balanceOf(ctx.app.db, userId)).toBe(35);
  });

  it('is applied at start by a server that was down at reset time, once', async () => {
    const clock = manualClock(at('01-15T10:00:00'));
    const first = await startTestApp(
      { uploadRateLimitPerMinute: 1000, dailyCredits: 20 },
      undefined,
      {
        clock: clock.now,
      },
    );
    const token = await signIn(first, MEMBER_A);
    await myCredits(first, token); // today's reset: 10 → 20
    const { userId } = await ledgerOf(first, MEMBER_A);
    expect(await balanceOf(first.app.db, userId)).toBe(20);
    await first.app.close();

    clock.set(at('01-17T09:00:00')); // two resets were missed while down
    await record(first.app.db, { userId, type: 'admin_remove', amount: -15, message: 'x' }).catch(
      () => undefined,
    );
    const second = await startTestApp(
      { dailyCredits: 20 },
      { dataDir: first.dataDir, fake: first.fake },
      {
        clock: clock.now,
      },
    );
    contexts.push(second, { ...first, close: () => first.fake.close() } as TestContext);
    const { rows } = await ledgerOf(second, MEMBER_A);
    // Balance was already 20: the missed periods add nothing, and no duplicate rows appear.
    expect(rows.filter((r) => r.type === 'reset').map((r) => r.amount)).toEqual([10, 10]);
    const user = await second.app.db
      .selectFrom('users')
      .select('credits_reset_period')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.credits_reset_period).toBe(`${YEAR}-01-17`);
  });
});

describe('concurrent scan submissions', () => {
  it('accepts exactly as many as the balance pays for, never goes negative, and the ledger sums to the balance', async () => {
    const ctx = await startTestApp({ uploadRateLimitPerMinute: 1000, rateLimitPerMinute: 10_000 });
    contexts.push(ctx);
    const token = await signIn(ctx, MEMBER_A);
    const responses = await Promise.all(Array.from({ length: 50 }, () => uploadScan(ctx, token)));
    const accepted = responses.filter((r) => r.statusCode === 202);
    const refused = responses.filter((r) => r.statusCode !== 202);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const r of refused) {
      expect(r.statusCode).toBe(402);
      expect(apiErrorSchema.parse(r.json()).error.code).toBe('insufficient_credits');
    }
    await waitUntilIdle(ctx);
    for (const r of accepted) {
      const status = await ctx.app.inject({
        method: 'GET',
        url: `/api/scan/status/${(r.json() as { scan_id: string }).scan_id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(scanStatusResponseSchema.parse(status.json()).status).toBe('completed');
    }
    const { userId, rows } = await ledgerOf(ctx, MEMBER_A);
    let running = 0;
    for (const row of rows) {
      running += row.amount;
      expect(running).toBeGreaterThanOrEqual(0);
    }
    expect(rows.filter((r) => r.type === 'spend')).toHaveLength(5);
    const balance = await balanceOf(ctx.app.db, userId);
    expect(balance).toBe(running);
    expect(balance).toBe(0);
    expect((await myCredits(ctx, token)).credits).toBe(0);
    const files = await ctx.app.db.selectFrom('scans').select('archive_path').execute();
    expect(files).toHaveLength(5);
  });
});
