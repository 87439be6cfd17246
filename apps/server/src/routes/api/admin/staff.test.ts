// The staff side through the API on a real SQLite file: staff login, members (search, credit
// and rank editors), problem reports, per-staff notifications and the admin scan history
// (list, totals, kept files, download, text result, delete). Answers are checked against the
// contracts' schemas.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminFilesResponseSchema,
  adminScanStatsResponseSchema,
  adminScansResponseSchema,
  apiErrorSchema,
  deleteScanResponseSchema,
  meResponseSchema,
  memberStatsResponseSchema,
  membersResponseSchema,
  notificationsChangedResponseSchema,
  notificationsResponseSchema,
  problemReportResponseSchema,
  ranksResponseSchema,
  reportSchema,
  reportStatsResponseSchema,
  reportsResponseSchema,
  scanAcceptedResponseSchema,
  scanStatusResponseSchema,
  setCreditsResponseSchema,
  setRankResponseSchema,
  unreadCountResponseSchema,
  RANK_TABLE,
  type ApiError,
} from '@sentinelle/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { balanceOf } from '../../../services/creditLedger.js';
import { notifyStaff } from '../../../services/notifications.js';
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
  type TestContext,
} from '../../../testing/testApp.js';
import {
  STAFF_PASSWORD,
  call,
  createStaff,
  insertScan,
  signInWithRank,
  staffLogin,
  staffLoginRequest,
} from '../../../testing/staffFixtures.js';

const SUPPORT = '76561198000000033';
const ADMIN = '76561198000000044';
const SUPER = '76561198000000055';
const OTHER_SUPER = '76561198000000066';

let ctx: TestContext;
const tokens = {} as Record<'member' | 'support' | 'admin' | 'super' | 'staff', string>;
let completedScanId: string;
let resultJson: string;

function problem(response: LightMyRequestResponse, status: number): ApiError {
  expect(response.statusCode, response.body).toBe(status);
  return apiErrorSchema.parse(response.json());
}

function ok<T>(
  response: LightMyRequestResponse,
  schema: { parse(v: unknown): T },
  status = 200,
): T {
  expect(response.statusCode, response.body).toBe(status);
  return schema.parse(response.json());
}

beforeAll(async () => {
  ctx = await startTestApp({
    superAdmins: [SUPER],
    maxUploadBytes: 1024 * 1024,
    rateLimitPerMinute: 10_000,
    authRateLimitPerMinute: 10_000,
    uploadRateLimitPerMinute: 10_000,
    reportRateLimitPerMinute: 10_000,
  });
  tokens.member = await signIn(ctx, MEMBER_A);
  tokens.support = await signInWithRank(ctx, SUPPORT, 'support');
  tokens.admin = await signInWithRank(ctx, ADMIN, 'administrator');
  tokens.super = await signIn(ctx, SUPER);
  await createStaff(ctx, 'ops', 'administrator');
  tokens.staff = await staffLogin(ctx, 'ops');

  // One real scan, so the text result is rendered from what the scanner really stores.
  const { payload, headers } = multipart([
    {
      name: 'file',
      filename: 'chattags.zip',
      content: zipFolder(join(SAMPLES_DIR, 'malicious', 'mal-02-chattags-net-runstring')),
    },
  ]);
  const upload = await ctx.app.inject({
    method: 'POST',
    url: '/api/scan',
    payload,
    headers: { ...headers, authorization: `Bearer ${tokens.member}` },
  });
  completedScanId = scanAcceptedResponseSchema.parse(upload.json()).scan_id;
  await waitFor(async () => {
    const status = scanStatusResponseSchema.parse(
      (
        await call(ctx, 'GET', `/api/scan/status/${completedScanId}`, { token: tokens.member })
      ).json(),
    ).status;
    return status === 'completed' ? status : undefined;
  });
  const row = await ctx.app.db
    .selectFrom('scans')
    .select('result_json')
    .where('id', '=', completedScanId)
    .executeTakeFirstOrThrow();
  resultJson = row.result_json!;
});
afterAll(async () => {
  await ctx?.close();
});

