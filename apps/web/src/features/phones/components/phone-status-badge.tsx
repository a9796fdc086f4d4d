import { Badge } from '@mantine/core';
import { PHONE_STATUS_LABELS } from '@propusk/contracts/texts/phones';

const COLORS: Record<string, string> = { pending: 'yellow.9', ok: 'green.9', error: 'red.9' };

/**
 * Where the number stands on the device: pending while its command is in flight, ok, or error. `label`: what
 * an ok number of a schedule says instead of «Активен» (whether it opens now, issue 41).
 */
export function PhoneStatusBadge({ status, label }: { status: string; label?: string | null | undefined }) {
  const shown = status === 'ok' && label ? label : (PHONE_STATUS_LABELS[status] ?? status);
  const color = status === 'ok' && label ? 'gray.8' : (COLORS[status] ?? 'gray');
  return (
    <Badge color={color} variant="dot" data-testid="phone-status" data-status={status}>
      {shown}
    </Badge>
  );
}
