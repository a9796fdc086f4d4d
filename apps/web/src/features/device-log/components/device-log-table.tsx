import { Badge, Stack, Table, Text } from '@mantine/core';
import {
  DEVICE_COMMAND_KIND_LABELS,
  DEVICE_MESSAGE_DIRECTION_LABELS,
  DEVICE_MESSAGE_OUTCOME_LABELS,
  DEVICE_LOG_TEXTS as TEXTS,
} from '@propusk/contracts/texts/device-log';
import { DeskTable } from '../../../components/desk-table';
import { DeviceText } from '../../../components/device-text';
import { formatDateTime } from '../../../lib/dates';
import type { DeviceLog } from '../api/device-log-api';

/**
 * The device log on a desk: one row an SMS (time, direction, its text, the outcome, the command it belongs
 * to), newest first as the API gives it (it has no other order; the filter is by outcome).
 */
export function DeviceLogTable({
  log,
  busy,
  outcomeColors,
}: {
  log: DeviceLog;
  busy: boolean;
  outcomeColors: Readonly<Record<string, string>>;
}) {
  return (
    <DeskTable
      caption={TEXTS.title}
      testId="device-log-table"
      busy={busy}
      isEmpty={log.messages.length === 0}
      empty={TEXTS.empty}
      head={
        <>
          <Table.Th>Когда</Table.Th>
          <Table.Th>Направление</Table.Th>
          <Table.Th>Сообщение</Table.Th>
          <Table.Th>{TEXTS.outcomeFilter}</Table.Th>
          <Table.Th>{TEXTS.commandKind}</Table.Th>
        </>
      }
    >
      {log.messages.map((message) => (
        <Table.Tr key={message.id} data-testid="device-message">
          <Table.Td style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm">{formatDateTime(message.created_at)}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm" fw={600}>
              {DEVICE_MESSAGE_DIRECTION_LABELS[message.direction] ?? message.direction}
            </Text>
          </Table.Td>
          <Table.Td>
            <Stack gap={2}>
              <Text size="sm">
                <DeviceText side={message.direction === 'in' ? 'reply' : 'sms'}>{message.text}</DeviceText>
              </Text>
              {message.provider_id ? (
                <Text size="xs" c="gray.7">
                  <DeviceText side="gateway">{message.provider_id}</DeviceText>
                </Text>
              ) : null}
            </Stack>
          </Table.Td>
          <Table.Td>
            <Badge color={outcomeColors[message.outcome] ?? 'gray'} variant="dot">
              {DEVICE_MESSAGE_OUTCOME_LABELS[message.outcome] ?? message.outcome}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              {message.command_kind
                ? (DEVICE_COMMAND_KIND_LABELS[message.command_kind] ?? TEXTS.commandKindOther)
                : '—'}
            </Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </DeskTable>
  );
}
