import type { RouteObject } from 'react-router';
import { paths } from '../../paths';

/** The user area (spec.md section 2 "User area"), behind RequireSession. Each screen is its own chunk. */
export const userRoutes: RouteObject[] = [
  { path: paths.start, lazy: () => import('./start').then((module) => ({ Component: module.default })) },
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
