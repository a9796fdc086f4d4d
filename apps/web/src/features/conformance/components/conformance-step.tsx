import { Button, Card, Group, Stack, Text } from '@mantine/core';
import type { ConformanceAnswer, ConformanceStepView } from '@propusk/contracts/conformance';
import { CONFORMANCE_TEXTS as TEXTS } from '@propusk/contracts/texts/conformance';
import { DeviceText } from '../../../components/device-text';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';

function verdictText(step: ConformanceStepView): string | null {
  if (step.verdict === null) return null;
  if (step.verdict === 'no_answer' && !step.expects_reply) return TEXTS.noAnswerExpected;
  return TEXTS.verdicts[step.verdict];
}

/** A verdict that is what the model's sheet says (or the silence it allows). */
export const isGoodStep = (step: ConformanceStepView) =>
  step.verdict === 'as_sheet' ||
  step.verdict === 'opened' ||
  (step.verdict === 'no_answer' && !step.expects_reply);

/** What a waiting step asks of the person: «Открылось?» after a call, or the power cut. */
function Ask({
  step,
  onAnswer,
  pending,
  error,
}: {
  step: ConformanceStepView;
  onAnswer: (answer: ConformanceAnswer) => void;
  pending: boolean;
  error: unknown;
}) {
  const call = step.asks === 'call';
  return (
    <Stack gap={4} data-testid="conformance-ask">
      <Text size="sm" fw={600}>
        {call ? TEXTS.askCall(formatPhone(step.call_number ?? '')) : TEXTS.askPower}
      </Text>
      <Group gap="xs">
        {call ? (
          <>
            <Button size="xs" loading={pending} onClick={() => onAnswer('opened')}>
              {TEXTS.yes}
            </Button>
            <Button size="xs" variant="light" loading={pending} onClick={() => onAnswer('not_opened')}>
              {TEXTS.no}
            </Button>
          </>
        ) : (
          <>
            <Button size="xs" loading={pending} onClick={() => onAnswer('power_done')}>
              {TEXTS.powerDone}
            </Button>
            <Button size="xs" variant="light" loading={pending} onClick={() => onAnswer('skip')}>
              {TEXTS.skip}
            </Button>
          </>
        )}
      </Group>
      <ErrorLine message={error ? errorMessage(error, { fallback: TEXTS.answerFailed }) : null} />
    </Stack>
  );
}

/** One step of a run: what was sent, the unit's answer, its verdict, what was learnt; or what it asks. */
export function ConformanceStep({
  step,
  onAnswer,
  answering,
  answerError,
}: {
  step: ConformanceStepView;
  onAnswer: (answer: ConformanceAnswer) => void;
  answering: boolean;
  answerError: unknown;
}) {
  const verdict = verdictText(step);
  const good = isGoodStep(step);
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
        {step.asks ? <Ask step={step} onAnswer={onAnswer} pending={answering} error={answerError} /> : null}
        {step.sent_text ? <DeviceText side="sms">{step.sent_text}</DeviceText> : null}
        {step.reply ? <DeviceText side="reply">{step.reply}</DeviceText> : null}
        {step.captured.map((text) => (
          <DeviceText key={text} side="reply" label={TEXTS.captured}>
            {text}
          </DeviceText>
        ))}
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
