import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '../../lib/paths';
import { takeReturn } from '../../lib/return-after-login';
import { readStored } from '../../lib/storage';
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
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The first screen after logging in again: back to where his ended session left him (issue 41), unless a
  // password must be replaced first. Taken once (return-after-login.ts); the login's own code stays light.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first screen behind the login.
  useEffect(() => {
    if (pathname === paths.changePassword || !readStored('access_token')) return;
    const back = takeReturn(readStored('phone') ?? '');
    if (back) navigate(back.to, { replace: true, state: back.state });
  }, []);
  if (!readStored('access_token') && !readStored('refresh_token'))
    return <Navigate to={paths.login} replace />;
  return (
    <ConsentGate>
      <Outlet />
    </ConsentGate>
  );
}
