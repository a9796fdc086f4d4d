import { Button, Stack, Text } from '@mantine/core';
import { RELAY_TEXTS } from '@propusk/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { getOpenings, type Opening, openGate, openingsKey, type RelaySide } from '../api/relay-api';
import { openingFailureText } from './openings-list';

/** While an opening waits for the device's answer it is read again this often. */
const OPENING_REFRESH_MS = 1500;

/** «Открыть»: sends the opening, then follows it to the device's answer (Открыто / Не открылось). */
export function OpenGateButton({ side, barrierId }: { side: RelaySide; barrierId: number }) {
  const queryClient = useQueryClient();
  const open = useMutation({
    mutationFn: () => openGate(side, barrierId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: openingsKey }),
  });
  const sent = open.data ?? null;
  const followed = useQuery({
    queryKey: [...openingsKey, 'follow', side, barrierId, sent?.id ?? 0],
    queryFn: async (): Promise<Opening | null> => {
      const list = await getOpenings(side, barrierId, {}, 1);
      return list.openings.find((opening) => opening.id === sent?.id) ?? null;
    },
    enabled: sent !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'sent' || !query.state.data ? OPENING_REFRESH_MS : false,
  });
  const current = followed.data ?? sent;
  const status = open.isPending ? 'sent' : current?.status;
  const settled = current !== null && current.status !== 'sent';
  useEffect(() => {
    // The opening was answered: the lists show it with its outcome.
    if (settled) void queryClient.invalidateQueries({ queryKey: openingsKey });
  }, [settled, queryClient]);
  return (
    <Stack gap={4}>
      <Button
        size="lg"
        fullWidth
        color={status === 'confirmed' ? 'teal.9' : undefined}
        loading={status === 'sent'}
        onClick={() => open.mutate()}
        data-testid="open-gate"
      >
        {status === 'confirmed' ? RELAY_TEXTS.opened : RELAY_TEXTS.open}
      </Button>
      {status === 'sent' ? (
        <Text size="sm" aria-live="polite">
          {RELAY_TEXTS.opening}
        </Text>
      ) : null}
      {status === 'confirmed' ? (
        <Text size="sm" c="teal.9" aria-live="polite" data-testid="open-gate-state">
          {RELAY_TEXTS.opened}
        </Text>
      ) : null}
      {status === 'failed' && current ? (
        <ErrorLine message={`${RELAY_TEXTS.openFailed}: ${openingFailureText(current.failure)}.`} />
      ) : null}
      {open.error ? (
        <ErrorLine message={errorMessage(open.error, { fallback: RELAY_TEXTS.openFailedFallback })} />
      ) : null}
    </Stack>
  );
}
