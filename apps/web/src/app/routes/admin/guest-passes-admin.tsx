import { Button, Select, Stack, Text } from '@mantine/core';
import { NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { QueryStatus } from '../../../components/query-status';
import { displayText } from '../../../components/user-text';
import {
  type BarrierUser,
  barrierUsersQueryKey,
  getBarrierUsers,
} from '../../../features/admin-users/api/admin-users-api';
import {
  adminGuestPassesQueryKey,
  type CreatedGuestPass,
  createAdminGuestPass,
  getAdminGuestPasses,
  revokeAdminGuestPass,
} from '../../../features/guest-passes/api/guest-passes-api';
import { GuestPassLinkCard } from '../../../features/guest-passes/components/guest-pass-link-card';
import { GuestPassList } from '../../../features/guest-passes/components/guest-pass-list';
import {
  GUEST_PASS_DRAFT,
  GuestPassWindowForm,
} from '../../../features/guest-passes/components/guest-pass-window-form';
import {
  createGuestPassError,
  refetchWhileWaiting,
} from '../../../features/guest-passes/components/guest-passes-section';
import { useFormDraft, useHasDraft } from '../../../hooks/use-form-draft';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { formatPhone } from '../../../lib/phone';
import { adminNavigation } from './navigation';

/** The choice «no resident»: the pass counts against the administrator himself (the server's default). */
const SELF = 'self';
const SELF_LABEL = 'Никто (на меня)';

const userLabel = (user: BarrierUser) =>
  `${displayText(user.full_name, NAME_FALLBACK)}, ${formatPhone(user.phone)}`;

/**
 * /guest-passes-admin (issue 14 part 5): every guest pass of one of the administrator's barriers (state carries
 * barrier_id) with its state and the resident it counts for; a new pass, optionally for a resident of the
 * barrier, with the resident's window form; the link shown once; revocation after a confirmation.
 */
export function GuestPassesAdminRoute() {
  const barrierId = useNavigationState().barrier_id ?? null;
  return (
    <AppLayout
      title="Гостевые пропуска"
      back={{ to: paths.adminBarrierPage, label: 'Назад', state: { barrier_id: barrierId } }}
      navigation={adminNavigation}
    >
      {barrierId ? (
        <GuestPassesAdmin barrierId={barrierId} />
      ) : (
        <MissingBarrier listPath={paths.adminBarriers} />
      )}
    </AppLayout>
  );
}

function GuestPassesAdmin({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  // Back after an ended session with a window kept: the form is open to show it.
  const hasDraft = useHasDraft(GUEST_PASS_DRAFT);
  const [isFormOpen, setIsFormOpen] = useState(hasDraft);
  const [resident, setResident] = useState<string>(SELF);
  const [created, setCreated] = useState<CreatedGuestPass | null>(null);
  const passes = useQuery({
    queryKey: adminGuestPassesQueryKey(barrierId),
    queryFn: () => getAdminGuestPasses(barrierId),
    refetchInterval: refetchWhileWaiting,
  });
  const usersParams = { barrierId, page: 1, pageSize: 100 };
  const users = useQuery({
    queryKey: barrierUsersQueryKey(usersParams),
    queryFn: () => getBarrierUsers(usersParams),
  });
  // The chosen resident outlives an ended session too.
  useFormDraft(isFormOpen ? 'guest-pass-resident' : null, { resident }, (saved) => {
    if (typeof saved.resident === 'string') setResident(saved.resident);
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminGuestPassesQueryKey(barrierId) });
  const create = useMutation({
    mutationFn: (window: { start: string; end: string }) =>
      createAdminGuestPass(barrierId, resident === SELF ? window : { ...window, user: Number(resident) }),
    onSuccess: (pass) => {
      setCreated(pass);
      setIsFormOpen(false);
    },
    onSettled: refresh,
  });

  if (isForbidden(passes.error)) return <NoAccess />;
  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.7">
        Ссылка для гостя: он сам введёт свой номер и подтвердит его кодом из СМС. Номер действует только в
        выбранное время, не дольше суток, и считается номером выбранного жителя.
      </Text>
      {created ? <GuestPassLinkCard key={created.id} pass={created} onDone={() => setCreated(null)} /> : null}
      {isFormOpen ? (
        <GuestPassWindowForm
          onSubmit={(window) => create.mutate(window)}
          onCancel={() => setIsFormOpen(false)}
          isPending={create.isPending}
          error={createGuestPassError(create.error)}
        >
          <Select
            label="Для жителя"
            data={[
              { value: SELF, label: SELF_LABEL },
              ...(users.data?.users ?? []).map((user) => ({
                value: String(user.id),
                label: userLabel(user),
              })),
            ]}
            value={resident}
            onChange={(value) => setResident(value ?? SELF)}
            allowDeselect={false}
            searchable
            nothingFoundMessage="Никого не найдено"
          />
        </GuestPassWindowForm>
      ) : (
        <Button
          onClick={() => {
            create.reset();
            setIsFormOpen(true);
          }}
        >
          Создать пропуск
        </Button>
      )}
      <QueryStatus
        isPending={passes.isPending}
        error={
          passes.error ? errorMessage(passes.error, { fallback: 'Не удалось загрузить пропуска.' }) : null
        }
      />
      {passes.data && passes.data.guest_passes.length === 0 ? (
        <Text c="gray.7" data-testid="guest-passes-empty">
          Пропусков пока нет.
        </Text>
      ) : null}
      <GuestPassList
        passes={passes.data?.guest_passes}
        revokePass={(passId) => revokeAdminGuestPass(barrierId, passId)}
        onSettled={refresh}
      />
    </Stack>
  );
}

export default GuestPassesAdminRoute;
