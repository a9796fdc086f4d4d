import { Button, Stack, Text } from '@mantine/core';
import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { PASSWORD_MESSAGES } from '@propusk/contracts/texts/passwords';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { QueryStatus } from '../../../components/query-status';
import { SuccessLine } from '../../../components/status-line';
import { NewPasswordForm } from '../../../features/admin-profile/components/new-password-form';
import { CodeForm } from '../../../features/auth/components/code-form';
import { SendCodeStep } from '../../../features/auth/components/send-code-step';
import { changePassword, profileQueryOptions } from '../../../features/users/api/profile-api';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { readStored } from '../../../lib/storage';

type Step =
  | { kind: 'send' }
  | { kind: 'verify'; token: string }
  | { kind: 'password'; token: string }
  | { kind: 'done' };

const STEP_NUMBER: Record<Step['kind'], number> = { send: 1, verify: 1, password: 2, done: 3 };

/**
 * /change-password: the administrator's three-step password change (spec.md section 4): a code to his phone,
 * its check, then the old password and the new one twice. The server ends his other sessions and keeps this
 * one (issue 40 item 9), so the last step goes back to the profile.
 */
export function ChangePasswordRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery(profileQueryOptions);
  const phone = profile.data?.phone ?? readStored('phone');
  const [step, setStep] = useState<Step>({ kind: 'send' });

  return (
    <AppLayout title="Смена пароля" back={{ to: paths.admin, label: 'Назад' }}>
      {!phone ? <QueryStatus isPending={profile.isPending} error={null} /> : null}
      {phone ? (
        <Stack gap="sm">
          {profile.data?.password_change_required ? (
            <Text data-testid="password-change-required">{PASSWORD_MESSAGES.passwordChangeRequired}</Text>
          ) : null}
          <Text size="sm" c="gray.7" data-testid="change-password-step">
            Шаг {STEP_NUMBER[step.kind]} из 3
          </Text>
          {step.kind === 'send' ? (
            <SendCodeStep
              phone={phone}
              mode="change_password"
              explanation="Отправим код подтверждения на ваш номер."
              onSent={(token) => setStep({ kind: 'verify', token })}
            />
          ) : null}
          {step.kind === 'verify' ? (
            <CodeForm
              phone={phone}
              mode="change_password"
              initialToken={step.token}
              verifyErrorFallback={AUTH_MESSAGES.codeConfirmFailed}
              onVerified={async (token) => setStep({ kind: 'password', token })}
            />
          ) : null}
          {step.kind === 'password' ? (
            <NewPasswordForm
              onSubmit={async (values) => {
                try {
                  await changePassword({
                    old_password: values.oldPassword,
                    new_password: values.newPassword,
                    verification_token: step.token,
                  });
                  // The profile's password_change_required is over: read it again before going back.
                  await queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey });
                  setStep({ kind: 'done' });
                } catch (caught) {
                  return errorMessage(caught, { fallback: PASSWORD_MESSAGES.passwordChangeFailed });
                }
              }}
            />
          ) : null}
          {step.kind === 'done' ? (
            <>
              <SuccessLine message={PASSWORD_MESSAGES.passwordChanged} />
              <Text>На других устройствах вход завершён: там войдите с новым паролем.</Text>
              <Button onClick={() => navigate(paths.admin, { replace: true })}>Вернуться в профиль</Button>
            </>
          ) : null}
        </Stack>
      ) : null}
    </AppLayout>
  );
}

export default ChangePasswordRoute;
