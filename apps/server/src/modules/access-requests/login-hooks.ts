/** The access-requests side of a login (given in src/domain-hooks.ts): see auth/login-hooks.ts. */
import type { LoginHook } from '../auth/login-hooks.ts';
import { claimWaitingInvitations } from './phone-invitation-repository.ts';

/** Invitations waiting for this number become ordinary invitations of the (new) account. */
export const claimInvitationsAtLogin: LoginHook = async (tx, account, now) => {
  await claimWaitingInvitations(tx, account.phone, account.userId, now);
};
