// Bearer-token authentication: `requireMember` is the preHandler of every call that needs a
// signed-in member; it enforces the server-side inactivity expiry and sets request.member.
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiProblem } from '../errors/apiProblem.js';
import type { MessageKey } from '../errors/messages.js';
import { memberById, type UserRow } from '../services/members.js';
import { touchSession } from '../services/sessions.js';
import { isLiveStaffToken } from '../services/staffAccounts.js';
import { shared } from './shared.js';

declare module 'fastify' {
  interface FastifyRequest {
    member: UserRow | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,512})$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** `notSignedIn` lets the scan calls say "You must be logged in to perform an analysis". */
export function requireMember(
  app: FastifyInstance,
  notSignedIn: MessageKey = 'not_authenticated',
): preHandlerAsyncHookHandler {
  return async function requireMemberHook(request) {
    const token = bearerToken(request);
    if (!token) throw new ApiProblem('not_authenticated', 401, { messageKey: notSignedIn });
    const inactivity = app.config.sessionInactivitySeconds;
    const session = await touchSession(app.db, token, inactivity, app.clock());
    if (session.kind === 'expired') {
      throw new ApiProblem('session_expired', 401, {
        details: { minutes: Math.round(inactivity / 60) },
      });
    }
    const member = session.kind === 'ok' ? await memberById(app.db, session.userId) : undefined;
    // A staff username/password account is signed in but is not a member (no credits, no scans).
    if (!member && (await isLiveStaffToken(app.db, token, app.clock())))
      throw new ApiProblem('forbidden', 403, { messageKey: 'staff_not_member' });
    if (!member) throw new ApiProblem('not_authenticated', 401, { messageKey: notSignedIn });
    // The daily credit reset is applied lazily here too, so whatever this call reads or spends
    // already sees it, even if the maintenance job has not run since the reset time.
    if (app.creditResets.isDue(member.credits_reset_period)) {
      await app.creditResets.applyDue(member.id);
    }
    request.member = member;
  };
}

export const authentication = shared(async function authentication(app: FastifyInstance) {
  app.decorateRequest('member', null);
});
