import { lazy, Suspense, useState } from 'react';
import { AppLayout } from '../../../components/layout/app-layout';
import { ScreenLoader } from '../../../components/screen-loader';
import { login } from '../../../features/auth/api/auth-api';
import { CodeForm } from '../../../features/auth/components/code-form';
import { useSignInState } from '../../../hooks/use-sign-in-state';
import { errorMessage } from '../../../lib/errors';
import { useAppNavigate } from '../../../lib/navigation';
import { storeSession, writeStored } from '../../../lib/storage';
import { type AppPath, paths } from '../../paths';
import { findSessionHome } from '../find-session-home';
import { SAMPLE_PHONE } from './sample-phone';

/** The policy step and its refusal come with their own chunk: only a first login needs them (issue 32 item 8). */
const FirstLoginConsent = lazy(() => import('./first-login-consent'));

interface LoginCodeScreenProps {
  title: string;
  /** The area the session starts in: the user's (his barrier, list, invitation or profile) or the administrator's. */
  home: AppPath;
  /** The line when the login call refuses without a usable text. */
  loginFailed: string;
  /** The line when the server cannot be reached. */
  network: string;
}

type Step = { kind: 'code' } | { kind: 'consent'; token: string } | { kind: 'declined' };

/**
 * The last step of a login, for a user (/verifyuser) and an administrator after his password (/smsadmin)
 * (spec.md section 4, "Login" steps 3 to 5): the code (phone, token and a failed request's error from
 * navigation state), then — when the verify answer says so — the operator's privacy policy (server decision
 * 0022: the account is made only with the consent; «Не принимаю» makes none), then login; the tokens and the
 * phone are stored and the session starts at `home`.
 */
export function LoginCodeScreen({ title, home, loginFailed, network }: LoginCodeScreenProps) {
  const navigate = useAppNavigate();
  const state = useSignInState();
  const phone = state.phone ?? SAMPLE_PHONE;
  const [step, setStep] = useState<Step>({ kind: 'code' });

  async function finish(verificationToken: string, consentVersion?: string) {
    try {
      const session = await login({
        phone,
        verification_token: verificationToken,
        ...(consentVersion === undefined ? {} : { consent_version: consentVersion }),
      });
      storeSession({ ...session, phone });
      writeStored('verification_token', null);
      // An administrator whose password must be replaced goes to that screen first (issue 29 part 9); a
      // resident starts with the gate one tap away, or his invitation (issue 32 item 4).
      const target = home === paths.admin ? ((await findSessionHome()) ?? home) : paths.start;
      navigate(target, { replace: true });
    } catch (caught) {
      return errorMessage(caught, { fallback: loginFailed, network });
    }
  }

  if (step.kind !== 'code') {
    return (
      <Suspense fallback={<ScreenLoader />}>
        <FirstLoginConsent
          title={title}
          declined={step.kind === 'declined'}
          onAccept={(version) => (step.kind === 'consent' ? finish(step.token, version) : Promise.resolve())}
          onDecline={() => {
            writeStored('verification_token', null);
            setStep({ kind: 'declined' });
          }}
          onBackToLogin={() => navigate(paths.login, { replace: true })}
        />
      </Suspense>
    );
  }

  return (
    <AppLayout title={title} back={{ to: paths.login, label: 'Изменить номер телефона' }}>
      <CodeForm
        phone={phone}
        mode="login"
        initialToken={state.verification_token}
        initialError={state.error}
        initialSecondsLeft={state.retry_after}
        onVerified={async (verificationToken, verified) => {
          if (verified.consent_required) {
            setStep({ kind: 'consent', token: verificationToken });
            return;
          }
          return finish(verificationToken);
        }}
      />
    </AppLayout>
  );
}
