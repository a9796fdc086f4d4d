import { Alert, Button, Text } from '@mantine/core';
import { ERROR_CODE_TEXTS } from '@propusk/contracts/error-texts';
import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { PROFILE_MESSAGES } from '@propusk/contracts/texts/profile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { SuccessLine } from '../../../components/status-line';
import {
  adminBarrierListQueryKey,
  getAdminBarriers,
} from '../../../features/admin-barriers/api/admin-barriers-api';
import { CodeForm } from '../../../features/auth/components/code-form';
import { SendCodeStep } from '../../../features/auth/components/send-code-step';
import {
  deleteAccount,
  getIsAdmin,
  isAdminQueryKey,
  profileQueryOptions,
} from '../../../features/users/api/profile-api';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { clearSession, readStored } from '../../../lib/storage';

/** /delete-account: request a code, verify it, delete; back to /login after 2 seconds (spec.md section 4). */
export function DeleteAccountRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isDeleted, setIsDeleted] = useState(false);
  // Once the account is deleted the profile is not asked for again: the cache is cleared, and a new read
  // would be refused (401) and take the user to /login before he has read the confirmation.
  const profile = useQuery({ ...profileQueryOptions, enabled: !isDeleted });
  const [phone] = useState(() => readStored('phone'));
  const currentPhone = profile.data?.phone ?? phone;
  const [token, setToken] = useState<string | null>(null);
  const ownedBarriers = useOwnedBarrierCount(currentPhone, !isDeleted);

  useEffect(() => {
    if (!isDeleted) return;
    const timer = window.setTimeout(() => navigate(paths.login, { replace: true }), 2000);
    return () => window.clearTimeout(timer);
  }, [isDeleted, navigate]);

  return (
    <AppLayout title="Удаление профиля" back={isDeleted ? undefined : { to: paths.user, label: 'Назад' }}>
      {isDeleted ? <SuccessLine message={PROFILE_MESSAGES.accountDeleted} /> : null}
      {!isDeleted && !currentPhone ? <QueryStatus isPending={profile.isPending} error={null} /> : null}
      {!isDeleted && currentPhone && !token && ownedBarriers === undefined ? (
        <QueryStatus isPending error={null} />
      ) : null}
      {!isDeleted && currentPhone && !token && ownedBarriers ? (
        <OwnedBarriersWarning count={ownedBarriers} onOpen={() => navigate(paths.adminBarriers)} />
      ) : null}
      {!isDeleted && currentPhone && !token && ownedBarriers === 0 ? (
        <>
          <Text c="red.9">Профиль, ваши номера и доступы будут удалены без возможности восстановления.</Text>
          <SendCodeStep
            phone={currentPhone}
            mode="delete_account"
            explanation="Для удаления профиля отправим код подтверждения."
            onSent={setToken}
          />
        </>
      ) : null}
      {!isDeleted && currentPhone && token ? (
        <CodeForm
          phone={currentPhone}
          mode="delete_account"
          initialToken={token}
          submitLabel="Удалить профиль"
          verifyErrorFallback={AUTH_MESSAGES.codeConfirmFailed}
          onVerified={async (verificationToken) => {
            try {
              await deleteAccount(verificationToken);
              clearSession();
              queryClient.clear();
              setIsDeleted(true);
            } catch (caught) {
              return errorMessage(caught, { fallback: PROFILE_MESSAGES.accountDeleteFailed });
            }
          }}
        />
      ) : null}
    </AppLayout>
  );
}

/**
 * How many live barriers the caller owns: 0 for a user who is not an administrator (or when it cannot be
 * told: the server refuses the deletion anyway), undefined while it is being found out.
 */
function useOwnedBarrierCount(phone: string | null, isEnabled: boolean): number | undefined {
  const isAdmin = useQuery({
    queryKey: isAdminQueryKey(phone ?? ''),
    queryFn: () => getIsAdmin(phone ?? ''),
    enabled: isEnabled && Boolean(phone),
  });
  const owned = useQuery({
    queryKey: adminBarrierListQueryKey({ page: 1 }),
    queryFn: () => getAdminBarriers({ page: 1 }),
    enabled: isEnabled && isAdmin.data === true,
  });
  if (isAdmin.isError || isAdmin.data === false || owned.isError) return 0;
  if (isAdmin.data === true && owned.data) return owned.data.total_count;
  return undefined;
}

/**
 * The server refuses to delete an owner of barriers (409 owns_barriers, after the code): he is told before a
 * code is sent, and no code is offered.
 */
function OwnedBarriersWarning({ count, onOpen }: { count: number; onOpen: () => void }) {
  return (
    <Alert color="red.9" variant="light" title="Профиль нельзя удалить" data-testid="owned-barriers-warning">
      <Text size="sm">
        Вы администратор шлагбаумов: {count}. Без администратора они остались бы без управления, поэтому
        сервер не удалит профиль, пока у вас есть шлагбаумы.
      </Text>
      <Text size="sm" mt="xs">
        {ERROR_CODE_TEXTS.owns_barriers as string}
      </Text>
      <Button variant="light" mt="sm" onClick={onOpen}>
        К моим шлагбаумам
      </Button>
    </Alert>
  );
}

export default DeleteAccountRoute;
