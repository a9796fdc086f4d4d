import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { LimitField } from '@propusk/contracts/limits';
import { BARRIER_MESSAGES, LIMIT_LABELS, NO_LIMIT_LABEL } from '@propusk/contracts/texts/barriers';
import { COMMON_MESSAGES, NAME_FALLBACK, PHONE_FALLBACK } from '@propusk/contracts/texts/common';
import { DANGER_TEXTS } from '@propusk/contracts/texts/dangers';
import { PHONE_MESSAGES } from '@propusk/contracts/texts/phones';
import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useNavigate } from 'react-router';
import { BarrierDangers } from '../../../components/barrier-dangers';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { TextLines } from '../../../components/text-lines';
import { displayText, UserText } from '../../../components/user-text';
import {
  type BarrierSummary,
  barrierQueryKey,
  barrierRowQueryKey,
  getBarrier,
  getLimits,
  leaveBarrier,
  limitsQueryKey,
} from '../../../features/barriers/api/barriers-api';
import { BlockedNotice } from '../../../features/barriers/components/blocked-notice';
import { GuestPassesSection } from '../../../features/guest-passes/components/guest-passes-section';
import { deletePhone, getMyPhones, myPhonesQueryKey } from '../../../features/phones/api/phones-api';
import { PhoneCard } from '../../../features/phones/components/phone-card';
import { OpenGateButton } from '../../../features/relay/components/open-gate-button';
import { OpeningsList } from '../../../features/relay/components/openings-list';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { type NavigationState, paths } from '../../../lib/paths';
import { formatPhone, phoneHref } from '../../../lib/phone';
import { barrierListPath } from './barrier-list-path';
import { userNavigation } from './navigation';

/** While a phone's command is in flight its status is refreshed this often. */
const PENDING_REFRESH_MS = 1500;

/** /mybarrier: a barrier the user has access to (spec.md section 2). */
export function MyBarrierRoute() {
  const { barrier_id: barrierId } = useNavigationState();
  return (
    <AppLayout
      title="Мой шлагбаум"
      back={{ to: barrierListPath(), label: 'К шлагбаумам' }}
      navigation={userNavigation}
    >
      {barrierId ? <MyBarrier barrierId={barrierId} /> : <MissingBarrier listPath={paths.barriers} />}
    </AppLayout>
  );
}