describe('POST /api/admin/login (staff username/password accounts)', () => {
  it('logs a staff account in from the multipart form; /auth/me answers a staff User', async () => {
    const token = await staffLogin(ctx, 'ops');
    const me = ok(await call(ctx, 'GET', '/api/auth/me', { token }), meResponseSchema);
    expect(me).toMatchObject({
      username: 'ops',
      account_kind: 'staff',
      rank: 'administrator',
      is_admin: true,
      credits: 0,
      steamid: '',
    });
    expect(me.rank_info).toEqual(RANK_TABLE.administrator);
  });

  it('matches the username without regard to case and accepts a JSON body too', async () => {
    expect((await staffLoginRequest(ctx, 'OPS', STAFF_PASSWORD)).statusCode).toBe(200);
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'ops', password: STAFF_PASSWORD },
    });
    expect(json.statusCode).toBe(200);
  });

  it('answers 401 invalid_credentials, localised, for a wrong password, an unknown user or missing fields', async () => {
    const wrong = problem(await staffLoginRequest(ctx, 'ops', 'not the password'), 401);
    expect(wrong.error).toMatchObject({
      code: 'invalid_credentials',
      message: 'Invalid credentials',
    });
    const unknown = problem(await staffLoginRequest(ctx, 'nobody', STAFF_PASSWORD), 401);
    expect(unknown.error.code).toBe('invalid_credentials');
    const french = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
      payload: { username: 'ops' },
    });
    expect(problem(french, 401).error.message).toBe('Identifiants invalides');
  });

  it('a staff token is not a member: member calls answer 403, and logout ends it', async () => {
    const token = await staffLogin(ctx, 'ops');
    const credits = problem(await call(ctx, 'GET', '/api/credits/my-credits', { token }), 403);
    expect(credits.error.code).toBe('forbidden');
    expect(credits.error.message).toMatch(/staff account/);
    expect((await call(ctx, 'POST', '/api/auth/logout', { token })).statusCode).toBe(200);
    expect(problem(await call(ctx, 'GET', '/api/auth/me', { token }), 401).error.code).toBe(
      'not_authenticated',
    );
    expect((await call(ctx, 'GET', '/api/members', { token })).statusCode).toBe(401);
  });

  it('stores a salted scrypt hash, never the password', async () => {
    await createStaff(ctx, 'ops2', 'support');
    const rows = await ctx.app.db.selectFrom('staff_accounts').select('password_hash').execute();
    const hashes = rows.map((r) => r.password_hash);
    expect(hashes.every((h) => h.startsWith('scrypt$') && !h.includes(STAFF_PASSWORD))).toBe(true);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});

describe('GET /api/ranks, /api/members, /api/members/stats', () => {
  it('gives the rank table', async () => {
    const body = ok(
      await call(ctx, 'GET', '/api/ranks', { token: tokens.support }),
      ranksResponseSchema,
    );
    expect(body.ranks).toEqual(RANK_TABLE);
  });

  it('lists members with credits, level and scan counts; the stats count them all', async () => {
    const all = ok(
      await call(ctx, 'GET', '/api/members', { token: tokens.support }),
      membersResponseSchema,
    );
    const stats = ok(
      await call(ctx, 'GET', '/api/members/stats', { token: tokens.support }),
      memberStatsResponseSchema,
    );
    expect(all.total).toBe(stats.total_members);
    expect(all.members.length).toBe(all.total);
    const a = all.members.find((m) => m.steam_id === MEMBER_A)!;
    expect(a.scan_count).toBe(1);
    expect(a.credits).toBe(await balanceOf(ctx.app.db, await userIdOf(ctx, MEMBER_A)));
  });

  it('searches by username, persona name or steam_id, with % taken literally', async () => {
    await ctx.app.db
      .updateTable('users')
      .set({ username: 'Garry 100%', personaname: 'Persona Zeta' })
      .where('steam_id', '=', ADMIN)
      .execute();
    const search = async (term: string) =>
      ok(
        await call(ctx, 'GET', `/api/members?search=${encodeURIComponent(term)}`, {
          token: tokens.admin,
        }),
        membersResponseSchema,
      );
    expect((await search('garry')).members.map((m) => m.steam_id)).toEqual([ADMIN]);
    expect((await search('zeta')).members.map((m) => m.steam_id)).toEqual([ADMIN]);
    expect((await search('0%')).members.map((m) => m.steam_id)).toEqual([ADMIN]);
    expect((await search(SUPPORT.slice(-6))).members.map((m) => m.steam_id)).toEqual([SUPPORT]);
    expect((await search('%')).total).toBe(1);
    expect((await search('no such member')).total).toBe(0);
  });
});

