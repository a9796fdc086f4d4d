import { Card, Group, SegmentedControl, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGES, NAME_FALLBACK } from '@propusk/contracts/messages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { type AddressOrdering, SortButton } from '../../../components/sort-button';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import {
  BARRIER_PAGE_SIZE,
  type BarrierListParams,
  barriersQueryKey,
  checkBarrierAccess,
  getBarriers,
} from '../../../features/barriers/api/barriers-api';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../paths';
import { userNavigation } from './navigation';

/** /barriers: my barriers and the public search, 5 per page, sort cycle, address search (spec.md section 2). */
export function BarriersRoute() {
  const navigate = useNavigate();
  const { message } = useNavigationState();
  const [scope, setScope] = useState<BarrierListParams['scope']>('my');
  const [page, setPage] = useState(1);
  const [ordering, setOrdering] = useState<AddressOrdering>(undefined);
  const [address, setAddress] = useState('');
  const [debouncedAddress] = useDebouncedValue(address.trim(), 300);
  const [openError, setOpenError] = useState<string | null>(null);
  const params: BarrierListParams = { scope, page, ordering, address: debouncedAddress || undefined };
  const list = useQuery({
    queryKey: barriersQueryKey(params),
    queryFn: () => getBarriers(params),
    placeholderData: keepPreviousData,
  });
  const totalPages = Math.ceil((list.data?.total_count ?? 0) / BARRIER_PAGE_SIZE);

  async function open(barrierId: number) {
    setOpenError(null);
    try {
      const { has_access: hasAccess } = await checkBarrierAccess(barrierId);
      navigate(hasAccess ? paths.myBarrier : paths.barrierDetails, {
        state: { barrier_id: barrierId } satisfies NavigationState,
      });
    } catch (caught) {
      setOpenError(errorMessage(caught, { fallback: MESSAGES.accessCheckFailed }));
    }
  }

  return (
    <AppLayout title="Шлагбаумы" navigation={userNavigation}>
      <SuccessLine message={message} />
      <SegmentedControl
        fullWidth
        aria-label="Какие шлагбаумы показать"
        value={scope}
        onChange={(value) => {
          setScope(value as BarrierListParams['scope']);
          setPage(1);
        }}
        data={[
          { value: 'my', label: 'Мои шлагбаумы' },
          { value: 'all', label: 'Поиск' },
        ]}
      />
      <TextInput
        label="Поиск по адресу"
        type="search"
        value={address}
        onChange={(event) => {
          setAddress(event.currentTarget.value);
          setPage(1);
        }}
      />
      <Group>
        <SortButton
          value={ordering}
          onChange={(value) => {
            setOrdering(value);
            setPage(1);
          }}
        />
      </Group>
      <ErrorLine message={openError} />
      <QueryStatus
        isPending={list.isPending}
        error={list.error ? errorMessage(list.error, { fallback: MESSAGES.loadFailed }) : null}
      />
      {list.data && list.data.barriers.length === 0 ? <Text c="gray.7">{MESSAGES.emptyResults}</Text> : null}
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.data?.barriers.map((barrier) => (
          <li key={barrier.id}>
            <Card withBorder radius="md" p={0}>
              <UnstyledButton
                p="sm"
                w="100%"
                onClick={() => void open(barrier.id)}
                data-testid="barrier-item"
              >
                <Text fw={600}>{barrier.address}</Text>
                <Text size="sm" c="gray.7">
                  Администратор: {barrier.owner.full_name || NAME_FALLBACK}
                </Text>
              </UnstyledButton>
            </Card>
          </li>
        ))}
      </Stack>
      {list.data && list.data.total_count > 0 ? (
        <Pager page={page} totalPages={totalPages} onChange={setPage} />
      ) : null}
    </AppLayout>
  );
}

export default BarriersRoute;
