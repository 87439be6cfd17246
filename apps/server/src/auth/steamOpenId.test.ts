// The relying party against the fake provider (real HTTP check_authentication) and a real
// SQLite nonce table: every forged or replayed assertion is refused, a good one passes once.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Db } from '../db/database.js';
import { claimOpenIdNonce } from '../services/sessions.js';
import { startFakeSteamProvider, type FakeSteamProvider } from './fakeSteamProvider.js';
import {
  OpenIdRejected,
  RETURN_PATH,
  loginRedirectUrl,
  parseRawQuery,
  verifySteamAssertion,
  type RelyingPartyConfig,
} from './steamOpenId.js';

const PUBLIC_URL = 'http://sentinelle.test';
const ALICE = '76561198000000011';
const MALLORY = '76561198000000099';

let fake: FakeSteamProvider;
let db: Db;
let dir: string;
let config: RelyingPartyConfig;
let state: string;

beforeAll(async () => {
  fake = await startFakeSteamProvider({ steamId: ALICE });
  dir = mkdtempSync(join(tmpdir(), 'sentinelle-rp-'));
  db = openDatabase(`file:${join(dir, 'rp.db')}`);
  await migrateToLatest(db);
  config = { endpoint: fake.endpoint, idPrefix: fake.idPrefix, publicUrl: PUBLIC_URL };
});

afterAll(async () => {
  await fake.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  state = `state-${Math.random().toString(36).slice(2)}`;
});

const returnTo = () => `${PUBLIC_URL}${RETURN_PATH}?state=${state}`;
const nonces = { claim: (key: string, time: Date) => claimOpenIdNonce(db, key, time) };

/** The callback URL the browser would bring back, as raw text. */
function callbackUrl(params: Record<string, string>, extra = ''): string {
  const query = new URLSearchParams({ state, ...params }).toString();
  return `${RETURN_PATH}?${query}${extra}`;
}

async function verify(
  params: Record<string, string>,
  options: { cookieState?: string | null; fetchImpl?: typeof fetch } = {},
) {
  return verifySteamAssertion({
    config,
    fields: parseRawQuery(callbackUrl(params)),
    cookieState: options.cookieState === undefined ? state : options.cookieState,
    nonces,
    fetchImpl: options.fetchImpl,
  });
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenIdRejected);
  return (error as OpenIdRejected).reason;
}

