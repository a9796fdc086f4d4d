import type { RouteObject } from 'react-router';
import { paths } from '../../paths';

/**
 * The administrator area (spec.md section 2 "Administrator area"), behind RequireSession. Part 2 (issue 6)
 * adds its screens here; until then /admin is a placeholder so the User/Administrator toggle has a target.
 */
export const adminRoutes: RouteObject[] = [
  {
    path: paths.admin,
    lazy: () => import('./admin-placeholder').then((module) => ({ Component: module.default })),
  },
];
