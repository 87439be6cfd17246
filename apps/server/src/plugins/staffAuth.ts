// Who is calling a staff route: a Steam member whose rank holds admin_access, or a staff
// username/password account acting with its own rank. `requireStaff` runs as an onRequest
// hook, so an anonymous or unauthorised caller is refused before the body is even read.
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { hasPermission, type Permission, type Rank } from '@sentinelle/contracts';
import { ApiProblem } from '../errors/apiProblem.js';
import { memberById, type UserRow } from '../services/members.js';
import { touchSession } from '../services/sessions.js';
import {
  staffAccountById,
  touchStaffSession,
  type StaffAccountRow,
} from '../services/staffAccounts.js';
import { bearerToken, requireMember } from './auth.js';
import { shared } from './shared.js';

/** The signed-in person behind a request, whichever way they signed in. */
export type Actor =
  | { kind: 'member'; rank: Rank; name: string; steamId: string; reader: string; user: UserRow }
  | {
      kind: 'staff';
      rank: Rank;
      name: string;
      steamId: null;
      reader: string;
      account: StaffAccountRow;
    };

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** What a staff call needs beyond admin_access: a permission, or being super_admin. */
export type StaffRequirement = Permission | 'super_admin';

function memberActor(user: UserRow): Actor {
  return {
    kind: 'member',
    rank: user.rank,
    name: user.username,
    steamId: user.steam_id,
    reader: `member:${user.id}`,
    user,
  };
}

function staffActor(account: StaffAccountRow): Actor {
  return {
    kind: 'staff',
    rank: account.rank,
    name: account.username,
    steamId: null,
    reader: `staff:${account.id}`,
    account,
  };
}

/** Resolves the bearer token to a member or a staff account; 401 when there is none. */
export async function signedInActor(app: FastifyInstance, request: FastifyRequest): Promise<Actor> {
  const token = bearerToken(request);
  if (!token) throw new ApiProblem('not_authenticated', 401);
  const inactivity = app.config.sessionInactivitySeconds;
  const expired = () =>
    new ApiProblem('session_expired', 401, { details: { minutes: Math.round(inactivity / 60) } });

  const now = app.clock();
  const member = await touchSession(app.db, token, inactivity, now);
  if (member.kind === 'expired') throw expired();
  if (member.kind === 'ok') {
    const user = await memberById(app.db, member.userId);
    if (user) return memberActor(user);
    throw new ApiProblem('not_authenticated', 401);
  }
  const staff = await touchStaffSession(app.db, token, inactivity, now);
  if (staff.kind === 'expired') throw expired();
  if (staff.kind === 'ok') {
    const account = await staffAccountById(app.db, staff.userId);
    if (account) return staffActor(account);
  }
  throw new ApiProblem('not_authenticated', 401);
}

export function meets(rank: Rank, requirement: StaffRequirement): boolean {
  return requirement === 'super_admin' ? rank === 'super_admin' : hasPermission(rank, requirement);
}

/** onRequest hook of every staff call: admin_access, plus `requirement` when given. */
export function requireStaff(
  app: FastifyInstance,
  requirement?: StaffRequirement,
): onRequestAsyncHookHandler {
  return async function requireStaffHook(request) {
    const actor = await signedInActor(app, request);
    if (!meets(actor.rank, 'admin_access')) throw new ApiProblem('forbidden', 403);
    if (requirement && !meets(actor.rank, requirement)) throw new ApiProblem('forbidden', 403);
    request.actor = actor;
    if (actor.kind === 'member') request.member = actor.user;
  };
}

/**
 * preHandler of calls open to anyone signed in, member or staff account (/auth/me). A member
 * goes through requireMember exactly as on the member calls (lazy credit reset included).
 */
export function requireSignedIn(app: FastifyInstance): preHandlerAsyncHookHandler {
  const memberHook = requireMember(app);
  return async function requireSignedInHook(request, reply) {
    const token = bearerToken(request);
    if (token) {
      const inactivity = app.config.sessionInactivitySeconds;
      const staff = await touchStaffSession(app.db, token, inactivity, app.clock());
      if (staff.kind === 'expired')
        throw new ApiProblem('session_expired', 401, {
          details: { minutes: Math.round(inactivity / 60) },
        });
      const account =
        staff.kind === 'ok' ? await staffAccountById(app.db, staff.userId) : undefined;
      if (account) {
        request.actor = staffActor(account);
        return;
      }
    }
    await memberHook.call(this, request, reply);
  };
}

export const staffAuthentication = shared(async function staffAuthentication(app: FastifyInstance) {
  app.decorateRequest('actor', null);
});
