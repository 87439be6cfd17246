// Test support: builds the real app on a temporary DATA_DIR (real SQLite file, real worker
// threads) signed in through the fake Steam provider, plus multipart and ZIP helpers.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import { buildApp, type AppDeps } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { startFakeSteamProvider, type FakeSteamProvider } from '../auth/fakeSteamProvider.js';
import { REPO_ROOT } from '../paths.js';

export const MEMBER_A = '76561198000000011';
export const MEMBER_B = '76561198000000022';

/** The samples live beside the repository (../shared/samples), not under /work. */
export const SAMPLES_DIR = resolve(REPO_ROOT, '..', 'shared', 'samples');

export interface TestContext {
  app: FastifyInstance;
  config: Config;
  fake: FakeSteamProvider;
  dataDir: string;
  close(): Promise<void>;
}

export async function startTestApp(
  overrides: Partial<Config> = {},
  reuse?: { dataDir: string; fake: FakeSteamProvider },
  deps: AppDeps = {},
): Promise<TestContext> {
  const fake = reuse?.fake ?? (await startFakeSteamProvider({ steamId: MEMBER_A }));
  const dataDir = reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'sentinelle-server-'));
  const base = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '8080',
    PUBLIC_URL: 'http://sentinelle.test',
    STEAM_OPENID_ENDPOINT: fake.endpoint,
    STEAM_OPENID_ID_PREFIX: fake.idPrefix,
    SCAN_WORKERS: '1',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
  });
  const config: Config = { ...base, ...overrides };
  const app = await buildApp(config, deps);
  await app.ready();
  return {
    app,
    config,
    fake,
    dataDir,
    async close() {
      await app.close();
      if (!reuse) {
        await fake.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/** Runs the browser's part of Steam sign-in; resolves to the /auth/success or /auth/failed URL. */
export async function steamSignInRedirect(ctx: TestContext, steamId: string): Promise<string> {
  ctx.fake.setSteamId(steamId);
  const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/steam' });
  const toProvider = start.headers.location as string;
  const approved = await fetch(toProvider, { redirect: 'manual' });
  const back = new URL(approved.headers.get('location') as string);
  const done = await ctx.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie: cookieHeader(start.headers['set-cookie']) },
  });
  return done.headers.location as string;
}

export async function signIn(ctx: TestContext, steamId: string): Promise<string> {
  const location = await steamSignInRedirect(ctx, steamId);
  const ticket = new URL(location, 'http://x').searchParams.get('token');
  if (!ticket) throw new Error(`sign-in failed: ${location}`);
  const session = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/session',
    payload: { token: ticket },
  });
  return (session.json() as { access_token: string }).access_token;
}

/** The database id of a member who has signed in at least once. */
export async function userIdOf(ctx: TestContext, steamId: string): Promise<number> {
  const row = await ctx.app.db
    .selectFrom('users')
    .select('id')
    .where('steam_id', '=', steamId)
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface Part {
  name: string;
  filename?: string;
  content: Uint8Array | string;
}

export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sentinelle${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? 'Content-Type: application/zip\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Zips a sample folder the way a member would upload it. */
export function zipFolder(folder: string): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(folder, path).split('\\').join('/')] = readFileSync(path);
    }
  };
  walk(folder);
  return zipSync(files);
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A clock tests move by hand; starts at `start` (ms since the epoch). */
export function manualClock(start: number): {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
} {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(ms) {
      current = ms;
    },
  };
}
