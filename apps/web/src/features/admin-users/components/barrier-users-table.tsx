import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import type { BARRIER_USER_ORDERINGS } from '@propusk/contracts/barrier-users';
import { NAME_FALLBACK } from '@propusk/contracts/texts/common';
import type { ReactNode } from 'react';
import { DeskTable, SortHeader } from '../../../components/desk-table';
import { UserText } from '../../../components/user-text';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import type { BarrierUser, BarrierUserList } from '../api/admin-users-api';

export type BarrierUserOrdering = (typeof BARRIER_USER_ORDERINGS)[number];

/**
 * The users of a barrier on a desk: name, phone, his numbers there, blocked or not, since when; name, phone and
 * date sort (the API's `ordering`). `actions` draws a row's buttons (open the profile, remove).
 */
export function BarrierUsersTable({
  list,
  busy,
  empty,
  ordering,
  onSort,
  onOpen,
  actions,
}: {
  list: BarrierUserList;
  busy: boolean;
  empty: string;
  ordering: BarrierUserOrdering | undefined;
  onSort: (ordering: BarrierUserOrdering) => void;
  onOpen: (user: BarrierUser) => void;
  actions: (user: BarrierUser) => ReactNode;
}) {
  const sort = (next: string) => onSort(next as BarrierUserOrdering);
  return (
    <DeskTable
      caption="Пользователи шлагбаума"
      testId="barrier-users-table"
      busy={busy}
      isEmpty={list.users.length === 0}
      empty={empty}
      head={
        <>
          <SortHeader label="Имя" field="full_name" ordering={ordering} onSort={sort} />
          <SortHeader label="Телефон" field="phone" ordering={ordering} onSort={sort} />
          <Table.Th>Номеров</Table.Th>
          <Table.Th>Статус</Table.Th>
          <SortHeader label="Доступ с" field="created_at" ordering={ordering} onSort={sort} />
          <Table.Th>Действия</Table.Th>
        </>
      }
    >
      {list.users.map((user) => (
        <Table.Tr key={user.id} data-testid="barrier-user">
          <Table.Td>
            <UnstyledButton fw={600} mih={44} onClick={() => onOpen(user)}>
              <UserText fallback={NAME_FALLBACK}>{user.full_name}</UserText>
            </UnstyledButton>
          </Table.Td>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm">{formatPhone(user.phone)}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{user.phones_count}</Text>
          </Table.Td>
          <Table.Td>
            {user.is_active ? (
              <Text size="sm">Активен</Text>
            ) : (
              <Text size="sm" c="red.9" fw={600} data-testid="barrier-user-blocked">
                Заблокирован
              </Text>
            )}
          </Table.Td>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm">{formatDateTime(user.created_at)}</Text>
          </Table.Td>
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              {actions(user)}
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </DeskTable>
  );
}

export type { BarrierUser };
