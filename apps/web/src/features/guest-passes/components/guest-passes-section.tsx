import { Button, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { useHasDraft } from '../../../hooks/use-form-draft';
import { errorMessage } from '../../../lib/errors';
import {
  type CreatedGuestPass,
  createGuestPass,
  type GuestPass,
  getGuestPasses,
  guestPassesQueryKey,
  revokeGuestPass,
} from '../api/guest-passes-api';
import { GuestPassLinkCard } from './guest-pass-link-card';
import { GuestPassList } from './guest-pass-list';
import { GUEST_PASS_DRAFT, type GuestPassWindow, GuestPassWindowForm } from './guest-pass-window-form';

/** The error line of a failed creation. */
export const createGuestPassError = (error: unknown) =>
  error
    ? errorMessage(error, {
        fallback: 'Не удалось создать пропуск.',
        fields: ['start', 'end', 'user', 'detail'],
      })
    : null;

/** A waiting guest may use the link any moment: lists with a waiting pass refresh themselves. */
export const refetchWhileWaiting = (query: {
  state: { data?: { guest_passes: GuestPass[] } | undefined };
}) => (query.state.data?.guest_passes.some((pass) => pass.status === 'created') ? 5000 : false);

/**
 * /mybarrier's guest passes (issue 14 part 5): «Гостевой пропуск» → a window (3 hours, until the end of the
 * day, a day, or start and end) → the link once, to copy or share; then the list of passes with their state
 * and «Отозвать».
 */
export function GuestPassesSection({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  // Back after an ended session with a window kept: the form is open to show it.
  const hasDraft = useHasDraft(GUEST_PASS_DRAFT);
  const [isFormOpen, setIsFormOpen] = useState(hasDraft);
  const [created, setCreated] = useState<CreatedGuestPass | null>(null);
  const passes = useQuery({
    queryKey: guestPassesQueryKey(barrierId),
    queryFn: () => getGuestPasses(barrierId),
    refetchInterval: refetchWhileWaiting,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: guestPassesQueryKey(barrierId) });
  const create = useMutation({
    mutationFn: (chosen: GuestPassWindow) => createGuestPass(barrierId, chosen),
    onSuccess: (pass) => {
      setCreated(pass);
      setIsFormOpen(false);
    },
    onSettled: refresh,
  });

  return (
    <Stack gap="sm" data-testid="guest-passes">
      <Title order={2} size="h4">
        Гостевые пропуска
      </Title>
      <Text size="sm" c="gray.7">
        Ссылка для гостя: он сам введёт свой номер и подтвердит его кодом из СМС. Номер действует только в
        выбранное время, не дольше суток.
      </Text>

      {created ? <GuestPassLinkCard key={created.id} pass={created} onDone={() => setCreated(null)} /> : null}

      {isFormOpen ? (
        <GuestPassWindowForm
          onSubmit={(chosen) => create.mutate(chosen)}
          onCancel={() => setIsFormOpen(false)}
          isPending={create.isPending}
          error={createGuestPassError(create.error)}
        />
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
      <GuestPassList
        passes={passes.data?.guest_passes}
        revokePass={(passId) => revokeGuestPass(barrierId, passId)}
        onSettled={async () => {
          await refresh();
          await queryClient.invalidateQueries({ queryKey: ['phones'] });
        }}
      />
    </Stack>
  );
}