describe('PUT /api/members/:steam_id/credits', () => {
  const ledgerOf = async (steamId: string) =>
    ctx.app.db
      .selectFrom('credit_transactions')
      .selectAll()
      .where('user_id', '=', await userIdOf(ctx, steamId))
      .orderBy('id')
      .execute();

  it('sets the balance with one admin_add/admin_remove row per change; the balance stays the ledger sum', async () => {
    await signIn(ctx, MEMBER_B);
    const before = await ledgerOf(MEMBER_B);
    const put = (credits: unknown, token = tokens.admin) =>
      call(ctx, 'PUT', `/api/members/${MEMBER_B}/credits`, { token, body: { credits } });

    expect(ok(await put(25), setCreditsResponseSchema)).toEqual({
      steam_id: MEMBER_B,
      credits: 25,
    });
    expect(ok(await put(3, tokens.staff), setCreditsResponseSchema).credits).toBe(3);
    expect(ok(await put(3), setCreditsResponseSchema).credits).toBe(3);

    const added = (await ledgerOf(MEMBER_B)).slice(before.length);
    expect(added.map((r) => [r.type, r.amount])).toEqual([
      ['admin_add', 25 - before.reduce((s, r) => s + r.amount, 0)],
      ['admin_remove', -22],
    ]);
    expect(added[0]!.actor_user_id).toBe(await userIdOf(ctx, ADMIN));
    expect(added[1]!.actor_user_id).toBeNull();
    expect(added[1]!.actor_staff_account_id).not.toBeNull();
    const ledger = await ledgerOf(MEMBER_B);
    expect(ledger.reduce((s, r) => s + r.amount, 0)).toBe(3);
    expect(await balanceOf(ctx.app.db, await userIdOf(ctx, MEMBER_B))).toBe(3);

    const listed = ok(
      await call(ctx, 'GET', `/api/members?search=${MEMBER_B}`, { token: tokens.admin }),
      membersResponseSchema,
    );
    expect(listed.members[0]!.credits).toBe(3);
  });

  it('refuses support (no manage_credits), bad amounts and unknown members', async () => {
    const put = (steamId: string, body: unknown, token = tokens.admin) =>
      call(ctx, 'PUT', `/api/members/${steamId}/credits`, { token, body });
    expect(problem(await put(MEMBER_B, { credits: 5 }, tokens.support), 403).error.code).toBe(
      'forbidden',
    );
    expect(problem(await put(MEMBER_B, { credits: -1 }), 400).error.code).toBe('validation_failed');
    expect(problem(await put(MEMBER_B, { credits: 1.5 }), 400).error.code).toBe(
      'validation_failed',
    );
    expect(problem(await put(MEMBER_B, { credits: '7' }), 400).error.code).toBe(
      'validation_failed',
    );
    expect(problem(await put(MEMBER_B, {}), 400).error.code).toBe('validation_failed');
    expect(problem(await put('not-a-steam-id', { credits: 1 }), 400).error.code).toBe(
      'validation_failed',
    );
    const missing = problem(await put('76561198999999999', { credits: 1 }), 404);
    expect(missing.error).toMatchObject({ code: 'not_found', message: 'Member not found' });
  });
});

