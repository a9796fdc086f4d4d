import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { errorCodeText } from '@propusk/contracts/error-texts';
import { ALARM_LAYOUT_TEXTS as TEXTS } from '@propusk/contracts/texts/device-check';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import { alarmLayoutQueryKey, applyAlarmLayout, getAlarmLayoutPlan } from '../api/device-check-api';

/** The Russian text of a plan's `reason` (an error code). */
function reasonText(reason: string | null): string | null {
  return reason ? (errorCodeText({ code: reason }) ?? null) : null;
}

/**
 * «Проверить устройство»: the move of an existing barrier to the alarm layout (issue 30 item 5) — the
 * gateway's number into slot 1, residents out of 1–6 — with its exact SMS count, sent after a confirmation.
 * Shown only where the move can be made, or was made (then it says so). When the configured gateway number
 * changed after the move, it offers to rewrite slot 1 with the new number (issue 32 item 6).
 */
export function AlarmLayoutPanel({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const plan = useQuery({
    staleTime: 0,
    queryKey: alarmLayoutQueryKey(barrierId),
    queryFn: () => getAlarmLayoutPlan(barrierId),
  });
  // Whether the last apply was a rewrite of slot 1 (the plan refreshed after it says «done»).
  const [rewrote, setRewrote] = useState(false);
  const apply = useMutation({
    mutationFn: (sms: number) => {
      setRewrote(plan.data?.rewrite ?? false);
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
  if (plan.isPending || plan.error) {
    return <QueryStatus isPending={false} error={plan.error ? TEXTS.loadFailed : null} />;
  }
  if (!data || !shown) return null;
  // The configured gateway number changed after the move: the offer rewrites slot 1 (its explanation).
  const rewrite =
    data.rewrite && data.current_gateway_number && data.gateway_number
      ? TEXTS.rewriteExplain(formatPhone(data.current_gateway_number), formatPhone(data.gateway_number))
      : null;
  return (
    <Card withBorder radius="md" data-testid="alarm-layout">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {TEXTS.title}
        </Title>
        {apply.data ? (
          <SuccessLine
            message={rewrote ? TEXTS.rewriteQueued(apply.data.queued) : TEXTS.queued(apply.data.queued)}
          />
        ) : null}
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
                {rewrite ? TEXTS.rewriteSms(data.sms) : TEXTS.sms(data.sms)}
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
                    {rewrite ? TEXTS.rewriteConfirm : TEXTS.confirm}
                  </Button>
                  <Button variant="default" onClick={() => setIsConfirming(false)}>
                    {TEXTS.cancel}
                  </Button>
                </Group>
              ) : (
                <Button variant="light" onClick={() => setIsConfirming(true)}>
                  {rewrite ? TEXTS.rewrite : TEXTS.apply}
                </Button>
              )
            ) : null}
          </>
        )}
      </Stack>
    </Card>
  );
}
