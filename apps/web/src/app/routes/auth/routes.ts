import type { RouteObject } from 'react-router';
import { paths } from '../../../lib/paths';
import { loginLoader } from '../session-home';

/** Login and recovery screens: no session needed. Each screen is its own chunk. */
export const authRoutes: RouteObject[] = [
  {
    path: paths.login,
    loader: loginLoader,
    lazy: () => import('./login').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.verifyUser,
    lazy: () => import('./verify-user').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.verifyAdmin,
    lazy: () => import('./verify-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.smsAdmin,
    lazy: () => import('./sms-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.restoreSms,
    lazy: () => import('./restore-sms').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.restorePassword,
    lazy: () => import('./restore-password').then((module) => ({ Component: module.default })),
  },
];
