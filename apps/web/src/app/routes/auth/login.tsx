import { Button, Stack, Text } from '@mantine/core';
import { AUTH_MESSAGES, AUTH_VALIDATION } from '@propusk/contracts/texts/auth';
import { type FormEvent, useState } from 'react';
import { AppLayout } from '../../../components/layout/app-layout';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine } from '../../../components/status-line';
import { checkAdmin } from '../../../features/auth/api/auth-api';
import { useSubmission } from '../../../hooks/use-submission';
import { NetworkError } from '../../../lib/api-client';
import { useAppLocation, useAppNavigate } from '../../../lib/navigation';
import { type NavigationState, paths } from '../../../lib/paths';
import { isCompletePhone } from '../../../lib/phone';
import { sendLoginCode } from './send-login-code';

/** /login (spec.md sections 2 and 4, "Login" steps 1 and 2). */
export function LoginRoute() {
  const navigate = useAppNavigate();
  const [phone, setPhone] = useState('+7');
  const [isIncompleteShown, setIsIncompleteShown] = useState(false);
  const { error, setError, isBusy, run } = useSubmission();
  // «Сеанс завершён, войдите снова» when an ended session brought the person here (router.tsx).
  const { message } = (useAppLocation().state ?? {}) as NavigationState;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Spec: nothing is sent while the number is incomplete; the line says what is missing.
    if (!isCompletePhone(phone)) {
      setIsIncompleteShown(true);
      return;
    }
    await run(async () => {
      let isAdmin = false;
      try {
        isAdmin = (await checkAdmin(phone)).is_admin;
      } catch (caught) {
        if (caught instanceof NetworkError) return AUTH_MESSAGES.networkPhoneStep;
      }
      if (isAdmin) {
        navigate(paths.verifyAdmin, { state: { phone } satisfies NavigationState });
        return;
      }
      await sendLoginCode(navigate, paths.verifyUser, phone, () =>
        setError(AUTH_MESSAGES.codeServerUnreachable),
      );
    });
  }

  return (
    <AppLayout title="Вход">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <ErrorLine message={message} />
          <Text data-testid="login-intro">
            «Пропуск» открывает шлагбаумы звонком с вашего номера. Войдите по номеру телефона.
          </Text>
          <PhoneInput
            label="Введите номер телефона"
            description="На этот номер придёт СМС с кодом для входа."
            value={phone}
            onChange={(next) => {
              setPhone(next);
              if (isCompletePhone(next)) setIsIncompleteShown(false);
            }}
            error={isIncompleteShown && !isCompletePhone(phone) ? AUTH_VALIDATION.phoneIncomplete : undefined}
            required
            autoFocus
          />
          <ErrorLine message={error} />
          <Button type="submit" loading={isBusy} fullWidth size="md">
            Далее
          </Button>
        </Stack>
      </form>
    </AppLayout>
  );
}

export default LoginRoute;
