// The member's own scans through the API on a real SQLite file: the list (newest first, only
// theirs), the text report download, and retention moved by an injected clock: past 48 h the
// archive and the result are gone from disk and database and every download answers 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiErrorSchema,
  meResponseSchema,
  myScansResponseSchema,
  SCAN_RETENTION_SECONDS,
} from '@sentinelle/contracts';
import {
  MEMBER_A,
  MEMBER_B,
  SAMPLES_DIR,
  manualClock,
  multipart,
  signIn,
  startTestApp,
  waitFor,
  zipFolder,
  type TestContext,
} from '../../../testing/testApp.js';
import { attachmentHeader, reportFilename } from './index.js';

const MAL_02 = join(SAMPLES_DIR, 'malicious', 'mal-02-chattags-net-runstring');
const START = Date.parse(`${new Date().getUTCFullYear() + 1}-03-10T09:00:00Z`);

let ctx: TestContext;
let clock: ReturnType<typeof manualClock>;
let tokenA: string;
let tokenB: string;
const scanIds: string[] = [];

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function submit(token: string, filename: string): Promise<string> {
  const { payload, headers } = multipart([{ name: 'file', filename, content: zipFolder(MAL_02) }]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/scan',
    payload,
    headers: { ...headers, ...auth(token) },
  });
  expect(response.statusCode).toBe(202);
  const id = (response.json() as { scan_id: string }).scan_id;
  await waitFor(async () => {
    const row = await ctx.app.db
      .selectFrom('scans')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    return row && row.status !== 'queued' && row.status !== 'running' ? true : undefined;
  });
  return id;
}

beforeAll(async () => {
  clock = manualClock(START);
  ctx = await startTestApp({ uploadRateLimitPerMinute: 1000 }, undefined, { clock: clock.now });
  tokenA = await signIn(ctx, MEMBER_A);
  tokenB = await signIn(ctx, MEMBER_B);
  scanIds.push(await submit(tokenA, 'first.zip'));
  clock.advance(60_000);
  scanIds.push(await submit(tokenA, 'Été addon.zip'));
  clock.advance(60_000);
  await submit(tokenB, 'someone-else.zip');
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/user/my-scans', () => {
  it('lists only the member’s scans, newest first, as the contract says', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/my-scans',
      headers: auth(tokenA),
    });
    expect(response.statusCode).toBe(200);
    const { scans } = myScansResponseSchema.parse(response.json());
    expect(scans.map((s) => s.filename)).toEqual(['Été addon.zip', 'first.zip']);
    expect(scans.map((s) => s.scan_id)).toEqual([scanIds[1], scanIds[0]]);
    for (const scan of scans) {
      expect(scan).toMatchObject({
        steam_id: MEMBER_A,
        scan_type: 'standard',
        status: 'completed',
      });
      expect(scan.score).not.toBeNull();
      expect(Date.parse(scan.expires_at) - Date.parse(scan.upload_date)).toBe(
        SCAN_RETENTION_SECONDS * 1000,
      );
    }
  });

  it('earned 2 XP per completed scan, shown as level and progress in /api/auth/me', async () => {
    const me = meResponseSchema.parse(
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: auth(tokenA) })).json(),
    );
    expect(me).toMatchObject({ xp: 4, level: 1, level_progress_percentage: 40 });
  });

  it('needs a session', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/user/my-scans' });
    expect(response.statusCode).toBe(401);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('not_authenticated');
  });
});

describe('GET /api/user/my-scans/result/:id', () => {
  it('sends the text report as a {name}_result.txt attachment in the asked language', async () => {
    const en = await ctx.app.inject({
      method: 'GET',
      url: `/api/user/my-scans/result/${scanIds[0]}?language=en`,
      headers: auth(tokenA),
    });
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(en.headers['content-disposition']).toBe(
      `attachment; filename="first_result.txt"; filename*=UTF-8''first_result.txt`,
    );
    expect(en.body).toContain('first.zip');
    const fr = await ctx.app.inject({
      method: 'GET',
      url: `/api/user/my-scans/result/${scanIds[1]}?language=fr`,
      headers: auth(tokenA),
    });
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-disposition']).toContain(
      `filename*=UTF-8''%C3%89t%C3%A9%20addon_result.txt`,
    );
    expect(fr.body).not.toBe(en.body);
    expect(fr.body).toMatch(/Analyse|analyse/);
  });

  it('does not confirm someone else’s scan', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/user/my-scans/result/${scanIds[0]}`,
      headers: auth(tokenB),
    });
    expect(response.statusCode).toBe(404);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('not_found');
  });

  it('builds safe attachment names', () => {
    expect(reportFilename('addon.ZIP')).toBe('addon_result.txt');
    expect(reportFilename('.zip')).toBe('scan_result.txt');
    expect(attachmentHeader('a"b\\c\u00e9.txt')).toBe(
      `attachment; filename="a_b_c_.txt"; filename*=UTF-8''a%22b%5Cc%C3%A9.txt`,
    );
  });
});

describe('retention', () => {
  it('after 48 h: archive and result gone from disk and database, downloads answer 404 in en and fr', async () => {
    const rows = await ctx.app.db
      .selectFrom('scans')
      .selectAll()
      .where('id', 'in', scanIds)
      .execute();
    for (const row of rows) {
      expect(existsSync(row.archive_path)).toBe(true);
      expect(row.result_json).not.toBeNull();
    }
    // Just before the window ends nothing is purged.
    clock.set(START + SCAN_RETENTION_SECONDS * 1000 - 1_000);
    await ctx.app.maintenance.runOnce();
    expect(existsSync(rows[0]!.archive_path)).toBe(true);

    clock.set(START + SCAN_RETENTION_SECONDS * 1000 + 3 * 60_000);
    await ctx.app.maintenance.runOnce();
    const after = await ctx.app.db
      .selectFrom('scans')
      .selectAll()
      .where('id', 'in', scanIds)
      .execute();
    for (const row of after) {
      expect(existsSync(row.archive_path)).toBe(false);
      expect(row.result_json).toBeNull();
      expect(row.purged_at).not.toBeNull();
    }
    const token = await signIn(ctx, MEMBER_A); // 48 h of inactivity ended the old session
    for (const [language, text] of [
      ['en', 'This scan was automatically deleted after 47 hours'],
      ['fr', 'Cette analyse a été supprimée automatiquement après 47 heures'],
    ] as const) {
      for (const url of [
        `/api/user/my-scans/result/${scanIds[0]}?language=${language}`,
        `/api/scan/results/${scanIds[0]}?language=${language}`,
      ]) {
        const response = await ctx.app.inject({ method: 'GET', url, headers: auth(token) });
        expect(response.statusCode).toBe(404);
        expect(apiErrorSchema.parse(response.json()).error).toEqual({
          code: 'scan_expired',
          message: text,
        });
      }
    }
    // The list keeps them as expired records.
    const list = myScansResponseSchema.parse(
      (
        await ctx.app.inject({ method: 'GET', url: '/api/user/my-scans', headers: auth(token) })
      ).json(),
    );
    expect(list.scans).toHaveLength(2);
    expect(list.scans.every((s) => Date.parse(s.expires_at) < clock.now())).toBe(true);
    const leftovers = await ctx.app.db
      .selectFrom('scans')
      .select('id')
      .where('purged_at', 'is', null)
      .execute();
    expect(leftovers).toEqual([]);
  });
});
