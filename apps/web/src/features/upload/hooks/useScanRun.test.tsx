// The scan run from the home screen against an HTTP server on 127.0.0.1 that answers with the
// contract's shapes (the built server is exercised end to end in apps/web/e2e).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../../testing/renderApp.js';
import { aMaliciousResult, aUser } from '../../../testing/fixtures.js';

type Script = { upload: 'accept' | 'refuse'; status: 'running' | 'completed' | 'failed' };
let script: Script = { upload: 'accept', status: 'completed' };
let requests: string[] = [];
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    const path = `${request.method} ${request.url}`;
    requests.push(path);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (path === 'POST /api/scan') {
      if (script.upload === 'refuse')
        return send(402, {
          error: { code: 'insufficient_credits', message: 'Crédits insuffisants : 0 sur 2.' },
          detail: 'Crédits insuffisants : 0 sur 2.',
        });
      return send(202, { scan_id: 'scan-1' });
    }
    if (path === 'GET /api/scan/status/scan-1')
      return send(200, {
        scan_id: 'scan-1',
        status: script.status,
        ...(script.status === 'failed' ? { error: 'The archive is damaged.' } : {}),
      });
    if (path === 'GET /api/scan/results/scan-1') return send(200, aMaliciousResult());
    if (path === 'POST /api/scan/cancel/scan-1')
      return send(200, { scan_id: 'scan-1', status: 'cancelled' });
    if (path === 'GET /api/auth/me') return send(200, aUser());
    return send(404, { error: { code: 'not_found', message: 'Not found' }, detail: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The page's origin becomes the server's, so the app's relative /api calls reach it.
  const { jsdom } = globalThis as unknown as {
    jsdom: { reconfigure(options: { url: string }): void };
  };
  jsdom.reconfigure({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  requests = [];
});

function startStandardScan() {
  renderApp({ signedInAs: aUser() });
  fireEvent.change(screen.getByTestId('file-input'), {
    target: { files: [new File(['PK\u0003\u0004'], 'addon.zip')] },
  });
  fireEvent.click(screen.getByTestId('standard-analysis-button'));
}

// Each scan waits at least one real 2-second poll interval.
describe('a scan started from the home screen', { timeout: 15_000 }, () => {
  it('shows the progress screen, polls, then opens the results', async () => {
    script = { upload: 'accept', status: 'completed' };
    startStandardScan();
    expect(screen.getByTestId('scan-progress')).toBeTruthy();
    expect(await screen.findByTestId('results-page', {}, { timeout: 6_000 })).toBeTruthy();
    expect(screen.getByTestId('score-badge').dataset.band).toBe('critical');
    expect(requests).toEqual(
      expect.arrayContaining([
        'POST /api/scan',
        'GET /api/scan/status/scan-1',
        'GET /api/scan/results/scan-1',
      ]),
    );
  });

  it("shows the server's message and resets when the upload is refused", async () => {
    script = { upload: 'refuse', status: 'completed' };
    startStandardScan();
    expect(await screen.findByText('Crédits insuffisants : 0 sur 2.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('scan-progress')).toBeNull());
    expect(screen.getByTestId('drop-zone')).toBeTruthy();
  });

  it('goes back to the upload screen with the reason when the scan fails', async () => {
    script = { upload: 'accept', status: 'failed' };
    startStandardScan();
    expect(await screen.findByText('The archive is damaged.', {}, { timeout: 6_000 })).toBeTruthy();
    expect(screen.queryByTestId('scan-progress')).toBeNull();
  });

  it('cancels on the server and stops polling', async () => {
    script = { upload: 'accept', status: 'running' };
    startStandardScan();
    await waitFor(() => expect(requests).toContain('POST /api/scan'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    fireEvent.click(screen.getByTestId('cancel-scan'));
    await waitFor(() => expect(requests).toContain('POST /api/scan/cancel/scan-1'));
    expect(screen.queryByTestId('scan-progress')).toBeNull();
    const polls = requests.filter((r) => r.startsWith('GET /api/scan/status')).length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(requests.filter((r) => r.startsWith('GET /api/scan/status')).length).toBe(polls);
  });
});
