import { Badge, Table, Text } from '@mantine/core';
import { OPENING_STATUS_LABELS, OPENING_VIA_LABELS, RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { DeskTable } from '../../../components/desk-table';
import { UserText } from '../../../components/user-text';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import type { OpeningList } from '../api/relay-api';

/**
 * Every opening of a barrier on a desk: when, who and his number, how (the app or the administrator), the
 * status and why it failed; newest first as the API gives it (it has no other order; the filters are above).
 */
export function OpeningsTable({
  list,
  busy,
  statusColors,
  failureText,
}: {
  list: OpeningList;
  busy: boolean;
  statusColors: Readonly<Record<string, string>>;
  failureText: (failure: string | null) => string;
}) {
  return (
    <DeskTable
      caption={RELAY_TEXTS.openingsLog}
      testId="openings-table"
      busy={busy}
      isEmpty={list.openings.length === 0}
      empty={RELAY_TEXTS.noOpenings}
      head={
        <>
          <Table.Th>Когда</Table.Th>
          <Table.Th>Кто</Table.Th>
          <Table.Th>Телефон</Table.Th>
          <Table.Th>Как</Table.Th>
          <Table.Th>Статус</Table.Th>
          <Table.Th>Причина</Table.Th>
        </>
      }
    >
      {list.openings.map((opening) => (
        <Table.Tr key={opening.id} data-testid="opening-card">
          <Table.Td style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm" fw={600}>
              {formatDateTime(opening.requested_at)}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              <UserText fallback="Без имени">{opening.user_name}</UserText>
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatPhone(opening.user_phone) || 'номер скрыт'}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{OPENING_VIA_LABELS[opening.via] ?? ''}</Text>
          </Table.Td>
          <Table.Td>
            <Badge color={statusColors[opening.status] ?? 'dark'} variant="filled">
              {OPENING_STATUS_LABELS[opening.status] ?? opening.status}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{opening.status === 'failed' ? failureText(opening.failure) : '—'}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </DeskTable>
  );
}
