import { Badge } from '@mantine/core';
import { DEVICE_PROBLEM_LABELS, DEVICE_STATE_LABELS } from '@propusk/contracts/texts/device-log';

const COLORS: Record<string, string> = {
  ok: 'green.9',
  waiting: 'yellow.9',
  not_responding: 'red.9',
  wrong_password: 'red.9',
  password_suspected: 'red.9',
  phone_elsewhere: 'red.9',
};

/** The device's state in a word (в порядке, ожидает ответа, не отвечает, неверный пароль). */
export function DeviceStateBadge({ state }: { state: string }) {
  return (
    <Badge color={COLORS[state] ?? 'gray'} variant="dot" data-testid="device-state" data-state={state}>
      {DEVICE_STATE_LABELS[state] ?? state}
    </Badge>
  );
}

/** The flag of a device in trouble (the barrier list); nothing when it is well or only waiting. */
export function DeviceProblemBadge({ state }: { state: string | undefined }) {
  const label = state ? DEVICE_PROBLEM_LABELS[state] : undefined;
  if (!label) return null;
  return (
    <Badge color="red.9" variant="filled" data-testid="device-problem">
      {label}
    </Badge>
  );
}
