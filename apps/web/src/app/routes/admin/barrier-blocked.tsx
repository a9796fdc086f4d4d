import { Button, Card, Stack, Text } from '@mantine/core';
import { COMMON_MESSAGES, NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { USER_MESSAGES as TEXTS } from '@propusk/contracts/texts/users';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { SuccessLine } from '../../../components/status-line';
import { displayText, UserText } from '../../../components/user-text';
import {
  adminUsersKey,
  BARRIER_USER_PAGE_SIZE,
  type BlockedUserList,
  blockedUsersQueryKey,
  getBlockedUsers,
  unblockUser,
} from '../../../features/admin-users/api/admin-users-api';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

type BlockedUser = BlockedUserList['users'][number];

/**
 * /barrier-blocked: «Заблокированные» (issue 41 major 3): the people the barrier's owner blocked (a block
 * closes all of his barriers; the blocked vanish from «Пользователи»), newest first, each with his reason and
 * «Разблокировать».
 */
export function BarrierBlockedRoute() {
  const queryClient = useQueryClient();
  const barrierId = useNavigationState().barrier_id ?? null;
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const blocked = useQuery({
    queryKey: blockedUsersQueryKey(barrierId ?? 0, page),
    queryFn: () => getBlockedUsers(barrierId ?? 0, page),
    enabled: barrierId !== null,
    placeholderData: keepPreviousData,
  });
  const totalPages = Math.ceil((blocked.data?.total_count ?? 0) / BARRIER_USER_PAGE_SIZE);
  const back = { to: paths.barrierUsers, label: 'Назад', state: { barrier_id: barrierId } };

  return (
    <AppLayout title={TEXTS.blockedTitle} back={back} navigation={adminNavigation}>
      {barrierId === null ? (
        <MissingBarrier listPath={paths.adminBarriers} />
      ) : isForbidden(blocked.error) ? (
        <NoAccess />
      ) : (
        <>
          <Text size="sm" c="gray.7">
            {TEXTS.blockedHint}
          </Text>
          <SuccessLine message={message} />
          <QueryStatus
            isPending={blocked.isPending}
            error={
              blocked.error ? errorMessage(blocked.error, { fallback: COMMON_MESSAGES.loadFailed }) : null
            }
            onRetry={() => blocked.refetch()}
          />
          {blocked.data && blocked.data.users.length === 0 ? (
            <Text c="gray.7">{TEXTS.emptyBlocked}</Text>
          ) : null}
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {blocked.data?.users.map((user) => (
              <li key={user.id}>
                <BlockedUserCard
                  user={user}
                  onUnblocked={async () => {
                    setMessage(TEXTS.unblocked(displayText(user.full_name, NAME_FALLBACK)));
                    await queryClient.invalidateQueries({ queryKey: adminUsersKey });
                  }}
                />
              </li>
            ))}
          </Stack>
          {blocked.data && blocked.data.total_count > 0 ? (
            <Pager page={page} totalPages={totalPages} onChange={setPage} />
          ) : null}
        </>
      )}
    </AppLayout>
  );
}

function BlockedUserCard({ user, onUnblocked }: { user: BlockedUser; onUnblocked: () => Promise<void> }) {
  const [isConfirming, setIsConfirming] = useState(false);
  const unblock = useMutation({
    mutationFn: () => unblockUser(user.id),
    onSuccess: async () => {
      setIsConfirming(false);
      await onUnblocked();
    },
  });
  return (
    <Card withBorder radius="md" p="sm" data-testid="blocked-user">
      <Stack gap={6}>
        <Text fw={600}>
          <UserText fallback={NAME_FALLBACK}>{user.full_name}</UserText>
        </Text>
        {user.phone ? <Text size="sm">{formatPhone(user.phone)}</Text> : null}
        <Text size="sm">
          {TEXTS.blockedReason} <UserText>{user.reason}</UserText>
        </Text>
        <Text size="sm" c="gray.7">
          {TEXTS.blockedAt} {formatDateTime(user.blocked_at)}
        </Text>
        <Button
          variant="light"
          onClick={() => {
            unblock.reset();
            setIsConfirming(true);
          }}
        >
          {TEXTS.unblock}
        </Button>
        <ConfirmDialog
          opened={isConfirming}
          message={TEXTS.unblockConfirm}
          confirmLabel={TEXTS.unblock}
          onConfirm={() => unblock.mutate()}
          onCancel={() => setIsConfirming(false)}
          isBusy={unblock.isPending}
          error={unblock.error ? errorMessage(unblock.error, { fallback: TEXTS.unblockFailed }) : null}
        />
      </Stack>
    </Card>
  );
}

export default BarrierBlockedRoute;
