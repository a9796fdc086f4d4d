import { Badge } from '@mantine/core';
import { displayedHealth, HEALTH_TONE_COLORS } from '../displayed-health';

/**
 * The device's health in a word (в порядке, ожидает ответа, не отвечает, неверный пароль, нет питания), from
 * `displayedHealth`: a unit without power is never «в порядке».
 */
export function DeviceStateBadge({ state, power }: { state: string; power?: string | null | undefined }) {
  const health = displayedHealth(state, power);
  return (
    <Badge
      color={HEALTH_TONE_COLORS[health.tone]}
      variant="dot"
      data-testid="device-state"
      data-state={health.key}
    >
      {health.label}
    </Badge>
  );
}

/**
 * The flag of a device in trouble (the barrier list); nothing when it is well or only waiting. A lost supply
 * has its own flag beside it (DevicePowerBadge), so this one names the device's own trouble.
 */
export function DeviceProblemBadge({ state }: { state: string | undefined }) {
  const label = displayedHealth(state, null).problem;
  if (!label) return null;
  return (
    <Badge color="red.9" variant="filled" data-testid="device-problem">
      {label}
    </Badge>
  );
}
