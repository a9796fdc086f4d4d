import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { DEVICE_CHECK_TEXTS as TEXTS } from '@propusk/contracts/texts/device-check';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { declareFactoryReset, deviceCheckQueryKey } from '../api/device-check-api';

/**
 * «Устройство сброшено к заводским настройкам» (issue 30 item 4): after a confirmation that names what
 * follows, the server speaks the factory password, sets the stored one back and reads the numbers back; the
 * check panel above follows the reading.
 */
export function FactoryResetCard({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const declare = useMutation({
    mutationFn: () => declareFactoryReset(barrierId),
    onSuccess: () => {
      setIsConfirming(false);
      void queryClient.invalidateQueries({ queryKey: deviceCheckQueryKey(barrierId) });
    },
  });
  return (
    <Card withBorder radius="md" data-testid="factory-reset">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {TEXTS.factoryResetTitle}
        </Title>
        <Text size="sm">{TEXTS.factoryResetHint}</Text>
        <Button variant="light" color="red.9" onClick={() => setIsConfirming(true)}>
          {TEXTS.factoryReset}
        </Button>
        {declare.isSuccess ? <SuccessLine message={TEXTS.factoryResetDone} /> : null}
        <ConfirmDialog
          opened={isConfirming}
          message={TEXTS.factoryResetConfirm}
          confirmLabel={TEXTS.factoryResetConfirmLabel}
          onConfirm={() => declare.mutate()}
          onCancel={() => setIsConfirming(false)}
          isBusy={declare.isPending}
          error={declare.error ? errorMessage(declare.error, { fallback: TEXTS.factoryResetFailed }) : null}
        />
      </Stack>
    </Card>
  );
}
