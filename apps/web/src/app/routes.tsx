// The route table of the screens built so far (spec §2).
import type { RouteObject } from 'react-router';
import { AuthFailedPage } from '../features/auth/components/AuthFailedPage.js';
import { AuthSuccessPage } from '../features/auth/components/AuthSuccessPage.js';
import { ResultsPage } from '../features/results/components/ResultsPage.js';
import { HomePage } from '../features/upload/components/HomePage.js';
import { RootLayout } from './layouts/RootLayout.js';
import { NotFoundPage } from './NotFoundPage.js';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/results', element: <ResultsPage /> },
      { path: '/auth/success', element: <AuthSuccessPage /> },
      { path: '/auth/failed', element: <AuthFailedPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
