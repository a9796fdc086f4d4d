import { Text } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';

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
      {pendingRequest === 'outgoing' ? MESSAGES.requestPending : MESSAGES.invitationPending}
    </Text>
  );
}
