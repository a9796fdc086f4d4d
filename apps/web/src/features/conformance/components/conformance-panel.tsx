import { Button, Card, Checkbox, List, Stack, Text, Title } from '@mantine/core';
import type { ConformanceRun } from '@propusk/contracts/conformance';
import { CONFORMANCE_TEXTS as TEXTS } from '@propusk/contracts/texts/conformance';
import { DEVICE_ERROR_TEXTS } from '@propusk/contracts/texts/errors/devices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PhoneInput } from '../../../components/phone-input';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import {
  answerConformance,
  type ConformanceResponse,
  conformanceQueryKey,
  getConformance,
  startConformance,
  stopConformance,
} from '../api/conformance-api';
import { ConformanceStep, isGoodStep } from './conformance-step';

/** The steps each tick adds to the plan's list. */
const CALL_KEYS = new Set([
  'clock_try_set',
  'clock_try_window',
  'clock_try_call',
  'clock_retry_set',
  'clock_retry_window',
  'clock_retry_call',
]);

/** While a run is under way, look again this often. */
const RUNNING_REFRESH_MS = 1000;

function RunResult({ run }: { run: ConformanceRun }) {
  if (run.status === 'running')
    return (
      <Text size="sm" fw={600} data-testid="conformance-status">
        {run.stop_requested ? TEXTS.stopping : TEXTS.running}
      </Text>
    );
  const differences = run.steps.filter((step) => step.verdict !== null && !isGoodStep(step)).length;
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
  const [includeCall, setIncludeCall] = useState(false);
  const [callNumber, setCallNumber] = useState('');
  const [includePower, setIncludePower] = useState(false);
  const query = useQuery({
    staleTime: 0,
    queryKey: conformanceQueryKey(barrierId),
    queryFn: () => getConformance(barrierId),
    refetchInterval: (state) => (state.state.data?.run?.status === 'running' ? RUNNING_REFRESH_MS : false),
  });
  const set = (data: ConformanceResponse) => queryClient.setQueryData(conformanceQueryKey(barrierId), data);
  const start = useMutation({
    mutationFn: () =>
      startConformance(barrierId, {
        include_password: includePassword,
        include_call: includeCall,
        include_power: includePower,
        ...(includeCall && callNumber.length === 12 ? { call_number: callNumber } : {}),
      }),
    onSuccess: set,
  });
  const answer = useMutation({
    mutationFn: (value: Parameters<typeof answerConformance>[1]) => answerConformance(barrierId, value),
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
                {TEXTS.sms(
                  (includePassword ? plan.sms_with_password : plan.sms) + (includeCall ? plan.call_sms : 0),
                )}
              </Text>
              <Text size="sm">{TEXTS.duration(plan.max_minutes)}</Text>
              <Text size="sm">{TEXTS.residents}</Text>
              <Text size="sm" fw={600}>
                {TEXTS.stepsTitle}
              </Text>
              <List size="sm">
                {plan.steps
                  .filter((step) => includePassword || step.key !== 'password')
                  .filter((step) => includeCall || !CALL_KEYS.has(step.key))
                  .filter((step) => includePower || step.key !== 'power_cut')
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
              {plan.has_call_step ? (
                <>
                  <Checkbox
                    label={TEXTS.call}
                    checked={includeCall}
                    disabled={running}
                    onChange={(event) => setIncludeCall(event.currentTarget.checked)}
                  />
                  {includeCall ? (
                    <>
                      <Text size="sm">{TEXTS.callExplain}</Text>
                      {plan.call_refused ? <Text size="sm">{plan.call_refused}</Text> : null}
                      <PhoneInput label={TEXTS.callNumber} value={callNumber} onChange={setCallNumber} />
                    </>
                  ) : null}
                </>
              ) : null}
              {plan.has_power_step ? (
                <>
                  <Checkbox
                    label={TEXTS.power}
                    checked={includePower}
                    disabled={running}
                    onChange={(event) => setIncludePower(event.currentTarget.checked)}
                  />
                  {includePower ? <Text size="sm">{TEXTS.powerExplain}</Text> : null}
                </>
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
              <ConformanceStep
                key={step.key}
                step={step}
                onAnswer={(value) => answer.mutate(value)}
                answering={answer.isPending}
                answerError={answer.error}
              />
            ))}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}
