// The authorisation matrix: every /api route × {anonymous, member, support, administrator,
// super_admin, staff account of rank administrator}, with the status each must get. Each
// cell is a real request on a real SQLite file; a cell that needs its own target (a scan to
// delete, a token to log out) builds it first. A last test makes sure no route of the app is
// missing from the table, so a new route cannot slip in unclassified.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  accessTokenResponseSchema,
  adminFilesResponseSchema,
  adminScanStatsResponseSchema,
  adminScansResponseSchema,
  apiErrorSchema,
  deleteScanResponseSchema,
  healthResponseSchema,
  loginUrlResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  memberStatsResponseSchema,
  membersResponseSchema,
  myCreditsResponseSchema,
  myScansResponseSchema,
  notificationsChangedResponseSchema,
  notificationsResponseSchema,
  okResponseSchema,
  problemReportResponseSchema,
  ranksResponseSchema,
  reportSchema,
  reportStatsResponseSchema,
  reportsResponseSchema,
  scanAcceptedResponseSchema,
  scanCancelResponseSchema,
  scanResultSchema,
  scanStatusResponseSchema,
  setCreditsResponseSchema,
  setRankResponseSchema,
  unreadCountResponseSchema,
} from '@sentinelle/contracts';
import { notifyStaff } from '../../services/notifications.js';
import {
  MEMBER_A,
  SAMPLES_DIR,
  multipart,
  signIn,
  startTestApp,
  waitFor,
  zipFolder,
  userIdOf,
  type TestContext,
} from '../../testing/testApp.js';
import {
  STAFF_PASSWORD,
  createStaff,
  insertScan,
  signInWithRank,
  staffLogin,
} from '../../testing/staffFixtures.js';

const PRINCIPALS = [
  'anonymous',
  'member',
  'support',
  'administrator',
  'super_admin',
  'staff',
] as const;
type Principal = (typeof PRINCIPALS)[number];
type Expected = [number, number, number, number, number, number];

const STEAM_IDS: Record<Exclude<Principal, 'anonymous' | 'staff'>, string> = {
  member: MEMBER_A,
  support: '76561198000000033',
  administrator: '76561198000000044',
  super_admin: '76561198000000055',
};
/** A member nobody signs in as: the target of the credit and rank editors. */
const TARGET = '76561198000000077';
const STAFF_USERNAME = 'matrix-admin';

/** Open to all; Steam members only (a staff account gets 403); staff; editors; super_admin. */
const everyone = (s: number): Expected => [s, s, s, s, s, s];
const members = (s: number): Expected => [401, s, s, s, s, 403];
const staff = (s: number): Expected => [401, 403, s, s, s, s];
const editors = (s: number): Expected => [401, 403, 403, s, s, s];
const superAdmin = (s: number): Expected => [401, 403, 403, 403, s, 403];

interface Cell {
  principal: Principal;
  token: string | null;
  steamId: string | null;
  userId: number | null;
}

interface Call {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** Replaces the principal's token (logout gets a throwaway one). */
  token?: string | null;
}

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route as registered, OpenAPI style. */
  route: string;
  expected: Expected;
  /** Schema of the success answer when it is JSON. */
  schema?: z.ZodType;
  request: (cell: Cell) => Promise<Call> | Call;
}

let ctx: TestContext;
const cells = {} as Record<Principal, Cell>;
let resultJson: string;
let malZip: Uint8Array;

function upload(): Pick<Call, 'payload' | 'headers'> {
  const { payload, headers } = multipart([{ name: 'file', filename: 'm.zip', content: malZip }]);
  return { payload, headers };
}

