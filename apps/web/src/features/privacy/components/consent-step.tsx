import { Button, Card, Stack, Text } from '@mantine/core';
import { CONSENT_TEXTS } from '@propusk/contracts/privacy-texts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { privacyPolicyQueryOptions } from '../api/privacy-api';
import { PolicyText } from './policy-text';

interface ConsentStepProps {
  intro: string;
  /** Records the consent to the version shown; resolves to an error line to show, or anything else. */
  onAccept: (policyVersion: string) => Promise<unknown>;
  onDecline: () => void;
}

/** The operator's policy with «Принимаю» and «Не принимаю» (the first login and the later consent screen). */
export function ConsentStep({ intro, onAccept, onDecline }: ConsentStepProps) {
  const policy = useQuery(privacyPolicyQueryOptions);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function accept() {
    if (!policy.data) return;
    setError(null);
    setIsBusy(true);
    try {
      const result = await onAccept(policy.data.version);
      if (typeof result === 'string') setError(result);
    } catch (caught) {
      setError(errorMessage(caught, { fallback: CONSENT_TEXTS.saveFailed }));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Stack gap="sm" data-testid="consent-step">
      <Text fw={600}>{CONSENT_TEXTS.title}</Text>
      <Text size="sm">{intro}</Text>
      <QueryStatus
        isPending={policy.isPending}
        error={policy.error ? errorMessage(policy.error, { fallback: CONSENT_TEXTS.loadFailed }) : null}
      />
      {policy.data ? (
        <Card withBorder radius="md" p="sm">
          <PolicyText text={policy.data.text} />
        </Card>
      ) : null}
      <ErrorLine message={error} />
      <Button onClick={() => void accept()} loading={isBusy} disabled={!policy.data} fullWidth>
        {CONSENT_TEXTS.accept}
      </Button>
      <Button variant="default" onClick={onDecline} disabled={isBusy} fullWidth>
        {CONSENT_TEXTS.decline}
      </Button>
    </Stack>
  );
}
