// Renders the real route table in a memory router with the real providers, optionally with
// a held scan result or a signed-in user already in the query cache (no network needed).
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { STORAGE_KEYS, type ScanResult, type User } from '@sentinelle/contracts';
import { AppProviders, createQueryClient } from '../app/providers.js';
import { routes } from '../app/routes.js';
import { CURRENT_USER_KEY } from '../features/auth/hooks/useCurrentUser.js';

export interface RenderAppOptions {
  path?: string;
  heldResult?: ScanResult | null;
  signedInAs?: User;
}

export function renderApp({ path = '/', heldResult = null, signedInAs }: RenderAppOptions = {}) {
  const queryClient = createQueryClient();
  if (signedInAs) {
    const token = 'test-session-token';
    window.localStorage.setItem(STORAGE_KEYS.steamToken, token);
    queryClient.setQueryData([...CURRENT_USER_KEY, token], signedInAs);
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient} heldResult={heldResult}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}
