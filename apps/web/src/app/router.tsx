import { Center, Loader } from '@mantine/core';
import { LANDING_TEXTS } from '@propusk/contracts/landing-texts';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { setSessionLostHandler } from '../lib/api-client';
import { type NavigationState, paths } from './paths';
import { adminRoutes } from './routes/admin/routes';
import { authRoutes } from './routes/auth/routes';
import { RequireSession } from './routes/require-session';
import { RouteError } from './routes/route-error';
import { rootLoader } from './routes/session-home';
import { userRoutes } from './routes/user/routes';

function RouteFallback() {
  return (
    <Center mih="100dvh">
      <Loader aria-label="Загрузка" />
    </Center>
  );
}

/**
 * The whole route table: `/` → the session's area or /login, login screens, then everything behind a session.
 */
export const routes: RouteObject[] = [
  {
    HydrateFallback: RouteFallback,
    // Any route's failure (a screen that throws, a lazy chunk that cannot load) shows a Russian error screen.
    ErrorBoundary: RouteError,
    children: [
      { path: paths.root, loader: rootLoader },
      ...authRoutes,
      {
        path: paths.guestPass,
        lazy: () => import('./routes/guest/guest-pass').then((module) => ({ Component: module.default })),
      },
      { Component: RequireSession, ErrorBoundary: RouteError, children: [...userRoutes, ...adminRoutes] },
      { path: '*', element: <Navigate to={paths.login} replace /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setSessionLostHandler(() => {
    // The session ended (refresh refused): /login says so instead of dropping the person there without a word.
    void router.navigate(paths.login, {
      replace: true,
      state: { message: LANDING_TEXTS.sessionEnded } satisfies NavigationState,
    });
  });
  return router;
}
