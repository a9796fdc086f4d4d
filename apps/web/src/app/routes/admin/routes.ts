import type { RouteObject } from 'react-router';
import { paths } from '../../paths';

/** The administrator area (spec.md section 2 "Administrator area"), behind RequireSession. One chunk per screen. */
export const adminRoutes: RouteObject[] = [
  {
    path: paths.admin,
    lazy: () => import('./admin-profile').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.adminBarriers,
    lazy: () => import('./admin-barriers').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.createBarrier,
    lazy: () => import('./create-barrier').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.adminBarrierPage,
    lazy: () => import('./admin-barrier-page').then((module) => ({ Component: module.default })),
  },
];
