import { Button, Stack } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine } from '../../../components/status-line';
import { checkAdmin } from '../../../features/auth/api/auth-api';
import { useSubmission } from '../../../hooks/use-submission';
import { NetworkError } from '../../../lib/api-client';
import { type NavigationState, paths } from '../../paths';
import { sendLoginCode } from './send-login-code';

/** /login (spec.md sections 2 and 4, "Login" steps 1 and 2). */
export function LoginRoute() {
  const navigate = useNavigate();
  const [phone, setPhone] = useState('+7');
  const { error, setError, isBusy, run } = useSubmission();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (phone === '+7' || phone.length < 12) return;
    await run(async () => {
      let isAdmin = false;
      try {
        isAdmin = (await checkAdmin(phone)).is_admin;
      } catch (caught) {
        if (caught instanceof NetworkError) return MESSAGES.networkPhoneStep;
      }
      if (isAdmin) {
        navigate(paths.verifyAdmin, { state: { phone } satisfies NavigationState });
        return;
      }
      await sendLoginCode(navigate, paths.verifyUser, phone, () => setError(MESSAGES.codeServerUnreachable));
    });
  }

  return (
    <AppLayout title="Вход">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PhoneInput label="Введите номер телефона" value={phone} onChange={setPhone} required autoFocus />
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
