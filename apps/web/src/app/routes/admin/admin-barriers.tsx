import { Badge, Button, Card, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { BarrierOrdering } from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES } from '@propusk/contracts/texts/barriers';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { STAFF_ROLE_LABELS } from '@propusk/contracts/texts/staff';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BarrierDangerBadges } from '../../../components/barrier-dangers';
import { AppLayout } from '../../../components/layout/app-layout';
import { useIsDesk } from '../../../components/layout/desk';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { type AddressOrdering, SortButton } from '../../../components/sort-button';
import { TextLines } from '../../../components/text-lines';
import { UserText } from '../../../components/user-text';
import {
  ADMIN_BARRIER_PAGE_SIZE,
  adminBarrierListQueryKey,
  getAdminBarriers,
} from '../../../features/admin-barriers/api/admin-barriers-api';
import { BarriersTable } from '../../../features/admin-barriers/components/barriers-table';
import { DevicePowerBadge } from '../../../features/device-log/components/device-power';
import { DeviceProblemBadge } from '../../../features/device-log/components/device-state-badge';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

/**
 * /admin-barriers: the administrator's barriers, 5 per page, sortable by address, and the create button. A
 * barrier whose device does not answer or refuses its password is flagged. On a desk: a table sorted by its
 * column headers, with a search by address.
 */
export function AdminBarriersRoute() {
  const navigate = useNavigate();
  const isDesk = useIsDesk();
  const [page, setPage] = useState(1);
  const [ordering, setOrdering] = useState<BarrierOrdering | undefined>(undefined);
  const [address, setAddress] = useState('');
  const [debouncedAddress] = useDebouncedValue(address.trim(), 300);
  // The phone's screen has no address search: its list is the same as before the desk layout.
  const params =
    isDesk && debouncedAddress ? { page, ordering, address: debouncedAddress } : { page, ordering };
  const barriers = useQuery({
    queryKey: adminBarrierListQueryKey(params),
    queryFn: () => getAdminBarriers(params),
    placeholderData: keepPreviousData,
  });
  const totalPages = Math.max(1, Math.ceil((barriers.data?.total_count ?? 0) / ADMIN_BARRIER_PAGE_SIZE));

  return (
    <AppLayout title="Мои шлагбаумы" navigation={adminNavigation} wide>
      <Group justify="space-between" align="flex-end">
        {isDesk ? (
          <TextInput
            label="Поиск по адресу"
            type="search"
            value={address}
            onChange={(event) => {
              setAddress(event.currentTarget.value);
              setPage(1);
            }}
            w={360}
          />
        ) : (
          <SortButton
            value={ordering as AddressOrdering}
            onChange={(next) => {
              setOrdering(next);
              setPage(1);
            }}
          />
        )}
        <Button onClick={() => navigate(paths.createBarrier)}>Создать шлагбаум</Button>
      </Group>
      <Button color="red.9" variant="outline" onClick={() => navigate(paths.emergencyHold)}>
        {RELAY_TEXTS.emergency}
      </Button>
      <QueryStatus
        isPending={barriers.isPending}
        error={barriers.error ? errorMessage(barriers.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
      />
      {barriers.data && isDesk ? (
        <BarriersTable
          list={barriers.data}
          busy={barriers.isPlaceholderData}
          // spec.md section 8's line for a search that found nothing.
          empty={'address' in params ? 'Нет результатов' : BARRIER_MESSAGES.emptyAdminBarriers}
          ordering={ordering}
          onSort={(next) => {
            setOrdering(next);
            setPage(1);
          }}
          onOpen={(barrierId) =>
            navigate(paths.adminBarrierPage, { state: { barrier_id: barrierId } satisfies NavigationState })
          }
        />
      ) : null}
      {barriers.data && !isDesk && barriers.data.barriers.length === 0 ? (
        <Text c="gray.7">
          <TextLines text={BARRIER_MESSAGES.emptyAdminBarriers} />
        </Text>
      ) : null}
      {barriers.data && !isDesk ? (
        <Stack
          gap="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          data-testid="admin-barrier-list"
          // The previous page stays on screen while the next one loads: busy until it is replaced.
          aria-busy={barriers.isPlaceholderData}
        >
          {barriers.data.barriers.map((barrier) => (
            <li key={barrier.id}>
              <UnstyledButton
                w="100%"
                onClick={() =>
                  navigate(paths.adminBarrierPage, {
                    state: { barrier_id: barrier.id } satisfies NavigationState,
                  })
                }
              >
                <Card withBorder radius="md">
                  <Stack gap={4}>
                    <Text fw={600}>
                      <UserText>{barrier.address}</UserText>
                    </Text>
                    <Group gap="xs">
                      <Text size="sm" c="gray.7">
                        {formatPhone(barrier.device_phone)} · {barrier.device_model}
                      </Text>
                      <Badge variant="outline" color={barrier.is_public ? 'teal.9' : 'gray.8'}>
                        {barrier.is_public ? 'Публичный' : 'Закрытый'}
                      </Badge>
                      <DeviceProblemBadge state={barrier.device_state} />
                      <DevicePowerBadge power={barrier.device_power} />
                      <BarrierDangerBadges dangers={barrier.dangers} />
                      {barrier.my_role === 'owner' ? null : (
                        <Badge variant="light" color="indigo.9" data-testid="role-badge">
                          {STAFF_ROLE_LABELS[barrier.my_role]}
                        </Badge>
                      )}
                    </Group>
                  </Stack>
                </Card>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      ) : null}
      {barriers.data && barriers.data.total_count > 0 ? (
        <Pager page={page} totalPages={totalPages} onChange={setPage} />
      ) : null}
    </AppLayout>
  );
}

export default AdminBarriersRoute;
