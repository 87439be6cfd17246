// `npm run bench:api`: starts the built server (apps/server/dist/main.js) on a loopback port
// with a temporary DATA_DIR, signs a demo member in, then measures with autocannon:
//   1. GET /api/user/my-scans — requests/s and p99 latency (target ≥ 1000 req/s, p99 < 50 ms);
//   2. POST /api/scan of a ~100 KB addon — request rate, p99, and completed scans/s (target ≥ 20).
// Bounded: each phase runs BENCH_SECONDS (default 10) and the script stops the server itself.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { zipSync } from 'fflate';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'apps', 'server', 'dist', 'main.js');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const DEMO_MEMBER = '76561190000000001';

if (!existsSync(main)) {
  console.error(`${main} is missing: run \`npm run build\` first.`);
  process.exit(2);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** ~100 KB of varied, ordinary addon Lua, stored uncompressed so the archive itself is ~100 KB. */
function addonZip() {
  const files = {};
  for (let f = 0; f < 10; f++) {
    const lines = [];
    for (let i = 0; lines.join('\n').length < 10_000; i++) {
      lines.push(
        `local function helper_${f}_${i}(ply, amount)`,
        `  if not IsValid(ply) then return end`,
        `  ply:SetNWInt("points_${i}", (ply:GetNWInt("points_${i}", 0) or 0) + amount * ${i + 1})`,
        `  hook.Run("PointsChanged_${f}", ply, amount)`,
        `end`,
      );
    }
    files[`lua/autorun/server/bench_${f}.lua`] = new TextEncoder().encode(lines.join('\n'));
  }
  return Buffer.from(zipSync(files, { level: 0 }));
}

function multipartBody(zip) {
  const boundary = '----sentinellebench';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-addon.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    ),
    zip,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const cookiesOf = (response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

async function demoSignIn(base) {
  const start = await fetch(`${base}/api/auth/steam`, { redirect: 'manual' });
  const returnTo = new URL(start.headers.get('location')).searchParams.get('openid.return_to');
  const approve = await fetch(
    `${base}/demo-steam/openid/approve?steamid=${DEMO_MEMBER}&return_to=${encodeURIComponent(returnTo)}`,
    { redirect: 'manual' },
  );
  const back = await fetch(approve.headers.get('location'), {
    redirect: 'manual',
    headers: { cookie: cookiesOf(start) },
  });
  const ticket = new URL(back.headers.get('location'), base).searchParams.get('token');
  const session = await fetch(`${base}/api/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: ticket }),
  });
  return (await session.json()).access_token;
}

async function queueEmpty(base) {
  const health = await (await fetch(`${base}/api/health`)).json();
  return health.queue.queued === 0 && health.queue.running === 0;
}

const run = (options) =>
  new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });

const dataDir = mkdtempSync(join(tmpdir(), 'sentinelle-bench-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [main], {
  env: {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'warn',
    // The member can pay for every scan of the run; limits are for abuse, not for this bench.
    STARTING_CREDITS: '100000000',
    RATE_LIMIT_PER_MINUTE: '100000000',
    UPLOAD_RATE_LIMIT_PER_MINUTE: '100000000',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', () => child.kill('SIGKILL'));

try {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = await demoSignIn(base);
  const authorization = `Bearer ${token}`;
  const zip = addonZip();
  const { body, contentType } = multipartBody(zip);

  // A realistic list to read: 20 finished scans.
  for (let i = 0; i < 20; i++) {
    const r = await fetch(`${base}/api/scan`, {
      method: 'POST',
      body,
      headers: { authorization, 'content-type': contentType },
    });
    if (r.status !== 202) throw new Error(`seeding scan refused: ${r.status} ${await r.text()}`);
  }
  while (!(await queueEmpty(base))) await new Promise((r) => setTimeout(r, 100));

  console.log(`\nGET /api/user/my-scans (20 scans listed), ${seconds} s, 10 connections`);
  const read = await run({
    url: `${base}/api/user/my-scans`,
    connections: 10,
    duration: seconds,
    headers: { authorization },
  });
  console.log(
    `  ${read.requests.average.toFixed(0)} req/s, p99 ${read.latency.p99} ms, ` +
      `p50 ${read.latency.p50} ms, ${read.non2xx} non-2xx, ${read.errors} errors`,
  );

  console.log(
    `\nPOST /api/scan of a ${(zip.length / 1024).toFixed(0)} KB addon, ${seconds} s, 4 connections`,
  );
  const started = Date.now();
  const submit = await run({
    url: `${base}/api/scan`,
    method: 'POST',
    connections: 4,
    duration: seconds,
    headers: { authorization, 'content-type': contentType },
    body,
  });
  while (!(await queueEmpty(base))) await new Promise((r) => setTimeout(r, 50));
  const drained = (Date.now() - started) / 1000;
  const accepted = submit['2xx'];
  console.log(
    `  ${submit.requests.average.toFixed(0)} submissions/s, p99 ${submit.latency.p99} ms, ` +
      `${submit.non2xx} non-2xx, ${submit.errors} errors`,
  );
  console.log(
    `  ${accepted} scans accepted and completed in ${drained.toFixed(1)} s → ` +
      `${(accepted / drained).toFixed(1)} completed scans/s`,
  );
  const list = await (
    await fetch(`${base}/api/user/my-scans`, { headers: { authorization } })
  ).json();
  const failed = list.scans.filter((s) => s.status !== 'completed').length;
  if (failed > 0) console.log(`  warning: ${failed} scans did not complete`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  stop();
}