function MyBarrier({ barrierId }: { barrierId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isConfirmingLeave, setIsConfirmingLeave] = useState(false);
  const [phoneToDelete, setPhoneToDelete] = useState<{ id: number; name: string } | null>(null);
  const barrier = useQuery({ queryKey: barrierQueryKey(barrierId), queryFn: () => getBarrier(barrierId) });
  // While the card's read is on its way, /start's row of his list draws it (issue 32 item 8): address, note,
  // numbers, «Позвонить» and «Открыть», as each row of his list has them. What only the card's read says (a
  // block, the dangers) comes with it.
  const row = queryClient.getQueryData<BarrierSummary>(barrierRowQueryKey(barrierId));
  const card = barrier.data ?? (barrier.isPending ? row : undefined);
  const limits = useQuery({ queryKey: limitsQueryKey(barrierId), queryFn: () => getLimits(barrierId) });
  const phones = useQuery({
    queryKey: myPhonesQueryKey(barrierId),
    queryFn: () => getMyPhones(barrierId),
    refetchInterval: (query) =>
      query.state.data?.phones.some((phone) => phone.status === 'pending') ? PENDING_REFRESH_MS : false,
  });
  const removePhone = useMutation({
    mutationFn: deletePhone,
    onSuccess: () => setPhoneToDelete(null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: myPhonesQueryKey(barrierId) }),
  });
  const leave = useMutation({
    mutationFn: () => leaveBarrier(barrierId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['barriers'] });
      // Replaced: Back must not bring the card he left, with «Открыть», again (issue 41).
      navigate(paths.barriers, {
        replace: true,
        state: { message: BARRIER_MESSAGES.barrierLeft } satisfies NavigationState,
      });
    },
  });

  const state: NavigationState = { barrier_id: barrierId };
  const primary = phones.data?.phones.find((phone) => phone.type === 'primary');
  const extras = phones.data?.phones.filter((phone) => phone.type !== 'primary') ?? [];
  // Blocked by the barrier's administrator: his phones and limits are closed to him (403), the reason is not.
  const blockReason = barrier.data?.block_reason || null;
  const loadError = barrier.error ?? (blockReason === null ? phones.error : null);
  // The sections under the barrier's card appear together once its limits and phones are in: each arriving on
  // its own pushed the ones below down the first screen (Lighthouse's layout shift, issue 32 item 8).
  // Deferred: the reads' answers re-render this screen at once (TanStack Query's store updates cannot wait), but
  // the sections themselves are then drawn in a render React can slice, not in one long task (issue 32 item 8).
  const isSettled = useDeferredValue(!limits.isPending && !phones.isPending);

  return (
    <>
      <QueryStatus
        isPending={barrier.isPending && !card}
        error={
          loadError
            ? errorMessage(loadError, {
                fallback: COMMON_MESSAGES.loadFailed,
                byStatus: { 404: COMMON_MESSAGES.barrierNotFound },
              })
            : null
        }
      />
      {card ? (
        <Card withBorder radius="md">
          <Stack gap={4}>
            <Text fw={700} size="lg" data-testid="barrier-address">
              <UserText>{card.address}</UserText>
            </Text>
            {card.additional_info ? (
              <Text size="sm">
                <UserText>{card.additional_info}</UserText>
              </Text>
            ) : null}
            {card.device_phone ? (
              <Text size="sm">Номер шлагбаума: {formatPhone(card.device_phone)}</Text>
            ) : null}
            <Text size="sm">
              Администратор: <UserText fallback={NAME_FALLBACK}>{card.owner.full_name}</UserText>,{' '}
              {formatPhone(card.owner.phone) || PHONE_FALLBACK}
            </Text>
            <CallBarrierButton devicePhone={card.device_phone} />
            {blockReason ? null : <OpenGateButton side="user" barrierId={barrierId} />}
          </Stack>
        </Card>
      ) : null}

      {barrier.data ? (
        <BarrierDangers dangers={barrier.data.dangers}>
          <Text size="sm" c="white" fw={700}>
            {DANGER_TEXTS.residentEnd}
          </Text>
        </BarrierDangers>
      ) : null}

      {blockReason !== null ? (
        <BlockedNotice reason={blockReason} />
      ) : !isSettled ? null : (
        <>
          <Card withBorder radius="md">
            <Title order={2} size="h4" mb="xs">
              Лимиты
            </Title>
            {limits.error ? <ErrorLine message={BARRIER_MESSAGES.limitsLoadFailed} /> : null}
            {limits.data ? (
              <Stack gap={2}>
                {Object.entries(LIMIT_LABELS).map(([field, label]) => {
                  const value = limits.data[field as LimitField];
                  return (
                    <Group key={field} justify="space-between" wrap="nowrap">
                      <Text size="sm">{label}</Text>
                      <Text size="sm" fw={600}>
                        {value ?? NO_LIMIT_LABEL}
                      </Text>
                    </Group>
                  );
                })}
                {limits.data.sms_budget ? (
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm">Ваша доля СМС на этой неделе</Text>
                    <Text size="sm" fw={600}>
                      {`осталось ${limits.data.sms_budget.share_left} из ${limits.data.sms_budget.share}`}
                    </Text>
                  </Group>
                ) : null}
              </Stack>
            ) : null}
          </Card>

          <Title order={2} size="h4">
            Основной номер
          </Title>
          {primary ? (
            <PhoneCard phone={primary} />
          ) : (
            <Text c="gray.7">
              <TextLines text={PHONE_MESSAGES.emptyPhones} />
            </Text>
          )}

          <Title order={2} size="h4">
            Дополнительные номера
          </Title>
          <ConfirmDialog
            opened={phoneToDelete !== null}
            message={`Удалить номер «${displayText(phoneToDelete?.name)}»? Он будет удалён с устройства.`}
            confirmLabel="Да, удалить"
            onConfirm={() => phoneToDelete && removePhone.mutate(phoneToDelete.id)}
            onCancel={() => setPhoneToDelete(null)}
            isBusy={removePhone.isPending}
            error={
              removePhone.error
                ? errorMessage(removePhone.error, { fallback: PHONE_MESSAGES.phoneDeleteFailed })
                : null
            }
          />
          {phones.data && extras.length === 0 ? (
            <Text c="gray.7">
              <TextLines text={PHONE_MESSAGES.emptyExtraPhones} />
            </Text>
          ) : null}
          {extras.map((phone) => (
            <PhoneCard
              key={phone.id}
              phone={phone}
              actions={
                <>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() =>
                      navigate(paths.editPhone, {
                        state: { ...state, phone_id: phone.id } satisfies NavigationState,
                      })
                    }
                    aria-label={`Изменить номер ${phone.name}`}
                  >
                    Изменить
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red.9"
                    onClick={() => {
                      removePhone.reset();
                      setPhoneToDelete({ id: phone.id, name: phone.name });
                    }}
                    aria-label={`Удалить номер ${phone.name}`}
                  >
                    Удалить
                  </Button>
                </>
              }
            />
          ))}

          <Button onClick={() => navigate(paths.addPhone, { state })}>Добавить номер</Button>

          <GuestPassesSection barrierId={barrierId} />
          <Title order={2} size="h4">
            {RELAY_TEXTS.myOpenings}
          </Title>
          <OpeningsList side="user" barrierId={barrierId} />

          <Stack gap="sm">
            <Button variant="light" onClick={() => navigate(paths.barrierHistory, { state })}>
              История изменений
            </Button>
            <Button
              color="red.9"
              variant="outline"
              onClick={() => {
                // Asked again, the question opens without the last attempt's failure.
                leave.reset();
                setIsConfirmingLeave(true);
              }}
            >
              Покинуть шлагбаум
            </Button>
            <ConfirmDialog
              opened={isConfirmingLeave}
              message="Покинуть шлагбаум? Все ваши номера будут удалены с устройства."
              confirmLabel="Да, покинуть"
              onConfirm={() => leave.mutate()}
              onCancel={() => setIsConfirmingLeave(false)}
              isBusy={leave.isPending}
              error={
                leave.error ? errorMessage(leave.error, { fallback: BARRIER_MESSAGES.leaveFailed }) : null
              }
            />
          </Stack>
        </>
      )}
    </>
  );
}

export default MyBarrierRoute;

/**
 * 'Позвонить на шлагбаум': the barrier opens to a call from a registered number, so the phone dials the device.
 * Only a user with access gets the device's number from the server; without it there is nothing to show.
 */
function CallBarrierButton({ devicePhone }: { devicePhone: string | null }) {
  const href = phoneHref(devicePhone);
  if (!href) return null;
  return (
    <Button component="a" href={href} size="md" mt="xs" fullWidth data-testid="call-barrier">
      Позвонить на шлагбаум
    </Button>
  );
}
