import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { CodeForm } from '../../../features/auth/components/code-form';
import { SendCodeStep } from '../../../features/auth/components/send-code-step';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { type NavigationState, paths } from '../../paths';
import { SAMPLE_PHONE } from './sample-phone';

/** /restoresms: the SMS code that allows an administrator to set a new password (spec.md section 4). */
export function RestoreSmsRoute() {
  const navigate = useNavigate();
  const state = useNavigationState();
  const phone = state.phone ?? SAMPLE_PHONE;
  const [token, setToken] = useState<string | null>(null);

  return (
    <AppLayout
      title="Восстановление пароля"
      back={{ to: paths.verifyAdmin, label: 'Назад', state: { phone } }}
    >
      {token ? (
        <CodeForm
          phone={phone}
          mode="reset_password"
          initialToken={token}
          onVerified={async (verificationToken) => {
            navigate(paths.restorePassword, {
              state: { phone, verification_token: verificationToken } satisfies NavigationState,
            });
          }}
        />
      ) : (
        <SendCodeStep
          phone={phone}
          mode="reset_password"
          explanation="Для восстановления пароля отправим код по СМС."
          onSent={setToken}
        />
      )}
    </AppLayout>
  );
}

export default RestoreSmsRoute;
