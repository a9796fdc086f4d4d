import { Button, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_MIN_LENGTH } from '@propusk/contracts/auth';
import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { PASSWORD_MESSAGES, PASSWORD_VALIDATION } from '@propusk/contracts/texts/passwords';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { ErrorLine } from '../../../components/status-line';
import { resetPassword } from '../../../features/auth/api/auth-api';
import { useSignInState } from '../../../hooks/use-sign-in-state';
import { useSubmission } from '../../../hooks/use-submission';
import { errorMessage } from '../../../lib/errors';
import { writeStored } from '../../../lib/storage';
import { type NavigationState, paths } from '../../paths';
import { SAMPLE_PHONE } from './sample-phone';

/** /restorepassword: the new password; success goes back to /verifyadmin (spec.md section 4). */
export function RestorePasswordRoute() {
  const navigate = useNavigate();
  const state = useSignInState();
  const phone = state.phone ?? SAMPLE_PHONE;
  const [password, setPassword] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const { error, setError, isBusy, run } = useSubmission();
  const isValid = password.length >= PASSWORD_MIN_LENGTH;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsTouched(true);
    if (!isValid) return;
    if (!state.verification_token) {
      setError(AUTH_MESSAGES.passwordResetFailed);
      return;
    }
    const verificationToken = state.verification_token;
    await run(async () => {
      try {
        await resetPassword({ phone, new_password: password, verification_token: verificationToken });
        writeStored('verification_token', null);
        navigate(paths.verifyAdmin, {
          state: { phone, message: PASSWORD_MESSAGES.passwordChanged } satisfies NavigationState,
        });
      } catch (caught) {
        return errorMessage(caught, {
          fallback: AUTH_MESSAGES.passwordResetFailed,
          fields: ['new_password'],
        });
      }
    });
  }

  return (
    <AppLayout title="Новый пароль" back={{ to: paths.verifyAdmin, label: 'Назад', state: { phone } }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="Новый пароль"
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setIsTouched(true);
            }}
            error={isTouched && !isValid ? PASSWORD_VALIDATION.newPasswordTooShort : null}
            autoComplete="new-password"
            required
          />
          <ErrorLine message={error} />
          <Button type="submit" loading={isBusy} disabled={!isValid} fullWidth>
            Сохранить пароль
          </Button>
        </Stack>
      </form>
    </AppLayout>
  );
}

export default RestorePasswordRoute;
