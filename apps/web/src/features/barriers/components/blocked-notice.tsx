import { Alert, Text } from '@mantine/core';
import { UserText } from '../../../components/user-text';

export const BLOCKED_ON_BARRIER_TEXT = 'Администратор этого шлагбаума заблокировал вам доступ.';

/**
 * What a user blocked by the barrier's administrator sees instead of adding phones or asking for access
 * (DESIGN.md section 4): that he is blocked, and the administrator's reason.
 */
export function BlockedNotice({ reason }: { reason: string }) {
  return (
    <Alert color="red.9" variant="outline" title="Доступ заблокирован" data-testid="blocked-notice">
      <Text size="sm">{BLOCKED_ON_BARRIER_TEXT}</Text>
      <Text size="sm">
        Причина: <UserText>{reason}</UserText>
      </Text>
    </Alert>
  );
}
