// The app as a whole: configuration defaults, the built-in demo sign-in over real HTTP, the
// web app with its SPA fallback and security headers, and the API docs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenResponseSchema, meResponseSchema } from '@sentinelle/contracts';
import { buildApp } from './app.js';
import { STEAM_OPENID_ENDPOINT, loadConfig } from './config.js';
import { REPO_ROOT } from './paths.js';
import { startTestApp, type TestContext } from './testing/testApp.js';

describe('configuration', () => {
  it('has the documented defaults, with the demo provider when nothing is configured', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(resolve(REPO_ROOT, 'data'));
    expect(config.databaseUrl).toBe(`file:${resolve(REPO_ROOT, 'data', 'sentinelle.db')}`);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.startingCredits).toBe(10);
    expect(config.maxUploadBytes).toBe(1_073_741_824);
    expect(config.scanWorkers).toBeGreaterThanOrEqual(1);
    expect(config.steam).toMatchObject({
      demo: true,
      openIdEndpoint: 'http://localhost:8080/demo-steam/openid/login',
    });
  });

  it('uses the real Steam in production and refuses the demo there', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).steam).toMatchObject({
      demo: false,
      openIdEndpoint: STEAM_OPENID_ENDPOINT,
    });
    expect(() => loadConfig({ NODE_ENV: 'production', STEAM_OPENID_ENDPOINT: 'demo' })).toThrow(
      /refused/,
    );
  });

  it('rejects malformed values instead of guessing', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ SCAN_WORKERS: '0' })).toThrow(/SCAN_WORKERS/);
    expect(() => loadConfig({ SENTINELLE_SUPER_ADMINS: '123' })).toThrow(/SteamID64/);
    expect(
      loadConfig({ SENTINELLE_SUPER_ADMINS: '76561198000000011, 76561198000000022' }).superAdmins,
    ).toEqual(['76561198000000011', '76561198000000022']);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('built-in demo provider', () => {
  it('signs a demo account in through the real relying party over HTTP', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sentinelle-demo-'));
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: join(dataDir, 'none'),
    });
    const app = await buildApp(config);
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const base = config.publicUrl;
      const start = await fetch(`${base}/api/auth/steam`, { redirect: 'manual' });
      const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const page = await fetch(String(start.headers.get('location')));
      const html = await page.text();
      expect(html).toContain('LOCAL DEMO');
      const approve = /href="([^"]*approve[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      expect(approve).toBeDefined();
      const approved = await fetch(`${base}${approve}`, { redirect: 'manual' });
      const back = await fetch(String(approved.headers.get('location')), {
        redirect: 'manual',
        headers: { cookie },
      });
      const location = String(back.headers.get('location'));
      expect(location).toMatch(/^\/auth\/success\?token=/);

      const ticket = new URL(location, base).searchParams.get('token');
      const session = await fetch(`${base}/api/auth/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: ticket }),
      });
      const { access_token } = accessTokenResponseSchema.parse(await session.json());
      const me = meResponseSchema.parse(
        await (
          await fetch(`${base}/api/auth/me`, {
            headers: { authorization: `Bearer ${access_token}` },
          })
        ).json(),
      );
      expect(me).toMatchObject({
        steamid: '76561190000000001',
        username: 'Demo Member',
        rank: 'member',
      });
      expect(me.avatar).toBe(`${base}/demo-steam/avatar/76561190000000001.svg`);
      // Replaying the same provider redirect is refused.
      const replay = await fetch(String(approved.headers.get('location')), {
        redirect: 'manual',
        headers: { cookie },
      });
      expect(replay.headers.get('location')).toBe('/auth/failed');
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('web app and headers', () => {
  let ctx: TestContext;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'sentinelle-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Sentinelle SPA</title>');
    writeFileSync(join(webDir, 'assets', 'app-123.js'), 'console.log(1)');
    ctx = await startTestApp({ webDistDir: webDir });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('serves index.html for client routes, assets as files, and 404s for missing assets and API paths', async () => {
    for (const url of ['/', '/my-scans', '/auth/success?token=abc', '/system/panel']) {
      const page = await ctx.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('Sentinelle SPA');
    }
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(
      404,
    );
    expect((await ctx.app.inject({ method: 'GET', url: '/api/missing' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'POST', url: '/somewhere' })).statusCode).toBe(404);
  });

  it('sends a CSP a Vite build runs under, allowing Steam avatars', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data: https:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document', async () => {
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = Object.keys((docs.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/scan/', '/api/auth/me', '/api/scan/results/{id}']),
    );
  });

  it('shows a short message instead of crashing when the web app is not built', async () => {
    const bare = await startTestApp();
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('has not been built');
    } finally {
      await bare.close();
    }
  });
});
