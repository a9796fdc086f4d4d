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
  {
    path: paths.barrierUsers,
    lazy: () => import('./barrier-users').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.barrierBlocked,
    lazy: () => import('./barrier-blocked').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.userProfile,
    lazy: () => import('./user-profile').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.addPhoneAdmin,
    lazy: () => import('./add-phone-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.editPhoneAdmin,
    lazy: () => import('./edit-phone-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.adminRequests,
    lazy: () => import('./admin-requests').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.barrierSettings,
    lazy: () => import('./barrier-settings').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.barrierHistoryAdmin,
    lazy: () => import('./barrier-history-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.deviceCheckAdmin,
    lazy: () => import('./device-check-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.conformanceAdmin,
    lazy: () => import('./conformance-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.deviceModelsAdmin,
    lazy: () => import('./device-models-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.importAdmin,
    lazy: () => import('./import-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.guestPassesAdmin,
    lazy: () => import('./guest-passes-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.deviceLogAdmin,
    lazy: () => import('./device-log-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.openingsAdmin,
    lazy: () => import('./openings-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.emergencyHold,
    lazy: () => import('./emergency-hold').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.changePhoneAdmin,
    lazy: () => import('./change-phone-admin').then((module) => ({ Component: module.default })),
  },
  {
    path: paths.changePassword,
    lazy: () => import('./change-password').then((module) => ({ Component: module.default })),
  },
];
