// Test support for the staff side: members signed in with a given rank, staff
// username/password accounts logged in over HTTP, scans and reports written straight into
// the real database (anonymous scans have no upload path), and a one-line HTTP caller.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import {
  SCAN_RETENTION_SECONDS,
  accessTokenResponseSchema,
  type Rank,
  type ScanStatus,
} from '@sentinelle/contracts';
import { nowIso } from '../db/database.js';
import { createStaffAccount, type StaffAccountRank } from '../services/staffAccounts.js';
import { signIn, type TestContext } from './testApp.js';

export const STAFF_PASSWORD = 'a long staff password 42';

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  language?: string;
  headers?: Record<string, string>;
}

export function call(
  ctx: TestContext,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    headers: {
      'accept-language': options.language ?? 'en',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

/** Signs a member in through the fake Steam, gives them `rank`, and returns a fresh token. */
export async function signInWithRank(
  ctx: TestContext,
  steamId: string,
  rank: Rank,
): Promise<string> {
  await signIn(ctx, steamId);
  await ctx.app.db.updateTable('users').set({ rank }).where('steam_id', '=', steamId).execute();
  return signIn(ctx, steamId);
}

export async function createStaff(
  ctx: TestContext,
  username: string,
  rank: StaffAccountRank = 'administrator',
): Promise<void> {
  await createStaffAccount(ctx.app.db, { username, password: STAFF_PASSWORD, rank });
}

/** POST /api/admin/login as the spec's form does it (multipart). */
export function staffLoginRequest(ctx: TestContext, username: string, password: string) {
  const boundary = `----staff${randomBytes(6).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${field('username', username)}${field('password', password)}--${boundary}--\r\n`,
  });
}

export async function staffLogin(ctx: TestContext, username: string): Promise<string> {
  const response = await staffLoginRequest(ctx, username, STAFF_PASSWORD);
  if (response.statusCode !== 200) throw new Error(`staff login failed: ${response.body}`);
  return accessTokenResponseSchema.parse(response.json()).access_token;
}

export interface ScanFixture {
  userId: number | null;
  status?: ScanStatus;
  filename?: string;
  resultJson?: string | null;
  /** Writes a small file as the kept original archive. */
  archive?: boolean;
  createdAt?: number;
}

/** A scan row as the queue would leave it; `running` rows are never claimed by the pool. */
export async function insertScan(ctx: TestContext, scan: ScanFixture): Promise<string> {
  const id = randomBytes(16).toString('hex');
  const path = join(ctx.config.archivesDir, `${id}.zip`);
  if (scan.archive) writeFileSync(path, Buffer.from(`PK\u0005\u0006${'\0'.repeat(18)}`, 'latin1'));
  const created = scan.createdAt ?? Date.now();
  const status = scan.status ?? 'completed';
  const result = scan.resultJson ?? null;
  await ctx.app.db
    .insertInto('scans')
    .values({
      id,
      user_id: scan.userId,
      filename: scan.filename ?? 'addon.zip',
      file_size: 22,
      status,
      scan_type: 'standard',
      language: 'en',
      archive_path: path,
      cost: 2,
      result_json: result ? result.replace(/"scan_id":"[^"]*"/, `"scan_id":"${id}"`) : null,
      score: status === 'completed' ? 55 : null,
      threat_count: 0,
      error_code: null,
      error_message: null,
      created_at: nowIso(created),
      started_at: status === 'queued' ? null : nowIso(created),
      completed_at: status === 'completed' ? nowIso(created + 1000) : null,
      expires_at: nowIso(created + SCAN_RETENTION_SECONDS * 1000),
    })
    .execute();
  return id;
}
