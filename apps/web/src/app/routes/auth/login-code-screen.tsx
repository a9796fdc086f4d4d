import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { login } from '../../../features/auth/api/auth-api';
import { CodeForm } from '../../../features/auth/components/code-form';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { storeSession, writeStored } from '../../../lib/storage';
import { type AppPath, paths } from '../../paths';
import { SAMPLE_PHONE } from './sample-phone';

interface LoginCodeScreenProps {
  title: string;
  /** Where the session starts: the user's or the administrator's profile. */
  home: AppPath;
  /** The line when the login call refuses without a usable text. */
  loginFailed: string;
  /** The line when the server cannot be reached. */
  network: string;
}

/**
 * The last step of a login, for a user (/verifyuser) and an administrator after his password (/smsadmin)
 * (spec.md section 4, "Login" steps 3 to 5): the code (phone, token and a failed request's error from
 * navigation state), then login; the tokens and the phone are stored and the session starts at `home`.
 */
export function LoginCodeScreen({ title, home, loginFailed, network }: LoginCodeScreenProps) {
  const navigate = useNavigate();
  const state = useNavigationState();
  const phone = state.phone ?? SAMPLE_PHONE;

  return (
    <AppLayout title={title} back={{ to: paths.login, label: 'Изменить номер телефона' }}>
      <CodeForm
        phone={phone}
        mode="login"
        initialToken={state.verification_token}
        initialError={state.error}
        initialSecondsLeft={state.retry_after}
        onVerified={async (verificationToken) => {
          try {
            const session = await login({ phone, verification_token: verificationToken });
            storeSession({ ...session, phone });
            writeStored('verification_token', null);
            navigate(home, { replace: true });
          } catch (caught) {
            return errorMessage(caught, { fallback: loginFailed, network });
          }
        }}
      />
    </AppLayout>
  );
}
