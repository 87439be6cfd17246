// Scans through the API on a real SQLite file and real worker threads: an accepted scan runs
// to a result; every refused upload costs nothing and leaves no row and no file; failures
// and cancels refund; a restart resumes the queue.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiErrorSchema,
  meResponseSchema,
  scanAcceptedResponseSchema,
  scanCancelResponseSchema,
  scanResultSchema,
  scanStatusResponseSchema,
  type ScanStatus,
} from '@sentinelle/contracts';
import { startFakeSteamProvider } from '../../../auth/fakeSteamProvider.js';
import { balanceOf } from '../../../services/creditLedger.js';
import {
  MEMBER_A,
  MEMBER_B,
  SAMPLES_DIR,
  multipart,
  signIn,
  startTestApp,
  waitFor,
  zipFolder,
  userIdOf,
  type Part,
  type TestContext,
} from '../../../testing/testApp.js';

const SLOW_WORKER = new URL('../../../testing/slowScanWorker.mjs', import.meta.url);
const MAL_02 = join(SAMPLES_DIR, 'malicious', 'mal-02-chattags-net-runstring');
const MIB = 1024 * 1024;

let ctx: TestContext;
let tokenA: string;
let malZip: Uint8Array;

beforeAll(async () => {
  ctx = await startTestApp({ maxUploadBytes: MIB, uploadRateLimitPerMinute: 1000 });
  tokenA = await signIn(ctx, MEMBER_A);
  malZip = zipFolder(MAL_02);
});
afterAll(async () => {
  await ctx.close();
});

function upload(c: TestContext, token: string | null, parts: Part[], language = 'en') {
  const { payload, headers } = multipart(parts);
  return c.app.inject({
    method: 'POST',
    url: '/api/scan',
    payload,
    headers: {
      ...headers,
      'accept-language': language,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
}

function get(c: TestContext, token: string, url: string, language = 'en') {
  return c.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, 'accept-language': language },
  });
}

async function statusOf(c: TestContext, token: string, scanId: string): Promise<ScanStatus> {
  return scanStatusResponseSchema.parse((await get(c, token, `/api/scan/status/${scanId}`)).json())
    .status;
}

async function waitForStatus(
  c: TestContext,
  token: string,
  scanId: string,
  wanted: ScanStatus[],
): Promise<ScanStatus> {
  return waitFor(async () => {
    const status = await statusOf(c, token, scanId);
    return wanted.includes(status) ? status : undefined;
  });
}

/** What a refused upload must leave untouched. */
async function footprint(c: TestContext, steamId: string) {
  const userId = await userIdOf(c, steamId);
  const scans = await c.app.db
    .selectFrom('scans')
    .select('id')
    .where('user_id', '=', userId)
    .execute();
  const ledger = await c.app.db
    .selectFrom('credit_transactions')
    .select('id')
    .where('user_id', '=', userId)
    .execute();
  return {
    balance: await balanceOf(c.app.db, userId),
    scans: scans.length,
    ledger: ledger.length,
    files: readdirSync(c.config.archivesDir).sort(),
  };
}

