// The admin CLI as an operator runs it: built with tsc, spawned with the password on stdin,
// writing to the same SQLite file the server then opens; the new account logs in over HTTP.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenResponseSchema, apiErrorSchema, meResponseSchema } from '@sentinelle/contracts';
import { REPO_ROOT } from '../paths.js';
import { startFakeSteamProvider, type FakeSteamProvider } from '../auth/fakeSteamProvider.js';
import { MEMBER_A, startTestApp, type TestContext } from '../testing/testApp.js';
import { staffLoginRequest } from '../testing/staffFixtures.js';

const CLI = resolve(REPO_ROOT, 'apps', 'server', 'dist', 'cli', 'admin.js');
const PASSWORD = 'operator typed this 123';

let dataDir: string;
let fake: FakeSteamProvider;

function admin(args: string[], input = '') {
  return spawnSync(process.execPath, [CLI, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: '' },
    timeout: 60_000,
  });
}

async function withServer<T>(run: (ctx: TestContext) => Promise<T>): Promise<T> {
  const ctx = await startTestApp({}, { dataDir, fake });
  try {
    return await run(ctx);
  } finally {
    await ctx.close();
  }
}

beforeAll(() => {
  execFileSync('npx', ['tsc', '-b', 'apps/server'], { cwd: REPO_ROOT, stdio: 'pipe' });
  dataDir = mkdtempSync(join(tmpdir(), 'sentinelle-cli-'));
}, 180_000);
beforeAll(async () => {
  fake = await startFakeSteamProvider({ steamId: MEMBER_A });
});
afterAll(async () => {
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('creates an account from a password on stdin; the server logs it in with that rank', async () => {
    const created = admin(['create', 'alice', '--rank', 'administrator'], `${PASSWORD}\n`);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/Created staff account "alice" \(administrator\)/);
    expect(created.stdout).not.toContain(PASSWORD);

    await withServer(async (ctx) => {
      const login = await staffLoginRequest(ctx, 'alice', PASSWORD);
      expect(login.statusCode).toBe(200);
      const { access_token } = accessTokenResponseSchema.parse(login.json());
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(meResponseSchema.parse(me.json())).toMatchObject({
        username: 'alice',
        rank: 'administrator',
        account_kind: 'staff',
      });
      const members = await ctx.app.inject({
        method: 'GET',
        url: '/api/members',
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(members.statusCode).toBe(200);
      const wrong = await staffLoginRequest(ctx, 'alice', `${PASSWORD}x`);
      expect(apiErrorSchema.parse(wrong.json()).error.code).toBe('invalid_credentials');
    });
  });

  it('refuses a duplicate, a short password, an unknown rank and an unknown command', () => {
    const again = admin(['create', 'ALICE'], `${PASSWORD}\n`);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const short = admin(['create', 'bob'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/at least 12 characters/);
    const rank = admin(['create', 'bob', '--rank', 'member'], `${PASSWORD}\n`);
    expect(rank.status).toBe(2);
    expect(rank.stderr).toMatch(/--rank must be one of support, administrator, super_admin/);
    expect(admin(['frobnicate']).status).toBe(2);
    expect(admin(['list']).stdout).toMatch(/^alice\tadministrator/m);
    expect(admin(['list']).stdout).not.toMatch(/bob/);
  });

  it('passwd changes the password and ends the sessions; delete removes the account', async () => {
    const token = await withServer(
      async (ctx) =>
        accessTokenResponseSchema.parse((await staffLoginRequest(ctx, 'alice', PASSWORD)).json())
          .access_token,
    );
    expect(admin(['passwd', 'alice'], 'a brand new password\n').status).toBe(0);
    await withServer(async (ctx) => {
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(401);
      expect((await staffLoginRequest(ctx, 'alice', PASSWORD)).statusCode).toBe(401);
      expect((await staffLoginRequest(ctx, 'alice', 'a brand new password')).statusCode).toBe(200);
    });
    expect(admin(['delete', 'alice']).status).toBe(0);
    expect(admin(['delete', 'alice']).status).toBe(1);
    await withServer(async (ctx) => {
      expect((await staffLoginRequest(ctx, 'alice', 'a brand new password')).statusCode).toBe(401);
    });
  });
});
