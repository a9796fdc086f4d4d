import { AccessRequestsScreen } from '../shared/access-requests-screen';
import { userNavigation } from './navigation';

/** /requests: the user's access requests, tabs outgoing (open at start) and incoming (spec.md sections 2 and 4). */
export function RequestsRoute() {
  return <AccessRequestsScreen scope="user" navigation={userNavigation} tabs={['outgoing', 'incoming']} />;
}

export default RequestsRoute;
