import { Navigate, Outlet } from 'react-router';
import { readStored } from '../../lib/storage';
import { paths } from '../paths';

/** Screens behind a login: without any stored token there is nothing to refresh, so go to /login. */
export function RequireSession() {
  if (!readStored('access_token') && !readStored('refresh_token'))
    return <Navigate to={paths.login} replace />;
  return <Outlet />;
}
