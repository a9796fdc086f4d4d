import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { DEVICE_STATE_HINTS, DEVICE_LOG_TEXTS as TEXTS } from '@propusk/contracts/texts/device-log';
import { useQuery } from '@tanstack/react-query';
import { QueryStatus } from '../../../components/query-status';
import { formatDateTime } from '../../../lib/dates';
import { deviceHealthQueryKey, getDeviceHealth } from '../api/device-log-api';
import { displayedHealth } from '../displayed-health';
import { DevicePowerLine } from './device-power';

import { DeviceStateBadge } from './device-state-badge';
import { formatAge } from './format-age';

/** While commands are on their way, look again this often. */
const OPEN_COMMANDS_REFRESH_MS = 5000;

/**
 * The device's health on the administrator's barrier page: its state, its last reply, the commands waiting
 * and how long the oldest has waited, failures in a row, and the replies it could not read.
 */
export function DeviceHealthCard({ barrierId }: { barrierId: number }) {
  const health = useQuery({
    // What the device said changes without this screen doing anything: always read it afresh.
    staleTime: 0,
    queryKey: deviceHealthQueryKey(barrierId),
    queryFn: () => getDeviceHealth(barrierId),
    refetchInterval: (query) =>
      (query.state.data?.open_commands ?? 0) > 0 ? OPEN_COMMANDS_REFRESH_MS : false,
  });
  const data = health.data;
  const hint = data
    ? displayedHealth(data.state, data.power).powerLost
      ? TEXTS.powerLostHint
      : DEVICE_STATE_HINTS[data.state]
    : undefined;
  return (
    <Card withBorder radius="md" data-testid="device-health">
      <Stack gap={4}>
        <Group justify="space-between">
          <Title order={2} size="h4">
            {TEXTS.healthTitle}
          </Title>
          {data ? <DeviceStateBadge state={data.state} power={data.power ?? null} /> : null}
        </Group>
        <QueryStatus isPending={health.isPending} error={health.error ? TEXTS.healthLoadFailed : null} />
        {data ? (
          <>
            <DevicePowerLine power={data.power ?? null} since={data.power_since ?? null} />
            <Text size="sm">
              {TEXTS.lastReply}: {data.last_reply_at ? formatDateTime(data.last_reply_at) : TEXTS.noReply}
            </Text>
            <Text size="sm">
              {TEXTS.waitingCommands}: {data.open_commands}
              {data.oldest_open_age_seconds !== null
                ? `, ${TEXTS.oldestAge} ${formatAge(data.oldest_open_age_seconds)}`
                : ''}
            </Text>
            <Text size="sm" c={data.consecutive_failures > 0 ? 'red.9' : undefined}>
              {TEXTS.failuresInRow}: {data.consecutive_failures}
            </Text>
            {hint ? (
              <Text size="sm" c="red.9" data-testid="device-state-hint">
                {hint}
              </Text>
            ) : null}
            {(data.alarms_today ?? 0) > 0 ? (
              <Text size="sm" c="red.9">
                {TEXTS.alarmsToday}: {data.alarms_today}
              </Text>
            ) : null}
            {data.unrecognised_count > 0 ? (
              <Text size="sm">{TEXTS.unrecognisedCount(data.unrecognised_count)}</Text>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
