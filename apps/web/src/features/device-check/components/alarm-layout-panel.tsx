import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { errorCodeText } from '@propusk/contracts/error-texts';
import { ALARM_LAYOUT_TEXTS as TEXTS } from '@propusk/contracts/texts/device-check';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import {
  type AlarmLayoutPlan,
  alarmLayoutQueryKey,
  applyAlarmLayout,
  getAlarmLayoutPlan,
} from '../api/device-check-api';

/** The Russian text of a plan's `reason` (an error code). */
function reasonText(reason: string | null): string | null {
  return reason ? (errorCodeText({ code: reason }) ?? null) : null;
}

/** What the plan offers: the move, a rewrite of slot 1 with the new gateway number, or clearing slot 1. */
function offerOf(plan: AlarmLayoutPlan | undefined): 'move' | 'rewrite' | 'clear' {
  if (!plan?.rewrite) return 'move';
  return plan.gateway_number ? 'rewrite' : 'clear';
}

/**
 * «Проверить устройство»: the move of an existing barrier to the alarm layout (issue 30 item 5) — the
 * gateway's number into slot 1, residents out of 1–6 — with its exact SMS count, sent after a confirmation.
 * Shown only where the move can be made, or was made (then it says so). When the configured gateway number
 * changed after the move, it offers to rewrite slot 1 with the new number (issue 32 item 6); when the deployment
 * has none any more, to clear slot 1 (issue 30 item 5, session audit30).
 */
export function AlarmLayoutPanel({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const plan = useQuery({
    staleTime: 0,
    queryKey: alarmLayoutQueryKey(barrierId),
    queryFn: () => getAlarmLayoutPlan(barrierId),
  });
  // What the last apply did to slot 1 (the plan refreshed after it says «done» or has nothing to offer).
  const [applied, setApplied] = useState<'move' | 'rewrite' | 'clear'>('move');
  const apply = useMutation({
    mutationFn: (sms: number) => {
      setApplied(offerOf(plan.data));
      return applyAlarmLayout(barrierId, sms);
    },
    onSettled: () => {
      setIsConfirming(false);
      void queryClient.invalidateQueries({ queryKey: alarmLayoutQueryKey(barrierId) });
    },
  });
  const data = plan.data;
  const shown =
    data && (data.available || data.reason === 'alarm_layout_done' || data.reason === 'alarm_layout_no_room');
  // The last apply's line stays after the refreshed plan has nothing more to offer (a cleared slot 1).
  const queuedLine = apply.data ? (
    <SuccessLine
      message={
        applied === 'clear'
          ? TEXTS.clearQueued(apply.data.queued)
          : applied === 'rewrite'
            ? TEXTS.rewriteQueued(apply.data.queued)
            : TEXTS.queued(apply.data.queued)
      }
    />
  ) : null;
  if (plan.isPending || plan.error) {
    return <QueryStatus isPending={false} error={plan.error ? TEXTS.loadFailed : null} />;
  }
  if (!data || (!shown && !queuedLine)) return null;
  if (!shown) {
    return (
      <Card withBorder radius="md" data-testid="alarm-layout">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {TEXTS.title}
          </Title>
          {queuedLine}
        </Stack>
      </Card>
    );
  }
  const offer = offerOf(data);
  // The configured gateway number changed after the move (slot 1 rewritten), or the deployment has none any
  // more (slot 1 cleared): the offer's explanation.
  const rewrite =
    offer === 'rewrite' && data.current_gateway_number && data.gateway_number
      ? TEXTS.rewriteExplain(formatPhone(data.current_gateway_number), formatPhone(data.gateway_number))
      : offer === 'clear' && data.current_gateway_number
        ? TEXTS.clearExplain(formatPhone(data.current_gateway_number))
        : null;
  const sms = offer === 'clear' ? TEXTS.clearSms : offer === 'rewrite' ? TEXTS.rewriteSms : TEXTS.sms;
  const confirm =
    offer === 'clear' ? TEXTS.clearConfirm : offer === 'rewrite' ? TEXTS.rewriteConfirm : TEXTS.confirm;
  const start = offer === 'clear' ? TEXTS.clear : offer === 'rewrite' ? TEXTS.rewrite : TEXTS.apply;
  return (
    <Card withBorder radius="md" data-testid="alarm-layout">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {TEXTS.title}
        </Title>
        {queuedLine}
        {data.reason === 'alarm_layout_done' ? (
          <Text size="sm">{TEXTS.done}</Text>
        ) : (
          <>
            {rewrite ? (
              <Text size="sm">{rewrite}</Text>
            ) : (
              <>
                <Text size="sm">{TEXTS.explain}</Text>
                {data.gateway_number ? (
                  <Text size="sm">{TEXTS.gateway(formatPhone(data.gateway_number))}</Text>
                ) : null}
                {data.moves.length > 0 ? (
                  <Text size="sm">
                    {TEXTS.moves(data.moves.length)} (
                    {data.moves.map((move) => TEXTS.move(move.from, move.to)).join(', ')})
                  </Text>
                ) : null}
                {data.staying.length > 0 ? (
                  <Text size="sm">{TEXTS.staying(data.staying.join(', '))}</Text>
                ) : null}
              </>
            )}
            {data.available ? (
              <Text size="sm" fw={600} data-testid="alarm-layout-sms">
                {sms(data.sms)}
              </Text>
            ) : (
              <ErrorLine message={reasonText(data.reason)} />
            )}
            {apply.error ? (
              <ErrorLine message={errorMessage(apply.error, { fallback: TEXTS.applyFailed })} />
            ) : null}
            {data.available ? (
              isConfirming ? (
                <Group>
                  <Button color="red.9" loading={apply.isPending} onClick={() => apply.mutate(data.sms)}>
                    {confirm}
                  </Button>
                  <Button variant="default" onClick={() => setIsConfirming(false)}>
                    {TEXTS.cancel}
                  </Button>
                </Group>
              ) : (
                <Button variant="light" onClick={() => setIsConfirming(true)}>
                  {start}
                </Button>
              )
            ) : null}
          </>
        )}
      </Stack>
    </Card>
  );
}
