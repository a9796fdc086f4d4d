import { Button, Card, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { COMMON_MESSAGES, NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { USER_MESSAGES } from '@propusk/contracts/texts/users';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ExportButtons } from '../../../components/export-buttons';
import { AppLayout } from '../../../components/layout/app-layout';
import { useIsDesk } from '../../../components/layout/desk';
import { MissingBarrier } from '../../../components/missing-barrier';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { TextLines } from '../../../components/text-lines';
import { UserText } from '../../../components/user-text';
import {
  accessRequestsKey,
  createAccessRequest,
  invitePhone,
} from '../../../features/access-requests/api/access-requests-api';
import {
  adminUsersKey,
  BARRIER_USER_PAGE_SIZE,
  type BarrierUser,
  barrierUsersQueryKey,
  downloadUsersExport,
  getBarrierUsers,
  removeBarrierUser,
} from '../../../features/admin-users/api/admin-users-api';
import {
  type BarrierUserOrdering,
  BarrierUsersTable,
} from '../../../features/admin-users/components/barrier-users-table';
import { UserSearch } from '../../../features/admin-users/components/user-search';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

export const REMOVE_CONFIRM_TEXT =
  'Удалить пользователя из шлагбаума? Его номера будут удалены с устройства.';

/**
 * /barrier-users: the users of one barrier (10 per page, search by name or phone), their removal, and finding
 * any user by phone to invite or unblock him. On a desk: a table sorted by its name, phone and date headers.
 */
export function BarrierUsersRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isDesk = useIsDesk();
  const barrierId = useNavigationState().barrier_id ?? null;
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [ordering, setOrdering] = useState<BarrierUserOrdering | undefined>(undefined);
  const params = {
    barrierId: barrierId ?? 0,
    page,
    search: debouncedSearch,
    ...(isDesk && ordering ? { ordering } : {}),
  };
  const openProfile = (userId: number) =>
    navigate(paths.userProfile, {
      state: { user_id: userId, barrier_id: barrierId } satisfies NavigationState,
    });
  const users = useQuery({
    queryKey: barrierUsersQueryKey(params),
    queryFn: () => getBarrierUsers(params),
    enabled: barrierId !== null,
    placeholderData: keepPreviousData,
  });
  const totalPages = Math.ceil((users.data?.total_count ?? 0) / BARRIER_USER_PAGE_SIZE);
  const back = { to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } };

  return (
    <AppLayout title="Пользователи шлагбаума" back={back} navigation={adminNavigation} wide>
      {barrierId === null ? (
        <MissingBarrier listPath={paths.adminBarriers} />
      ) : isForbidden(users.error) ? (
        <NoAccess />
      ) : (
        <>
          <ExportButtons download={(format) => downloadUsersExport(barrierId, format)} />
          <Button
            variant="light"
            onClick={() =>
              navigate(paths.barrierBlocked, { state: { barrier_id: barrierId } satisfies NavigationState })
            }
          >
            {USER_MESSAGES.blockedTitle}
          </Button>
          <TextInput
            label="Поиск по имени или телефону"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            type="search"
            maw={isDesk ? 480 : undefined}
          />
          <QueryStatus
            isPending={users.isPending}
            error={users.error ? errorMessage(users.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
          />
          {users.data && isDesk ? (
            <BarrierUsersTable
              list={users.data}
              busy={users.isPlaceholderData}
              empty={USER_MESSAGES.emptyUsers}
              ordering={ordering}
              onSort={(next) => {
                setOrdering(next);
                setPage(1);
              }}
              onOpen={(user) => openProfile(user.id)}
              actions={(user) => (
                <BarrierUserActions user={user} barrierId={barrierId} onOpen={() => openProfile(user.id)} />
              )}
            />
          ) : null}
          {users.data && !isDesk && users.data.users.length === 0 ? (
            <Text c="gray.7">
              <TextLines text={USER_MESSAGES.emptyUsers} />
            </Text>
          ) : null}
          {isDesk ? null : (
            <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {users.data?.users.map((user) => (
                <li key={user.id}>
                  <BarrierUserCard user={user} barrierId={barrierId} onOpen={() => openProfile(user.id)} />
                </li>
              ))}
            </Stack>
          )}
          {users.data && users.data.total_count > 0 ? (
            <Pager page={page} totalPages={totalPages} onChange={setPage} />
          ) : null}
          <UserSearch
            onInvite={async (user) => {
              await createAccessRequest('admin', { user: user.id, barrier: barrierId });
              await queryClient.invalidateQueries({ queryKey: accessRequestsKey('admin') });
            }}
            onInviteByPhone={async (phone) => {
              const answer = await invitePhone({ barrier: barrierId, phone });
              await queryClient.invalidateQueries({ queryKey: accessRequestsKey('admin') });
              return { smsSent: answer.sms_sent };
            }}
          />
        </>
      )}
    </AppLayout>
  );
}

function BarrierUserCard({
  user,
  barrierId,
  onOpen,
}: {
  user: BarrierUser;
  barrierId: number;
  onOpen: () => void;
}) {
  return (
    <Card withBorder radius="md" p="sm" data-testid="barrier-user">
      <Stack gap={6}>
        <UnstyledButton onClick={onOpen}>
          <Text fw={600}>
            <UserText fallback={NAME_FALLBACK}>{user.full_name}</UserText>
          </Text>
          <Text size="sm">{formatPhone(user.phone)}</Text>
          {user.is_active ? null : (
            <Text size="sm" c="red.9" data-testid="barrier-user-blocked">
              Заблокирован
            </Text>
          )}
          <Text size="sm" c="gray.7">
            Номеров: {user.phones_count}
          </Text>
        </UnstyledButton>
        <Group gap="xs">
          <BarrierUserActions user={user} barrierId={barrierId} onOpen={onOpen} />
        </Group>
      </Stack>
    </Card>
  );
}

/** A user's buttons (the card's and the desk row's): open his profile, remove him from the barrier. */
function BarrierUserActions({
  user,
  barrierId,
  onOpen,
}: {
  user: BarrierUser;
  barrierId: number;
  onOpen: () => void;
}) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => removeBarrierUser(barrierId, user.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
  return (
    <>
      <Button size="xs" variant="light" onClick={onOpen}>
        Открыть профиль
      </Button>
      <Button
        size="xs"
        variant="subtle"
        color="red.9"
        onClick={() => {
          remove.reset();
          setIsConfirming(true);
        }}
      >
        Удалить из шлагбаума
      </Button>
      <ConfirmDialog
        opened={isConfirming}
        message={REMOVE_CONFIRM_TEXT}
        confirmLabel="Да, удалить"
        onConfirm={() => remove.mutate()}
        onCancel={() => setIsConfirming(false)}
        isBusy={remove.isPending}
        error={remove.error ? errorMessage(remove.error, { fallback: USER_MESSAGES.userDeleteFailed }) : null}
      />
    </>
  );
}

export default BarrierUsersRoute;
