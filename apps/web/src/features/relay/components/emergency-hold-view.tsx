import { Alert, Badge, Button, Card, Checkbox, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import type { HoldBarrier } from '@propusk/contracts/relay';
import { OFFLINE_ACTION_TEXTS, OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { HOLD_STATE_LABELS, RELAY_TEXTS } from '@propusk/contracts/texts/relay';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { UserText } from '../../../components/user-text';
import { useOnline } from '../../../hooks/use-online';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import {
  type EmergencyHold,
  endHold,
  getHold,
  getHoldableBarriers,
  holdQueryKey,
  holdsKey,
  listHolds,
  startHold,
} from '../api/relay-api';

/** The hold's barriers are read again this often while any is not settled. */
const HOLD_REFRESH_MS = 2000;

/** «Экстренное открытие»: the running hold (live), or the form to start one. */
export function EmergencyHoldView() {
  const holds = useQuery({ queryKey: [...holdsKey, 'list'], queryFn: listHolds });
  const running = holds.data?.holds.find((hold) => hold.ended_at === null) ?? null;
  const [shownId, setShownId] = useState<number | null>(null);
  const id = running?.id ?? shownId;
  return (
    <Stack gap="md">
      <Alert color="red.9" variant="outline" title={RELAY_TEXTS.emergencyRule} data-testid="emergency-rule">
        {RELAY_TEXTS.emergencyLead}
      </Alert>
      <QueryStatus
        isPending={holds.isPending}
        error={holds.error ? errorMessage(holds.error, { fallback: RELAY_TEXTS.startFailed }) : null}
      />
      {holds.data && id === null ? <StartHoldForm onStarted={setShownId} /> : null}
      {id !== null ? (
        // Kept once ended: a hold opened from the list (not started here) must still show its end.
        <HoldState holdId={id} onEnded={setShownId} onClosed={() => setShownId(null)} />
      ) : null}
    </Stack>
  );
}

function StartHoldForm({ onStarted }: { onStarted: (id: number) => void }) {
  const queryClient = useQueryClient();
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const barriers = useQuery({
    queryKey: ['relay', 'hold-barriers'],
    queryFn: getHoldableBarriers,
  });
  const isOnline = useOnline();
  const start = useMutation({
    networkMode: 'always',
    mutationFn: () => startHold({ barrier_ids: all ? 'all' : chosen, reason: reason.trim() }),
    onSuccess: async (hold) => {
      setConfirming(false);
      queryClient.setQueryData(holdQueryKey(hold.id), hold);
      await queryClient.invalidateQueries({ queryKey: holdsKey });
      // The barriers' pages and list show the hold (their key: ['admin', 'barriers']).
      void queryClient.invalidateQueries({ queryKey: ['admin', 'barriers'] });
      onStarted(hold.id);
    },
  });
  const count = all ? 'все ваши шлагбаумы' : `выбранные шлагбаумы (${chosen.length})`;
  const ready = reason.trim().length >= 3 && (all || chosen.length > 0);
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Checkbox
          size="md"
          label={RELAY_TEXTS.allBarriers}
          checked={all}
          onChange={(event) => setAll(event.currentTarget.checked)}
        />
        {!all ? (
          <Stack gap="xs" aria-label={RELAY_TEXTS.chooseBarriers} role="group">
            {barriers.data?.map((barrier) => (
              <Checkbox
                key={barrier.id}
                size="md"
                label={<UserText>{barrier.address}</UserText>}
                checked={chosen.includes(barrier.id)}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  setChosen((current) =>
                    checked ? [...current, barrier.id] : current.filter((value) => value !== barrier.id),
                  );
                }}
              />
            ))}
          </Stack>
        ) : null}
        <Group
          gap="xs"
          role="group"
          aria-label={RELAY_TEXTS.reasonPresetsLabel}
          data-testid="hold-reason-presets"
        >
          {RELAY_TEXTS.reasonPresets.map((preset) => (
            <Button
              key={preset}
              size="sm"
              variant={reason.startsWith(preset) ? 'filled' : 'light'}
              aria-pressed={reason.startsWith(preset)}
              // A preset replaces the preset chosen before; what he typed stays after it («Пожарная тревога, корпус 2»).
              onClick={() =>
                setReason((current) => {
                  const known = RELAY_TEXTS.reasonPresets.find((text) => current.startsWith(text));
                  const rest = known ? current.slice(known.length) : current.trim() ? `, ${current}` : '';
                  return `${preset}${rest}`;
                })
              }
            >
              {preset}
            </Button>
          ))}
        </Group>
        <Textarea
          label={RELAY_TEXTS.reason}
          placeholder={RELAY_TEXTS.reasonPlaceholder}
          required
          autosize
          minRows={2}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
        />
        <Button color="red.9" size="lg" disabled={!ready || !isOnline} onClick={() => setConfirming(true)}>
          {isOnline ? RELAY_TEXTS.startHold : OFFLINE_TEXTS.noNetwork}
        </Button>
        {isOnline ? null : (
          <Text size="sm" c="red.9" role="status">
            {OFFLINE_ACTION_TEXTS.sendOffline}
          </Text>
        )}
        <ConfirmDialog
          opened={confirming}
          message={RELAY_TEXTS.confirmHold(count)}
          confirmLabel={RELAY_TEXTS.confirmYes}
          onConfirm={() => navigator.onLine && start.mutate()}
          onCancel={() => setConfirming(false)}
          isBusy={start.isPending}
          error={start.error ? errorMessage(start.error, { fallback: RELAY_TEXTS.startFailed }) : null}
        />
      </Stack>
    </Card>
  );
}

