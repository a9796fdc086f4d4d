import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { DEVICE_CHECK_TEXTS as TEXTS } from '@propusk/contracts/texts/device-check';
import { getSheet, isDeviceModel } from '@propusk/devices/models';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import {
  declareFactoryReset,
  deviceCheckQueryKey,
  deviceProfileQueryKey,
  getDeviceProfile,
} from '../api/device-check-api';

/**
 * «Устройство сброшено к заводским настройкам» (issue 30 item 4): after a confirmation that names what
 * follows, the server speaks the factory password, sets the stored one back and reads the numbers back; the
 * check panel above follows the reading. Only for a model whose sheet cites a factory password: a model with no
 * password (Telemetrica) gets no card; one whose factory password no source gives says what to do instead
 * (docs/decisions/0025, session audit30). The model comes from the device profile the page reads anyway.
 */
export function FactoryResetCard({ barrierId }: { barrierId: number }) {
  const profile = useQuery({
    queryKey: deviceProfileQueryKey(barrierId),
    queryFn: () => getDeviceProfile(barrierId),
  });
  const model = profile.data?.model;
  if (!model || !isDeviceModel(model)) return null;
  const sheet = getSheet(model);
  if (!sheet.hasPassword) return null;
  return (
    <Card withBorder radius="md" data-testid="factory-reset">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {TEXTS.factoryResetTitle}
        </Title>
        <Text size="sm">{TEXTS.factoryResetHint}</Text>
        {sheet.factoryPassword ? (
          <DeclareReset
            barrierId={barrierId}
            confirm={TEXTS.factoryResetConfirm(sheet.label, sheet.factoryPassword.value)}
          />
        ) : (
          <Text size="sm">{TEXTS.factoryResetUnknown}</Text>
        )}
      </Stack>
    </Card>
  );
}

function DeclareReset({ barrierId, confirm }: { barrierId: number; confirm: string }) {
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
    <>
      <Button variant="light" color="red.9" onClick={() => setIsConfirming(true)}>
        {TEXTS.factoryReset}
      </Button>
      {declare.isSuccess ? <SuccessLine message={TEXTS.factoryResetDone} /> : null}
      <ConfirmDialog
        opened={isConfirming}
        message={confirm}
        confirmLabel={TEXTS.factoryResetConfirmLabel}
        onConfirm={() => declare.mutate()}
        onCancel={() => setIsConfirming(false)}
        isBusy={declare.isPending}
        error={declare.error ? errorMessage(declare.error, { fallback: TEXTS.factoryResetFailed }) : null}
      />
    </>
  );
}
