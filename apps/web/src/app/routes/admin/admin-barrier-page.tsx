import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type BarrierPermission, roleHolds } from '@propusk/contracts/barrier-staff';
import { BARRIER_MESSAGES } from '@propusk/contracts/texts/barriers';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { CONFORMANCE_TEXTS } from '@propusk/contracts/texts/conformance';
import { DANGER_TEXTS } from '@propusk/contracts/texts/dangers';
import { DEVICE_CHECK_TEXTS } from '@propusk/contracts/texts/device-check';
import { DEVICE_LOG_TEXTS } from '@propusk/contracts/texts/device-log';
import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { STAFF_ROLE_LABELS } from '@propusk/contracts/texts/staff';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BarrierDangers } from '../../../components/barrier-dangers';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { UserText } from '../../../components/user-text';
import {
  adminBarrierQueryKey,
  adminBarriersKey,
  deleteBarrier,
  getAdminBarrier,
} from '../../../features/admin-barriers/api/admin-barriers-api';
import { BarrierEditForm } from '../../../features/admin-barriers/components/barrier-edit-form';
import { LimitsForm } from '../../../features/admin-barriers/components/limits-form';
import { deviceModelLabel } from '../../../features/admin-barriers/device-models';
import { sendBarrierSetting } from '../../../features/admin-settings/api/settings-api';
import { StaffSection } from '../../../features/barrier-staff/components/staff-section';
import { DeviceHealthCard } from '../../../features/device-log/components/device-health-card';
import { UnverifiedModelBanner } from '../../../features/device-models/components/unverified-model-banner';
import { useDefinedModelSheets } from '../../../features/device-models/use-defined-model-sheets';
import { OpenGateButton } from '../../../features/relay/components/open-gate-button';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

export const DELETE_CONFIRM_TEXT = 'Удалить шлагбаум? Все номера будут удалены с устройства.';

/**
 * /admin-barrier-page: one of the administrator's barriers (state carries barrier_id): its card, edit,
 * its device's health, limits, links to its users, device settings, history and device log, its
 * administrators, and delete. Each part shows only when the caller's role on the barrier (`my_role`) holds its
 * permission: an operator sees people and history, a dispatcher the device's health (the server refuses the
 * rest anyway).
 */
