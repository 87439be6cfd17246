// Everything the screens share: server-state cache, theme, session, the held scan result
// and the toast container.
import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';
import type { ScanResult } from '@sentinelle/contracts';
import { TOAST_CONTAINER_PROPS } from '../components/ui/toast.js';
import { HeldResultProvider } from '../features/results/hooks/useHeldResult.js';
import { SessionProvider } from '../lib/session.js';
import { ThemeProvider, useTheme } from '../lib/theme.js';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

function ThemedToasts() {
  const { isDark } = useTheme();
  return <ToastContainer {...TOAST_CONTAINER_PROPS} theme={isDark ? 'dark' : 'light'} />;
}

export function AppProviders({
  children,
  queryClient,
  heldResult = null,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  heldResult?: ScanResult | null;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <SessionProvider>
          <HeldResultProvider initial={heldResult}>
            {children}
            <ThemedToasts />
          </HeldResultProvider>
        </SessionProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
