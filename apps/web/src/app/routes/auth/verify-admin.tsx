import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { AUTH_MESSAGES, AUTH_VALIDATION } from '@propusk/contracts/texts/auth';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { PASSWORD_VERIFIED_MESSAGE, verifyAdminPassword } from '../../../features/auth/api/auth-api';
import { useSignInState } from '../../../hooks/use-sign-in-state';
import { useSubmission } from '../../../hooks/use-submission';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import { type NavigationState, paths } from '../../paths';
import { SAMPLE_PHONE } from './sample-phone';
import { sendLoginCode } from './send-login-code';

/** /verifyadmin: the administrator's password first, then the SMS code on /smsadmin (spec.md section 4). */
export function VerifyAdminRoute() {
  const navigate = useNavigate();
  const state = useSignInState();
  const phone = state.phone ?? SAMPLE_PHONE;
  const [password, setPassword] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const submission = useSubmission();
  const passwordError = isTouched && password.length === 0 ? AUTH_VALIDATION.adminPasswordEmpty : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsTouched(true);
    if (password.length === 0) return;
    await submission.run(async () => {
      try {
        const verified = await verifyAdminPassword({ phone, password });
        if (verified.message !== PASSWORD_VERIFIED_MESSAGE) return AUTH_MESSAGES.passwordVerificationFailed;
      } catch (caught) {
        return errorMessage(caught, {
          fallback: AUTH_MESSAGES.passwordVerificationFailed,
          network: AUTH_MESSAGES.serverUnreachable,
        });
      }
      await sendLoginCode(navigate, paths.smsAdmin, phone);
    });
  }

  return (
    <AppLayout title="Вход администратора" back={{ to: paths.login, label: 'Изменить номер телефона' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text>
            Телефон: <b>{formatPhone(phone)}</b>
          </Text>
          <SuccessLine message={state.message} />
          <PasswordInput
            label="Пароль"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            onBlur={() => setIsTouched(true)}
            error={passwordError}
            autoComplete="current-password"
            required
          />
          <ErrorLine message={submission.error} />
          <Button type="submit" loading={submission.isBusy} fullWidth>
            Далее
          </Button>
          <Anchor
            component={Link}
            to={paths.restoreSms}
            state={{ phone } satisfies NavigationState}
            ta="center"
          >
            Забыли пароль?
          </Anchor>
        </Stack>
      </form>
    </AppLayout>
  );
}

export default VerifyAdminRoute;
