import { Badge, Card, Group, Select, Stack, Text } from '@mantine/core';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import {
  DEVICE_COMMAND_KIND_LABELS,
  DEVICE_MESSAGE_DIRECTION_LABELS,
  DEVICE_MESSAGE_OUTCOME_LABELS,
  DEVICE_LOG_TEXTS as TEXTS,
} from '@propusk/contracts/texts/device-log';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DeviceText } from '../../../components/device-text';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { TextLines } from '../../../components/text-lines';
import { NetworkError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import {
  DEVICE_LOG_PAGE_SIZE,
  type DeviceMessageOutcome,
  deviceLogQueryKey,
  getDeviceLog,
} from '../api/device-log-api';
import { DeviceLogTable } from './device-log-table';

const ALL_OUTCOMES = '';
const OUTCOME_OPTIONS = [
  { value: ALL_OUTCOMES, label: TEXTS.allOutcomes },
  ...Object.entries(DEVICE_MESSAGE_OUTCOME_LABELS).map(([value, label]) => ({ value, label })),
];

const OUTCOME_COLORS: Record<string, string> = {
  sent: 'blue.9',
  gateway_failed: 'red.9',
  confirmed: 'green.9',
  refused: 'red.9',
  format_error: 'red.9',
  unrecognised: 'orange.9',
};

/**
 * "Журнал устройства": every SMS sent to the barrier's device and received from it, newest first, with its
 * direction, time, text (the password masked by the server), outcome and the command it belongs to; a
 * filter by outcome, 'N / M' pages, and the count of replies the server could not read. `table`: a desk's
 * table instead of the cards.
 */
export function DeviceLogView({ barrierId, table = false }: { barrierId: number; table?: boolean }) {
  const [outcome, setOutcome] = useState<string>(ALL_OUTCOMES);
  const [page, setPage] = useState(1);
  const selected = (outcome || undefined) as DeviceMessageOutcome | undefined;
  const log = useQuery({
    // What the device said changes without this screen doing anything: always read it afresh.
    staleTime: 0,
    queryKey: deviceLogQueryKey(barrierId, selected, page),
    queryFn: () => getDeviceLog(barrierId, selected, page),
    placeholderData: keepPreviousData,
  });
  const totalPages = Math.ceil((log.data?.total_count ?? 0) / DEVICE_LOG_PAGE_SIZE);

  return (
    <Stack gap="sm">
      <Select
        label={TEXTS.outcomeFilter}
        data={OUTCOME_OPTIONS}
        value={outcome}
        onChange={(value) => {
          setOutcome(value ?? ALL_OUTCOMES);
          setPage(1);
        }}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        maw={table ? 360 : undefined}
      />
      {log.data ? (
        <Text size="sm" data-testid="unrecognised-count">
          {TEXTS.unrecognisedCount(log.data.unrecognised_count)}
        </Text>
      ) : null}
      <QueryStatus
        isPending={log.isPending}
        error={
          log.error ? (log.error instanceof NetworkError ? COMMON_MESSAGES.network : TEXTS.loadFailed) : null
        }
      />
      {log.data && table ? (
        <DeviceLogTable log={log.data} busy={log.isPlaceholderData} outcomeColors={OUTCOME_COLORS} />
      ) : null}
      {log.data && !table && log.data.messages.length === 0 ? (
        <Text c="gray.7">
          <TextLines text={TEXTS.empty} />
        </Text>
      ) : null}
      {(table ? [] : (log.data?.messages ?? [])).map((message) => (
        <Card key={message.id} withBorder radius="md" p="sm" data-testid="device-message">
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600} size="sm">
                {DEVICE_MESSAGE_DIRECTION_LABELS[message.direction] ?? message.direction}
              </Text>
              {/* A dot, as the other status badges: coloured text on a light badge is too pale to read. */}
              <Badge color={OUTCOME_COLORS[message.outcome] ?? 'gray'} variant="dot">
                {DEVICE_MESSAGE_OUTCOME_LABELS[message.outcome] ?? message.outcome}
              </Badge>
            </Group>
            <Text size="sm" c="gray.7">
              {formatDateTime(message.created_at)}
            </Text>
            {/* The SMS as it was sent or received, under its label: the device's own language, never translated. */}
            <Text size="sm">
              <DeviceText side={message.direction === 'in' ? 'reply' : 'sms'}>{message.text}</DeviceText>
            </Text>
            {message.command_kind ? (
              <Text size="xs" c="gray.7">
                {TEXTS.commandKind}:{' '}
                {DEVICE_COMMAND_KIND_LABELS[message.command_kind] ?? TEXTS.commandKindOther}
              </Text>
            ) : null}
            {message.provider_id ? (
              <Text size="xs" c="gray.7">
                <DeviceText side="gateway">{message.provider_id}</DeviceText>
              </Text>
            ) : null}
          </Stack>
        </Card>
      ))}
      {log.data && log.data.total_count > 0 ? (
        <Pager page={page} totalPages={totalPages} onChange={setPage} />
      ) : null}
    </Stack>
  );
}
