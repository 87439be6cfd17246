// The signed-in user (GET /api/auth/me) while a token is stored. A refused token is dropped
// (spec §4); a network blip or a server error keeps it so a restart does not sign anyone out.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { User } from '@sentinelle/contracts';
import { ApiRequestError } from '../../../lib/apiClient.js';
import { useSession } from '../../../lib/session.js';
import { fetchCurrentUser } from '../api/auth.js';

export const CURRENT_USER_KEY = ['auth', 'me'] as const;

export function useCurrentUser() {
  const { token, clearToken } = useSession();
  const query = useQuery<User, Error>({
    queryKey: [...CURRENT_USER_KEY, token],
    queryFn: fetchCurrentUser,
    enabled: token !== null,
    retry: false,
    staleTime: 30_000,
  });

  const refused =
    query.error instanceof ApiRequestError && query.error.status >= 400 && query.error.status < 500;
  useEffect(() => {
    if (refused) clearToken();
  }, [refused, clearToken]);

  return {
    user: token ? query.data : undefined,
    isLoading: token !== null && query.isPending,
    isError: token !== null && query.isError,
    refetch: query.refetch,
  };
}
