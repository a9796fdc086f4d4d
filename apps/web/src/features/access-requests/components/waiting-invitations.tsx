import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { UserText } from '../../../components/user-text';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import {
  cancelPhoneInvitation,
  getPhoneInvitations,
  type PhoneInvitation,
  phoneInvitationsKey,
} from '../api/access-requests-api';

export const WAITING_LABEL = 'Ожидает регистрации';
export const CANCEL_INVITATION_TEXT = 'Отменить приглашение? Номер его не получит.';

/**
 * The administrator's invitations by number that wait for the person to register (issue 14 part 2): the
 * number, the barrier, whether the SMS went out; each can be cancelled. Nothing is shown when there are none.
 */
export function WaitingInvitations() {
  const list = useQuery({ queryKey: phoneInvitationsKey, queryFn: getPhoneInvitations });
  const invitations = list.data?.phone_invitations ?? [];
  if (invitations.length === 0) return null;
  return (
    <Stack gap="sm" mb="md" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {invitations.map((invitation) => (
        <li key={invitation.id}>
          <WaitingInvitationCard invitation={invitation} />
        </li>
      ))}
    </Stack>
  );
}

function WaitingInvitationCard({ invitation }: { invitation: PhoneInvitation }) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelPhoneInvitation(invitation.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: phoneInvitationsKey }),
  });
  return (
    <Card withBorder radius="md" p="sm" data-testid="waiting-invitation">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{formatPhone(invitation.phone)}</Text>
          <Text size="sm" fw={600} c="gray.9">
            {WAITING_LABEL}
          </Text>
        </Group>
        <Text size="sm">
          <UserText>{invitation.barrier_address}</UserText>
        </Text>
        <Text size="sm" c="gray.7">
          {invitation.sms_sent ? 'СМС с приглашением отправлено' : 'СМС не отправлено'}
        </Text>
        <Button
          size="xs"
          variant="subtle"
          color="red.9"
          onClick={() => {
            cancel.reset();
            setIsConfirming(true);
          }}
        >
          Отменить приглашение
        </Button>
        <ConfirmDialog
          opened={isConfirming}
          message={CANCEL_INVITATION_TEXT}
          confirmLabel="Да, отменить"
          onConfirm={() => cancel.mutate()}
          onCancel={() => setIsConfirming(false)}
          isBusy={cancel.isPending}
          error={
            cancel.error ? errorMessage(cancel.error, { fallback: 'Не удалось отменить приглашение.' }) : null
          }
        />
      </Stack>
    </Card>
  );
}