describe('PUT /api/members/:steam_id/rank', () => {
  const put = (steamId: string, body: unknown, token = tokens.super, language = 'en') =>
    call(ctx, 'PUT', `/api/members/${steamId}/rank`, { token, body, language });

  it('changes the rank and drops the member’s sessions; a new sign-in has the new rights', async () => {
    const old = await signIn(ctx, MEMBER_B);
    expect((await call(ctx, 'GET', '/api/members', { token: old })).statusCode).toBe(403);
    expect(ok(await put(MEMBER_B, { rank: 'support' }), setRankResponseSchema)).toEqual({
      steam_id: MEMBER_B,
      rank: 'support',
    });
    expect((await call(ctx, 'GET', '/api/auth/me', { token: old })).statusCode).toBe(401);
    const fresh = await signIn(ctx, MEMBER_B);
    const me = ok(await call(ctx, 'GET', '/api/auth/me', { token: fresh }), meResponseSchema);
    expect(me.rank).toBe('support');
    expect(me.rank_info.permissions.admin_access).toBe(true);
    expect((await call(ctx, 'GET', '/api/members', { token: fresh })).statusCode).toBe(200);

    // Same rank again: nothing changes, the session lives on.
    expect((await put(MEMBER_B, { rank: 'support' })).statusCode).toBe(200);
    expect((await call(ctx, 'GET', '/api/auth/me', { token: fresh })).statusCode).toBe(200);
    expect(ok(await put(MEMBER_B, { rank: 'member' }), setRankResponseSchema).rank).toBe('member');
    expect((await call(ctx, 'GET', '/api/auth/me', { token: fresh })).statusCode).toBe(401);
  });

  it('never assigns super_admin, never demotes one, and nobody changes their own rank', async () => {
    const given = problem(await put(MEMBER_B, { rank: 'super_admin' }), 400);
    expect(given.error).toMatchObject({
      code: 'rank_not_assignable',
      message: 'This rank cannot be assigned',
    });
    const own = problem(await put(SUPER, { rank: 'member' }, tokens.super, 'fr'), 403);
    expect(own.error).toMatchObject({
      code: 'own_rank',
      message: 'Vous ne pouvez pas modifier votre propre rang',
    });
    await signIn(ctx, OTHER_SUPER);
    await ctx.app.db
      .updateTable('users')
      .set({ rank: 'super_admin' })
      .where('steam_id', '=', OTHER_SUPER)
      .execute();
    const locked = problem(await put(OTHER_SUPER, { rank: 'member' }), 403);
    expect(locked.error.code).toBe('forbidden');
    expect(locked.error.message).toMatch(/super administrator/);
    expect(problem(await put(MEMBER_B, { rank: 'owner' }), 400).error.code).toBe(
      'validation_failed',
    );
    expect(problem(await put('76561198999999999', { rank: 'member' }), 404).error.code).toBe(
      'not_found',
    );
  });

  it('needs change_rank: administrators and staff accounts of rank administrator are refused', async () => {
    expect(problem(await put(MEMBER_B, { rank: 'support' }, tokens.admin), 403).error.code).toBe(
      'forbidden',
    );
    expect(problem(await put(MEMBER_B, { rank: 'support' }, tokens.staff), 403).error.code).toBe(
      'forbidden',
    );
  });
});

