// /api/auth: Steam sign-in (redirect out, verified return, single-use ticket), the ticket →
// session exchange, the current member, and logout.
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessTokenResponseSchema,
  loginUrlResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  sessionRequestSchema,
} from '@sentinelle/contracts';
import {
  OpenIdRejected,
  loginRedirectUrl,
  parseRawQuery,
  verifySteamAssertion,
} from '../../../auth/steamOpenId.js';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { bearerToken } from '../../../plugins/auth.js';
import { signInSteamMember, toUser } from '../../../services/members.js';
import {
  claimOpenIdNonce,
  exchangeTicket,
  issueLoginTicket,
  revokeSession,
} from '../../../services/sessions.js';
import { refreshSteamProfile } from '../../../services/steamProfiles.js';
import { revokeStaffSession, staffUser } from '../../../services/staffAccounts.js';
import { requireSignedIn } from '../../../plugins/staffAuth.js';
import { errorResponses } from '../errorResponses.js';

const STATE_COOKIE = 'sentinelle_openid_state';
const STATE_COOKIE_PATH = '/api/auth/steam';
/** Time a person may spend on the provider's page before the state cookie lapses. */
const STATE_TTL_SECONDS = 600;
/** The profile lookup may delay the redirect this long at most (it is best-effort). */
const PROFILE_WAIT_MS = 1_500;

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const relyingParty = {
    endpoint: config.steam.openIdEndpoint,
    idPrefix: config.steam.idPrefix,
    publicUrl: config.publicUrl,
  };
  const secureCookie = config.publicUrl.startsWith('https://');
  // Sign-in calls are cheap to abuse; they get a tighter limit than the rest of the API.
  const authRateLimit = {
    rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' },
  };

  app.get(
    '/steam/login',
    { schema: { tags: ['auth'], response: { 200: loginUrlResponseSchema } } },
    async () => ({ login_url: `${config.publicUrl}/api/auth/steam` }),
  );

  app.get(
    '/steam',
    { config: authRateLimit, schema: { tags: ['auth'] } },
    async (_request, reply) => {
      const state = randomBytes(24).toString('base64url');
      reply.setCookie(STATE_COOKIE, state, {
        path: STATE_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookie,
        signed: true,
        maxAge: STATE_TTL_SECONDS,
      });
      return reply.redirect(loginRedirectUrl(relyingParty, state), 302);
    },
  );

  app.get(
    '/steam/return',
    { config: authRateLimit, schema: { tags: ['auth'] } },
    async (request, reply) => {
      reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
      try {
        const raw = request.cookies[STATE_COOKIE];
        const unsigned = raw ? request.unsignCookie(raw) : null;
        const steamId = await verifySteamAssertion({
          config: relyingParty,
          fields: parseRawQuery(request.raw.url ?? ''),
          cookieState: unsigned?.valid ? unsigned.value : null,
          nonces: { claim: (key, time) => claimOpenIdNonce(app.db, key, time) },
        });
        const member = await signInSteamMember(app.db, steamId, {
          startingCredits: config.startingCredits,
          superAdmins: config.superAdmins,
        });
        await Promise.race([
          refreshSteamProfile(app.db, config.steam, steamId).catch((error: unknown) =>
            request.log.warn({ err: error }, 'Steam profile lookup failed'),
          ),
          new Promise((resolve) => setTimeout(resolve, PROFILE_WAIT_MS).unref()),
        ]);
        const ticket = await issueLoginTicket(app.db, member.id, app.clock());
        return reply.redirect(`/auth/success?token=${encodeURIComponent(ticket)}`, 302);
      } catch (error) {
        if (error instanceof OpenIdRejected)
          request.log.info({ reason: error.reason }, 'Steam sign-in refused');
        else request.log.error({ err: error }, 'Steam sign-in failed');
        return reply.redirect('/auth/failed', 302);
      }
    },
  );

  app.post(
    '/session',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        body: sessionRequestSchema,
        response: { 200: accessTokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const token = await exchangeTicket(
        app.db,
        request.body.token,
        config.sessionInactivitySeconds,
        app.clock(),
      );
      if (!token) throw new ApiProblem('login_failed', 401);
      return { access_token: token };
    },
  );

  app.get(
    '/me',
    {
      preHandler: requireSignedIn(app),
      schema: {
        tags: ['auth'],
        security: [{ bearer: [] }],
        response: { 200: meResponseSchema, ...errorResponses },
      },
    },
    async (request) =>
      request.actor?.kind === 'staff'
        ? staffUser(request.actor.account)
        : toUser(app.db, request.member!),
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        security: [{ bearer: [] }],
        response: { 200: logoutResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      if (token) {
        await revokeSession(app.db, token);
        await revokeStaffSession(app.db, token);
      }
      return { success: true as const };
    },
  );
};

export default authRoutes;
