import { Navigate, Outlet } from 'react-router';
import { readStored } from '../../lib/storage';
import { paths } from '../paths';
import { ConsentGate } from './consent-gate';

/**
 * Part of the router's chunk with the consent gate: the sign-in screens' light entry never loads the router, and
 * every screen behind a login waits for both, so a chunk of their own was one more round trip before a
 * resident's first screen (issue 32 item 8).
 *
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
