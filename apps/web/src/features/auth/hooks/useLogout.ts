// Ends the session: tells the server (best effort), drops the token and user, goes home.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useSession } from '../../../lib/session.js';
import { logout } from '../api/auth.js';
import { CURRENT_USER_KEY } from './useCurrentUser.js';

export function useLogout(): () => Promise<void> {
  const { clearToken } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await logout();
    } catch {
      // The server may already consider the session gone; the local token goes either way.
    }
    clearToken();
    queryClient.removeQueries({ queryKey: CURRENT_USER_KEY });
    await navigate('/');
  }, [clearToken, queryClient, navigate]);
}
