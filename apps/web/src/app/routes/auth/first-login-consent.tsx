import '../../styles/full-app.css';
import { Button, Stack, Text } from '@mantine/core';
import { CONSENT_TEXTS } from '@propusk/contracts/privacy-texts';
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext } from 'react';
import { AppLayout } from '../../../components/layout/app-layout';
import { ConsentStep } from '../../../features/privacy/components/consent-step';
import { paths } from '../../../lib/paths';
import { sessionQueryClient } from '../../query-client';

interface FirstLoginConsentProps {
  /** The code screen's title, kept over the policy. */
  title: string;
  /** «Не принимаю» was chosen: no account is made, and the screen says so. */
  declined: boolean;
  onAccept: (policyVersion: string) => Promise<unknown>;
  onDecline: () => void;
  onBackToLogin: () => void;
}

/**
 * The privacy policy step of a first login and its refusal (login-code-screen.tsx; server decision 0022), a chunk
 * of their own: they read the policy through TanStack Query, which a returning person's code step never loads
 * (issue 32 item 8). The light entry of the sign-in screens has no query client: the session's one is given here.
 */
export default function FirstLoginConsent({
  title,
  declined,
  onAccept,
  onDecline,
  onBackToLogin,
}: FirstLoginConsentProps) {
  const client = useContext(QueryClientContext);
  if (declined) {
    return (
      <AppLayout title={CONSENT_TEXTS.declinedTitle}>
        <Stack gap="sm">
          <Text>{CONSENT_TEXTS.declined}</Text>
          <Button onClick={onBackToLogin} fullWidth>
            {CONSENT_TEXTS.backToLogin}
          </Button>
        </Stack>
      </AppLayout>
    );
  }
  const step = <ConsentStep intro={CONSENT_TEXTS.intro} onAccept={onAccept} onDecline={onDecline} />;
  return (
    <AppLayout title={title} back={{ to: paths.login, label: 'Изменить номер телефона' }}>
      {client ? step : <QueryClientProvider client={sessionQueryClient}>{step}</QueryClientProvider>}
    </AppLayout>
  );
}
