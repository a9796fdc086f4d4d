import { Button, Stack, Tabs, Text } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { InfiniteScrollSentinel } from '../../../components/infinite-scroll-sentinel';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { AccessRequestCard } from '../../../features/access-requests/components/access-request-card';
import {
  ADMIN_REQUEST_PAGE_SIZE,
  adminRequestsKey,
  adminRequestsQueryKey,
  getAdminRequests,
  type RequestDirection,
  updateAdminRequest,
} from '../../../features/admin-requests/api/admin-requests-api';
import { adminUsersKey } from '../../../features/admin-users/api/admin-users-api';
import { errorMessage } from '../../../lib/errors';
import { adminNavigation } from './navigation';

/**
 * /admin-requests: requests to the administrator's barriers (incoming: accept or reject) and his invitations
 * (outgoing: cancel), 10 per page with infinite scroll (spec.md sections 2 and 4).
 */
export function AdminRequestsRoute() {
  const [tab, setTab] = useState<RequestDirection>('incoming');
  return (
    <AppLayout title="Заявки" navigation={adminNavigation}>
      <Tabs value={tab} onChange={(value) => value && setTab(value as RequestDirection)}>
        <Tabs.List grow>
          <Tabs.Tab value="incoming">Входящие</Tabs.Tab>
          <Tabs.Tab value="outgoing">Исходящие</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="incoming" pt="md">
          {tab === 'incoming' ? <AdminRequestList type="incoming" /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="outgoing" pt="md">
          {tab === 'outgoing' ? <AdminRequestList type="outgoing" /> : null}
        </Tabs.Panel>
      </Tabs>
    </AppLayout>
  );
}

function AdminRequestList({ type }: { type: RequestDirection }) {
  const queryClient = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: adminRequestsQueryKey(type),
    queryFn: ({ pageParam }) => getAdminRequests(type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage) =>
      lastPage.access_requests.length < ADMIN_REQUEST_PAGE_SIZE ? undefined : lastPage.current_page + 1,
  });
  const act = useMutation({
    mutationFn: (input: { id: number; status: 'accepted' | 'rejected' | 'cancelled' }) =>
      updateAdminRequest(
        input.id,
        input.status === 'cancelled'
          ? { status: 'cancelled', hidden_for_user: true }
          : { status: input.status },
      ),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: adminRequestsKey });
      await queryClient.invalidateQueries({ queryKey: adminUsersKey });
    },
  });
  const requests = list.data?.pages.flatMap((page) => page.access_requests) ?? [];
  const isBusy = (id: number) => act.isPending && act.variables?.id === id;

  return (
    <Stack gap="sm">
      <QueryStatus
        isPending={list.isPending}
        error={list.error ? errorMessage(list.error, { fallback: MESSAGES.loadFailed }) : null}
      />
      <ErrorLine message={act.error ? errorMessage(act.error, { fallback: MESSAGES.updateFailed }) : null} />
      {list.data && requests.length === 0 ? <Text c="gray.7">{MESSAGES.emptyData}</Text> : null}
      {requests.map((request) => (
        <AccessRequestCard
          key={request.id}
          request={request}
          actions={
            type === 'outgoing' ? (
              <Button
                size="xs"
                variant="light"
                color="red.9"
                loading={isBusy(request.id)}
                onClick={() => act.mutate({ id: request.id, status: 'cancelled' })}
              >
                Отменить
              </Button>
            ) : (
              <>
                <Button
                  size="xs"
                  loading={isBusy(request.id)}
                  onClick={() => act.mutate({ id: request.id, status: 'accepted' })}
                >
                  Принять
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="red.9"
                  loading={isBusy(request.id)}
                  onClick={() => act.mutate({ id: request.id, status: 'rejected' })}
                >
                  Отклонить
                </Button>
              </>
            )
          }
        />
      ))}
      {requests.length > 0 ? (
        <InfiniteScrollSentinel
          hasNextPage={list.hasNextPage}
          isFetchingNextPage={list.isFetchingNextPage}
          fetchNextPage={list.fetchNextPage}
          endText={MESSAGES.allRequestsLoaded}
        />
      ) : null}
    </Stack>
  );
}

export default AdminRequestsRoute;
