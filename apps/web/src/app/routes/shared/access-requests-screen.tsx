import { Alert, Button, Stack, Tabs, Text } from '@mantine/core';
import { REQUEST_MESSAGES } from '@propusk/contracts/texts/access-requests';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import {
  type QueryKey,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { InfiniteScrollSentinel } from '../../../components/infinite-scroll-sentinel';
import { AppLayout } from '../../../components/layout/app-layout';
import type { NavigationItem } from '../../../components/layout/bottom-navigation';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { TextLines } from '../../../components/text-lines';
import {
  ACCESS_REQUEST_PAGE_SIZE,
  type AccessRequest,
  type AccessRequestDirection,
  type AccessRequestScope,
  accessRequestsKey,
  accessRequestsQueryKey,
  getAccessRequests,
  getPendingIncomingCount,
  muteInvitationsOf,
  pendingIncomingCountKey,
  updateAccessRequest,
} from '../../../features/access-requests/api/access-requests-api';
import { AccessRequestCard } from '../../../features/access-requests/components/access-request-card';
import { InvitationMutes } from '../../../features/access-requests/components/invitation-mutes';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';

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
  /** Shown above the tabs (the administrator's own invitations as a resident: issue 41). */
  lead?: ReactNode;
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
  lead = null,
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
  // The tab once chosen stays: answering the last invitation empties the count, and the screen must not jump
  // to the other tab under his finger (issue 41).
  useEffect(() => {
    if (chosen === null && !waiting.isPending) setTab(tab);
  }, [chosen, waiting.isPending, tab]);
  return (
    <AppLayout title="Заявки" navigation={navigation}>
      {lead}
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
            {tab === type && type === 'incoming' && scope === 'user' ? <InvitationMutes /> : null}
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
  // What accepting did, said above the list (issue 41: it confirmed nothing).
  const [accepted, setAccepted] = useState<AccessRequest | null>(null);
  const navigate = useNavigate();
  const requests = list.data?.pages.flatMap((page) => page.access_requests) ?? [];
  const act = useMutation({
    mutationFn: (input: { id: number; status: 'accepted' | 'rejected' | 'cancelled' }) =>
      updateAccessRequest(
        scope,
        input.id,
        input.status === 'cancelled'
          ? { status: 'cancelled', hidden_for_user: true }
          : { status: input.status },
      ),
    onSuccess: (_answer, input) => {
      setToConfirm(null);
      const answered = requests.find((request) => request.id === input.id);
      setAccepted(input.status === 'accepted' && answered ? answered : null);
    },
    onSettled: async () => {
      for (const queryKey of [accessRequestsKey(scope), ...alsoInvalidates]) {
        await queryClient.invalidateQueries({ queryKey });
      }
    },
  });
  // A person mutes an invitation's administrator (issue 40 item 4): it and his later ones are not shown.
  const mute = useMutation({
    mutationFn: muteInvitationsOf,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accessRequestsKey(scope) }),
  });
  const isBusy = (id: number) => act.isPending && act.variables?.id === id;

  return (
    <Stack gap="sm">
      <QueryStatus
        isPending={list.isPending}
        error={list.error ? errorMessage(list.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
        onRetry={() => list.refetch()}
      />
      {accepted ? (
        <Alert color="teal.9" variant="outline" role="status" data-testid="request-accepted">
          <Stack gap="xs">
            <Text size="sm">
              {scope === 'user'
                ? REQUEST_MESSAGES.invitationAccepted(accepted.barrier_address)
                : REQUEST_MESSAGES.requestAccepted(accepted.barrier_address)}
            </Text>
            {scope === 'user' ? (
              <Button
                variant="light"
                onClick={() =>
                  navigate(paths.myBarrier, {
                    state: { barrier_id: accepted.barrier } satisfies NavigationState,
                  })
                }
              >
                {REQUEST_MESSAGES.toBarrier}
              </Button>
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      <ErrorLine
        message={
          act.error && !toConfirm
            ? errorMessage(act.error, { fallback: COMMON_MESSAGES.updateFailed })
            : mute.error
              ? errorMessage(mute.error, { fallback: COMMON_MESSAGES.updateFailed })
              : null
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
                {scope === 'user' && request.initiator === 'admin' ? (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="gray.8"
                    loading={mute.isPending && mute.variables === request.id}
                    onClick={() => mute.mutate(request.id)}
                  >
                    {REQUEST_MESSAGES.muteInvitations}
                  </Button>
                ) : null}
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
