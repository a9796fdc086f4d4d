import { Button, Card, Checkbox, List, Stack, Text, Title } from '@mantine/core';
import type { ConformanceRun, ConformanceStepView } from '@propusk/contracts/conformance';
import { CONFORMANCE_TEXTS as TEXTS } from '@propusk/contracts/texts/conformance';
import { DEVICE_ERROR_TEXTS } from '@propusk/contracts/texts/errors/devices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DeviceText } from '../../../components/device-text';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import {
  type ConformanceResponse,
  conformanceQueryKey,
  getConformance,
  startConformance,
  stopConformance,
} from '../api/conformance-api';

/** While a run is under way, look again this often. */
const RUNNING_REFRESH_MS = 1000;

function verdictText(step: ConformanceStepView): string | null {
  if (step.verdict === null) return null;
  if (step.verdict === 'no_answer' && !step.expects_reply) return TEXTS.noAnswerExpected;
  return TEXTS.verdicts[step.verdict];
}

function Step({ step }: { step: ConformanceStepView }) {
  const verdict = verdictText(step);
  const good = step.verdict === 'as_sheet' || (step.verdict === 'no_answer' && !step.expects_reply);
  return (
    <Card withBorder radius="sm" padding="xs" data-testid={`conformance-step-${step.key}`}>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {step.label}
        </Text>
        {step.verdict !== null && !good ? (
          <Text size="sm" c="red.9" fw={600} data-testid="conformance-step-difference">
            {verdict}
          </Text>
        ) : (
          <Text size="sm" data-testid="conformance-step-state">
            {verdict ?? TEXTS.stepStates[step.state]}
          </Text>
        )}
        {step.sent_text ? <DeviceText side="sms">{step.sent_text}</DeviceText> : null}
        {step.reply ? <DeviceText side="reply">{step.reply}</DeviceText> : null}
        {step.learnt ? (
          <DeviceText side="reply" label={TEXTS.learnt} testId="conformance-step-learnt">
            {step.learnt}
          </DeviceText>
        ) : null}
        {step.note ? <Text size="sm">{step.note}</Text> : null}
      </Stack>
    </Card>
  );
}

function RunResult({ run }: { run: ConformanceRun }) {
  if (run.status === 'running')
    return (
      <Text size="sm" fw={600} data-testid="conformance-status">
        {run.stop_requested ? TEXTS.stopping : TEXTS.running}
      </Text>
    );
  const differences = run.steps.filter(
    (step) =>
      step.verdict !== null &&
      step.verdict !== 'as_sheet' &&
      !(step.verdict === 'no_answer' && !step.expects_reply),
  ).length;
  return (
    <Stack gap={4} data-testid="conformance-status">
      {run.status === 'stopped' ? <Text size="sm">{TEXTS.stopped}</Text> : null}
      {run.end_reason ? <ErrorLine message={run.end_reason} /> : null}
      {run.all_confirmed ? <SuccessLine message={TEXTS.allConfirmed} /> : null}
      {!run.all_confirmed && differences > 0 ? (
        <Text size="sm" fw={600}>
          {TEXTS.differences(differences)}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * «Проверка устройства по модели» (issue 42): what a run will do (SMS, the free slot, the test number, how
 * long, that residents are not affected), the start, the steps live with their verdicts, the stop.
 */
export function ConformancePanel({ barrierId }: { barrierId: number }) {
  const queryClient = useQueryClient();
  const [includePassword, setIncludePassword] = useState(false);
  const query = useQuery({
    staleTime: 0,
    queryKey: conformanceQueryKey(barrierId),
    queryFn: () => getConformance(barrierId),
    refetchInterval: (state) => (state.state.data?.run?.status === 'running' ? RUNNING_REFRESH_MS : false),
  });
  const set = (data: ConformanceResponse) => queryClient.setQueryData(conformanceQueryKey(barrierId), data);
  const start = useMutation({
    mutationFn: () => startConformance(barrierId, includePassword),
    onSuccess: set,
  });
  const stop = useMutation({ mutationFn: () => stopConformance(barrierId), onSuccess: set });
  const plan = query.data?.plan;
  const run = query.data?.run ?? null;
  const running = run?.status === 'running';

  return (
    <Stack gap="md">
      <Card withBorder radius="md" data-testid="conformance-plan">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {TEXTS.planTitle}
          </Title>
          <Text size="sm">{TEXTS.explain}</Text>
          <QueryStatus isPending={query.isPending} error={query.error ? TEXTS.loadFailed : null} />
          {plan ? (
            <>
              <Text size="sm">{TEXTS.model(plan.model_label)}</Text>
              {plan.test_number ? (
                <Text size="sm">{TEXTS.testNumber(formatPhone(plan.test_number))}</Text>
              ) : null}
              {plan.slot !== null ? <Text size="sm">{TEXTS.slot(plan.slot)}</Text> : null}
              <Text size="sm" data-testid="conformance-sms">
                {TEXTS.sms(includePassword ? plan.sms_with_password : plan.sms)}
              </Text>
              <Text size="sm">{TEXTS.duration(plan.max_minutes)}</Text>
              <Text size="sm">{TEXTS.residents}</Text>
              <Text size="sm" fw={600}>
                {TEXTS.stepsTitle}
              </Text>
              <List size="sm">
                {plan.steps
                  .filter((step) => includePassword || step.key !== 'password')
                  .map((step) => (
                    <List.Item key={step.key}>{step.label}</List.Item>
                  ))}
              </List>
              {plan.skipped.length > 0 ? (
                <>
                  <Text size="sm" fw={600}>
                    {TEXTS.skippedTitle}
                  </Text>
                  <List size="sm">
                    {plan.skipped.map((skip) => (
                      <List.Item key={skip.form}>{`${skip.form} — ${skip.reason}`}</List.Item>
                    ))}
                  </List>
                </>
              ) : null}
              {plan.has_password_step ? (
                <Checkbox
                  label={TEXTS.password}
                  checked={includePassword}
                  disabled={running}
                  onChange={(event) => setIncludePassword(event.currentTarget.checked)}
                />
              ) : null}
              {!plan.available && plan.reason && plan.reason !== 'conformance_running' ? (
                <ErrorLine
                  message={`${TEXTS.unavailable}: ${DEVICE_ERROR_TEXTS[plan.reason as keyof typeof DEVICE_ERROR_TEXTS] ?? plan.reason}`}
                />
              ) : null}
              {running ? (
                <Button
                  color="red"
                  variant="light"
                  loading={stop.isPending}
                  disabled={run?.stop_requested}
                  onClick={() => stop.mutate()}
                >
                  {TEXTS.stop}
                </Button>
              ) : (
                <Button loading={start.isPending} disabled={!plan.available} onClick={() => start.mutate()}>
                  {run ? TEXTS.again : TEXTS.start}
                </Button>
              )}
              <ErrorLine
                message={start.error ? errorMessage(start.error, { fallback: TEXTS.startFailed }) : null}
              />
              <ErrorLine
                message={stop.error ? errorMessage(stop.error, { fallback: TEXTS.startFailed }) : null}
              />
            </>
          ) : null}
        </Stack>
      </Card>
      {run ? (
        <Card withBorder radius="md" data-testid="conformance-run">
          <Stack gap="xs">
            <RunResult run={run} />
            {run.steps.map((step) => (
              <Step key={step.key} step={step} />
            ))}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
