/**
 * The steps of a conformance run that ask the person (issue 42 items 2, 3): «Открылось?» after he called the
 * unit, and the power cut, during which the unit's unasked SMS are captured. Nothing is sent for them; the
 * person's answer settles them (the clock's digit order or the power texts learnt into the profile, with a
 * history row as any profile change) and the run goes on.
 */
import type { ConformanceAnswer } from '@propusk/contracts/conformance';
import { CLOCK_RETRY_KEYS, settleClockCall } from '@propusk/devices/conformance-clock-steps';
import { learnPowerTexts, withLearntAlarms } from '@propusk/devices/conformance-learn';
import { maskSecrets } from '@propusk/devices/mask';
import { isDeviceModel } from '@propusk/devices/models';
import { type DeviceProfileOverride, validateProfileOverride } from '@propusk/devices/profile';
import type { Executor } from '../../db/database.ts';
import { insertDeviceMessages } from '../../engine/log/index.ts';
import { lockBarrier } from '../../engine/plan/index.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import * as repository from './repository.ts';
import { advanceRun, type StepRecord, storeLearntProfile } from './steps.ts';

const NO_POWER_TEXT =
  'Устройство не прислало СМС о питании. Их получает только номер в ячейке 1: чтобы сервер их слышал, там должен быть номер шлюза.';

/** The step waiting for the person, and its index. */
function waitingStep(steps: StepRecord[]): { record: StepRecord; index: number } | null {
  const index = steps.findIndex((record) => record.state === 'sent' && record.step.action.form === 'ask');
  const record = steps[index];
  return record ? { record, index } : null;
}

/** The person's answer to the step that asks him; the caller checked his right to the barrier. */
export async function answerStep(
  tx: Executor,
  barrierId: number,
  answer: ConformanceAnswer,
  now: Date,
): Promise<void> {
  await lockBarrier(tx, barrierId);
  const run = await repository.lockRunningRun(tx, barrierId);
  if (!run) throw conflict('conformance_not_running');
  const steps = run.steps as StepRecord[];
  const waiting = waitingStep(steps);
  const action = waiting?.record.step.action;
  if (!waiting || action?.form !== 'ask') throw badRequest('conformance_not_asking');
  const isCall = action.ask === 'call';
  if (isCall !== (answer === 'opened' || answer === 'not_opened')) throw badRequest('conformance_not_asking');
  const barrier = await repository.barrierModelAndProfile(tx, barrierId);
  if (!barrier || !isDeviceModel(barrier.model)) throw conflict('device_model_unknown');
  const profile = (barrier.profile as DeviceProfileOverride | null) ?? null;
  const { record, index } = waiting;
  if (action.ask === 'call') {
    const result = settleClockCall(
      barrier.model,
      profile,
      action,
      record.step.key === 'clock_retry_call',
      answer === 'opened',
    );
    if (result.profile) await storeLearntProfile(tx, run, profile, result.profile, now);
    steps[index] = {
      ...record,
      state: 'done',
      verdict: result.verdict,
      learnt: result.learnt,
      note: result.note,
    };
    // The first call opened: the other order is not tried.
    if (!result.retry)
      steps.forEach((other, position) => {
        if (CLOCK_RETRY_KEYS.includes(other.step.key) && other.state === 'pending')
          steps[position] = { ...other, state: 'skipped' };
      });
  } else if (answer === 'skip') {
    steps[index] = { ...record, state: 'skipped' };
  } else {
    const captured = record.captured ?? [];
    const texts = learnPowerTexts(barrier.model, captured);
    const next = withLearntAlarms(profile, texts);
    // A text the profile could not hold (too long, braces) is not learnt; the step says what came.
    const learnt = validateProfileOverride(barrier.model, next).ok ? Object.values(texts) : [];
    if (learnt.length > 0) await storeLearntProfile(tx, run, profile, next, now);
    steps[index] = {
      ...record,
      state: 'done',
      verdict: captured.length > 0 ? 'different' : 'no_answer',
      learnt: learnt.length > 0 ? learnt.join('\n') : null,
      note: captured.length > 0 ? null : NO_POWER_TEXT,
    };
  }
  await advanceRun(tx, run, steps, index, now);
}

/**
 * The engine's hook for an SMS from a unit's number (before alarms and replies): while the barrier's run waits
 * in its power step and no command waits for an answer, the text is the unit's own — captured into the step
 * and logged. True: taken (it answers nothing else).
 */
export async function captureUnitText(
  tx: Executor,
  barrier: { id: number; passwordSecret: string | null },
  text: string,
  now: Date,
): Promise<boolean> {
  const run = await repository.lockRunningRun(tx, barrier.id);
  if (!run) return false;
  const steps = run.steps as StepRecord[];
  const waiting = waitingStep(steps);
  const action = waiting?.record.step.action;
  if (!waiting || action?.form !== 'ask' || action.ask !== 'power') return false;
  if (await repository.hasCommandAwaitingReply(tx, barrier.id)) return false;
  const kept = text.trim().slice(0, 160);
  steps[waiting.index] = { ...waiting.record, captured: [...(waiting.record.captured ?? []), kept] };
  await repository.updateRun(tx, run.id, { steps });
  await insertDeviceMessages(tx, [
    {
      barrierId: barrier.id,
      direction: 'in',
      text: maskSecrets(text, [barrier.passwordSecret]),
      outcome: 'captured',
      createdAt: now,
    },
  ]);
  return true;
}
