import { Button, Card, SimpleGrid, Stack, Text } from '@mantine/core';
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
import { useIsDesk } from '../../../components/layout/desk';
import { FoldedPart, PageSection, SectionButtons } from '../../../components/page-section';
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
import { useHasDraft } from '../../../hooks/use-form-draft';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

export const DELETE_CONFIRM_TEXT = 'Удалить шлагбаум? Все номера будут удалены с устройства.';

interface BarrierAction {
  label: string;
  to: string;
  permission: BarrierPermission;
}

/**
 * The page's buttons to the barrier's screens, grouped by what an estate manager does there, the frequent ones
 * first (issue 41: nine equal buttons were ~2,900 px of one column). Labels and routes are the spec's.
 */
export const ACTION_GROUPS: readonly { title: string; actions: readonly BarrierAction[] }[] = [
  {
    title: 'Жители',
    actions: [
      { label: 'Пользователи', to: paths.barrierUsers, permission: 'users.manage' },
      { label: 'Гостевые пропуска', to: paths.guestPassesAdmin, permission: 'phones.manage' },
      { label: 'Импорт жителей', to: paths.importAdmin, permission: 'users.manage' },
    ],
  },
  {
    title: 'Устройство',
    actions: [
      { label: DEVICE_CHECK_TEXTS.start, to: paths.deviceCheckAdmin, permission: 'settings.manage' },
      { label: 'Настройки устройства', to: paths.barrierSettings, permission: 'settings.manage' },
      { label: DEVICE_LOG_TEXTS.title, to: paths.deviceLogAdmin, permission: 'device.health' },
      { label: CONFORMANCE_TEXTS.title, to: paths.conformanceAdmin, permission: 'settings.manage' },
    ],
  },
  {
    title: 'История',
    actions: [
      { label: 'История изменений', to: paths.barrierHistoryAdmin, permission: 'history.view' },
      { label: RELAY_TEXTS.openingsLog, to: paths.openingsAdmin, permission: 'relay.open' },
    ],
  },
];

/**
 * /admin-barrier-page: one of the administrator's barriers (state carries barrier_id): its card, its device's
 * health and the gate, its screens in groups (ACTION_GROUPS), its forms (parameters, limits, administrators)
 * folded on a phone, and the rare actions apart (emergency opening, delete). From 1024 px the forms stand
 * beside the rest. Each part shows only when the caller's role on the barrier (`my_role`) holds its
 * permission: an operator sees people and history, a dispatcher the device's health (the server refuses the
 * rest anyway).
 */
export function AdminBarrierPageRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isDesk = useIsDesk();
  // Back after an ended session with his changes kept: the parameters are open to show them.
  const hasEditDraft = useHasDraft('barrier-edit');
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

  const overview = data ? (
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
          <Button color="red.9" variant="white" onClick={() => navigate(paths.barrierSettings, { state })}>
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
    </>
  ) : null;
  const actions = data
    ? ACTION_GROUPS.map((group) => {
        const shown = group.actions.filter((action) => may(action.permission));
        return shown.length === 0 ? null : (
          <PageSection key={group.title} title={group.title}>
            <SectionButtons>
              {shown.map((action) => (
                <Button key={action.to} variant="light" onClick={() => navigate(action.to, { state })}>
                  {action.label}
                </Button>
              ))}
            </SectionButtons>
          </PageSection>
        );
      })
    : null;
  // The barrier's own forms: folded on a phone (the page stays short), open on a desk.
  const forms =
    data && (may('barrier.edit') || may('staff.manage')) ? (
      <PageSection title="Шлагбаум">
        {may('barrier.edit') ? (
          <>
            <FoldedPart title="Параметры" initiallyOpen={isDesk || hasEditDraft}>
              <BarrierEditForm key={data.id} barrier={data} />
            </FoldedPart>
            <FoldedPart title="Лимиты" initiallyOpen={isDesk}>
              <LimitsForm barrierId={data.id} />
            </FoldedPart>
          </>
        ) : null}
        {may('staff.manage') ? (
          <FoldedPart title="Администраторы" initiallyOpen={isDesk}>
            <StaffSection barrierId={data.id} />
          </FoldedPart>
        ) : null}
      </PageSection>
    ) : null;
  // Rare and dangerous: apart, at the end, in red.
  const rare =
    data && (may('relay.hold') || may('barrier.delete')) ? (
      <PageSection title="Редкие действия">
        <SectionButtons>
          {may('relay.hold') ? (
            <Button color="red.9" variant="outline" onClick={() => navigate(paths.emergencyHold)}>
              {RELAY_TEXTS.emergency}
            </Button>
          ) : null}
          {may('barrier.delete') ? (
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
          ) : null}
        </SectionButtons>
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
      </PageSection>
    ) : null;

  return (
    <AppLayout
      title="Шлагбаум"
      back={{ to: paths.adminBarriers, label: 'Назад' }}
      navigation={adminNavigation}
      wide={isDesk}
    >
      <UnverifiedModelBanner barrierId={barrierId} />
      <QueryStatus isPending={barrierId !== null && barrier.isPending} error={loadError} />
      {isDesk ? (
        // A desk: what the manager looks at and goes to on the left, the barrier's forms beside it.
        <SimpleGrid cols={2} spacing="md">
          <Stack gap="md">
            {overview}
            {actions}
          </Stack>
          <Stack gap="md">
            {forms}
            {rare}
          </Stack>
        </SimpleGrid>
      ) : (
        <>
          {overview}
          {actions}
          {forms}
          {rare}
        </>
      )}
    </AppLayout>
  );
}

export default AdminBarrierPageRoute;
