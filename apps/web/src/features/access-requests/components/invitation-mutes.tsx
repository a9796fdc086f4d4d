import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { COMMON_MESSAGES, NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorLine } from '../../../components/status-line';
import { UserText } from '../../../components/user-text';
import { errorMessage } from '../../../lib/errors';
import {
  accessRequestsKey,
  getInvitationMutes,
  invitationMutesKey,
  unmuteInvitations,
} from '../api/access-requests-api';

/**
 * The administrators whose invitations the person muted (issue 40 item 4), above «Входящие», each with
 * «Снова получать». Nothing when there are none (or the list cannot be read: it is not the screen's point).
 */
export function InvitationMutes() {
  const queryClient = useQueryClient();
  const mutes = useQuery({ queryKey: invitationMutesKey, queryFn: getInvitationMutes });
  const unmute = useMutation({
    mutationFn: unmuteInvitations,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accessRequestsKey('user') }),
  });
  const list = mutes.data?.mutes ?? [];
  if (list.length === 0) return null;
  return (
    <Card withBorder radius="md" p="sm" data-testid="invitation-mutes">
      <Stack gap={6}>
        <Text size="sm">{REQUEST_MESSAGES.mutedTitle}</Text>
        {list.map((mute) => (
          <Group key={mute.id} justify="space-between" wrap="nowrap">
            <Text size="sm" fw={600}>
              <UserText fallback={NAME_FALLBACK}>{mute.admin_name}</UserText>
            </Text>
            <Button
              size="xs"
              variant="light"
              loading={unmute.isPending && unmute.variables === mute.id}
              onClick={() => unmute.mutate(mute.id)}
            >
              {REQUEST_MESSAGES.unmuteInvitations}
            </Button>
          </Group>
        ))}
        <ErrorLine
          message={
            unmute.error ? errorMessage(unmute.error, { fallback: COMMON_MESSAGES.updateFailed }) : null
          }
        />
      </Stack>
    </Card>
  );
}
