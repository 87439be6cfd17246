// The Steam OpenID 2.0 relying party, hand-rolled to follow STACK.md rules 1–8 exactly: strict
// parsing, local checks of every field, then check_authentication against the configured
// endpoint only, then a single-use nonce. Only a SteamID64 that passes all of it comes out.
import { OPENID_NS, STEAM_SIGNED_FIELDS } from './openIdAssertion.js';

export const RETURN_PATH = '/api/auth/steam/return';
export const STEAM_ID_PATTERN = /^7656119\d{10}$/;
const NONCE_WINDOW_MS = 5 * 60 * 1000;
const CHECK_TIMEOUT_MS = 10_000;

export interface RelyingPartyConfig {
  /** The provider's OpenID endpoint (configuration, never taken from a request). */
  endpoint: string;
  idPrefix: string;
  /** Our origin as the browser sees it, without a trailing slash. */
  publicUrl: string;
}

/** Stores a nonce under a unique key; answers false when it was already there (a replay). */
export interface NonceStore {
  claim(key: string, time: Date): Promise<boolean>;
}

export class OpenIdRejected extends Error {
  constructor(readonly reason: string) {
    super(`OpenID assertion rejected: ${reason}`);
    this.name = 'OpenIdRejected';
  }
}

/** Rule 1: where the browser goes to sign in. */
export function loginRedirectUrl(config: RelyingPartyConfig, state: string): string {
  const url = new URL(config.endpoint);
  const returnTo = `${config.publicUrl}${RETURN_PATH}?state=${encodeURIComponent(state)}`;
  url.searchParams.set('openid.ns', OPENID_NS);
  url.searchParams.set('openid.mode', 'checkid_setup');
  url.searchParams.set('openid.claimed_id', 'http://specs.openid.net/auth/2.0/identifier_select');
  url.searchParams.set('openid.identity', 'http://specs.openid.net/auth/2.0/identifier_select');
  url.searchParams.set('openid.return_to', returnTo);
  url.searchParams.set('openid.realm', config.publicUrl);
  return url.toString();
}

/** Rule 2: parse the raw query string ourselves; a key seen twice rejects the whole request. */
export function parseRawQuery(rawUrl: string): Map<string, string> {
  const index = rawUrl.indexOf('?');
  const query = index === -1 ? '' : rawUrl.slice(index + 1);
  const fields = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(query)) {
    if (fields.has(key)) throw new OpenIdRejected(`duplicate parameter ${key}`);
    fields.set(key, value);
  }
  return fields;
}

function required(fields: Map<string, string>, key: string): string {
  const value = fields.get(key);
  if (value === undefined || value === '') throw new OpenIdRejected(`missing ${key}`);
  return value;
}

/** Rule 7's time half: response_nonce starts with an ISO UTC time. */
function nonceTime(nonce: string): Date {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)/.exec(nonce);
  if (!match?.[1]) throw new OpenIdRejected('malformed response_nonce');
  const time = new Date(match[1]);
  if (Number.isNaN(time.getTime())) throw new OpenIdRejected('malformed response_nonce');
  return time;
}

/** Rule 8: ask the configured provider whether it really made this assertion. */
async function checkAuthentication(
  endpoint: string,
  fields: Map<string, string>,
  fetchImpl: typeof fetch,
): Promise<void> {
  const body = new URLSearchParams();
  for (const [key, value] of fields) {
    if (key.startsWith('openid.'))
      body.set(key, key === 'openid.mode' ? 'check_authentication' : value);
  }
  let response: Response;
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' },
      body: body.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch (error) {
    throw new OpenIdRejected(`check_authentication unreachable: ${(error as Error).message}`);
  }
  if (response.status !== 200)
    throw new OpenIdRejected(`check_authentication answered HTTP ${response.status}`);
  const text = (await response.text()).slice(0, 4096);
  const valid = text.split('\n').some((line) => line.trim() === 'is_valid:true');
  if (!valid) throw new OpenIdRejected('check_authentication said the assertion is not valid');
}

export interface VerifyInput {
  config: RelyingPartyConfig;
  /** The callback's raw query, parsed by parseRawQuery. */
  fields: Map<string, string>;
  /** The state of our signed cookie (null when absent or tampered with). */
  cookieState: string | null;
  nonces: NonceStore;
  now?: Date;
  fetchImpl?: typeof fetch;
}

/** Rules 3–8; resolves to the verified SteamID64 or throws OpenIdRejected. */
export async function verifySteamAssertion(input: VerifyInput): Promise<string> {
  const { config, fields } = input;
  const now = input.now ?? new Date();
  for (const key of fields.keys()) {
    if (key !== 'state' && !key.startsWith('openid.'))
      throw new OpenIdRejected(`unexpected parameter ${key}`);
  }
  // Rule 3
  if (fields.get('openid.ns') !== OPENID_NS) throw new OpenIdRejected('wrong openid.ns');
  if (fields.get('openid.mode') !== 'id_res') throw new OpenIdRejected('openid.mode is not id_res');
  if (fields.get('openid.op_endpoint') !== config.endpoint)
    throw new OpenIdRejected('foreign op_endpoint');
  // Rule 4
  const claimedId = required(fields, 'openid.claimed_id');
  const identity = required(fields, 'openid.identity');
  if (claimedId !== identity) throw new OpenIdRejected('claimed_id differs from identity');
  if (!claimedId.startsWith(config.idPrefix))
    throw new OpenIdRejected('claimed_id is not a Steam identity');
  const steamId = claimedId.slice(config.idPrefix.length);
  if (!STEAM_ID_PATTERN.test(steamId))
    throw new OpenIdRejected('claimed_id does not end in a SteamID64');
  // Rule 5
  const signed = required(fields, 'openid.signed').split(',');
  for (const field of STEAM_SIGNED_FIELDS) {
    if (!signed.includes(field)) throw new OpenIdRejected(`${field} is not signed`);
  }
  required(fields, 'openid.sig');
  required(fields, 'openid.assoc_handle');
  // Rule 6
  let returnTo: URL;
  try {
    returnTo = new URL(required(fields, 'openid.return_to'));
  } catch {
    throw new OpenIdRejected('return_to is not a URL');
  }
  const expected = new URL(`${config.publicUrl}${RETURN_PATH}`);
  if (returnTo.origin !== expected.origin || returnTo.pathname !== expected.pathname) {
    throw new OpenIdRejected('return_to is not our callback');
  }
  const state = returnTo.searchParams.get('state');
  if (
    !input.cookieState ||
    !state ||
    state !== input.cookieState ||
    fields.get('state') !== input.cookieState
  ) {
    throw new OpenIdRejected('state does not match the cookie');
  }
  // Rule 7 (time window; uniqueness is claimed once the provider has confirmed)
  const nonce = required(fields, 'openid.response_nonce');
  const time = nonceTime(nonce);
  if (Math.abs(now.getTime() - time.getTime()) > NONCE_WINDOW_MS)
    throw new OpenIdRejected('response_nonce is stale');
  // Rule 8
  await checkAuthentication(config.endpoint, fields, input.fetchImpl ?? fetch);
  if (!(await input.nonces.claim(`${config.endpoint} ${nonce}`, time))) {
    throw new OpenIdRejected('response_nonce was already used');
  }
  return steamId;
}
