import { Button, Stack, Text } from '@mantine/core';
import { CONSENT_TEXTS } from '@propusk/contracts/privacy-texts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../components/layout/app-layout';
import { ScreenLoader } from '../../components/screen-loader';
import { giveConsent } from '../../features/privacy/api/privacy-api';
import { profileQueryKey, profileQueryOptions } from '../../features/users/api/profile-api';
import { api } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { clearSession, readStored } from '../../lib/storage';

/**
 * The policy step is drawn only for an account that owes its consent (rare: a new policy version), so its code
 * (the policy's text, Mantine's List) is fetched then, not with every screen behind a login (issue 32 item 8).
 */
const ConsentStep = lazy(() =>
  import('../../features/privacy/components/consent-step').then((module) => ({
    default: module.ConsentStep,
  })),
);

/**
 * Every screen behind a login waits for the consent of an account that has not given it to the current policy
 * (server decision 0022: made by the spec's client, or the policy has a new version). «Принимаю» records it;
 * «Не принимаю» ends the session. While the profile loads, the screens load as usual.
 */
export function ConsentGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const profile = useQuery(profileQueryOptions);
  const navigate = useNavigate();
  const [isDeclined, setIsDeclined] = useState(false);

  /** «Не принимаю»: the session ends at once (server and browser), then the screen says so. */
  async function decline() {
    const refresh = readStored('refresh_token');
    if (refresh) await api.post('/api/auth/logout/', { refresh }, { auth: false }).catch(() => undefined);
    clearSession();
    setIsDeclined(true);
  }

  if (isDeclined) {
    return (
      <AppLayout title={CONSENT_TEXTS.declinedTitle}>
        <Stack gap="sm">
          <Text>{CONSENT_TEXTS.declinedLater}</Text>
          <Button
            onClick={() => {
              queryClient.clear();
              navigate(paths.login, { replace: true });
            }}
            fullWidth
          >
            {CONSENT_TEXTS.backToLogin}
          </Button>
        </Stack>
      </AppLayout>
    );
  }
  if (!profile.data?.consent_required) return <>{children}</>;
  return (
    <AppLayout title={CONSENT_TEXTS.title}>
      <Suspense fallback={<ScreenLoader />}>
        <ConsentStep
          intro={CONSENT_TEXTS.changedIntro}
          onAccept={async (version) => {
            await giveConsent(version);
            await queryClient.invalidateQueries({ queryKey: profileQueryKey });
          }}
          onDecline={() => void decline()}
        />
      </Suspense>
    </AppLayout>
  );
}

export default ConsentGate;
