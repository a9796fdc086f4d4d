import { MESSAGES } from '@propusk/contracts/messages';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { login } from '../../../features/auth/api/auth-api';
import { CodeForm } from '../../../features/auth/components/code-form';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { errorMessage } from '../../../lib/errors';
import { storeSession, writeStored } from '../../../lib/storage';
import { paths } from '../../paths';
import { SAMPLE_PHONE } from './verify-user';

/** /smsadmin: the SMS code of an administrator's login, after the password (spec.md section 4). */
export function SmsAdminRoute() {
  const navigate = useNavigate();
  const state = useNavigationState();
  const phone = state.phone ?? SAMPLE_PHONE;
  return (
    <AppLayout title="Код из СМС" back={{ to: paths.login, label: 'Изменить номер телефона' }}>
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
            navigate(paths.admin, { replace: true });
          } catch (caught) {
            return errorMessage(caught, {
              fallback: MESSAGES.adminLoginFailed,
              network: MESSAGES.serverUnreachable,
            });
          }
        }}
      />
    </AppLayout>
  );
}

export default SmsAdminRoute;