describe('POST /api/report-problem and the admin reports', () => {
  const send = (body: unknown, token: string | null = tokens.member, language = 'en') =>
    call(ctx, 'POST', '/api/report-problem', { token, body, language });
  const valid = {
    category: 'Faux positif',
    message: 'The chat tags addon is flagged but it is clean.',
    file_name: 'chattags.zip',
    scan_id: 'abc',
    language: 'fr',
  };

  it('stores a report (French label or key), tells staff, and lists it for any admin', async () => {
    const sent = ok(await send(valid), problemReportResponseSchema, 201);
    const second = ok(
      await send({ category: 'missedThreat', message: 'x'.repeat(500) }),
      problemReportResponseSchema,
      201,
    );
    const { reports } = ok(
      await call(ctx, 'GET', '/api/admin/reports', { token: tokens.support }),
      reportsResponseSchema,
    );
    const first = reports.find((r) => r.id === sent.id)!;
    expect(first).toMatchObject({
      category: 'falsePositive',
      status: 'open',
      author_steamid: MEMBER_A,
      language: 'fr',
      scan_id: 'abc',
      filename: 'chattags.zip',
      managed_by: null,
    });
    expect(reports.find((r) => r.id === second.id)).toMatchObject({
      category: 'missedThreat',
      language: 'en',
      scan_id: '',
    });
    const { notifications } = ok(
      await call(ctx, 'GET', '/api/notifications', { token: tokens.admin }),
      notificationsResponseSchema,
    );
    expect(
      notifications.some((n) => n.type === 'new_report' && n.data.category === 'falsePositive'),
    ).toBe(true);
  });

  it('answers the form rules with their own messages (en/fr)', async () => {
    const missing = problem(await send({ ...valid, category: undefined, language: 'en' }), 400);
    expect(missing.error.message).toBe('This field is required');
    expect(missing.error.details).toMatchObject({ field: 'category' });
    const blank = problem(await send({ ...valid, message: '   ', language: 'fr' }), 400);
    expect(blank.error.message).toBe('Ce champ est obligatoire');
    expect(blank.error.details).toMatchObject({ field: 'message' });
    const long = problem(await send({ ...valid, message: 'y'.repeat(501), language: 'en' }), 400);
    expect(long.error.message).toBe('The message must not exceed 500 characters');
    const unknown = problem(await send({ ...valid, category: 'bug', language: 'en' }), 400);
    expect(unknown.error.message).toBe('Unknown category');
    const extra = problem(await send({ ...valid, author_steamid: SUPER }), 400);
    expect(extra.error.code).toBe('validation_failed');
  });

  it('needs a signed-in member', async () => {
    const anonymous = problem(await send(valid, null), 401);
    expect(anonymous.error.message).toBe('Vous devez être connecté pour signaler un problème');
    expect(problem(await send(valid, tokens.staff), 403).error.code).toBe('forbidden');
  });

  it('moves a report between any statuses, recording the acting staff member (not the body’s)', async () => {
    const { id } = ok(await send(valid), problemReportResponseSchema, 201);
    const setStatus = (status: string, token: string) =>
      call(ctx, 'PUT', `/api/admin/reports/${id}/status`, {
        token,
        body: { status, managed_by: 'Someone Else', managed_by_steamid: MEMBER_B },
      });
    const closed = ok(await setStatus('closed', tokens.support), reportSchema);
    expect(closed).toMatchObject({ status: 'closed', managed_by_steamid: SUPPORT });
    expect(closed.managed_by).not.toBe('Someone Else');
    const reopened = ok(await setStatus('open', tokens.staff), reportSchema);
    expect(reopened).toMatchObject({ status: 'open', managed_by: 'ops', managed_by_steamid: null });
    for (const status of ['in_progress', 'cancelled', 'closed', 'in_progress']) {
      expect(ok(await setStatus(status, tokens.admin), reportSchema).status).toBe(status);
    }
    expect(problem(await setStatus('done', tokens.admin), 400).error.code).toBe(
      'validation_failed',
    );
    const missing = problem(
      await call(ctx, 'PUT', '/api/admin/reports/nope/status', {
        token: tokens.admin,
        body: { status: 'closed' },
      }),
      404,
    );
    expect(missing.error.message).toBe('Report not found');
  });

  it('counts reports: open = open + in progress, closed = closed + cancelled', async () => {
    const { reports } = ok(
      await call(ctx, 'GET', '/api/admin/reports', { token: tokens.admin }),
      reportsResponseSchema,
    );
    const stats = ok(
      await call(ctx, 'GET', '/api/admin/reports/stats', { token: tokens.admin }),
      reportStatsResponseSchema,
    );
    const count = (...s: string[]) => reports.filter((r) => s.includes(r.status)).length;
    expect(stats).toEqual({
      total_reports: reports.length,
      open_reports: count('open', 'in_progress'),
      closed_reports: count('closed', 'cancelled'),
    });
    expect(stats.open_reports).toBeGreaterThan(0);
  });

  it('lets only a super_admin delete a report', async () => {
    const { id } = ok(await send(valid), problemReportResponseSchema, 201);
    const del = (token: string) => call(ctx, 'DELETE', `/api/admin/reports/${id}`, { token });
    expect((await del(tokens.admin)).statusCode).toBe(403);
    expect((await del(tokens.staff)).statusCode).toBe(403);
    expect((await del(tokens.super)).statusCode).toBe(200);
    expect(problem(await del(tokens.super), 404).error.code).toBe('not_found');
  });
});

