import { Button, Stack, Tabs, Text } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import {
  type QueryKey,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { InfiniteScrollSentinel } from '../../../components/infinite-scroll-sentinel';
import { AppLayout } from '../../../components/layout/app-layout';
import type { NavigationItem } from '../../../components/layout/bottom-navigation';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { TextLines } from '../../../components/text-lines';
import {
  ACCESS_REQUEST_PAGE_SIZE,
  type AccessRequestDirection,
  type AccessRequestScope,
  accessRequestsKey,
  accessRequestsQueryKey,
  getAccessRequests,
  getPendingIncomingCount,
  pendingIncomingCountKey,
  updateAccessRequest,
} from '../../../features/access-requests/api/access-requests-api';
import { AccessRequestCard } from '../../../features/access-requests/components/access-request-card';
import { errorMessage } from '../../../lib/errors';

export const REJECT_CONFIRM_TEXT = 'Отклонить запрос на доступ?';
export const CANCEL_CONFIRM_TEXT = 'Отменить запрос на доступ?';

const TAB_LABELS: Record<AccessRequestDirection, string> = { incoming: 'Входящие', outgoing: 'Исходящие' };

interface AccessRequestsScreenProps {
  scope: AccessRequestScope;
  navigation: readonly NavigationItem[];
  /**
   * The tabs in their order; the first one is open at start, unless `?tab=` names one or requests wait for the
   * person's answer (then «Входящие»).
   */
  tabs: readonly [AccessRequestDirection, AccessRequestDirection];
  /** Other lists an answered request changes (the administrator's barrier users). */
  alsoInvalidates?: readonly QueryKey[];
  /** Shown above the outgoing list (the administrator's invitations waiting for a number to register). */
  outgoingExtra?: ReactNode;
}

/**
 * The requests screen of both areas (spec.md sections 2 and 4): tabs incoming and outgoing, 10 per page with
 * infinite scroll; an incoming pending request is accepted or rejected, an outgoing one cancelled (and hidden).
 */
export function AccessRequestsScreen({
  scope,
  navigation,
  tabs,
  alsoInvalidates = [],
  outgoingExtra = null,
}: AccessRequestsScreenProps) {
  const [searchParams] = useSearchParams();
  const asked = tabs.find((type) => type === searchParams.get('tab'));
  // Requests waiting for this person's answer (the counter on «Заявки») open «Входящие» (issue 32 item 4).
  const waiting = useQuery({
    queryKey: pendingIncomingCountKey(scope),
    queryFn: () => getPendingIncomingCount(scope),
  });
  const [chosen, setTab] = useState<AccessRequestDirection | null>(null);
  const tab = chosen ?? asked ?? (waiting.data ? 'incoming' : tabs[0]);
  return (
    <AppLayout title="Заявки" navigation={navigation}>
      <Tabs value={tab} onChange={(value) => value && setTab(value as AccessRequestDirection)}>
        <Tabs.List grow>
          {tabs.map((type) => (
            <Tabs.Tab key={type} value={type}>
              {TAB_LABELS[type]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((type) => (
          <Tabs.Panel key={type} value={type} pt="md">
            {tab === type && type === 'outgoing' ? outgoingExtra : null}
            {tab === type ? (
              <AccessRequestList scope={scope} type={type} alsoInvalidates={alsoInvalidates} />
            ) : null}
          </Tabs.Panel>
        ))}
      </Tabs>
    </AppLayout>
  );
}

/** What an empty tab says: why it is empty and what to do next (issue 32 item 5). */
function emptyText(scope: AccessRequestScope, type: AccessRequestDirection): string {
  if (type === 'incoming') return REQUEST_MESSAGES.emptyIncoming;
  return scope === 'admin' ? REQUEST_MESSAGES.emptyOutgoingAdmin : REQUEST_MESSAGES.emptyOutgoing;
}

function AccessRequestList({
  scope,
  type,
  alsoInvalidates,
}: {
  scope: AccessRequestScope;
  type: AccessRequestDirection;
  alsoInvalidates: readonly QueryKey[];
}) {
  const queryClient = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: accessRequestsQueryKey(scope, type),
    queryFn: ({ pageParam }) => getAccessRequests(scope, type, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage) =>
      lastPage.access_requests.length < ACCESS_REQUEST_PAGE_SIZE ? undefined : lastPage.current_page + 1,
  });
  const [toConfirm, setToConfirm] = useState<{ id: number; status: 'rejected' | 'cancelled' } | null>(null);
  const act = useMutation({
    mutationFn: (input: { id: number; status: 'accepted' | 'rejected' | 'cancelled' }) =>
      updateAccessRequest(
        scope,
        input.id,
        input.status === 'cancelled'
          ? { status: 'cancelled', hidden_for_user: true }
          : { status: input.status },
      ),
    onSuccess: () => setToConfirm(null),
    onSettled: async () => {
      for (const queryKey of [accessRequestsKey(scope), ...alsoInvalidates]) {
        await queryClient.invalidateQueries({ queryKey });
      }
    },
  });
  const requests = list.data?.pages.flatMap((page) => page.access_requests) ?? [];
  const isBusy = (id: number) => act.isPending && act.variables?.id === id;

  return (
    <Stack gap="sm">
      <QueryStatus
        isPending={list.isPending}
        error={list.error ? errorMessage(list.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
      />
      <ErrorLine
        message={
          act.error && !toConfirm ? errorMessage(act.error, { fallback: COMMON_MESSAGES.updateFailed }) : null
        }
      />
      <ConfirmDialog
        opened={toConfirm !== null}
        message={toConfirm?.status === 'cancelled' ? CANCEL_CONFIRM_TEXT : REJECT_CONFIRM_TEXT}
        confirmLabel={toConfirm?.status === 'cancelled' ? 'Да, отменить' : 'Да, отклонить'}
        onConfirm={() => toConfirm && act.mutate(toConfirm)}
        onCancel={() => setToConfirm(null)}
        isBusy={act.isPending}
        error={act.error ? errorMessage(act.error, { fallback: COMMON_MESSAGES.updateFailed }) : null}
      />
      {list.data && requests.length === 0 ? (
        <Text c="gray.7">
          <TextLines text={emptyText(scope, type)} />
        </Text>
      ) : null}
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
                onClick={() => {
                  act.reset();
                  setToConfirm({ id: request.id, status: 'cancelled' });
                }}
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
                  onClick={() => {
                    act.reset();
                    setToConfirm({ id: request.id, status: 'rejected' });
                  }}
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
          endText={REQUEST_MESSAGES.allRequestsLoaded}
        />
      ) : null}
    </Stack>
  );
}
