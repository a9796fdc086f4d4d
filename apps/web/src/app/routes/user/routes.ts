import type { RouteObject } from 'react-router';
import { paths } from '../../../lib/paths';
import { StartRoute } from './start';

/** The user area (spec.md section 2 "User area"), behind RequireSession. Each screen is its own chunk but /start. */
export const userRoutes: RouteObject[] = [
  // In the router's chunk: every resident's session begins here, one round trip fewer (issue 32 item 8).
  { path: paths.start, Component: StartRoute },
  { path: paths.user, lazy: () => import('./profile').then((module) => ({ Component: module.default })) },
  {
    path: paths.requests,
    lazy: () => import('./requests').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.barriers,
    lazy: () => import('./barriers').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.barrierDetails,
    lazy: () => import('./barrier-details').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.myBarrier,
    lazy: () => import('./my-barrier').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.addPhone,
    lazy: () => import('./add-phone').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.editPhone,
    lazy: () => import('./edit-phone').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.barrierHistory,
    lazy: () => import('./barrier-history').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.changePhone,
    lazy: () => import('./change-phone').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.deleteAccount,
    lazy: () => import('./delete-account').then((module) => ({ Component: module.default })),
  },
];
