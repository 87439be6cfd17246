// The logs never carry secrets: a full sign-in (OpenID return with its signature, the
// /auth/success ticket, the ticket → session exchange, bearer calls, cookies) is run with the
// log stream captured, and none of the secrets may appear in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEMBER_A,
  startTestApp,
  steamSignInRedirect,
  type TestContext,
} from '../testing/testApp.js';
import { redactUrl } from './logging.js';

let ctx: TestContext;
const lines: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp({ logLevel: 'info' }, undefined, {
    logStream: { write: (line: string) => void lines.push(line) },
  });
});
afterAll(async () => {
  await ctx.close();
});

describe('logs', () => {
  it('hide tickets, session tokens, OpenID signatures, authorization and cookies', async () => {
    const location = await steamSignInRedirect(ctx, MEMBER_A);
    const ticket = new URL(location, 'http://x').searchParams.get('token')!;
    expect(ticket.length).toBeGreaterThan(20);
    // The browser then loads the SPA page carrying the ticket.
    await ctx.app.inject({
      method: 'GET',
      url: `/auth/success?token=${encodeURIComponent(ticket)}`,
    });
    const session = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { token: ticket },
    });
    const accessToken = (session.json() as { access_token: string }).access_token;
    await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: {
        authorization: `Bearer ${accessToken}`,
        cookie: 'sentinelle_openid_state=cookie-secret-value',
      },
    });
    // A refused call is logged with its error; the refused body must not be.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { token: ticket, extra: 'body-secret-value' },
    });

    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(8);
    expect(text).toContain('incoming request');
    expect(text).toContain('/auth/success?token=[redacted]');
    expect(text).toContain('openid.sig=[redacted]');
    for (const secret of [
      ticket,
      encodeURIComponent(ticket),
      accessToken,
      'cookie-secret-value',
      'body-secret-value',
    ]) {
      expect(text).not.toContain(secret);
    }
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('redacts only secret-looking query values', () => {
    expect(redactUrl('/api/scan/status/abc?language=fr')).toBe('/api/scan/status/abc?language=fr');
    expect(redactUrl('/auth/success?token=abc&x=1')).toBe('/auth/success?token=[redacted]&x=1');
    expect(redactUrl('/r?openid.sig=zz&openid.response_nonce=n&openid.assoc_handle=h&flag')).toBe(
      '/r?openid.sig=[redacted]&openid.response_nonce=[redacted]&openid.assoc_handle=[redacted]&flag',
    );
    expect(redactUrl('/r?%E0%A4%A=1&api%5Fkey=2')).toBe('/r?%E0%A4%A=1&api%5Fkey=[redacted]');
  });
});
