import { Badge, Group, Table, Text, UnstyledButton } from '@mantine/core';
import type { BarrierOrdering } from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES } from '@propusk/contracts/texts/barriers';
import { STAFF_ROLE_LABELS } from '@propusk/contracts/texts/staff';
import { BarrierDangerBadges } from '../../../components/barrier-dangers';
import { DeskTable, SortHeader } from '../../../components/desk-table';
import { UserText } from '../../../components/user-text';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import { DevicePowerBadge } from '../../device-log/components/device-power';
import { DeviceProblemBadge } from '../../device-log/components/device-state-badge';
import type { AdminBarrierList } from '../api/admin-barriers-api';
import { deviceModelLabel } from '../device-models';

/**
 * The administrator's barriers on a desk: address, device, public or closed, the device's trouble, his role and
 * when it was created; the address and creation columns sort (the API's `ordering`). A row opens the barrier.
 */
export function BarriersTable({
  list,
  busy,
  ordering,
  onSort,
  onOpen,
  empty = BARRIER_MESSAGES.emptyAdminBarriers,
}: {
  list: AdminBarrierList;
  /** The empty table's line: a search that found nothing says so. */
  empty?: string;
  busy: boolean;
  ordering: BarrierOrdering | undefined;
  onSort: (ordering: BarrierOrdering) => void;
  onOpen: (barrierId: number) => void;
}) {
  const sort = (next: string) => onSort(next as BarrierOrdering);
  return (
    <DeskTable
      caption="Мои шлагбаумы"
      testId="admin-barrier-list"
      busy={busy}
      isEmpty={list.barriers.length === 0}
      empty={empty}
      head={
        <>
          <SortHeader label="Адрес" field="address" ordering={ordering} onSort={sort} />
          <Table.Th>Устройство</Table.Th>
          <Table.Th>Доступ</Table.Th>
          <Table.Th>Состояние</Table.Th>
          <Table.Th>Роль</Table.Th>
          <SortHeader label="Создан" field="created_at" ordering={ordering} onSort={sort} />
        </>
      }
    >
      {list.barriers.map((barrier) => (
        <Table.Tr
          key={barrier.id}
          data-testid="admin-barrier-row"
          style={{ cursor: 'pointer' }}
          onClick={() => onOpen(barrier.id)}
        >
          <Table.Td>
            {/* The keyboard's way in; a click anywhere on the row does the same. */}
            <UnstyledButton
              fw={600}
              mih={44}
              onClick={(event) => {
                event.stopPropagation();
                onOpen(barrier.id);
              }}
            >
              <UserText>{barrier.address}</UserText>
            </UnstyledButton>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatPhone(barrier.device_phone)}</Text>
            <Text size="xs" c="gray.7">
              {deviceModelLabel(barrier.device_model)}
            </Text>
          </Table.Td>
          <Table.Td>
            <Badge variant="outline" color={barrier.is_public ? 'teal.9' : 'gray.8'}>
              {barrier.is_public ? 'Публичный' : 'Закрытый'}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Group gap={4}>
              <DeviceProblemBadge state={barrier.device_state} />
              <DevicePowerBadge power={barrier.device_power} />
              <BarrierDangerBadges dangers={barrier.dangers} />
            </Group>
          </Table.Td>
          <Table.Td>
            <Text size="sm" data-testid="role-badge">
              {STAFF_ROLE_LABELS[barrier.my_role] ?? barrier.my_role}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatDateTime(barrier.created_at)}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </DeskTable>
  );
}
