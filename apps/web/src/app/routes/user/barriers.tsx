import {
  Box,
  Button,
  Card,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { LANDING_TEXTS } from '@propusk/contracts/landing-texts';
import { BARRIER_MESSAGES } from '@propusk/contracts/texts/barriers';
import { COMMON_MESSAGES, NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { type AddressOrdering, SortButton } from '../../../components/sort-button';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { TextLines } from '../../../components/text-lines';
import { UserText } from '../../../components/user-text';
import {
  BARRIER_PAGE_SIZE,
  type BarrierListParams,
  barriersQueryKey,
  checkBarrierAccess,
  getBarriers,
} from '../../../features/barriers/api/barriers-api';
import { ClosedBarriers } from '../../../features/barriers/components/closed-barriers';
import { FirstSteps } from '../../../features/barriers/components/first-steps';
import { PendingRequestLine } from '../../../features/barriers/components/pending-request-line';
import { OpenGateButton } from '../../../features/relay/components/open-gate-button';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { phoneHref } from '../../../lib/phone';
import { rememberBarrierListSearch } from './barrier-list-path';
import { userNavigation } from './navigation';

const ORDERINGS: readonly string[] = ['address', '-address'];

/**
 * The list's tab, search, sort and page live in the URL (`?tab=all&q=…&sort=address&page=2`), so that
 * coming back from a barrier (the back button or "К шлагбаумам") finds the list as it was left.
 */
function useListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const scope: BarrierListParams['scope'] = searchParams.get('tab') === 'all' ? 'all' : 'my';
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
  const sort = searchParams.get('sort') ?? '';
  const ordering = (ORDERINGS.includes(sort) ? sort : undefined) as AddressOrdering;
  const query = searchParams.get('q') ?? '';
  const update = (changes: { tab?: string; q?: string; sort?: string; page?: number }) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (
            value === undefined ||
            value === '' ||
            (key === 'page' && value === 1) ||
            (key === 'tab' && value === 'my')
          ) {
            next.delete(key);
          } else next.set(key, String(value));
        }
        return next;
      },
      { replace: true, state: location.state },
    );
  return { scope, page, ordering, query, update, search: location.search };
}

/** /barriers: my barriers and the public search, 5 per page, sort cycle, address search (spec.md section 2). */
export function BarriersRoute() {
  const navigate = useNavigate();
  const { message } = useNavigationState();
  const { scope, page, ordering, query, update, search } = useListParams();
  const setPage = (next: number) => update({ page: next });
  const [address, setAddress] = useState(query);
  const [debouncedAddress] = useDebouncedValue(address.trim(), 300);
  // Set when a barrier is opened: the search typed just before must not write the list's URL over the
  // barrier's page while that page loads (it would bring the user back to the list).
  const leaving = useRef(false);
  useEffect(() => {
    if (!leaving.current && debouncedAddress !== query.trim()) update({ q: debouncedAddress, page: 1 });
  }, [debouncedAddress, query, update]);
  const [openError, setOpenError] = useState<string | null>(null);
  useEffect(() => rememberBarrierListSearch(search), [search]);
  const params: BarrierListParams = { scope, page, ordering, address: query.trim() || undefined };
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
      leaving.current = true;
      navigate(hasAccess ? paths.myBarrier : paths.barrierDetails, {
        state: { barrier_id: barrierId } satisfies NavigationState,
      });
    } catch (caught) {
      setOpenError(errorMessage(caught, { fallback: BARRIER_MESSAGES.accessCheckFailed }));
    }
  }

  return (
    <AppLayout title="Шлагбаумы" navigation={userNavigation}>
      <SuccessLine message={message} />
      <SegmentedControl
        fullWidth
        aria-label="Какие шлагбаумы показать"
        value={scope}
        onChange={(value) => update({ tab: value, page: 1 })}
        data={[
          { value: 'my', label: 'Мои шлагбаумы' },
          { value: 'all', label: 'Поиск' },
        ]}
      />
      <TextInput
        label="Поиск по адресу"
        type="search"
        value={address}
        onChange={(event) => setAddress(event.currentTarget.value)}
      />
      <Group>
        <SortButton value={ordering} onChange={(value) => update({ sort: value ?? '', page: 1 })} />
      </Group>
      <ErrorLine message={openError} />
      <QueryStatus
        isPending={list.isPending}
        error={list.error ? errorMessage(list.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
        onRetry={() => list.refetch()}
      />
      {scope === 'my' ? <ClosedBarriers barriers={list.data?.closed_by_admin} /> : null}
      {list.data && list.data.barriers.length === 0 ? (
        <EmptyBarrierList
          scope={scope}
          typed={query.trim() !== ''}
          closed={(list.data.closed_by_admin?.length ?? 0) > 0}
          onFind={() => update({ tab: 'all', q: '', page: 1 })}
        />
      ) : null}
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
                <Text fw={600}>
                  <UserText>{barrier.address}</UserText>
                </Text>
                <Text size="sm" c="gray.7">
                  Администратор: <UserText fallback={NAME_FALLBACK}>{barrier.owner.full_name}</UserText>
                </Text>
                <PendingRequestLine pendingRequest={barrier.pending_request} hasAccess={barrier.has_access} />
              </UnstyledButton>
              {scope === 'my' && barrier.has_access ? (
                <GateActions
                  barrierId={barrier.id}
                  address={barrier.address}
                  devicePhone={barrier.device_phone}
                />
              ) : null}
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

/**
 * An empty list says what was (not) found and what to do next (issue 41 major 5): nothing typed on «Мои
 * шлагбаумы» is a new resident (find his barrier or wait for an invitation); a typed address found nothing.
 */
function EmptyBarrierList({
  scope,
  typed,
  closed,
  onFind,
}: {
  scope: BarrierListParams['scope'];
  typed: boolean;
  closed: boolean;
  onFind: () => void;
}) {
  if (typed)
    return (
      <Text c="gray.7">
        <TextLines text={BARRIER_MESSAGES.emptySearch} />
      </Text>
    );
  if (scope === 'all') return <Text c="gray.7">{BARRIER_MESSAGES.noPublicBarriers}</Text>;
  return <FirstSteps onFind={onFind} closed={closed} />;
}

/**
 * «Открыть» and «Позвонить» on each of his barriers (issue 32 item 4): the gate one tap away from the list a
 * returning resident with several barriers starts on.
 */
function GateActions({
  barrierId,
  address,
  devicePhone,
}: {
  barrierId: number;
  address: string;
  devicePhone: string | null;
}) {
  const callHref = phoneHref(devicePhone);
  return (
    <Group gap="xs" px="sm" pb="sm" align="flex-start" wrap="nowrap" data-testid="barrier-gate-actions">
      <Box flex={1} aria-label={LANDING_TEXTS.openBarrier(address)} role="group">
        <OpenGateButton side="user" barrierId={barrierId} />
      </Box>
      {callHref ? (
        <Button
          component="a"
          href={callHref}
          size="lg"
          variant="light"
          aria-label={LANDING_TEXTS.callBarrier(address)}
          data-testid="barrier-call"
        >
          {LANDING_TEXTS.call}
        </Button>
      ) : null}
    </Group>
  );
}

export default BarriersRoute;
