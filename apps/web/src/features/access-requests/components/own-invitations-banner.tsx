import { Alert, Button, Stack, Text } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { getPendingIncomingCount, pendingIncomingCountKey } from '../api/access-requests-api';

/**
 * An invitation to the administrator's own number as a resident (another owner's barrier) waits in the user
 * area's «Заявки»; in the administrator's area it was invisible (issue 41). Said here with the way to it.
 */
export function OwnInvitationsBanner() {
  const navigate = useNavigate();
  const waiting = useQuery({
    queryKey: pendingIncomingCountKey('user'),
    queryFn: () => getPendingIncomingCount('user'),
  });
  if (!waiting.data) return null;
  return (
    <Alert color="blue.9" variant="outline" data-testid="own-invitations">
      <Stack gap="xs">
        <Text size="sm">{REQUEST_MESSAGES.ownInvitations}</Text>
        <Button variant="light" onClick={() => navigate(`${paths.requests}?tab=incoming`)}>
          {REQUEST_MESSAGES.openOwnInvitations}
        </Button>
      </Stack>
    </Alert>
  );
}
