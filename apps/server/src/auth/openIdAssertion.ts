// Signs Steam-style OpenID 2.0 positive assertions with an HMAC and answers
// check_authentication for them: the shared core of the built-in demo provider and of the
// fake provider tests use, so the relying party's real verification path always runs.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
/** The fields Steam signs, in Steam's order. */
export const STEAM_SIGNED_FIELDS = [
  'op_endpoint',
  'claimed_id',
  'identity',
  'return_to',
  'response_nonce',
  'assoc_handle',
];

export interface AssertionInput {
  endpoint: string;
  idPrefix: string;
  steamId: string;
  returnTo: string;
  /** Defaults to now; tests move it to build stale nonces. */
  time?: Date;
}

/** OpenID key-value form of the signed fields, the text the signature covers. */
function signedText(params: Record<string, string>, signed: string[]): string {
  return signed.map((field) => `${field}:${params[`openid.${field}`] ?? ''}\n`).join('');
}

export class AssertionSigner {
  private readonly secret: Buffer;
  /** Nonces already verified: like Steam, a provider confirms an assertion only once. */
  private readonly checked = new Set<string>();

  constructor(secret: Buffer = randomBytes(32)) {
    this.secret = secret;
  }

  sign(input: AssertionInput): Record<string, string> {
    const time = (input.time ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const params: Record<string, string> = {
      'openid.ns': OPENID_NS,
      'openid.mode': 'id_res',
      'openid.op_endpoint': input.endpoint,
      'openid.claimed_id': `${input.idPrefix}${input.steamId}`,
      'openid.identity': `${input.idPrefix}${input.steamId}`,
      'openid.return_to': input.returnTo,
      'openid.response_nonce': `${time}${randomBytes(6).toString('hex')}`,
      'openid.assoc_handle': '1234567890',
      'openid.signed': ['signed', ...STEAM_SIGNED_FIELDS].join(','),
    };
    params['openid.sig'] = this.signature(params);
    return params;
  }

  /** Recomputes the signature over whatever the params say is signed. */
  signature(params: Record<string, string>): string {
    const signed = (params['openid.signed'] ?? '').split(',');
    return createHmac('sha256', this.secret).update(signedText(params, signed)).digest('base64');
  }

  /** The provider side of check_authentication: is this assertion one we signed, unseen? */
  checkAuthentication(params: Record<string, string>): boolean {
    if (params['openid.mode'] !== 'check_authentication') return false;
    const given = Buffer.from(params['openid.sig'] ?? '', 'base64');
    const expected = Buffer.from(this.signature({ ...params, 'openid.mode': 'id_res' }), 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const nonce = params['openid.response_nonce'] ?? '';
    if (this.checked.has(nonce)) return false;
    this.checked.add(nonce);
    return true;
  }

  /** The check_authentication reply body in OpenID key-value form. */
  static reply(valid: boolean): string {
    return `ns:${OPENID_NS}\nis_valid:${valid ? 'true' : 'false'}\n`;
  }
}

/** Builds the URL the provider redirects the browser to: return_to plus the assertion. */
export function redirectWithAssertion(returnTo: string, params: Record<string, string>): string {
  const url = new URL(returnTo);
  for (const [key, value] of Object.entries(params)) url.searchParams.append(key, value);
  return url.toString();
}