const unsettled = (hold: EmergencyHold | undefined) =>
  !hold || hold.barriers.some((barrier) => barrier.state === 'sent' || barrier.state === 'failed');

function stateLabel(barrier: HoldBarrier): string {
  if (barrier.state === 'refused') return HOLD_STATE_LABELS.refused ?? '';
  return HOLD_STATE_LABELS[`${barrier.phase}:${barrier.state}`] ?? '';
}

function HoldState({
  holdId,
  onEnded,
  onClosed,
}: {
  holdId: number;
  onEnded: (id: number) => void;
  onClosed: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const hold = useQuery({
    queryKey: holdQueryKey(holdId),
    queryFn: () => getHold(holdId),
    refetchInterval: (query) => (unsettled(query.state.data) ? HOLD_REFRESH_MS : false),
  });
  const end = useMutation({
    networkMode: 'always',
    mutationFn: () => endHold(holdId),
    onSuccess: async (ended) => {
      setConfirming(false);
      onEnded(holdId);
      queryClient.setQueryData(holdQueryKey(holdId), ended);
      await queryClient.invalidateQueries({ queryKey: [...holdsKey, 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'barriers'] });
    },
  });
  const data = hold.data;
  return (
    <Stack gap="sm">
      <QueryStatus
        isPending={hold.isPending}
        error={hold.error ? errorMessage(hold.error, { fallback: RELAY_TEXTS.startFailed }) : null}
      />
      {data ? (
        <>
          <Title order={2} size="h4" c={data.ended_at ? undefined : 'red.9'} data-testid="hold-title">
            {data.ended_at ? RELAY_TEXTS.holdEnded : RELAY_TEXTS.holdRunning}
          </Title>
          <Text size="sm">
            {RELAY_TEXTS.reason}: <UserText>{data.reason}</UserText>
          </Text>
          <Text size="sm">
            {RELAY_TEXTS.startedBy}: <UserText fallback="Без имени">{data.started_by_name}</UserText>,{' '}
            {formatDateTime(data.started_at)}
          </Text>
          {data.ended_at ? (
            <Text size="sm">
              {RELAY_TEXTS.endedBy}: <UserText fallback="Без имени">{data.ended_by_name}</UserText>,{' '}
              {formatDateTime(data.ended_at)}
            </Text>
          ) : null}
          {data.barriers.map((barrier) => {
            const alarm = barrier.state === 'failed' || barrier.state === 'refused' || barrier.retrying;
            return (
              <Card
                key={barrier.barrier}
                withBorder
                radius="md"
                bg={alarm ? 'red.0' : undefined}
                data-testid="hold-barrier"
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Text fw={600}>
                    <UserText>{barrier.address}</UserText>
                  </Text>
                  <Badge
                    color={alarm ? 'red.9' : barrier.state === 'confirmed' ? 'teal.9' : 'blue.9'}
                    variant="filled"
                    data-testid="hold-barrier-state"
                  >
                    {stateLabel(barrier)}
                  </Badge>
                </Group>
                {alarm ? (
                  <Text c="red.9" fw={700} size="sm" role="alert">
                    {RELAY_TEXTS.failedShout}
                  </Text>
                ) : null}
              </Card>
            );
          })}
          {data.ended_at ? (
            <Button variant="light" onClick={onClosed}>
              Новое экстренное открытие
            </Button>
          ) : (
            <Button color="red.9" size="lg" onClick={() => setConfirming(true)} data-testid="end-hold">
              {RELAY_TEXTS.endHold}
            </Button>
          )}
          <ConfirmDialog
            opened={confirming}
            message={RELAY_TEXTS.confirmEnd}
            confirmLabel={RELAY_TEXTS.confirmEndYes}
            onConfirm={() => end.mutate()}
            onCancel={() => setConfirming(false)}
            isBusy={end.isPending}
            error={end.error ? errorMessage(end.error, { fallback: RELAY_TEXTS.endFailed }) : null}
          />
          {end.error && !confirming ? <ErrorLine message={RELAY_TEXTS.endFailed} /> : null}
        </>
      ) : null}
    </Stack>
  );
}
