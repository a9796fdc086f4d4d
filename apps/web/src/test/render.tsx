/**
 * Renders a screen the way the app does (Mantine, TanStack Query, a router), at one route with the given
 * navigation state. Other routes render a marker `Screen: <path>` so a test can see where it navigated to,
 * with the state it carried (`screen.getByTestId('navigation-state')`).
 */

import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { NavigationState } from '../app/paths';
import { paths } from '../app/paths';
import { AppProvider } from '../app/provider';
import { createQueryClient } from '../app/query-client';
import { NavigationBridge } from '../app/routes/navigation-bridge';
import { setSessionLostHandler } from '../lib/api-client';

function Destination() {
  const location = useLocation();
  return (
    <div>
      <p>Screen: {location.pathname}</p>
      <pre data-testid="navigation-state">{JSON.stringify(location.state ?? null)}</pre>
    </div>
  );
}

export interface RenderRouteOptions {
  path: string;
  /**
   * The route's pattern when it has a parameter (`/guest/:token`) or `path` carries a query
   * (`/mybarrier?barrier_id=12`): `path` is then the URL opened.
   */
  pattern?: string;
  state?: NavigationState;
  /** Other real screens to mount (path → element), e.g. to follow a flow over two screens. */
  routes?: Record<string, ReactNode>;
  /** Set when the test uses fake timers (`vi.useFakeTimers({ shouldAdvanceTime: true })`). */
  fakeTimers?: boolean;
}

export function renderRoute(element: ReactNode, options: RenderRouteOptions) {
  const [pathname = options.path, query] = options.path.split('?');
  const search = query === undefined ? '' : `?${query}`;
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const extra = Object.entries(options.routes ?? {}).map(([path, routeElement]) => ({
    path,
    element: routeElement,
  }));
  const router = createMemoryRouter(
    [
      {
        // The app's root layout: React Router's navigation for the screens that move through lib/navigation.ts.
        Component: NavigationBridge,
        children: [
          { path: options.pattern ?? pathname, element },
          ...extra,
          { path: '*', element: <Destination /> },
        ],
      },
    ],
    { initialEntries: [{ pathname, search, state: options.state ?? null }] },
  );
  setSessionLostHandler(() => {
    void router.navigate(paths.login, { replace: true });
  });
  const user = userEvent.setup(options.fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {});
  const view = render(
    <AppProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppProvider>,
  );
  return { ...view, user, router, queryClient };
}

/** A logged-in browser: both tokens and the phone stored. */
export function signIn(phone = '+79001234567') {
  window.localStorage.setItem('access_token', 'access-1');
  window.localStorage.setItem('refresh_token', 'refresh-1');
  window.localStorage.setItem('phone', phone);
}
