import { Text } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';

/** The user's pending request on a barrier card: he waits, or he is invited (issue 12). */
export function PendingRequestLine({
  pendingRequest,
  hasAccess,
}: {
  pendingRequest: 'outgoing' | 'incoming' | null;
  hasAccess: boolean;
}) {
  if (hasAccess || !pendingRequest) return null;
  return (
    <Text size="sm" c="blue.9" fw={600} data-testid="pending-request">
      {pendingRequest === 'outgoing' ? REQUEST_MESSAGES.requestPending : REQUEST_MESSAGES.invitationPending}
    </Text>
  );
}
