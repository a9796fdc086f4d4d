/** The access-requests side of a login (registered by src/domain-hooks.ts): see auth/login-hooks.ts. */
import { onLogin } from '../auth/login-hooks.ts';
import { claimWaitingInvitations } from './phone-invitation-repository.ts';

export function registerInvitationClaims(): void {
  // Invitations waiting for this number become ordinary invitations of the (new) account.
  onLogin('invitation-claims', async (tx, account, now) => {
    await claimWaitingInvitations(tx, account.phone, account.userId, now);
  });
}
