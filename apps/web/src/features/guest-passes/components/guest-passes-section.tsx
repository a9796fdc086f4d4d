import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { formatDateTime, fromDateTimeLocal, quickWindow } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import {
  type CreatedGuestPass,
  createGuestPass,
  type GuestPass,
  getGuestPasses,
  guestPassesQueryKey,
  guestPassLink,
  revokeGuestPass,
} from '../api/guest-passes-api';

const QUICK = [
  { kind: 'three_hours', label: '3 часа' },
  { kind: 'today', label: 'До конца дня' },
  { kind: 'day', label: 'Сутки' },
] as const;

/** What a pass's card says of its state. */
export function guestPassStatusText(pass: GuestPass): string {
  if (pass.status === 'used') return `Использован: ${formatPhone(pass.used_phone)}`;
  if (pass.status === 'revoked') return 'Отозван';
  if (pass.status === 'expired') return 'Истёк';
  return 'Ожидает гостя';
}

/**
 * /mybarrier's guest passes (issue 14 part 5): «Гостевой пропуск» → a window (3 hours, until the end of the
 * day, a day, or start and end) → the link once, to copy or share; then the list of passes with their state
 * and «Отозвать».
 */
export function GuestPassesSection({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [created, setCreated] = useState<CreatedGuestPass | null>(null);
  const [copied, setCopied] = useState(false);
  const [toRevoke, setToRevoke] = useState<GuestPass | null>(null);
  const passes = useQuery({
    queryKey: guestPassesQueryKey(barrierId),
    queryFn: () => getGuestPasses(barrierId),
    // A waiting guest may use the link any moment: the resident sees it without reloading.
    refetchInterval: (query) =>
      query.state.data?.guest_passes.some((pass) => pass.status === 'created') ? 5000 : false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: guestPassesQueryKey(barrierId) });
  const create = useMutation({
    mutationFn: (chosen: { start: string; end: string }) => createGuestPass(barrierId, chosen),
    onSuccess: (pass) => {
      setCreated(pass);
      setCopied(false);
      setIsFormOpen(false);
    },
    onSettled: refresh,
  });
  const revoke = useMutation({
    mutationFn: (passId: number) => revokeGuestPass(barrierId, passId),
    onSuccess: () => setToRevoke(null),
    onSettled: async () => {
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['phones'] });
    },
  });

  function submitWindow(chosen: { start_time: string; end_time: string } | null) {
    if (!chosen) return;
    create.mutate({ start: fromDateTimeLocal(chosen.start_time), end: fromDateTimeLocal(chosen.end_time) });
  }

  const link = created ? guestPassLink(created) : '';
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  return (
    <Stack gap="sm" data-testid="guest-passes">
      <Title order={2} size="h4">
        Гостевые пропуска
      </Title>
      <Text size="sm" c="gray.7">
        Ссылка для гостя: он сам введёт свой номер и подтвердит его кодом из СМС. Номер действует только в
        выбранное время, не дольше суток.
      </Text>

      {created ? (
        <Card withBorder radius="md" data-testid="guest-pass-link">
          <Stack gap="xs">
            <Text fw={600}>Ссылка готова. Она показывается один раз.</Text>
            <Text size="sm">
              {formatDateTime(created.start)} — {formatDateTime(created.end)}
            </Text>
            <TextInput
              label="Ссылка для гостя"
              value={link}
              // The address as it is sent: not text to translate (the Russian-only check skips it too).
              translate="no"
              readOnly
              onFocus={(e) => e.currentTarget.select()}
            />
            <Group grow>
              <Button
                variant="light"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(link);
                    setCopied(true);
                  } catch {
                    setCopied(false);
                  }
                }}
              >
                Скопировать
              </Button>
              {canShare ? (
                <Button
                  variant="light"
                  onClick={() => {
                    void navigator.share({ title: 'Гостевой пропуск', url: link }).catch(() => {});
                  }}
                >
                  Поделиться
                </Button>
              ) : null}
            </Group>
            <SuccessLine message={copied ? 'Ссылка скопирована.' : null} />
            <Button variant="subtle" onClick={() => setCreated(null)}>
              Готово
            </Button>
          </Stack>
        </Card>
      ) : null}

      {isFormOpen ? (
        <Card withBorder radius="md" data-testid="guest-pass-form">
          <Stack gap="xs">
            <Text fw={600}>На какое время?</Text>
            <Group grow>
              {QUICK.map(({ kind, label }) => (
                <Button
                  key={kind}
                  variant="light"
                  loading={create.isPending}
                  onClick={() => submitWindow(quickWindow(kind, new Date()))}
                >
                  {label}
                </Button>
              ))}
            </Group>
            <TextInput
              type="datetime-local"
              label="Начало"
              value={start}
              onChange={(event) => setStart(event.currentTarget.value)}
            />
            <TextInput
              type="datetime-local"
              label="Конец"
              value={end}
              onChange={(event) => setEnd(event.currentTarget.value)}
            />
            <ErrorLine
              message={
                create.error
                  ? errorMessage(create.error, {
                      fallback: 'Не удалось создать пропуск.',
                      fields: ['start', 'end', 'detail'],
                    })
                  : null
              }
            />
            <Button
              disabled={!start || !end}
              loading={create.isPending}
              onClick={() => submitWindow({ start_time: start, end_time: end })}
            >
              Создать ссылку
            </Button>
            <Button variant="subtle" onClick={() => setIsFormOpen(false)}>
              Отмена
            </Button>
          </Stack>
        </Card>
      ) : (
        <Button
          variant="light"
          onClick={() => {
            create.reset();
            setIsFormOpen(true);
          }}
        >
          Гостевой пропуск
        </Button>
      )}

      <ErrorLine message={passes.error ? 'Не удалось загрузить пропуска.' : null} />
      {passes.data?.guest_passes.map((pass) => (
        <Card key={pass.id} withBorder radius="md" data-testid="guest-pass-card">
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {formatDateTime(pass.start)} — {formatDateTime(pass.end)}
            </Text>
            <Text size="sm" data-testid="guest-pass-status">
              {guestPassStatusText(pass)}
            </Text>
            {pass.status === 'created' || pass.status === 'used' ? (
              <Button
                size="xs"
                variant="light"
                color="red.9"
                onClick={() => {
                  revoke.reset();
                  setToRevoke(pass);
                }}
              >
                Отозвать
              </Button>
            ) : null}
          </Stack>
        </Card>
      ))}
      <ConfirmDialog
        opened={toRevoke !== null}
        message={
          toRevoke?.status === 'used'
            ? `Отозвать пропуск? Номер ${formatPhone(toRevoke.used_phone)} будет удалён с устройства.`
            : 'Отозвать пропуск? Ссылка перестанет работать.'
        }
        confirmLabel="Да, отозвать"
        onConfirm={() => toRevoke && revoke.mutate(toRevoke.id)}
        onCancel={() => setToRevoke(null)}
        isBusy={revoke.isPending}
        error={revoke.error ? errorMessage(revoke.error, { fallback: 'Не удалось отозвать пропуск.' }) : null}
      />
    </Stack>
  );
}
