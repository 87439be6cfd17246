// Calls of spec §7 "Authentication": login URL, ticket → session exchange, current user, logout.
import {
  accessTokenResponseSchema,
  loginUrlResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  type User,
} from '@sentinelle/contracts';
import { apiRequest } from '../../../lib/apiClient.js';

export async function fetchLoginUrl(): Promise<string> {
  const { login_url } = await apiRequest('/api/auth/steam/login', loginUrlResponseSchema);
  return login_url;
}

/** Trades the single-use ticket of /auth/success for the bearer token. */
export async function exchangeLoginTicket(ticket: string): Promise<string> {
  const { access_token } = await apiRequest('/api/auth/session', accessTokenResponseSchema, {
    method: 'POST',
    json: { token: ticket },
  });
  return access_token;
}

export function fetchCurrentUser(): Promise<User> {
  return apiRequest('/api/auth/me', meResponseSchema);
}

export async function logout(): Promise<void> {
  await apiRequest('/api/auth/logout', logoutResponseSchema, { method: 'POST' });
}