export function AdminBarrierPageRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const barrierId = useNavigationState().barrier_id ?? null;
  // His own models' sheets: a barrier on one is named and edited as any other.
  useDefinedModelSheets();
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const barrier = useQuery({
    queryKey: adminBarrierQueryKey(barrierId ?? 0),
    queryFn: () => getAdminBarrier(barrierId ?? 0),
    enabled: barrierId !== null,
  });
  const remove = useMutation({
    mutationFn: () => deleteBarrier(barrierId ?? 0),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: adminBarrierQueryKey(barrierId ?? 0) });
      await queryClient.invalidateQueries({ queryKey: adminBarriersKey });
      navigate(paths.adminBarriers, { replace: true });
    },
  });

  // Ends «open to all» at once: narrowing access needs no question.
  const narrowAccess = useMutation({
    mutationFn: (id: number) => sendBarrierSetting(id, { setting: 'access_authorized', params: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminBarriersKey }),
  });

  const state: NavigationState = { barrier_id: barrierId };
  const loadError =
    barrierId === null
      ? COMMON_MESSAGES.barrierNotFound
      : barrier.error
        ? errorMessage(barrier.error, {
            fallback: COMMON_MESSAGES.loadFailed,
            byStatus: { 404: COMMON_MESSAGES.barrierNotFound },
          })
        : null;
  const data = barrier.data;
  const may = (permission: BarrierPermission) => (data ? roleHolds(data.my_role, permission) : false);

  return (
    <AppLayout
      title="Шлагбаум"
      back={{ to: paths.adminBarriers, label: 'Назад' }}
      navigation={adminNavigation}
    >
      <UnverifiedModelBanner barrierId={barrierId} />
      <QueryStatus isPending={barrierId !== null && barrier.isPending} error={loadError} />
      {data ? (
        <>
          <Card withBorder radius="md">
            <Stack gap={4}>
              <Text fw={600} size="lg" data-testid="barrier-address">
                <UserText>{data.address}</UserText>
              </Text>
              <Text size="sm">Телефон устройства: {formatPhone(data.device_phone)}</Text>
              <Text size="sm">Модель: {deviceModelLabel(data.device_model)}</Text>
              <Text size="sm">Номеров на устройстве: до {data.device_phones_amount}</Text>
              {data.device_gateway_number ? (
                <Text size="sm" data-testid="gateway-number" title={DEVICE_LOG_TEXTS.gatewayNumberHint}>
                  {DEVICE_LOG_TEXTS.gatewayNumber}: {formatPhone(data.device_gateway_number)}
                </Text>
              ) : null}
              <Text size="sm">{data.is_public ? 'Публичный шлагбаум' : 'Закрытый шлагбаум'}</Text>
              {data.my_role === 'owner' ? null : (
                <Text size="sm" data-testid="my-role">
                  Ваша роль: {STAFF_ROLE_LABELS[data.my_role]}
                </Text>
              )}
            </Stack>
          </Card>
          <BarrierDangers dangers={data.dangers}>
            {(data.dangers ?? []).includes('open_to_all') && may('settings.manage') ? (
              <Button
                color="red.9"
                variant="white"
                loading={narrowAccess.isPending}
                onClick={() => narrowAccess.mutate(data.id)}
                data-testid="end-open-to-all"
              >
                {DANGER_TEXTS.endOpenToAll}
              </Button>
            ) : null}
            {narrowAccess.error ? (
              <Text size="sm" c="white" fw={700} role="alert">
                {errorMessage(narrowAccess.error, { fallback: DANGER_TEXTS.endFailed })}
              </Text>
            ) : null}
            {(data.dangers ?? []).includes('relay_always_on') && may('settings.manage') ? (
              <Button
                color="red.9"
                variant="white"
                onClick={() => navigate(paths.barrierSettings, { state })}
              >
                {DANGER_TEXTS.endRelayAlwaysOn}
              </Button>
            ) : null}
            {(data.dangers ?? []).includes('emergency_hold') && may('relay.hold') ? (
              <Button
                color="red.9"
                variant="white"
                onClick={() => navigate(paths.emergencyHold)}
                data-testid="end-hold-link"
              >
                {DANGER_TEXTS.endHold}
              </Button>
            ) : null}
          </BarrierDangers>
          {may('device.health') ? <DeviceHealthCard barrierId={data.id} /> : null}
          {may('relay.open') ? (
            <OpenGateButton side="admin" barrierId={data.id} devicePhone={data.device_phone} />
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {may('users.manage') ? (
              <Button variant="light" onClick={() => navigate(paths.barrierUsers, { state })}>
                Пользователи
              </Button>
            ) : null}
            {may('users.manage') ? (
              <Button variant="light" onClick={() => navigate(paths.importAdmin, { state })}>
                Импорт жителей
              </Button>
            ) : null}
            {may('phones.manage') ? (
              <Button variant="light" onClick={() => navigate(paths.guestPassesAdmin, { state })}>
                Гостевые пропуска
              </Button>
            ) : null}
            {may('settings.manage') ? (
              <Button variant="light" onClick={() => navigate(paths.barrierSettings, { state })}>
                Настройки устройства
              </Button>
            ) : null}
            {may('history.view') ? (
              <Button variant="light" onClick={() => navigate(paths.barrierHistoryAdmin, { state })}>
                История изменений
              </Button>
            ) : null}
            {may('device.health') ? (
              <Button variant="light" onClick={() => navigate(paths.deviceLogAdmin, { state })}>
                {DEVICE_LOG_TEXTS.title}
              </Button>
            ) : null}
            {may('settings.manage') ? (
              <Button variant="light" onClick={() => navigate(paths.deviceCheckAdmin, { state })}>
                {DEVICE_CHECK_TEXTS.start}
              </Button>
            ) : null}
            {may('settings.manage') ? (
              <Button variant="light" onClick={() => navigate(paths.conformanceAdmin, { state })}>
                {CONFORMANCE_TEXTS.title}
              </Button>
            ) : null}
            {may('relay.open') ? (
              <Button variant="light" onClick={() => navigate(paths.openingsAdmin, { state })}>
                {RELAY_TEXTS.openingsLog}
              </Button>
            ) : null}
          </SimpleGrid>
          {may('barrier.edit') ? (
            <>
              <Card withBorder radius="md">
                <Stack gap="sm">
                  <Title order={2} size="h4">
                    Параметры
                  </Title>
                  <BarrierEditForm key={data.id} barrier={data} />
                </Stack>
              </Card>
              <Card withBorder radius="md">
                <Stack gap="sm">
                  <Title order={2} size="h4">
                    Лимиты
                  </Title>
                  <LimitsForm barrierId={data.id} />
                </Stack>
              </Card>
            </>
          ) : null}
          {may('staff.manage') ? <StaffSection barrierId={data.id} /> : null}
          {may('barrier.delete') ? (
            <Card withBorder radius="md">
              <Stack gap="sm">
                <Button
                  color="red.9"
                  variant="outline"
                  onClick={() => {
                    // Asked again, the question opens without the last attempt's failure.
                    remove.reset();
                    setIsConfirmingDelete(true);
                  }}
                >
                  Удалить шлагбаум
                </Button>
                <ConfirmDialog
                  opened={isConfirmingDelete}
                  message={DELETE_CONFIRM_TEXT}
                  confirmLabel="Да, удалить"
                  onConfirm={() => remove.mutate()}
                  onCancel={() => setIsConfirmingDelete(false)}
                  isBusy={remove.isPending}
                  error={
                    remove.error
                      ? errorMessage(remove.error, { fallback: BARRIER_MESSAGES.barrierDeleteFailed })
                      : null
                  }
                />
              </Stack>
            </Card>
          ) : null}
        </>
      ) : null}
    </AppLayout>
  );
}

export default AdminBarrierPageRoute;
