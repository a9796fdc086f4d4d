import { Text } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { SuccessLine } from '../../../components/status-line';
import { CodeForm } from '../../../features/auth/components/code-form';
import { SendCodeStep } from '../../../features/auth/components/send-code-step';
import { deleteAccount, profileQueryOptions } from '../../../features/users/api/profile-api';
import { errorMessage } from '../../../lib/errors';
import { clearSession, readStored } from '../../../lib/storage';
import { paths } from '../../paths';

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

  useEffect(() => {
    if (!isDeleted) return;
    const timer = window.setTimeout(() => navigate(paths.login, { replace: true }), 2000);
    return () => window.clearTimeout(timer);
  }, [isDeleted, navigate]);

  return (
    <AppLayout title="Удаление профиля" back={isDeleted ? undefined : { to: paths.user, label: 'Назад' }}>
      {isDeleted ? <SuccessLine message={MESSAGES.accountDeleted} /> : null}
      {!isDeleted && !currentPhone ? <QueryStatus isPending={profile.isPending} error={null} /> : null}
      {!isDeleted && currentPhone && !token ? (
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
          verifyErrorFallback={MESSAGES.codeConfirmFailed}
          onVerified={async (verificationToken) => {
            try {
              await deleteAccount(verificationToken);
              clearSession();
              queryClient.clear();
              setIsDeleted(true);
            } catch (caught) {
              return errorMessage(caught, { fallback: MESSAGES.accountDeleteFailed });
            }
          }}
        />
      ) : null}
    </AppLayout>
  );
}

export default DeleteAccountRoute;
