import { Button, Stack } from '@mantine/core';
import { MESSAGES } from '@propusk/contracts/messages';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { PhoneInput } from '../../../components/phone-input';
import { ErrorLine } from '../../../components/status-line';
import { checkAdmin, requestCode } from '../../../features/auth/api/auth-api';
import { codeRequestErrorMessage } from '../../../features/auth/api/auth-errors';
import { NetworkError } from '../../../lib/api-client';
import { writeStored } from '../../../lib/storage';
import { type NavigationState, paths } from '../../paths';

/** /login (spec.md sections 2 and 4, "Login" steps 1 and 2). */
export function LoginRoute() {
  const navigate = useNavigate();
  const [phone, setPhone] = useState('+7');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (phone === '+7' || phone.length < 12) return;
    setIsBusy(true);
    setError(null);
    try {
      let isAdmin = false;
      try {
        isAdmin = (await checkAdmin(phone)).is_admin;
      } catch (caught) {
        if (caught instanceof NetworkError) {
          setError(MESSAGES.networkPhoneStep);
          return;
        }
      }
      if (isAdmin) {
        navigate(paths.verifyAdmin, { state: { phone } satisfies NavigationState });
        return;
      }
      try {
        const response = await requestCode(phone, 'login');
        writeStored('verification_token', response.verification_token);
        navigate(paths.verifyUser, {
          state: { phone, verification_token: response.verification_token } satisfies NavigationState,
        });
      } catch (caught) {
        if (caught instanceof NetworkError) {
          setError(MESSAGES.codeServerUnreachable);
          return;
        }
        navigate(paths.verifyUser, {
          state: {
            phone,
            verification_token: null,
            error: codeRequestErrorMessage(caught),
          } satisfies NavigationState,
        });
      }
    } finally {
      setIsBusy(false);
    }
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
