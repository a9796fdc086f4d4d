import { Badge, VisuallyHidden } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { useQuery } from '@tanstack/react-query';
import {
  type AccessRequestScope,
  getPendingIncomingCount,
  pendingIncomingCountKey,
} from '../api/access-requests-api';

/** How often the counter is read again while a screen stays open (a new request arrives from elsewhere). */
const REFRESH_MS = 60_000;

function PendingRequestsBadge({ scope }: { scope: AccessRequestScope }) {
  const count = useQuery({
    queryKey: pendingIncomingCountKey(scope),
    queryFn: () => getPendingIncomingCount(scope),
    refetchInterval: REFRESH_MS,
  });
  if (!count.data) return null;
  return (
    <>
      <Badge
        size="sm"
        circle={count.data < 10}
        color="red.8"
        ml={6}
        aria-hidden
        data-testid="pending-requests-count"
      >
        {count.data > 99 ? '99+' : count.data}
      </Badge>
      <VisuallyHidden>{`, ${REQUEST_MESSAGES.pendingRequestsCount(count.data).toLowerCase()}`}</VisuallyHidden>
    </>
  );
}

/** The counter on the user's "Заявки": invitations waiting for his answer. */
export function UserPendingRequestsBadge() {
  return <PendingRequestsBadge scope="user" />;
}

/** The counter on the administrator's "Заявки": requests to his barriers waiting for his decision. */
export function AdminPendingRequestsBadge() {
  return <PendingRequestsBadge scope="admin" />;
}
