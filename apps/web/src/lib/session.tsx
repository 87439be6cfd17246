// The player's session: the bearer token stored under `steamToken`, kept in React state so
// the header and guarded screens re-render when it appears or is dropped.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { STORAGE_KEYS } from '@sentinelle/contracts';
import { readStored, removeStored, writeStored } from './storage.js';

export function readStoredToken(): string | null {
  const token = readStored(STORAGE_KEYS.steamToken);
  return token && token.trim() !== '' ? token : null;
}

interface SessionState {
  token: string | null;
  storeToken: (token: string) => void;
  clearToken: () => void;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState(readStoredToken);

  const storeToken = useCallback((next: string) => {
    writeStored(STORAGE_KEYS.steamToken, next);
    setToken(next);
  }, []);

  const clearToken = useCallback(() => {
    removeStored(STORAGE_KEYS.steamToken);
    setToken(null);
  }, []);

  const value = useMemo(() => ({ token, storeToken, clearToken }), [token, storeToken, clearToken]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession needs a SessionProvider');
  return state;
}