describe('POST /api/scan — accepted', () => {
  it('scans a malicious addon in a worker: 202, completed, score < 40 with a threat, 2 credits and 2 XP', async () => {
    const before = await footprint(ctx, MEMBER_A);
    const response = await upload(ctx, tokenA, [
      { name: 'file', filename: 'chattags.zip', content: malZip },
      { name: 'deep_scan', content: 'false' },
    ]);
    expect(response.statusCode).toBe(202);
    const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
    expect(await waitForStatus(ctx, tokenA, scan_id, ['completed', 'failed'])).toBe('completed');

    const result = scanResultSchema.parse(
      (await get(ctx, tokenA, `/api/scan/results/${scan_id}`)).json(),
    );
    expect(result.scan_id).toBe(scan_id);
    expect(result.filename).toBe('chattags.zip');
    expect(result.threats.length).toBeGreaterThan(0);
    expect(result.score).toBeLessThan(40);

    const after = await footprint(ctx, MEMBER_A);
    expect(after.balance).toBe(before.balance - 2);
    expect(after.files).toContain(`${scan_id}.zip`);
    const user = meResponseSchema.parse((await get(ctx, tokenA, '/api/auth/me')).json());
    expect(user.xp).toBe(2);
    const spend = await ctx.app.db
      .selectFrom('credit_transactions')
      .selectAll()
      .where('scan_id', '=', scan_id)
      .execute();
    expect(spend).toEqual([expect.objectContaining({ type: 'spend', amount: -2 })]);
  });

  it('gives the result texts in the reader’s language', async () => {
    const response = await upload(ctx, tokenA, [
      { name: 'file', filename: 'again.zip', content: malZip },
    ]);
    const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
    await waitForStatus(ctx, tokenA, scan_id, ['completed']);
    const fr = scanResultSchema.parse(
      (await get(ctx, tokenA, `/api/scan/results/${scan_id}?language=fr`)).json(),
    );
    const en = scanResultSchema.parse(
      (await get(ctx, tokenA, `/api/scan/results/${scan_id}`, 'en')).json(),
    );
    expect(fr.threats.length + fr.recommendations.length).toBeGreaterThan(0);
    for (const [i, recommendation] of fr.recommendations.entries()) {
      expect(recommendation.text).toBe(recommendation.localized.fr);
      expect(en.recommendations[i]?.text).toBe(recommendation.localized.en);
    }
    for (const [i, threat] of fr.threats.entries()) {
      expect(threat.title).toBe(threat.localized.fr.title);
      expect(en.threats[i]?.title).toBe(threat.localized.en.title);
    }
  });
});

