// A stand-in Steam for tests and end-to-end runs: a tiny HTTP server on 127.0.0.1 that
// approves every sign-in as a configurable SteamID (redirecting back with an HMAC-signed
// assertion) and answers check_authentication, like steamcommunity.com/openid/login.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AssertionSigner, redirectWithAssertion } from './openIdAssertion.js';

export interface FakeSteamProvider {
  /** Give this as STEAM_OPENID_ENDPOINT. */
  endpoint: string;
  /** Give this as STEAM_OPENID_ID_PREFIX. */
  idPrefix: string;
  /** The account the next sign-ins approve. */
  setSteamId(steamId: string): void;
  /** Signs an assertion as the provider would (tests tamper with it). */
  sign(steamId: string, returnTo: string, time?: Date): Record<string, string>;
  /** How many check_authentication requests arrived (tests assert the check really ran). */
  readonly checkCount: number;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage, limit = 64 * 1024): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeSteamProvider(options: {
  steamId: string;
}): Promise<FakeSteamProvider> {
  const signer = new AssertionSigner();
  let steamId = options.steamId;
  let checkCount = 0;
  let endpoint = '';
  let idPrefix = '';

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/openid/login') {
      response.writeHead(404).end();
      return;
    }
    if (request.method === 'GET') {
      const returnTo = url.searchParams.get('openid.return_to');
      if (url.searchParams.get('openid.mode') !== 'checkid_setup' || !returnTo) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
        return;
      }
      const assertion = signer.sign({ endpoint, idPrefix, steamId, returnTo });
      response.writeHead(302, { location: redirectWithAssertion(returnTo, assertion) }).end();
      return;
    }
    if (request.method === 'POST') {
      readBody(request)
        .then((body) => {
          checkCount++;
          const params = Object.fromEntries(new URLSearchParams(body));
          const valid = signer.checkAuthentication(params);
          response
            .writeHead(200, { 'content-type': 'text/plain' })
            .end(AssertionSigner.reply(valid));
        })
        .catch(() => response.writeHead(400).end());
      return;
    }
    response.writeHead(405).end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  endpoint = `http://127.0.0.1:${port}/openid/login`;
  idPrefix = `http://127.0.0.1:${port}/openid/id/`;

  return {
    endpoint,
    idPrefix,
    setSteamId(id) {
      steamId = id;
    },
    sign(id, returnTo, time) {
      return signer.sign({ endpoint, idPrefix, steamId: id, returnTo, time });
    },
    get checkCount() {
      return checkCount;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
