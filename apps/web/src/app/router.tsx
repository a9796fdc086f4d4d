import { SESSION_ENDED_TEXT } from '@propusk/contracts/session-texts';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ScreenLoader } from '../components/screen-loader';
import { setSessionLostHandler } from '../lib/api-client';
import { loadAllErrorTexts } from '../lib/errors';
import { keepDrafts } from '../lib/form-drafts';
import { type NavigationState, paths } from '../lib/paths';
import { rememberReturn } from '../lib/return-after-login';
import QueryLayout from './query-layout';
import { adminRoutes } from './routes/admin/routes';
import { authRoutes } from './routes/auth/routes';
import { NavigationBridge } from './routes/navigation-bridge';
import { RequireSession } from './routes/require-session';
import { RouteError } from './routes/route-error';
import { rootLoader } from './routes/session-home';
import { userRoutes } from './routes/user/routes';

/**
 * Screens past the login wait for the whole error catalogue along with their own chunk: the first load carries
 * only the sign-in texts (lib/errors.ts, issue 32 item 8).
 */
function withAllErrorTexts(screens: RouteObject[]): RouteObject[] {
  return screens.map((screen) => {
    const lazy = screen.lazy;
    if (typeof lazy !== 'function') return screen;
    return {
      ...screen,
      lazy: () => Promise.all([lazy(), loadAllErrorTexts()]).then(([module]) => module),
    } as RouteObject;
  });
}

/**
 * The whole route table: `/` → the session's area or /login, the login screen, then (under the query layout)
 * the code and recovery screens, the guest's pass and everything behind a session.
 */
export const routes: RouteObject[] = [
  {
    // The screens that move without importing React Router get its navigation here (lib/navigation.ts).
    Component: NavigationBridge,
    HydrateFallback: ScreenLoader,
    // Any route's failure (a screen that throws, a lazy chunk that cannot load) shows a Russian error screen.
    ErrorBoundary: RouteError,
    children: [
      { path: paths.root, loader: rootLoader },
      ...authRoutes.filter((route) => route.path === paths.login),
      {
        // In the router's chunk: the sign-in screens' light entry never loads the router (issue 32 item 8).
        Component: QueryLayout,
        children: [
          ...authRoutes.filter((route) => route.path !== paths.login),
          ...withAllErrorTexts([
            {
              path: paths.guestPass,
              lazy: () =>
                import('./routes/guest/guest-pass').then((module) => ({ Component: module.default })),
            },
          ]),
          {
            Component: RequireSession,
            ErrorBoundary: RouteError,
            children: withAllErrorTexts([...userRoutes, ...adminRoutes]),
          },
        ],
      },
      { path: '*', element: <Navigate to={paths.login} replace /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setSessionLostHandler((phone) => {
    // Where he was, to come back there after logging in again (issue 41; the code screen takes it).
    rememberReturn(router.state.location, phone);
    // And what he had typed into the forms on that screen (taken back by the same forms there).
    keepDrafts(phone);
    // The session ended (refresh refused): /login says so instead of dropping the person there without a word.
    void router.navigate(paths.login, {
      replace: true,
      state: { message: SESSION_ENDED_TEXT } satisfies NavigationState,
    });
  });
  return router;
}
