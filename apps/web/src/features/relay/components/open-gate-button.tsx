import { Anchor, Button, Stack, Text } from '@mantine/core';
import { OFFLINE_ACTION_TEXTS, OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { useOnline } from '../../../hooks/use-online';
import { NetworkError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { phoneHref } from '../../../lib/phone';
import { serverNow } from '../../../lib/server-clock';
import { getOpenings, type Opening, openGate, openingsKey, type RelaySide } from '../api/relay-api';
import { openingFailureText } from './openings-list';

/** While an opening waits for the device's answer it is read again this often. */
const OPENING_REFRESH_MS = 1500;

/**
 * «Открыть»: sends the opening, then follows it to the device's answer (Открыто / Не открылось).
 * An opening must never happen late (issue 32 item 1): offline the button says so at once and is not pressable;
 * the mutation runs in networkMode 'always', so TanStack Query never pauses it to replay when the network
 * returns (a lost request fails and stays failed); the tap's time goes with it and the server refuses it late.
 * `devicePhone`: shown as «Позвонить на шлагбаум» when the app cannot open (the screen may show its own call
 * button instead, then it is left out).
 */
export function OpenGateButton({
  side,
  barrierId,
  devicePhone = null,
}: {
  side: RelaySide;
  barrierId: number;
  devicePhone?: string | null;
}) {
  const queryClient = useQueryClient();
  const isOnline = useOnline();
  const open = useMutation({
    networkMode: 'always',
    retry: false,
    mutationFn: (tappedAt: string) => openGate(side, barrierId, tappedAt),
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
  const lostNetwork = open.error instanceof NetworkError;
  const callHref = phoneHref(devicePhone);
  return (
    <Stack gap={4}>
      <Button
        size="lg"
        fullWidth
        color={status === 'confirmed' && isOnline ? 'teal.9' : undefined}
        loading={status === 'sent' && isOnline}
        disabled={!isOnline}
        onClick={() => {
          if (!navigator.onLine) return;
          open.mutate(serverNow().toISOString());
        }}
        data-testid="open-gate"
      >
        {!isOnline ? OFFLINE_TEXTS.noNetwork : status === 'confirmed' ? RELAY_TEXTS.opened : RELAY_TEXTS.open}
      </Button>
      {!isOnline || lostNetwork ? (
        <Text size="sm" c="red.9" role="status" data-testid="open-gate-offline">
          {isOnline ? OFFLINE_ACTION_TEXTS.openNetworkFailed : OFFLINE_ACTION_TEXTS.openOffline}
        </Text>
      ) : null}
      {(!isOnline || lostNetwork) && callHref ? (
        <Anchor href={callHref} fw={700} data-testid="open-gate-call">
          {OFFLINE_ACTION_TEXTS.callBarrier}
        </Anchor>
      ) : null}
      {isOnline && status === 'sent' ? (
        <Text size="sm" aria-live="polite">
          {RELAY_TEXTS.opening}
        </Text>
      ) : null}
      {isOnline && status === 'confirmed' ? (
        <Text size="sm" c="teal.9" aria-live="polite" data-testid="open-gate-state">
          {RELAY_TEXTS.opened}
        </Text>
      ) : null}
      {status === 'failed' && current ? (
        <ErrorLine message={`${RELAY_TEXTS.openFailed}: ${openingFailureText(current.failure)}.`} />
      ) : null}
      {open.error && !lostNetwork ? (
        <ErrorLine message={errorMessage(open.error, { fallback: RELAY_TEXTS.openFailedFallback })} />
      ) : null}
    </Stack>
  );
}
