import { Card, Group, Stack, Text } from '@mantine/core';
import { PHONE_TYPE_LABELS, WEEKDAY_LABELS, WEEKDAYS } from '@propusk/contracts/texts/phones';
import type { ReactNode } from 'react';
import { UserText } from '../../../components/user-text';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import { serverNow } from '../../../lib/server-clock';
import type { Phone } from '../api/phones-api';
import { scheduleStateAt, scheduleStateText } from '../schedule-state';
import { PhoneStatusBadge } from './phone-status-badge';

/** One phone on a barrier: name, number, type, its window or schedule, and its device status. */
export function PhoneCard({
  phone,
  actions,
  note,
}: {
  phone: Phone;
  actions?: ReactNode;
  /** Why the status is what it is (the administrator's side: the device does not answer). */
  note?: string | null;
}) {
  const scheduleDays = WEEKDAYS.filter((day) => (phone.schedule?.[day] ?? []).length > 0);
  const scheduleState = phone.type === 'schedule' ? scheduleStateAt(phone.schedule, serverNow()) : null;
  // An ok number of a schedule on a day or hour it does not open is not «Активен» (issue 41).
  const idle = scheduleState && scheduleState.kind !== 'now' ? 'Не в расписании' : null;
  return (
    <Card withBorder radius="md" p="sm" data-testid="phone-card" data-phone={phone.phone}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>
            <UserText>{phone.name}</UserText>
          </Text>
          <PhoneStatusBadge status={phone.status} label={idle} />
        </Group>
        {note ? (
          <Text size="sm" c="red.9" data-testid="phone-status-note">
            {note}
          </Text>
        ) : null}
        <Text>{formatPhone(phone.phone)}</Text>
        <Text size="sm" c="gray.7">
          {PHONE_TYPE_LABELS[phone.type] ?? phone.type}
        </Text>
        {phone.type === 'temporary' ? (
          <Text size="sm">
            {formatDateTime(phone.start_time)} — {formatDateTime(phone.end_time)}
          </Text>
        ) : null}
        {scheduleState && phone.status === 'ok' ? (
          <Text size="sm" fw={600} data-testid="phone-schedule-state">
            {scheduleStateText(scheduleState)}
          </Text>
        ) : null}
        {phone.type === 'schedule'
          ? scheduleDays.map((day) => (
              <Text size="sm" key={day}>
                {WEEKDAY_LABELS[day]}:{' '}
                {(phone.schedule?.[day] ?? [])
                  .map((interval) => `${interval.start_time}–${interval.end_time}`)
                  .join(', ')}
              </Text>
            ))
          : null}
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Stack>
    </Card>
  );
}