describe('/api/notifications (read state per staff member)', () => {
  const unread = async (token: string) =>
    ok(
      await call(ctx, 'GET', '/api/notifications/unread-count', { token }),
      unreadCountResponseSchema,
    ).count;
  const list = async (token: string) =>
    ok(await call(ctx, 'GET', '/api/notifications', { token }), notificationsResponseSchema)
      .notifications;

  it('announces first sign-ins and accepted scans', async () => {
    const all = await list(tokens.super);
    expect(all.some((n) => n.type === 'new_member' && n.data.steam_id === MEMBER_A)).toBe(true);
    expect(all.some((n) => n.type === 'new_scan' && n.data.scan_id === completedScanId)).toBe(true);
    // A second sign-in is not a new member.
    await signIn(ctx, MEMBER_A);
    const again = await list(tokens.super);
    expect(
      again.filter((n) => n.type === 'new_member' && n.data.steam_id === MEMBER_A),
    ).toHaveLength(1);
  });

  it('reading or deleting changes only the caller’s view', async () => {
    const id = await notifyStaff(ctx.app.db, { type: 'new_member', steamId: MEMBER_B });
    const before = {
      admin: await unread(tokens.admin),
      super: await unread(tokens.super),
      staff: await unread(tokens.staff),
    };
    expect(before.admin).toBeGreaterThan(0);

    expect(
      (await call(ctx, 'PUT', `/api/notifications/${id}/read`, { token: tokens.admin })).statusCode,
    ).toBe(200);
    expect(await unread(tokens.admin)).toBe(before.admin - 1);
    expect(await unread(tokens.super)).toBe(before.super);
    expect((await list(tokens.admin)).find((n) => n.id === id)!.read).toBe(true);
    expect((await list(tokens.super)).find((n) => n.id === id)!.read).toBe(false);
    // Reading twice is harmless.
    expect(
      (await call(ctx, 'PUT', `/api/notifications/${id}/read`, { token: tokens.admin })).statusCode,
    ).toBe(200);
    expect(await unread(tokens.admin)).toBe(before.admin - 1);

    const readAll = ok(
      await call(ctx, 'PUT', '/api/notifications/read-all', { token: tokens.staff }),
      notificationsChangedResponseSchema,
    );
    expect(readAll.changed).toBe(before.staff);
    expect(await unread(tokens.staff)).toBe(0);
    expect(await unread(tokens.super)).toBe(before.super);

    expect(
      (await call(ctx, 'DELETE', `/api/notifications/${id}`, { token: tokens.super })).statusCode,
    ).toBe(200);
    expect((await list(tokens.super)).some((n) => n.id === id)).toBe(false);
    expect(await unread(tokens.super)).toBe(before.super - 1);
    expect((await list(tokens.admin)).some((n) => n.id === id)).toBe(true);
    const gone = problem(
      await call(ctx, 'PUT', `/api/notifications/${id}/read`, { token: tokens.super }),
      404,
    );
    expect(gone.error.message).toBe('Notification not found');

    const cleared = ok(
      await call(ctx, 'DELETE', '/api/notifications', { token: tokens.super }),
      notificationsChangedResponseSchema,
    );
    expect(cleared.changed).toBeGreaterThan(0);
    expect(await list(tokens.super)).toEqual([]);
    expect(await unread(tokens.super)).toBe(0);
    expect((await list(tokens.admin)).length).toBeGreaterThan(0);

    // New events still reach someone who cleared everything.
    await notifyStaff(ctx.app.db, { type: 'new_scan', scanId: 'later' });
    expect(await unread(tokens.super)).toBe(1);
    expect(
      problem(await call(ctx, 'DELETE', '/api/notifications/unknown', { token: tokens.admin }), 404)
        .error.code,
    ).toBe('not_found');
  });
});

