import { MESSAGES } from '@propusk/contracts/messages';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { login } from '../../../features/auth/api/auth-api';
import { CodeForm } from '../../../features/auth/components/code-form';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { storeSession, writeStored } from '../../../lib/storage';
import { paths } from '../../paths';

/** Shown when the screen is opened without a phone (spec.md section 2: a sample default is pre-filled). */
export const SAMPLE_PHONE = '+79990000000';

/** /verifyuser (spec.md section 4, "Login" steps 3 and 4). */
export function VerifyUserRoute() {
  const navigate = useNavigate();
  const state = useNavigationState();
  const phone = state.phone ?? SAMPLE_PHONE;

  return (
    <AppLayout title="Подтверждение входа" back={{ to: paths.login, label: 'Изменить номер телефона' }}>
      <CodeForm
        phone={phone}
        mode="login"
        initialToken={state.verification_token}
        initialError={state.error}
        onVerified={async (verificationToken) => {
          try {
            const session = await login({ phone, verification_token: verificationToken });
            storeSession({ ...session, phone });
            writeStored('verification_token', null);
            navigate(paths.user, { replace: true });
          } catch (caught) {
            return errorMessage(caught, {
              fallback: MESSAGES.loginFailed,
              network: MESSAGES.verificationNetwork,
            });
          }
        }}
      />
    </AppLayout>
  );
}

export default VerifyUserRoute;
