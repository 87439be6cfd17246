import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { meResponseSchema } from '@sentinelle/contracts';
import { apiFetch, apiRequest, ApiRequestError } from './apiClient.js';
import { initI18n } from './i18n.js';

// A real HTTP server on 127.0.0.1 stands in for the API, so headers and bodies go over the wire.
let server: Server;
let base = '';
let lastHeaders: IncomingHttpHeaders = {};

beforeAll(async () => {
  server = createServer((request, response) => {
    lastHeaders = request.headers;
    const reply = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (request.url === '/api/ok') return reply(200, JSON.stringify({ hello: 'world' }));
    if (request.url === '/api/credits')
      return reply(
        402,
        JSON.stringify({
          error: {
            code: 'insufficient_credits',
            message: 'Crédits insuffisants',
            details: { balance: 1, required: 2 },
          },
          detail: 'Crédits insuffisants',
        }),
      );
    if (request.url === '/api/big') return reply(413, '<html>too large</html>');
    return reply(200, JSON.stringify({ username: 'incomplete' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('apiFetch', () => {
  it('sends the stored bearer token and the current language', async () => {
    window.localStorage.setItem('steamToken', 'abc123');
    initI18n('fr');
    const answer = await apiFetch(`${base}/api/ok`);
    expect(answer).toEqual({ status: 200, body: { hello: 'world' } });
    expect(lastHeaders.authorization).toBe('Bearer abc123');
    expect(lastHeaders['accept-language']).toBe('fr');
  });

  it('sends no Authorization header when logged out', async () => {
    await apiFetch(`${base}/api/ok`);
    expect(lastHeaders.authorization).toBeUndefined();
  });

  it("turns the error JSON into an ApiRequestError carrying the server's message", async () => {
    const failure = await apiFetch(`${base}/api/credits`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect(failure).toMatchObject({
      status: 402,
      code: 'insufficient_credits',
      message: 'Crédits insuffisants',
      details: { balance: 1, required: 2 },
    });
  });

  it('keeps the status of an error without the JSON shape', async () => {
    await expect(apiFetch(`${base}/api/big`)).rejects.toMatchObject({
      status: 413,
      code: 'payload_too_large',
      message: '',
    });
  });

  it('rejects an answer that does not match the contract', async () => {
    await expect(apiRequest(`${base}/api/me`, meResponseSchema)).rejects.toMatchObject({
      code: 'unexpected_response',
    });
  });

  it('reports a request that never got an answer as a network error', async () => {
    await expect(apiFetch('http://127.0.0.1:1/api/ok')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
  });
});
