import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DEVICE_CHECK_TEXTS, DEVICE_LOG_TEXTS, MESSAGES } from '@propusk/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import {
  adminBarrierQueryKey,
  adminBarriersKey,
  deleteBarrier,
  getAdminBarrier,
} from '../../../features/admin-barriers/api/admin-barriers-api';
import { BarrierEditForm } from '../../../features/admin-barriers/components/barrier-edit-form';
import { LimitsForm } from '../../../features/admin-barriers/components/limits-form';
import { DeviceHealthCard } from '../../../features/device-log/components/device-health-card';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import { type NavigationState, paths } from '../../paths';
import { adminNavigation } from './navigation';

export const DELETE_CONFIRM_TEXT = 'Удалить шлагбаум? Все номера будут удалены с устройства.';

/**
 * /admin-barrier-page: one of the administrator's barriers (state carries barrier_id): its card, edit,
 * its device's health, limits, links to its users, device settings, history and device log, and delete.
 */
export function AdminBarrierPageRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const barrierId = useNavigationState().barrier_id ?? null;
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

  const state: NavigationState = { barrier_id: barrierId };
  const loadError =
    barrierId === null
      ? MESSAGES.barrierNotFound
      : barrier.error
        ? errorMessage(barrier.error, {
            fallback: MESSAGES.loadFailed,
            byStatus: { 404: MESSAGES.barrierNotFound },
          })
        : null;
  const data = barrier.data;

  return (
    <AppLayout
      title="Шлагбаум"
      back={{ to: paths.adminBarriers, label: 'Назад' }}
      navigation={adminNavigation}
    >
      <QueryStatus isPending={barrierId !== null && barrier.isPending} error={loadError} />
      {data ? (
        <>
          <Card withBorder radius="md">
            <Stack gap={4}>
              <Text fw={600} size="lg" data-testid="barrier-address">
                {data.address}
              </Text>
              <Text size="sm">Телефон устройства: {formatPhone(data.device_phone)}</Text>
              <Text size="sm">Модель: {data.device_model}</Text>
              <Text size="sm">Номеров на устройстве: до {data.device_phones_amount}</Text>
              <Text size="sm">{data.is_public ? 'Публичный шлагбаум' : 'Закрытый шлагбаум'}</Text>
            </Stack>
          </Card>
          <DeviceHealthCard barrierId={data.id} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Button variant="light" onClick={() => navigate(paths.barrierUsers, { state })}>
              Пользователи
            </Button>
            <Button variant="light" onClick={() => navigate(paths.importAdmin, { state })}>
              Импорт жителей
            </Button>
            <Button variant="light" onClick={() => navigate(paths.barrierSettings, { state })}>
              Настройки устройства
            </Button>
            <Button variant="light" onClick={() => navigate(paths.barrierHistoryAdmin, { state })}>
              История изменений
            </Button>
            <Button variant="light" onClick={() => navigate(paths.deviceLogAdmin, { state })}>
              {DEVICE_LOG_TEXTS.title}
            </Button>
            <Button variant="light" onClick={() => navigate(paths.deviceCheckAdmin, { state })}>
              {DEVICE_CHECK_TEXTS.start}
            </Button>
          </SimpleGrid>
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
          <Card withBorder radius="md">
            <Stack gap="sm">
              <Button color="red.9" variant="outline" onClick={() => setIsConfirmingDelete(true)}>
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
                  remove.error ? errorMessage(remove.error, { fallback: MESSAGES.barrierDeleteFailed }) : null
                }
              />
            </Stack>
          </Card>
        </>
      ) : null}
    </AppLayout>
  );
}

export default AdminBarrierPageRoute;
