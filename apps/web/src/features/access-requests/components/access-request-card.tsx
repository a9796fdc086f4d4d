import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { ACCESS_REQUEST_STATUS_LABELS, REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { NAME_FALLBACK, PHONE_FALLBACK } from '@propusk/contracts/texts/common';
import type { ReactNode } from 'react';
import { displayText, UserText } from '../../../components/user-text';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import type { AccessRequest } from '../api/access-requests-api';

const STATUS_COLORS: Record<string, string> = {
  pending: 'blue',
  accepted: 'green',
  rejected: 'red',
  cancelled: 'gray',
};

/** One access request: barrier, user, status label; the actions only while it is pending. */
export function AccessRequestCard({ request, actions }: { request: AccessRequest; actions?: ReactNode }) {
  return (
    <Card withBorder radius="md" p="sm" data-testid="access-request" data-status={request.status}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>
            <UserText>{request.barrier_address}</UserText>
          </Text>
          <Badge color={STATUS_COLORS[request.status] ?? 'gray'} variant="dot">
            {ACCESS_REQUEST_STATUS_LABELS[request.status] ?? request.status}
          </Badge>
        </Group>
        <Text size="sm">
          <UserText fallback={NAME_FALLBACK}>{request.user_full_name}</UserText>,{' '}
          {formatPhone(request.user_phone) || PHONE_FALLBACK}
        </Text>
        {request.initiator === 'admin' && request.type === 'incoming' ? (
          <Text size="sm" data-testid="invited-by">
            {REQUEST_MESSAGES.invitedBy(displayText(request.barrier_owner_name, NAME_FALLBACK))}
          </Text>
        ) : null}
        {request.status === 'accepted' && request.closed_by_admin ? (
          <Text size="sm" c="red.9" fw={600} data-testid="request-closed">
            {REQUEST_MESSAGES.closedByAdmin}
          </Text>
        ) : null}
        <Text size="xs" c="gray.7">
          {formatDateTime(request.created_at)}
        </Text>
        {request.status === 'pending' && actions ? <Group gap="xs">{actions}</Group> : null}
      </Stack>
    </Card>
  );
}
