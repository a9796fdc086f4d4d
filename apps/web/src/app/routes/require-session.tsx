import { Navigate, Outlet } from 'react-router';
import { readStored } from '../../lib/storage';
import { paths } from '../paths';
import { ConsentGate } from './consent-gate';

/**
 * Screens behind a login: without any stored token there is nothing to refresh, so go to /login. An account
 * without consent to the current privacy policy sees the consent screen first (consent-gate.tsx).
 */
export function RequireSession() {
  if (!readStored('access_token') && !readStored('refresh_token'))
    return <Navigate to={paths.login} replace />;
  return (
    <ConsentGate>
      <Outlet />
    </ConsentGate>
  );
}