describe('POST /api/scan — refused uploads cost nothing and leave nothing', () => {
  const zipHead = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  const cases: Array<{
    name: string;
    parts: () => Part[];
    token?: null;
    status: number;
    code: string;
    en: string;
    fr: string;
  }> = [
    {
      name: 'not signed in',
      token: null,
      parts: () => [{ name: 'file', filename: 'a.zip', content: malZip }],
      status: 401,
      code: 'not_authenticated',
      en: 'You must be logged in to perform an analysis',
      fr: 'Vous devez être connecté pour effectuer une analyse',
    },
    {
      name: 'no file',
      parts: () => [{ name: 'deep_scan', content: 'false' }],
      status: 400,
      code: 'file_required',
      en: 'Please select a file to analyze',
      fr: 'Veuillez sélectionner un fichier à analyser',
    },
    {
      name: 'an empty file input',
      parts: () => [{ name: 'file', filename: '', content: '' }],
      status: 400,
      code: 'file_required',
      en: 'Please select a file to analyze',
      fr: 'Veuillez sélectionner un fichier à analyser',
    },
    {
      name: 'a name not ending in .zip',
      parts: () => [{ name: 'file', filename: 'addon.rar', content: malZip }],
      status: 400,
      code: 'file_not_zip',
      en: 'Only ZIP files are accepted',
      fr: 'Seuls les fichiers ZIP sont acceptés',
    },
    {
      name: 'a .zip that is not a ZIP',
      parts: () => [
        { name: 'file', filename: 'addon.zip', content: 'print("hello")\n'.repeat(100) },
      ],
      status: 400,
      code: 'file_not_zip',
      en: 'Only ZIP files are accepted',
      fr: 'Seuls les fichiers ZIP sont acceptés',
    },
    {
      name: 'a file over the maximum (counted while streaming)',
      parts: () => [
        {
          name: 'file',
          filename: 'big.zip',
          content: Buffer.concat([zipHead, Buffer.alloc(MIB + 10_000)]),
        },
      ],
      status: 413,
      code: 'file_too_large',
      en: 'File is too large. Maximum allowed size: 1 MB (your file: 1.0 MB)',
      fr: 'Le fichier est trop volumineux. Taille maximale autorisée : 1 Mo (votre fichier : 1.0 Mo)',
    },
    {
      name: 'a file far over the maximum (Content-Length, before reading)',
      parts: () => [
        {
          name: 'file',
          filename: 'big.zip',
          content: Buffer.concat([zipHead, Buffer.alloc(MIB + 100_000)]),
        },
      ],
      status: 413,
      code: 'file_too_large',
      en: 'File is too large. Maximum allowed size: 1 MB (your file: 1.1 MB)',
      fr: 'Le fichier est trop volumineux. Taille maximale autorisée : 1 Mo (votre fichier : 1.1 Mo)',
    },
    {
      name: 'the advanced AI analysis',
      parts: () => [
        { name: 'file', filename: 'a.zip', content: malZip },
        { name: 'deep_scan', content: 'true' },
      ],
      status: 400,
      code: 'analysis_unavailable',
      en: 'The advanced AI analysis is not available yet',
      fr: "L'analyse IA avancée n'est pas encore disponible",
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.name} (${c.code})`, async () => {
      const before = await footprint(ctx, MEMBER_A);
      for (const [language, message] of [
        ['en', c.en],
        ['fr', c.fr],
      ] as const) {
        const response = await upload(ctx, c.token === null ? null : tokenA, c.parts(), language);
        expect(response.statusCode).toBe(c.status);
        const body = apiErrorSchema.parse(response.json());
        expect(body.error.code).toBe(c.code);
        expect(body.error.message).toBe(message);
        expect(body.detail).toBe(message);
      }
      expect(await footprint(ctx, MEMBER_A)).toEqual(before);
    });
  }

  it('refuses a body that is not multipart (file_required)', async () => {
    const before = await footprint(ctx, MEMBER_A);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/scan',
      payload: { file: 'x' },
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('file_required');
    expect(await footprint(ctx, MEMBER_A)).toEqual(before);
  });

  it('refuses a truncated multipart body without a 500', async () => {
    const before = await footprint(ctx, MEMBER_A);
    const { payload, headers } = multipart([{ name: 'file', filename: 'a.zip', content: malZip }]);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/scan',
      payload: payload.subarray(0, payload.length - 200),
      headers: { ...headers, authorization: `Bearer ${tokenA}` },
    });
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('validation_failed');
    expect(await footprint(ctx, MEMBER_A)).toEqual(before);
  });

  it('refuses a member with too few credits, with balance and required', async () => {
    const tokenB = await signIn(ctx, MEMBER_B);
    const memberB = await userIdOf(ctx, MEMBER_B);
    await ctx.app.db
      .insertInto('credit_transactions')
      .values({
        user_id: memberB,
        type: 'admin_remove',
        amount: -9,
        message: 'test',
        scan_id: null,
        actor_user_id: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    const before = await footprint(ctx, MEMBER_B);
    for (const [language, message] of [
      ['en', 'Insufficient credits (balance: 1, required: 2)'],
      ['fr', 'Crédits insuffisants (solde : 1, requis : 2)'],
    ] as const) {
      const response = await upload(
        ctx,
        tokenB,
        [{ name: 'file', filename: 'a.zip', content: malZip }],
        language,
      );
      expect(response.statusCode).toBe(402);
      const body = apiErrorSchema.parse(response.json());
      expect(body.error).toEqual({
        code: 'insufficient_credits',
        message,
        details: { balance: 1, required: 2 },
      });
    }
    expect(await footprint(ctx, MEMBER_B)).toEqual(before);
  });
});

describe('reading and cancelling scans', () => {
  it('answers 404 for another member’s scan and 400 for a malformed id', async () => {
    const response = await upload(ctx, tokenA, [
      { name: 'file', filename: 'mine.zip', content: malZip },
    ]);
    const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
    const tokenB = await signIn(ctx, MEMBER_B);
    for (const url of [`/api/scan/status/${scan_id}`, `/api/scan/results/${scan_id}`]) {
      const other = await get(ctx, tokenB, url);
      expect(other.statusCode).toBe(404);
      expect(apiErrorSchema.parse(other.json()).error.code).toBe('not_found');
    }
    const cancel = await ctx.app.inject({
      method: 'POST',
      url: `/api/scan/cancel/${scan_id}`,
      headers: { authorization: `Bearer ${tokenB}` },
    });
    expect(cancel.statusCode).toBe(404);
    const malformed = await get(ctx, tokenA, `/api/scan/status/${'x'.repeat(100)}`);
    expect(malformed.statusCode).toBe(400);
    expect(apiErrorSchema.parse(malformed.json()).error.code).toBe('validation_failed');
  });

  it('fails a corrupt ZIP the scanner cannot open, and refunds it', async () => {
    const before = await footprint(ctx, MEMBER_A);
    const corrupt = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      Buffer.from('this is not really a zip archive at all'),
    ]);
    const response = await upload(ctx, tokenA, [
      { name: 'file', filename: 'broken.zip', content: corrupt },
    ]);
    expect(response.statusCode).toBe(202);
    const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
    expect(await waitForStatus(ctx, tokenA, scan_id, ['completed', 'failed'])).toBe('failed');
    const status = scanStatusResponseSchema.parse(
      (await get(ctx, tokenA, `/api/scan/status/${scan_id}`, 'fr')).json(),
    );
    expect(status.error).toBe("L'archive est endommagée et n'a pas pu être lue");
    const results = await get(ctx, tokenA, `/api/scan/results/${scan_id}`);
    expect(results.statusCode).toBe(409);
    expect((await footprint(ctx, MEMBER_A)).balance).toBe(before.balance);
    const rows = await ctx.app.db
      .selectFrom('credit_transactions')
      .select(['type', 'amount'])
      .where('scan_id', '=', scan_id)
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { type: 'spend', amount: -2 },
        { type: 'refund', amount: 2 },
      ]),
    );
  });

  it('fails and refunds a scan over its time budget', async () => {
    const slow = await startTestApp({ scanTimeoutMs: 1 });
    try {
      const token = await signIn(slow, MEMBER_A);
      const response = await upload(slow, token, [
        { name: 'file', filename: 'a.zip', content: malZip },
      ]);
      const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
      expect(await waitForStatus(slow, token, scan_id, ['completed', 'failed'])).toBe('failed');
      const status = scanStatusResponseSchema.parse(
        (await get(slow, token, `/api/scan/status/${scan_id}`)).json(),
      );
      expect(status.error).toBe('An error occurred during analysis: it took longer than 0 seconds');
      expect((await footprint(slow, MEMBER_A)).balance).toBe(10);
    } finally {
      await slow.close();
    }
  });

  it('cancels a running scan: marked cancelled, refunded once, its worker stopped', async () => {
    const slow = await startTestApp({ scanWorkerEntry: SLOW_WORKER });
    try {
      const token = await signIn(slow, MEMBER_A);
      const response = await upload(slow, token, [
        { name: 'file', filename: 'a.zip', content: malZip },
      ]);
      const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
      await waitForStatus(slow, token, scan_id, ['running']);
      expect(slow.app.scanQueue.activeCount).toBe(1);
      expect((await footprint(slow, MEMBER_A)).balance).toBe(8);

      const cancel = await slow.app.inject({
        method: 'POST',
        url: `/api/scan/cancel/${scan_id}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: '',
      });
      expect(cancel.statusCode).toBe(200);
      expect(scanCancelResponseSchema.parse(cancel.json())).toEqual({
        scan_id,
        status: 'cancelled',
      });
      await waitFor(async () => (slow.app.scanQueue.activeCount === 0 ? true : undefined));
      expect(await statusOf(slow, token, scan_id)).toBe('cancelled');
      expect((await footprint(slow, MEMBER_A)).balance).toBe(10);

      const again = await slow.app.inject({
        method: 'POST',
        url: `/api/scan/cancel/${scan_id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(again.statusCode).toBe(409);
      expect(apiErrorSchema.parse(again.json()).error.code).toBe('scan_not_cancellable');
      expect((await footprint(slow, MEMBER_A)).balance).toBe(10);
      expect((await get(slow, token, `/api/scan/results/${scan_id}`)).statusCode).toBe(409);
    } finally {
      await slow.close();
    }
  });

  it('resumes a scan left running by a stopped server', async () => {
    const fake = await startFakeSteamProvider({ steamId: MEMBER_A });
    const dataDir = mkdtempSync(join(tmpdir(), 'sentinelle-restart-'));
    try {
      const first = await startTestApp({ scanWorkerEntry: SLOW_WORKER }, { dataDir, fake });
      const token = await signIn(first, MEMBER_A);
      const response = await upload(first, token, [
        { name: 'file', filename: 'a.zip', content: malZip },
      ]);
      const { scan_id } = scanAcceptedResponseSchema.parse(response.json());
      await waitForStatus(first, token, scan_id, ['running']);
      await first.close();

      const second = await startTestApp({}, { dataDir, fake });
      try {
        expect(await waitForStatus(second, token, scan_id, ['completed', 'failed'])).toBe(
          'completed',
        );
        expect((await footprint(second, MEMBER_A)).balance).toBe(8);
      } finally {
        await second.close();
      }
    } finally {
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
