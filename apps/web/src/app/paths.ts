/**
 * Every client route, in one table (spec.md section 2). Routes carry no parameters: data passes in navigation
 * state (see NavigationState) with a fallback to stored values.
 */
export const paths = {
  root: '/',
  login: '/login',
  verifyUser: '/verifyuser',
  verifyAdmin: '/verifyadmin',
  smsAdmin: '/smsadmin',
  restoreSms: '/restoresms',
  restorePassword: '/restorepassword',

  /** Where a resident's session starts: it sends him on to his barrier, list, invitation or profile (issue 32). */
  start: '/start',
  user: '/user',
  requests: '/requests',
  barriers: '/barriers',
  barrierDetails: '/barrier-details',
  myBarrier: '/mybarrier',
  addPhone: '/add-phone',
  editPhone: '/edit-phone',
  barrierHistory: '/barrier-history',
  changePhone: '/change-phone',
  deleteAccount: '/delete-account',

  admin: '/admin',
  changePhoneAdmin: '/change-phone-admin',
  changePassword: '/change-password',
  adminBarriers: '/admin-barriers',
  createBarrier: '/create-barrier',
  adminBarrierPage: '/admin-barrier-page',
  barrierSettings: '/barrier-settings',
  adminRequests: '/admin-requests',
  barrierUsers: '/barrier-users',
  /** «Заблокированные» of a barrier (issue 41 major 3). */
  barrierBlocked: '/barrier-blocked',
  userProfile: '/user-profile',
  addPhoneAdmin: '/add-phone-admin',
  editPhoneAdmin: '/edit-phone-admin',
  barrierHistoryAdmin: '/barrier-history-admin',
  deviceLogAdmin: '/device-log-admin',
  deviceCheckAdmin: '/device-check-admin',
  conformanceAdmin: '/conformance-admin',
  openingsAdmin: '/openings-admin',
  emergencyHold: '/emergency-hold',
  importAdmin: '/import-admin',
  guestPassesAdmin: '/guest-passes-admin',
  /** «Свои модели устройств» (issue 42 item 4). */
  deviceModelsAdmin: '/device-models-admin',

  /** A guest pass's link (issue 14 part 5): no login; the one route with a parameter, the link's token. */
  guestPass: '/guest/:token',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** What screens pass each other in navigation state (spec.md section 2). All optional: reloads fall back. */
export interface NavigationState {
  phone?: string | null;
  verification_token?: string | null;
  access_token?: string | null;
  refresh_token?: string | null;
  /** An error to show on arrival (the login screen passes a failed code request to /verifyuser). */
  error?: string | null;
  /** Seconds until the server takes another code request (the code screen's countdown starts there). */
  retry_after?: number | null;
  user_id?: number | null;
  barrier_id?: number | null;
  phone_id?: number | null;
  /** A success line to show on arrival. */
  message?: string | null;
}