function loginForm(): Pick<Call, 'payload' | 'headers'> {
  const boundary = '----matrixlogin';
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return {
    payload: `${field('username', STAFF_USERNAME)}${field('password', STAFF_PASSWORD)}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A scan of the cell's own member (any scan for those who own none). */
async function ownScan(cell: Cell, status: 'completed' | 'running'): Promise<string> {
  return insertScan(ctx, {
    userId: cell.userId,
    status,
    archive: true,
    resultJson: status === 'completed' ? resultJson : null,
  });
}

async function freshReport(): Promise<string> {
  const row = await ctx.app.db
    .insertInto('reports')
    .values({
      id: `r${Math.random().toString(16).slice(2)}`,
      category: 'other',
      status: 'open',
      message: 'matrix',
      author_user_id: null,
      author_steamid: MEMBER_A,
      author_username: 'A',
      language: 'en',
      scan_id: '',
      filename: '',
      managed_by: null,
      managed_by_steamid: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function freshToken(cell: Cell): Promise<string | null> {
  if (cell.principal === 'anonymous') return null;
  if (cell.principal === 'staff') return staffLogin(ctx, STAFF_USERNAME);
  return signIn(ctx, cell.steamId!);
}

const ROWS: Row[] = [
  {
    method: 'GET',
    route: '/api/health',
    expected: everyone(200),
    schema: healthResponseSchema,
    request: () => ({ url: '/api/health' }),
  },
  {
    method: 'GET',
    route: '/api/auth/steam/login',
    expected: everyone(200),
    schema: loginUrlResponseSchema,
    request: () => ({ url: '/api/auth/steam/login' }),
  },
  {
    method: 'GET',
    route: '/api/auth/steam',
    expected: everyone(302),
    request: () => ({ url: '/api/auth/steam' }),
  },
  {
    method: 'GET',
    route: '/api/auth/steam/return',
    expected: everyone(302),
    request: () => ({ url: '/api/auth/steam/return' }),
  },
  {
    method: 'POST',
    route: '/api/auth/session',
    expected: everyone(401),
    request: () => ({ url: '/api/auth/session', payload: { token: 'not-a-ticket' } }),
  },
  {
    method: 'GET',
    route: '/api/auth/me',
    expected: [401, 200, 200, 200, 200, 200],
    schema: meResponseSchema,
    request: () => ({ url: '/api/auth/me' }),
  },
  {
    method: 'POST',
    route: '/api/auth/logout',
    expected: everyone(200),
    schema: logoutResponseSchema,
    request: async (c) => ({ url: '/api/auth/logout', token: await freshToken(c) }),
  },
  {
    method: 'POST',
    route: '/api/admin/login',
    expected: everyone(200),
    schema: accessTokenResponseSchema,
    request: () => ({ url: '/api/admin/login', ...loginForm() }),
  },

  {
    method: 'POST',
    route: '/api/scan',
    expected: members(202),
    schema: scanAcceptedResponseSchema,
    request: () => ({ url: '/api/scan', ...upload() }),
  },
  {
    method: 'GET',
    route: '/api/scan/status/{id}',
    expected: members(200),
    schema: scanStatusResponseSchema,
    request: async (c) => ({ url: `/api/scan/status/${await ownScan(c, 'running')}` }),
  },
  {
    method: 'GET',
    route: '/api/scan/results/{id}',
    expected: members(200),
    schema: scanResultSchema,
    request: async (c) => ({ url: `/api/scan/results/${await ownScan(c, 'completed')}` }),
  },
  {
    method: 'POST',
    route: '/api/scan/cancel/{id}',
    expected: members(200),
    schema: scanCancelResponseSchema,
    request: async (c) => ({ url: `/api/scan/cancel/${await ownScan(c, 'running')}` }),
  },
  {
    method: 'GET',
    route: '/api/user/my-scans',
    expected: members(200),
    schema: myScansResponseSchema,
    request: () => ({ url: '/api/user/my-scans' }),
  },
  {
    method: 'GET',
    route: '/api/user/my-scans/result/{id}',
    expected: members(200),
    request: async (c) => ({ url: `/api/user/my-scans/result/${await ownScan(c, 'completed')}` }),
  },
  {
    method: 'GET',
    route: '/api/credits/my-credits',
    expected: members(200),
    schema: myCreditsResponseSchema,
    request: () => ({ url: '/api/credits/my-credits' }),
  },
  {
    method: 'POST',
    route: '/api/credits/add-credits',
    expected: members(501),
    request: () => ({ url: '/api/credits/add-credits' }),
  },
  {
    method: 'POST',
    route: '/api/report-problem',
    expected: members(201),
    schema: problemReportResponseSchema,
    request: () => ({
      url: '/api/report-problem',
      payload: { category: 'other', message: 'matrix' },
    }),
  },

  {
    method: 'GET',
    route: '/api/admin/scans',
    expected: staff(200),
    schema: adminScansResponseSchema,
    request: () => ({ url: '/api/admin/scans' }),
  },
  {
    method: 'GET',
    route: '/api/admin/scan-stats',
    expected: staff(200),
    schema: adminScanStatsResponseSchema,
    request: () => ({ url: '/api/admin/scan-stats' }),
  },
  {
    method: 'GET',
    route: '/api/admin/files',
    expected: staff(200),
    schema: adminFilesResponseSchema,
    request: () => ({ url: '/api/admin/files' }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/delete-scan/{scan_id}',
    expected: editors(200),
    schema: deleteScanResponseSchema,
    request: async () => ({
      url: `/api/admin/delete-scan/${await insertScan(ctx, { userId: null, archive: true })}`,
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/download/{filename}',
    expected: superAdmin(200),
    request: async () => ({
      url: `/api/admin/download/${await insertScan(ctx, { userId: null, archive: true })}`,
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/result/{scan_id}',
    expected: staff(200),
    request: async () => ({
      url: `/api/admin/result/${await insertScan(ctx, { userId: null, resultJson })}`,
    }),
  },
  {
    method: 'GET',
    route: '/api/admin/reports',
    expected: staff(200),
    schema: reportsResponseSchema,
    request: () => ({ url: '/api/admin/reports' }),
  },
  {
    method: 'GET',
    route: '/api/admin/reports/stats',
    expected: staff(200),
    schema: reportStatsResponseSchema,
    request: () => ({ url: '/api/admin/reports/stats' }),
  },
  {
    method: 'PUT',
    route: '/api/admin/reports/{id}/status',
    expected: staff(200),
    schema: reportSchema,
    request: async () => ({
      url: `/api/admin/reports/${await freshReport()}/status`,
      payload: { status: 'in_progress' },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/admin/reports/{id}',
    expected: superAdmin(200),
    schema: okResponseSchema,
    request: async () => ({ url: `/api/admin/reports/${await freshReport()}` }),
  },

  {
    method: 'GET',
    route: '/api/members',
    expected: staff(200),
    schema: membersResponseSchema,
    request: () => ({ url: '/api/members?search=7656' }),
  },
  {
    method: 'GET',
    route: '/api/members/stats',
    expected: staff(200),
    schema: memberStatsResponseSchema,
    request: () => ({ url: '/api/members/stats' }),
  },
  {
    method: 'PUT',
    route: '/api/members/{steam_id}/credits',
    expected: editors(200),
    schema: setCreditsResponseSchema,
    request: () => ({ url: `/api/members/${TARGET}/credits`, payload: { credits: 7 } }),
  },
  {
    method: 'PUT',
    route: '/api/members/{steam_id}/rank',
    expected: superAdmin(200),
    schema: setRankResponseSchema,
    request: () => ({ url: `/api/members/${TARGET}/rank`, payload: { rank: 'support' } }),
  },
  {
    method: 'GET',
    route: '/api/ranks',
    expected: staff(200),
    schema: ranksResponseSchema,
    request: () => ({ url: '/api/ranks' }),
  },

  {
    method: 'GET',
    route: '/api/notifications/unread-count',
    expected: staff(200),
    schema: unreadCountResponseSchema,
    request: () => ({ url: '/api/notifications/unread-count' }),
  },
  {
    method: 'GET',
    route: '/api/notifications',
    expected: staff(200),
    schema: notificationsResponseSchema,
    request: () => ({ url: '/api/notifications' }),
  },
  {
    method: 'PUT',
    route: '/api/notifications/{id}/read',
    expected: staff(200),
    schema: okResponseSchema,
    request: async () => ({
      url: `/api/notifications/${await notifyStaff(ctx.app.db, { type: 'new_scan' })}/read`,
    }),
  },
  {
    method: 'PUT',
    route: '/api/notifications/read-all',
    expected: staff(200),
    schema: notificationsChangedResponseSchema,
    request: () => ({ url: '/api/notifications/read-all' }),
  },
  {
    method: 'DELETE',
    route: '/api/notifications/{id}',
    expected: staff(200),
    schema: okResponseSchema,
    request: async () => ({
      url: `/api/notifications/${await notifyStaff(ctx.app.db, { type: 'new_scan' })}`,
    }),
  },
  {
    method: 'DELETE',
    route: '/api/notifications',
    expected: staff(200),
    schema: notificationsChangedResponseSchema,
    request: () => ({ url: '/api/notifications' }),
  },
];

beforeAll(async () => {
  ctx = await startTestApp({
    superAdmins: [STEAM_IDS.super_admin],
    maxUploadBytes: 1024 * 1024,
    rateLimitPerMinute: 100_000,
    authRateLimitPerMinute: 100_000,
    uploadRateLimitPerMinute: 100_000,
    reportRateLimitPerMinute: 100_000,
  });
  malZip = zipFolder(join(SAMPLES_DIR, 'malicious', 'mal-02-chattags-net-runstring'));
  await signIn(ctx, TARGET);
  await createStaff(ctx, STAFF_USERNAME, 'administrator');
  cells.anonymous = { principal: 'anonymous', token: null, steamId: null, userId: null };
  cells.staff = {
    principal: 'staff',
    token: await staffLogin(ctx, STAFF_USERNAME),
    steamId: null,
    userId: null,
  };
  for (const principal of ['member', 'support', 'administrator', 'super_admin'] as const) {
    const steamId = STEAM_IDS[principal];
    const token =
      principal === 'member' || principal === 'super_admin'
        ? await signIn(ctx, steamId)
        : await signInWithRank(ctx, steamId, principal);
    cells[principal] = { principal, token, steamId, userId: await userIdOf(ctx, steamId) };
  }

  // One real scan, so stored results are what the scanner really writes.
  const { payload, headers } = upload();
  const accepted = await ctx.app.inject({
    method: 'POST',
    url: '/api/scan',
    payload: payload as Buffer,
    headers: { ...headers, authorization: `Bearer ${cells.member.token}` },
  });
  const scanId = scanAcceptedResponseSchema.parse(accepted.json()).scan_id;
  resultJson = await waitFor(async () => {
    const row = await ctx.app.db
      .selectFrom('scans')
      .select(['status', 'result_json'])
      .where('id', '=', scanId)
      .executeTakeFirstOrThrow();
    return row.status === 'completed' ? row.result_json! : undefined;
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('authorisation matrix', () => {
  it.each(ROWS.map((row) => [`${row.method} ${row.route}`, row] as const))(
    '%s',
    async (_name, row) => {
      const actual: number[] = [];
      for (const principal of PRINCIPALS) {
        const cell = cells[principal];
        const call = await row.request(cell);
        const token = call.token === undefined ? cell.token : call.token;
        const response = await ctx.app.inject({
          method: row.method,
          url: call.url,
          headers: {
            'accept-language': 'en',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...call.headers,
          },
          ...(call.payload !== undefined ? { payload: call.payload as string } : {}),
        });
        actual.push(response.statusCode);
        if (response.statusCode >= 400) {
          // Every refusal is the one error shape, with a message.
          const body = apiErrorSchema.parse(response.json());
          expect(body.error.message.length, `${principal}: ${response.body}`).toBeGreaterThan(0);
          if (response.statusCode === 401)
            expect(body.error.code).toMatch(/not_authenticated|login_failed/);
          if (response.statusCode === 403) expect(body.error.code).toBe('forbidden');
        } else if (row.schema && response.statusCode < 300) {
          row.schema.parse(response.json());
        }
      }
      expect(Object.fromEntries(PRINCIPALS.map((p, i) => [p, actual[i]]))).toEqual(
        Object.fromEntries(PRINCIPALS.map((p, i) => [p, row.expected[i]])),
      );
    },
  );

  it('covers every route the app serves under /api', async () => {
    const documented = (ctx.app.swagger() as { paths: Record<string, Record<string, unknown>> })
      .paths;
    const served = Object.entries(documented)
      .filter(([path]) => path.startsWith('/api/') && !path.startsWith('/api/docs'))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
          .map((m) => `${m.toUpperCase()} ${path.replace(/(.)\/$/, '$1')}`),
      );
    const inMatrix = new Set(ROWS.map((row) => `${row.method} ${row.route}`));
    expect(served.length).toBeGreaterThan(35);
    expect([...new Set(served)].filter((route) => !inMatrix.has(route))).toEqual([]);
    expect([...inMatrix].filter((route) => !served.includes(route))).toEqual([]);
  });
});
