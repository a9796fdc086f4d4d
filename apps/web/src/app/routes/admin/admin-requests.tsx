import { OwnInvitationsBanner } from '../../../features/access-requests/components/own-invitations-banner';
import { WaitingInvitations } from '../../../features/access-requests/components/waiting-invitations';
import { adminUsersKey } from '../../../features/admin-users/api/admin-users-api';
import { AccessRequestsScreen } from '../shared/access-requests-screen';
import { adminNavigation } from './navigation';

/**
 * /admin-requests: requests to the administrator's barriers (incoming, open at start: accept or reject) and
 * his invitations (outgoing: cancel); an answer changes the barrier's users too (spec.md sections 2 and 4).
 */
export function AdminRequestsRoute() {
  return (
    <AccessRequestsScreen
      scope="admin"
      navigation={adminNavigation}
      tabs={['incoming', 'outgoing']}
      alsoInvalidates={[adminUsersKey]}
      outgoingExtra={<WaitingInvitations />}
      lead={<OwnInvitationsBanner />}
    />
  );
}

export default AdminRequestsRoute;
