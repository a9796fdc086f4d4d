import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { COMMON_MESSAGES, NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { DEVICE_PROBLEM_LABELS } from '@propusk/contracts/texts/device-log';
import { PHONE_MESSAGES } from '@propusk/contracts/texts/phones';
import { USER_MESSAGES } from '@propusk/contracts/texts/users';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { QueryStatus } from '../../../components/query-status';
import { TextLines } from '../../../components/text-lines';
import { UserText } from '../../../components/user-text';
import { HistoryView } from '../../../features/actions/components/history-view';
import { getUserPhones, userPhonesQueryKey } from '../../../features/admin-phones/api/admin-phones-api';
import { AdminPhoneActions } from '../../../features/admin-phones/components/admin-phone-actions';
import { adminUserQueryKey, getAdminUser } from '../../../features/admin-users/api/admin-users-api';
import { BlockUserForm } from '../../../features/admin-users/components/block-user-form';
import { BLOCKED_LABEL } from '../../../features/admin-users/components/user-search';
import { deviceHealthQueryKey, getDeviceHealth } from '../../../features/device-log/api/device-log-api';
import { PhoneCard } from '../../../features/phones/components/phone-card';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

/** While a phone's command is on its way to the device, look again this often. */
const PENDING_REFRESH_MS = 1500;
/** While a phone is not in step with the device, look at the device's health this often. */
const DEVICE_HEALTH_REFRESH_MS = 5000;

/**
 * /user-profile: a user inside one barrier (state carries user_id and barrier_id): who he is, block or
 * unblock, his phones with their device status (and another try for a failed one), and his history.
 */
export function UserProfileRoute() {
  const navigate = useNavigate();
  const state = useNavigationState();
  const userId = state.user_id ?? null;
  const barrierId = state.barrier_id ?? null;
  const user = useQuery({
    queryKey: adminUserQueryKey(userId ?? 0),
    queryFn: () => getAdminUser(userId ?? 0),
    enabled: userId !== null,
  });
  const phones = useQuery({
    queryKey: userPhonesQueryKey(barrierId ?? 0, userId ?? 0),
    queryFn: () => getUserPhones(barrierId ?? 0, userId ?? 0),
    enabled: userId !== null && barrierId !== null,
    refetchInterval: (query) =>
      query.state.data?.phones.some((phone) => phone.status === 'pending') ? PENDING_REFRESH_MS : false,
  });
  // Why a phone still waits (or failed): the device does not answer, or refuses its password.
  const health = useQuery({
    queryKey: deviceHealthQueryKey(barrierId ?? 0),
    queryFn: () => getDeviceHealth(barrierId ?? 0),
    enabled: barrierId !== null && Boolean(phones.data?.phones.some((phone) => phone.status !== 'ok')),
    refetchInterval: DEVICE_HEALTH_REFRESH_MS,
  });
  const deviceProblem = health.data ? (DEVICE_PROBLEM_LABELS[health.data.state] ?? null) : null;
  const ids: NavigationState = { user_id: userId, barrier_id: barrierId };
  const back = { to: paths.barrierUsers, label: 'Назад', state: { barrier_id: barrierId } };

  if (userId === null || barrierId === null)
    return (
      <AppLayout title="Профиль пользователя" back={back} navigation={adminNavigation}>
        <MissingBarrier listPath={paths.adminBarriers} />
      </AppLayout>
    );
  if (isForbidden(user.error) || isForbidden(phones.error))
    return (
      <AppLayout title="Профиль пользователя" back={back} navigation={adminNavigation}>
        <NoAccess />
      </AppLayout>
    );
  return (
    <AppLayout title="Профиль пользователя" back={back} navigation={adminNavigation}>
      <QueryStatus
        isPending={user.isPending}
        error={user.error ? errorMessage(user.error, { fallback: USER_MESSAGES.userLoadFailed }) : null}
      />
      {user.data ? (
        <Card withBorder radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fw={600} size="lg">
                <UserText fallback={NAME_FALLBACK}>{user.data.full_name}</UserText>
              </Text>
              <Text c={user.data.is_active ? 'dark.7' : 'red.9'} fw={600} data-testid="user-status">
                {user.data.is_active ? 'Активен' : BLOCKED_LABEL}
              </Text>
            </Group>
            <Text>{formatPhone(user.data.phone)}</Text>
            <BlockUserForm
              key={String(user.data.is_active)}
              user={user.data}
              onChanged={() => void phones.refetch()}
            />
          </Stack>
        </Card>
      ) : null}
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Номера
          </Title>
          <QueryStatus
            isPending={phones.isPending}
            error={phones.error ? errorMessage(phones.error, { fallback: COMMON_MESSAGES.loadFailed }) : null}
          />
          {phones.data && phones.data.phones.length === 0 ? (
            <Text c="gray.7">
              <TextLines text={PHONE_MESSAGES.emptyPhones} />
            </Text>
          ) : null}
          {phones.data?.phones.map((phone) => (
            <PhoneCard
              key={phone.id}
              phone={phone}
              note={phone.status !== 'ok' ? deviceProblem : null}
              actions={
                <AdminPhoneActions
                  phone={phone}
                  onEdit={() => navigate(paths.editPhoneAdmin, { state: { ...ids, phone_id: phone.id } })}
                />
              }
            />
          ))}
          {user.data?.is_active !== false ? (
            <Button variant="light" onClick={() => navigate(paths.addPhoneAdmin, { state: ids })}>
              Добавить номер
            </Button>
          ) : null}
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            История изменений
          </Title>
          <HistoryView scope="admin" barrierId={barrierId} userId={userId} />
        </Stack>
      </Card>
    </AppLayout>
  );
}

export default UserProfileRoute;
