// Starts the built Sentinelle server as a child process on a free port, signing in through
// the fake Steam provider the server package exports, with its data in a temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
/** The labelled samples live beside the repository, in the shared folder. */
export const SAMPLES_DIR = resolve(REPO_ROOT, '..', 'shared', 'samples');
export const TEST_RESULTS_DIR = join(REPO_ROOT, 'test-results');

/** The parts of apps/server/src/auth/fakeSteamProvider.ts this test uses. */
interface FakeSteamProvider {
  endpoint: string;
  idPrefix: string;
  close(): Promise<void>;
}
interface FakeSteamModule {
  startFakeSteamProvider(options: { steamId: string }): Promise<FakeSteamProvider>;
}

export interface RunningServer {
  baseUrl: string;
  /** Server output so far, shown when a test fails. */
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(
  baseUrl: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer /api/health within 60 s:\n${output()}`);
}

export async function startBuiltServer(steamId: string): Promise<RunningServer> {
  const main = join(REPO_ROOT, 'apps', 'server', 'dist', 'main.js');
  const fakeModule = join(REPO_ROOT, 'apps', 'server', 'dist', 'auth', 'fakeSteamProvider.js');
  const webIndex = join(REPO_ROOT, 'apps', 'web', 'dist', 'index.html');
  for (const built of [main, fakeModule, webIndex]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first.`);
  }

  const { startFakeSteamProvider } = (await import(
    pathToFileURL(fakeModule).href
  )) as FakeSteamModule;
  const fake = await startFakeSteamProvider({ steamId });
  const dataDir = await mkdtemp(join(tmpdir(), 'sentinelle-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  let log = '';
  const child = spawn(process.execPath, [main], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      STEAM_OPENID_ENDPOINT: fake.endpoint,
      STEAM_OPENID_ID_PREFIX: fake.idPrefix,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const output = () => log;

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, output, stop };
}
