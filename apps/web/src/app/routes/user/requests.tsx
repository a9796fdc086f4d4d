import { Button, Stack, Tabs, Text } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { InfiniteScrollSentinel } from '../../../components/infinite-scroll-sentinel';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import {
  ACCESS_REQUEST_PAGE_SIZE,
  type AccessRequestDirection,
  accessRequestsQueryKey,
  getAccessRequests,
  updateAccessRequest,
} from '../../../features/access-requests/api/access-requests-api';
import { AccessRequestCard } from '../../../features/access-requests/components/access-request-card';
import { errorMessage } from '../../../lib/errors';
import { userNavigation } from './navigation';

/** /requests: the user's access requests, tabs outgoing and incoming (spec.md sections 2 and 4). */
export function RequestsRoute() {
  const [tab, setTab] = useState<AccessRequestDirection>('outgoing');
  return (
    <AppLayout title="Заявки" navigation={userNavigation}>
      <Tabs value={tab} onChange={(value) => value && setTab(value as AccessRequestDirection)}>
        <Tabs.List grow>
          <Tabs.Tab value="outgoing">Исходящие</Tabs.Tab>
          <Tabs.Tab value="incoming">Входящие</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="outgoing" pt="md">
          {tab === 'outgoing' ? <RequestList type="outgoing" /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="incoming" pt="md">
          {tab === 'incoming' ? <RequestList type="incoming" /> : null}
        </Tabs.Panel>
      </Tabs>
    </AppLayout>
  );
}

function RequestList({ type }: { type: AccessRequestDirection }) {
  const queryClient = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: accessRequestsQueryKey(type),
    queryFn: ({ pageParam }) => getAccessRequests(type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage) =>
      lastPage.access_requests.length < ACCESS_REQUEST_PAGE_SIZE ? undefined : lastPage.current_page + 1,
  });
  const act = useMutation({
    mutationFn: (input: { id: number; status: 'accepted' | 'rejected' | 'cancelled' }) =>
      updateAccessRequest(
        input.id,
        input.status === 'cancelled'
          ? { status: 'cancelled', hidden_for_user: true }
          : { status: input.status },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['access-requests'] }),
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

export default RequestsRoute;