describe('Steam OpenID relying party', () => {
  it('builds the login redirect of rule 1', () => {
    const url = new URL(loginRedirectUrl(config, 'abc'));
    expect(`${url.origin}${url.pathname}`).toBe(fake.endpoint);
    expect(url.searchParams.get('openid.mode')).toBe('checkid_setup');
    expect(url.searchParams.get('openid.claimed_id')).toBe(
      'http://specs.openid.net/auth/2.0/identifier_select',
    );
    expect(url.searchParams.get('openid.return_to')).toBe(`${PUBLIC_URL}${RETURN_PATH}?state=abc`);
    expect(url.searchParams.get('openid.realm')).toBe(PUBLIC_URL);
  });

  it('accepts a good assertion once, and refuses the same assertion replayed', async () => {
    const params = fake.sign(ALICE, returnTo());
    await expect(verify(params)).resolves.toBe(ALICE);
    expect(await rejection(verify(params))).toMatch(/not valid|already used/);
  });

  it('refuses a replayed nonce even when a provider would confirm it again', async () => {
    const params = fake.sign(ALICE, returnTo());
    const alwaysValid = (async () =>
      new Response('ns:http://specs.openid.net/auth/2.0\nis_valid:true\n')) as typeof fetch;
    await expect(verify(params, { fetchImpl: alwaysValid })).resolves.toBe(ALICE);
    expect(await rejection(verify(params, { fetchImpl: alwaysValid }))).toBe(
      'response_nonce was already used',
    );
  });

  it('refuses a wrong or missing state', async () => {
    const params = fake.sign(ALICE, returnTo());
    expect(await rejection(verify(params, { cookieState: 'another-state' }))).toMatch(/state/);
    expect(await rejection(verify(params, { cookieState: null }))).toMatch(/state/);
  });

  it('refuses a claimed_id that differs from identity', async () => {
    const params = fake.sign(ALICE, returnTo());
    params['openid.claimed_id'] = `${fake.idPrefix}${MALLORY}`;
    expect(await rejection(verify(params))).toBe('claimed_id differs from identity');
  });

  it("refuses another user's id swapped into both claimed_id and identity (the signature no longer holds)", async () => {
    const params = fake.sign(ALICE, returnTo());
    params['openid.claimed_id'] = `${fake.idPrefix}${MALLORY}`;
    params['openid.identity'] = `${fake.idPrefix}${MALLORY}`;
    const before = fake.checkCount;
    expect(await rejection(verify(params))).toMatch(/not valid/);
    expect(fake.checkCount).toBe(before + 1);
  });

  it('refuses an identity outside the provider prefix or not a SteamID64', async () => {
    const params = fake.sign(ALICE, returnTo());
    params['openid.claimed_id'] = params['openid.identity'] =
      `https://evil.example/openid/id/${ALICE}`;
    expect(await rejection(verify(params))).toMatch(/not a Steam identity/);
    const short = fake.sign('7656119800000001', returnTo());
    expect(await rejection(verify(short))).toMatch(/SteamID64/);
  });

  it('refuses a foreign op_endpoint without ever contacting it', async () => {
    const params = fake.sign(ALICE, returnTo());
    params['openid.op_endpoint'] = 'https://evil.example/openid/login';
    const before = fake.checkCount;
    expect(await rejection(verify(params))).toBe('foreign op_endpoint');
    expect(fake.checkCount).toBe(before);
  });

  it('refuses an assertion whose signed list leaves out claimed_id', async () => {
    const params = fake.sign(ALICE, returnTo());
    params['openid.signed'] = 'signed,op_endpoint,identity,return_to,response_nonce,assoc_handle';
    expect(await rejection(verify(params))).toBe('claimed_id is not signed');
  });

  it('refuses duplicated parameters', () => {
    const params = fake.sign(ALICE, returnTo());
    const url = callbackUrl(
      params,
      `&openid.claimed_id=${encodeURIComponent(`${fake.idPrefix}${MALLORY}`)}`,
    );
    expect(() => parseRawQuery(url)).toThrow(OpenIdRejected);
    // The same key spelled with percent-encoding is still the same key.
    expect(() => parseRawQuery(`${callbackUrl(params)}&openid%2Emode=id_res`)).toThrow(/duplicate/);
  });

  it('refuses a return_to that is not our callback', async () => {
    const params = fake.sign(ALICE, `https://evil.example${RETURN_PATH}?state=${state}`);
    expect(await rejection(verify(params))).toBe('return_to is not our callback');
  });

  it('refuses a nonce more than five minutes old or ahead', async () => {
    const old = fake.sign(ALICE, returnTo(), new Date(Date.now() - 6 * 60_000));
    expect(await rejection(verify(old))).toBe('response_nonce is stale');
    const ahead = fake.sign(ALICE, returnTo(), new Date(Date.now() + 6 * 60_000));
    expect(await rejection(verify(ahead))).toBe('response_nonce is stale');
  });

  it('refuses a wrong mode or namespace, and extra parameters', async () => {
    const params = fake.sign(ALICE, returnTo());
    expect(await rejection(verify({ ...params, 'openid.mode': 'cancel' }))).toMatch(/mode/);
    expect(
      await rejection(verify({ ...params, 'openid.ns': 'http://openid.net/signon/1.1' })),
    ).toMatch(/ns/);
    expect(await rejection(verify({ ...params, redirect: '/x' }))).toMatch(/unexpected/);
  });

  it('accepts only HTTP 200 from check_authentication and follows no redirect', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/redirect') response.writeHead(302, { location: fake.endpoint }).end();
      else response.writeHead(500).end('is_valid:true\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/redirect', '/error']) {
        const endpoint = `${base}${path}`;
        const local = { ...config, endpoint };
        const params = fake.sign(ALICE, returnTo());
        params['openid.op_endpoint'] = endpoint;
        const reason = await rejection(
          verifySteamAssertion({
            config: local,
            fields: parseRawQuery(callbackUrl(params)),
            cookieState: state,
            nonces,
          }),
        );
        expect(reason).toMatch(/HTTP (302|500)/);
      }
    } finally {
      server.close();
    }
  });
});
