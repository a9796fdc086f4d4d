import { Badge } from '@mantine/core';
import { PHONE_STATUS_LABELS } from '@propusk/contracts/texts/phones';

const COLORS: Record<string, string> = { pending: 'yellow.9', ok: 'green.9', error: 'red.9' };

/** Where the number stands on the device: pending while its command is in flight, ok, or error. */
export function PhoneStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="dot" data-testid="phone-status" data-status={status}>
      {PHONE_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}
