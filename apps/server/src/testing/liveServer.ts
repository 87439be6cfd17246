// Test support: runs the BUILT server (`node apps/server/dist/main.js`) as a child process on
// a loopback port with its own DATA_DIR, and signs in through its demo provider over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SERVER_ROOT } from '../paths.js';

export const BUILT_MAIN = join(SERVER_ROOT, 'dist', 'main.js');
export const DEMO_MEMBER = '76561190000000001';

export interface LiveServer {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startLiveServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<LiveServer> {
  if (!existsSync(BUILT_MAIN)) {
    throw new Error(
      `${BUILT_MAIN} is missing: run \`npm run build\` (or npx tsc -b apps/server) first`,
    );
  }
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BUILT_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      LOG_LEVEL: 'warn',
      SCAN_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited at start:\n${output}`);
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, output: () => output, exited };
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The browser's part of the demo sign-in, then the ticket → session exchange. */
export async function demoSignIn(base: string, steamId = DEMO_MEMBER): Promise<string> {
  const start = await fetch(`${base}/api/auth/steam`, { redirect: 'manual' });
  const returnTo = new URL(start.headers.get('location')!).searchParams.get('openid.return_to')!;
  const approve = await fetch(
    `${base}/demo-steam/openid/approve?steamid=${steamId}&return_to=${encodeURIComponent(returnTo)}`,
    { redirect: 'manual' },
  );
  const back = await fetch(approve.headers.get('location')!, {
    redirect: 'manual',
    headers: { cookie: cookiesOf(start) },
  });
  const ticket = new URL(back.headers.get('location')!, base).searchParams.get('token');
  if (!ticket) throw new Error(`demo sign-in failed: ${back.headers.get('location')}`);
  const session = await fetch(`${base}/api/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: ticket }),
  });
  return ((await session.json()) as { access_token: string }).access_token;
}