describe('the admin scan history', () => {
  it('lists every scan with its member’s name, anonymous ones included, and counts them', async () => {
    const anonymous = await insertScan(ctx, { userId: null, filename: 'anon.zip' });
    const { scans } = ok(
      await call(ctx, 'GET', '/api/admin/scans', { token: tokens.support }),
      adminScansResponseSchema,
    );
    expect(scans.find((s) => s.scan_id === anonymous)).toMatchObject({
      steam_id: '',
      username: '',
      filename: 'anon.zip',
    });
    const real = scans.find((s) => s.scan_id === completedScanId)!;
    expect(real).toMatchObject({
      steam_id: MEMBER_A,
      filename: 'chattags.zip',
      status: 'completed',
    });
    expect(real.username).not.toBe('');
    const stats = ok(
      await call(ctx, 'GET', '/api/admin/scan-stats', { token: tokens.support }),
      adminScanStatsResponseSchema,
    );
    expect(stats.total_scans).toBe(scans.length);
    expect(stats.anonymous_scans).toBe(scans.filter((s) => s.steam_id === '').length);
    expect(stats.authenticated_scans).toBe(stats.total_scans - stats.anonymous_scans);
  });

  it('lists the original archives still kept', async () => {
    const { files } = ok(
      await call(ctx, 'GET', '/api/admin/files', { token: tokens.admin }),
      adminFilesResponseSchema,
    );
    const kept = files.find((f) => f.scan_id === completedScanId)!;
    expect(kept.filename).toBe(`${completedScanId}.zip`);
    expect(kept.size).toBe(readFileSync(join(ctx.config.archivesDir, kept.filename)).length);
  });

  it('gives a super_admin the original archive by scan id, stored name or uploaded name — never by path', async () => {
    const original = readFileSync(join(ctx.config.archivesDir, `${completedScanId}.zip`));
    for (const name of [completedScanId, `${completedScanId}.zip`, 'chattags.zip']) {
      const response = await call(ctx, 'GET', `/api/admin/download/${encodeURIComponent(name)}`, {
        token: tokens.super,
      });
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="chattags.zip"/,
      );
      expect(Buffer.compare(response.rawPayload, original)).toBe(0);
    }
    for (const name of ['..%2F..%2Fsentinelle.db', '%2Fetc%2Fpasswd', 'sentinelle.db']) {
      expect(
        (await call(ctx, 'GET', `/api/admin/download/${name}`, { token: tokens.super })).statusCode,
      ).toBe(404);
    }
    expect(
      (await call(ctx, 'GET', `/api/admin/download/${completedScanId}`, { token: tokens.admin }))
        .statusCode,
    ).toBe(403);
    const noFile = await insertScan(ctx, { userId: null, archive: false });
    const gone = problem(
      await call(ctx, 'GET', `/api/admin/download/${noFile}`, { token: tokens.super }),
      404,
    );
    expect(gone.error.message).toBe('The original archive is no longer kept');
  });

  it('gives any admin the text result as {name}_result.txt, in the asked language', async () => {
    const en = await call(ctx, 'GET', `/api/admin/result/${completedScanId}`, {
      token: tokens.support,
    });
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toMatch(/^text\/plain/);
    expect(en.headers['content-disposition']).toMatch(/filename="chattags_result.txt"/);
    expect(en.body).toContain(completedScanId);
    const fr = await call(ctx, 'GET', `/api/admin/result/${completedScanId}?language=fr`, {
      token: tokens.staff,
    });
    expect(fr.statusCode).toBe(200);
    expect(fr.body).not.toBe(en.body);
    const running = await insertScan(ctx, { userId: null, status: 'running' });
    expect(
      problem(await call(ctx, 'GET', `/api/admin/result/${running}`, { token: tokens.admin }), 409)
        .error.code,
    ).toBe('scan_not_finished');
    expect(
      problem(await call(ctx, 'GET', '/api/admin/result/nope', { token: tokens.admin }), 404).error
        .code,
    ).toBe('not_found');
  });

  it('deletes a scan with its result and archive, refunding nothing (delete_scans)', async () => {
    const memberId = await userIdOf(ctx, MEMBER_A);
    const id = await insertScan(ctx, { userId: memberId, archive: true, resultJson });
    const balance = await balanceOf(ctx.app.db, memberId);
    const del = (token: string) => call(ctx, 'DELETE', `/api/admin/delete-scan/${id}`, { token });
    expect(problem(await del(tokens.support), 403).error.code).toBe('forbidden');
    expect(ok(await del(tokens.staff), deleteScanResponseSchema)).toEqual({
      success: true,
      scan_id: id,
    });
    expect(existsSync(join(ctx.config.archivesDir, `${id}.zip`))).toBe(false);
    const row = await ctx.app.db
      .selectFrom('scans')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    expect(await balanceOf(ctx.app.db, memberId)).toBe(balance);
    expect(problem(await del(tokens.admin), 404).error.message).toBe('Scan not found');
  });
});
