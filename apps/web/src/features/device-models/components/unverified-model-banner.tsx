import { Alert } from '@mantine/core';
import { DEFINED_MODEL_TEXTS } from '@propusk/contracts/texts/device-models';
import { useQuery } from '@tanstack/react-query';
import { barrierDefinedModelQueryKey, getBarrierDefinedModel } from '../api/device-models-api';

/**
 * On every screen of a barrier whose model the administrator defined himself: «не проверено на устройстве»
 * until a conformance run on this barrier confirmed every form since the model last changed (issue 42 item 4).
 */
export function UnverifiedModelBanner({ barrierId }: { barrierId: number | null }) {
  const status = useQuery({
    queryKey: barrierDefinedModelQueryKey(barrierId ?? 0),
    queryFn: () => getBarrierDefinedModel(barrierId ?? 0),
    enabled: barrierId !== null,
    // A run just finished on another screen: read it again whenever a screen of the barrier opens.
    refetchOnMount: 'always',
    // While the mark shows, a run on the conformance screen may end it: look again now and then.
    refetchInterval: (query) => (query.state.data?.defined && !query.state.data.verified ? 5000 : false),
  });
  if (!status.data?.defined || status.data.verified) return null;
  return (
    <Alert
      color="red.9"
      variant="outline"
      title={DEFINED_MODEL_TEXTS.unverified}
      data-testid="unverified-model-banner"
    >
      {DEFINED_MODEL_TEXTS.unverifiedText(status.data.name)}
    </Alert>
  );
}
