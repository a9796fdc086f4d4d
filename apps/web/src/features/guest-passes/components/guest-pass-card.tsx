import { Button, Card, Stack, Text } from '@mantine/core';
import { UserText } from '../../../components/user-text';
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

/**
 * A person of a pass (issue 32 item 7): his name, or his number as the server masked it (`+7 *** ***-45-67`)
 * when he gave no name; the number's spaces do not break, so it never wraps mid-number.
 */
function PassPerson({ name, maskedPhone }: { name: string | null; maskedPhone: string | null }) {
  return <UserText fallback={(maskedPhone ?? '').replaceAll(' ', '\u00a0')}>{name}</UserText>;
}

/**
 * One pass in a list (the resident's or the administrator's): its window, for whom and by whom it was made,
 * its state, «Отозвать».
 */
export function GuestPassCard({ pass, onRevoke }: { pass: GuestPass; onRevoke: (pass: GuestPass) => void }) {
  return (
    <Card withBorder radius="md" data-testid="guest-pass-card">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {formatDateTime(pass.start)} — {formatDateTime(pass.end)}
        </Text>
        <Text size="sm" data-testid="guest-pass-user">
          Для: <PassPerson name={pass.user_full_name} maskedPhone={pass.user_phone} />
        </Text>
        {pass.created_by === null ? null : (
          <Text size="sm" data-testid="guest-pass-maker">
            Автор: <PassPerson name={pass.created_by_full_name} maskedPhone={pass.created_by_phone} />
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
