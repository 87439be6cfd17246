// The built server as a real process: killed (SIGKILL) while a scan runs, it completes the scan
// after a restart; stopped with SIGTERM it lets a running scan finish within the grace period,
// or puts it back in the queue when the grace period is too short. Credits stay consistent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  myCreditsResponseSchema,
  scanAcceptedResponseSchema,
  scanStatusResponseSchema,
  type ScanStatus,
} from '@sentinelle/contracts';
import { demoSignIn, freePort, startLiveServer, type LiveServer } from '../testing/liveServer.js';

const ZIP = zipSync({ 'lua/autorun/server/init.lua': new TextEncoder().encode('print("ok")\n') });
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sentinelle-live-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string, port: number, env: Record<string, string> = {}) {
  const server = await startLiveServer(dataDir, port, env);
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server;
}

async function submit(server: LiveServer, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([ZIP], { type: 'application/zip' }), 'addon.zip');
  const response = await fetch(`${server.base}/api/scan`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(202);
  return scanAcceptedResponseSchema.parse(await response.json()).scan_id;
}

async function statusOf(server: LiveServer, token: string, id: string): Promise<ScanStatus> {
  const response = await fetch(`${server.base}/api/scan/status/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return scanStatusResponseSchema.parse(await response.json()).status;
}

async function waitStatus(server: LiveServer, token: string, id: string, wanted: ScanStatus[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await statusOf(server, token, id);
    if (wanted.includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`scan stayed ${status}:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function credits(server: LiveServer, token: string) {
  const response = await fetch(`${server.base}/api/credits/my-credits`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return myCreditsResponseSchema.parse(await response.json());
}

describe('the built server as a process', () => {
  it('completes a scan that was running when the server was killed', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const first = await start(dataDir, port, { SENTINELLE_TEST_SCAN_DELAY_MS: '60000' });
    const token = await demoSignIn(first.base);
    const id = await submit(first, token);
    await waitStatus(first, token, id, ['running']);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await start(dataDir, port);
    expect(await waitStatus(second, token, id, ['completed', 'failed'])).toBe('completed');
    const info = await credits(second, token);
    expect(info.credits).toBe(8);
    expect(info.credits).toBe(info.transactions.reduce((sum, t) => sum + t.amount, 0));
    expect(info.transactions.filter((t) => t.type === 'spend')).toHaveLength(1);
    expect(info.transactions.filter((t) => t.type === 'refund')).toHaveLength(0);
  });

  it('on SIGTERM lets a running scan finish within the grace period', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const server = await start(dataDir, port, {
      SENTINELLE_TEST_SCAN_DELAY_MS: '1500',
      SHUTDOWN_GRACE_MS: '20000',
    });
    const token = await demoSignIn(server.base);
    const id = await submit(server, token);
    await waitStatus(server, token, id, ['running']);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const again = await start(dataDir, port);
    expect(await statusOf(again, token, id)).toBe('completed');
  });

  it('on SIGTERM puts a scan that outlasts the grace period back in the queue', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const server = await start(dataDir, port, {
      SENTINELLE_TEST_SCAN_DELAY_MS: '60000',
      SHUTDOWN_GRACE_MS: '300',
    });
    const token = await demoSignIn(server.base);
    const id = await submit(server, token);
    await waitStatus(server, token, id, ['running']);
    const stoppedAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);

    const again = await start(dataDir, port);
    expect(await waitStatus(again, token, id, ['completed', 'failed'])).toBe('completed');
    expect((await credits(again, token)).credits).toBe(8);
  });
});
