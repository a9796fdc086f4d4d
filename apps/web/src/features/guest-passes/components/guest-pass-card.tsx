import { Button, Card, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import type { GuestPass } from '../api/guest-passes-api';
import { isRevocable } from './revoke-guest-pass-dialog';

/** What a pass's card says of its state. */
function guestPassStatusText(pass: GuestPass): string {
  if (pass.status === 'used') return `Использован: ${formatPhone(pass.used_phone)}`;
  if (pass.status === 'revoked') return 'Отозван';
  if (pass.status === 'expired') return 'Истёк';
  return 'Ожидает гостя';
}

/** One pass in a list (the resident's or the administrator's): its window, for whom, its state, «Отозвать». */
export function GuestPassCard({
  pass,
  countsFor,
  onRevoke,
}: {
  pass: GuestPass;
  /** Whose limits it counts against, on the administrator's list. */
  countsFor?: string;
  onRevoke: (pass: GuestPass) => void;
}) {
  return (
    <Card withBorder radius="md" data-testid="guest-pass-card">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {formatDateTime(pass.start)} — {formatDateTime(pass.end)}
        </Text>
        {countsFor === undefined ? null : (
          <Text size="sm" data-testid="guest-pass-user">
            Для: {countsFor}
          </Text>
        )}
        <Text size="sm" data-testid="guest-pass-status">
          {guestPassStatusText(pass)}
        </Text>
        {isRevocable(pass) ? (
          <Button variant="light" color="red.9" onClick={() => onRevoke(pass)}>
            Отозвать
          </Button>
        ) : null}
      </Stack>
    </Card>
  );
}
