// Sign-in end to end through the API with the fake Steam provider and a real SQLite file:
// redirect out, verified return, single-use expiring ticket, session, me, logout, expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenResponseSchema,
  apiErrorSchema,
  loginUrlResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
} from '@sentinelle/contracts';
import { hashToken } from '../../../services/sessions.js';
import {
  MEMBER_A,
  MEMBER_B,
  signIn,
  startTestApp,
  steamSignInRedirect,
  type TestContext,
} from '../../../testing/testApp.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ superAdmins: [MEMBER_B] });
});
afterAll(async () => {
  await ctx.close();
});

const ticketOf = (location: string) =>
  new URL(location, 'http://x').searchParams.get('token') ?? '';
const me = (token: string, language = 'en') =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${token}`, 'accept-language': language },
  });

describe('/api/auth', () => {
  it('gives the login URL, which redirects to the configured provider with a signed state cookie', async () => {
    const login = await ctx.app.inject({ method: 'GET', url: '/api/auth/steam/login' });
    expect(login.statusCode).toBe(200);
    const { login_url } = loginUrlResponseSchema.parse(login.json());
    expect(login_url).toBe('http://sentinelle.test/api/auth/steam');

    const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/steam' });
    expect(start.statusCode).toBe(302);
    expect(String(start.headers.location).startsWith(`${ctx.fake.endpoint}?`)).toBe(true);
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('signs a new member in: ticket → session → me, with the starting credits in the ledger', async () => {
    const location = await steamSignInRedirect(ctx, MEMBER_A);
    expect(location).toMatch(/^\/auth\/success\?token=/);
    const session = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { token: ticketOf(location) },
    });
    expect(session.statusCode).toBe(200);
    const { access_token } = accessTokenResponseSchema.parse(session.json());

    const response = await me(access_token);
    expect(response.statusCode).toBe(200);
    const user = meResponseSchema.parse(response.json());
    expect(user).toMatchObject({
      steamid: MEMBER_A,
      credits: 10,
      rank: 'member',
      is_admin: false,
      xp: 0,
      level: 1,
    });

    const ledger = await ctx.app.db.selectFrom('credit_transactions').selectAll().execute();
    expect(ledger.filter((row) => row.amount === 10)).toHaveLength(1);
    // Only the hash of the session token is stored.
    const stored = await ctx.app.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).toContain(hashToken(access_token));
    expect(stored.map((s) => s.token_hash)).not.toContain(access_token);
  });

  it('makes a configured SteamID super_admin and gives a returning member no second starting credits', async () => {
    const token = await signIn(ctx, MEMBER_B);
    expect(meResponseSchema.parse((await me(token)).json())).toMatchObject({
      rank: 'super_admin',
      is_admin: true,
    });
    await signIn(ctx, MEMBER_B);
    const members = await ctx.app.db
      .selectFrom('users')
      .selectAll()
      .where('steam_id', '=', MEMBER_B)
      .execute();
    expect(members).toHaveLength(1);
    expect(meResponseSchema.parse((await me(token)).json()).credits).toBe(10);
  });

  it('lets a ticket be used only once', async () => {
    const ticket = ticketOf(await steamSignInRedirect(ctx, MEMBER_A));
    const first = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { token: ticket },
    });
    expect(first.statusCode).toBe(200);
    const second = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { token: ticket },
    });
    expect(second.statusCode).toBe(401);
    expect(apiErrorSchema.parse(second.json()).error.code).toBe('login_failed');
  });

  it('refuses an expired ticket', async () => {
    const ticket = ticketOf(await steamSignInRedirect(ctx, MEMBER_A));
    // Let the 60 s pass by moving the ticket's expiry into the past.
    await ctx.app.db
      .updateTable('login_tickets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('ticket_hash', '=', hashToken(ticket))
      .execute();
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { token: ticket },
    });
    expect(response.statusCode).toBe(401);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe('login_failed');
  });

  it('sends a failed or forged return to /auth/failed and creates no ticket', async () => {
    const tickets = async () =>
      (await ctx.app.db.selectFrom('login_tickets').select('ticket_hash').execute()).length;
    const before = await tickets();
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/steam/return?state=x&openid.mode=id_res',
    });
    expect(forged.statusCode).toBe(302);
    expect(forged.headers.location).toBe('/auth/failed');
    // A genuine assertion brought back without the state cookie (another browser) fails too.
    const start = await ctx.app.inject({ method: 'GET', url: '/api/auth/steam' });
    const approved = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(approved.headers.get('location')));
    const noCookie = await ctx.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(noCookie.headers.location).toBe('/auth/failed');
    expect(await tickets()).toBe(before);
  });

  it('answers 401 to me without a token, with a bad body to session a 400, both in the error shape', async () => {
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(apiErrorSchema.parse(anonymous.json()).error).toMatchObject({
      code: 'not_authenticated',
      message: 'Vous devez être connecté',
    });
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { ticket: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(apiErrorSchema.parse(bad.json()).error.code).toBe('validation_failed');
    const notJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'content-type': 'application/json' },
      payload: '{oops',
    });
    expect(notJson.statusCode).toBe(400);
    expect(apiErrorSchema.parse(notJson.json()).error.code).toBe('validation_failed');
  });

  it('logs out: the token is revoked', async () => {
    const token = await signIn(ctx, MEMBER_A);
    expect((await me(token)).statusCode).toBe(200);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logoutResponseSchema.parse(out.json())).toEqual({ success: true });
    expect((await me(token)).statusCode).toBe(401);
  });

  it('expires a session after 30 minutes without activity, with the spec message', async () => {
    const token = await signIn(ctx, MEMBER_A);
    await ctx.app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(token))
      .execute();
    const en = await me(token, 'en');
    expect(en.statusCode).toBe(401);
    expect(apiErrorSchema.parse(en.json())).toMatchObject({
      error: {
        code: 'session_expired',
        message: 'Session expired after 30 minutes of inactivity, please log in again',
      },
      detail: 'Session expired after 30 minutes of inactivity, please log in again',
    });
    const fr = await me(token, 'fr');
    expect(apiErrorSchema.parse(fr.json()).error.message).toBe(
      "Session expirée après 30 minutes d'inactivité, veuillez vous reconnecter",
    );
  });

  it('answers health and a JSON 404 for unknown API paths', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toMatchObject({ status: 'ok', database: 'ok' });
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(apiErrorSchema.parse(missing.json()).error.code).toBe('not_found');
  });
});
