import { Badge, Text } from '@mantine/core';
import { DEVICE_LOG_TEXTS as TEXTS } from '@propusk/contracts/texts/device-log';
import dayjs from 'dayjs';
import { formatDateTime } from '../../../lib/dates';
import { displayedHealth, POWER_LOST_PROBLEM } from '../displayed-health';

const RESTORED_COLOR = '#1e6b30';

/** «14:02» today, the date and time otherwise. */
function whenShort(value: string): string {
  const date = dayjs(value);
  if (!date.isValid()) return value;
  return date.isSame(dayjs(), 'day') ? date.format('HH:mm') : formatDateTime(value);
}

/**
 * The unit's supply by its own SMS (issue 30 item 5): «нет питания с 14:02» from its power-failure SMS,
 * «питание восстановлено в 15:10» for a day after its restoration SMS; nothing otherwise.
 */
export function DevicePowerLine({ power, since }: { power: string | null; since: string | null }) {
  if (!power || !since) return null;
  const lost = power === 'lost';
  return (
    // green.9 on white is 4.3:1, below axe's 4.5:1 for this size (issue 41 major 4): a darker green.
    <Text
      size="sm"
      fw={600}
      c={lost ? 'red.9' : RESTORED_COLOR}
      data-testid="device-power"
      data-power={power}
    >
      {TEXTS.power}: {lost ? TEXTS.powerLost(whenShort(since)) : TEXTS.powerRestored(whenShort(since))}
    </Text>
  );
}

/** The barrier list's flag of a unit without power (displayedHealth decides it, as on the barrier page). */
export function DevicePowerBadge({ power }: { power: string | null | undefined }) {
  if (!displayedHealth(undefined, power).powerLost) return null;
  return (
    <Badge color="red.9" variant="filled" data-testid="device-power-lost">
      {POWER_LOST_PROBLEM}
    </Badge>
  );
}
