import { lazy, Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { readStored } from '../../lib/storage';
import { paths } from '../paths';

/** Its own chunk: the login screens must not load the query client's hooks and the policy's layout. */
const ConsentGate = lazy(() => import('./consent-gate'));

/**
 * Screens behind a login: without any stored token there is nothing to refresh, so go to /login. An account
 * without consent to the current privacy policy sees the consent screen first (consent-gate.tsx).
 */
export function RequireSession() {
  if (!readStored('access_token') && !readStored('refresh_token'))
    return <Navigate to={paths.login} replace />;
  return (
    <Suspense fallback={null}>
      <ConsentGate>
        <Outlet />
      </ConsentGate>
    </Suspense>
  );
}
