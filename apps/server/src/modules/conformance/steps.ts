/**
 * How a conformance run moves (issue 42): a step is one device command of kind `conformance`, queued after
 * the previous one settled (the engine's hook `recordStep`, given in src/domain-hooks.ts), so the unit hears
 * one form at a time and a stopped run only cleans up. Each settled step gets its reply and verdict, and a
 * text of the unit's own is learnt into the barrier's profile in the same transaction.
 */
import type { ConformanceVerdictCode } from '@propusk/contracts/conformance';
import {
  type ConformanceStep,
  conformanceVerdict,
  learnReplyForm,
  readShows,
  withLearntForm,
} from '@propusk/devices/conformance';
import { learnNumberFormat } from '@propusk/devices/conformance-learn';
import { isDeviceModel } from '@propusk/devices/models';
import { NUMBER_FORMAT_LABELS } from '@propusk/devices/numbers';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import type { Executor } from '../../db/database.ts';
import type { CommandOutcome, SettledCommand } from '../../engine/hooks.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from '../../engine/log/index.ts';
import type { ConformancePayload } from '../../engine/plan/index.ts';
import { CONFORMANCE_KIND } from '../../engine/plan/index.ts';
import { insertAction } from '../device-checks/repository.ts';
import type { RunRow } from './repository.ts';
import * as repository from './repository.ts';

export type StepState = 'pending' | 'sent' | 'done' | 'skipped';

/** One step of a run as `device_conformance_runs.steps` keeps it. */
export interface StepRecord {
  step: ConformanceStep;
  state: StepState;
  command_id: number | null;
  reply: string | null;
  verdict: ConformanceVerdictCode | null;
  learnt: string | null;
  note: string | null;
  /** A power step: the unit's unasked texts taken while it waits (issue 42 item 3). */
  captured?: string[];
}

export type { RunRow } from './repository.ts';

const CLEANUP_KEYS = new Set(['delete', 'read_after']);
const WRITE_KEYS = new Set(['add', 'clock_try_window', 'clock_retry_window']);

/**
 * Queues step `index` of the run: its device command, the step marked sent. A step that asks the person
 * (a call, a power cut) sends nothing: it is marked sent and waits for his answer (service.ts).
 */
async function queueStep(tx: Executor, run: RunRow, steps: StepRecord[], index: number, now: Date) {
  const record = steps[index]!;
  if (record.step.action.form === 'ask') {
    steps[index] = { ...record, state: 'sent', command_id: null };
    return;
  }
  const payload: ConformancePayload = { run_id: run.id, index, step: record.step };
  const commandId = await repository.insertStepCommand(tx, {
    barrierId: run.barrierId,
    kind: CONFORMANCE_KIND,
    payload,
    createdAt: now,
  });
  steps[index] = { ...record, state: 'sent', command_id: commandId };
}

/**
 * Sends the next step after `after` (-1: the first), or ends the run. A stop (or an end reason) leaves only
 * the clean-up, and that only once the test number may have been written. The delete is not sent when a
 * resident's phone took the test slot meanwhile (its add overwrote the test number).
 */
export async function advanceRun(
  tx: Executor,
  run: RunRow,
  steps: StepRecord[],
  after: number,
  now: Date,
  endReason: string | null = null,
): Promise<void> {
  const ending = run.stopRequested || endReason !== null;
  // The test slot may hold a number once the add or a clock trial's window was sent.
  const written = steps.some(
    (record) => WRITE_KEYS.has(record.step.key) && (record.state === 'sent' || record.state === 'done'),
  );
  let next = -1;
  for (let index = after + 1; index < steps.length; index += 1) {
    const record = steps[index]!;
    if (record.state !== 'pending') continue;
    if (ending && !(written && CLEANUP_KEYS.has(record.step.key))) {
      steps[index] = { ...record, state: 'skipped', note: 'Не отправлено: проверка остановлена.' };
      continue;
    }
    if (record.step.key === 'delete') {
      if (await repository.hasActivePhoneInSlot(tx, run.barrierId, run.slot)) {
        steps[index] = {
          ...record,
          state: 'skipped',
          note: 'Не отправлено: ячейку занял номер жителя, его запись заменила тестовый номер.',
        };
        continue;
      }
    }
    next = index;
    break;
  }
  if (next >= 0) await queueStep(tx, run, steps, next, now);
  const done = next < 0;
  await repository.updateRun(tx, run.id, {
    steps,
    ...(endReason ? { endReason } : {}),
    ...(done ? { status: ending ? 'stopped' : 'finished', finishedAt: now } : {}),
  });
}

function failureVerdict(reason: string): ConformanceVerdictCode {
  if (reason === DEVICE_REFUSED_PASSWORD) return 'refused';
  if (reason === DEVICE_NOT_UNDERSTOOD) return 'format_error';
  return 'no_answer';
}

/** What a read's answer shows in the test slot, as a note (null: as expected). */
function readNote(key: string, shows: ReturnType<typeof readShows>): string | null {
  if (shows === null) return null;
  if (key === 'read_added')
    return shows === 'number' ? null : 'Устройство не показывает тестовый номер в тестовой ячейке.';
  return shows === 'empty' ? null : 'В тестовой ячейке устройства записан номер.';
}

/** The engine's hook: a run's step settled (confirmed with its reply, or failed). */
export async function recordStep(
  tx: Executor,
  command: SettledCommand,
  outcome: CommandOutcome,
  now: Date,
): Promise<void> {
  if (command.kind !== CONFORMANCE_KIND) return;
  const payload = command.payload as ConformancePayload;
  const run = await repository.lockRun(tx, payload.run_id);
  if (run?.status !== 'running') return;
  const steps = run.steps as StepRecord[];
  const record = steps[payload.index];
  if (!record || record.command_id !== command.id) return;
  const barrier = await repository.barrierModelAndProfile(tx, run.barrierId);
  if (!barrier || !isDeviceModel(barrier.model)) return;
  const model = barrier.model;
  const profile = (barrier.profile as DeviceProfileOverride | null) ?? null;
  const reply = outcome.confirmed ? await repository.commandReply(tx, command.id) : null;
  let verdict = outcome.confirmed
    ? conformanceVerdict(model, profile, record.step, reply)
    : failureVerdict(outcome.reason);
  const learnt: string[] = [];
  let note: string | null = null;
  let next = profile;
  const { action } = record.step;
  if (reply !== null && action.form === 'read')
    note = readNote(
      record.step.key,
      readShows(model, profile, action.query, reply, run.slot, run.testNumber),
    );
  // The read-back writes the number as the unit stores it: later adds and deletes are written that way.
  const format =
    reply !== null && record.step.key === 'read_added'
      ? learnNumberFormat(model, profile, reply, run.testNumber)
      : null;
  if (format) {
    next = { ...(next ?? {}), number_format: format };
    learnt.push(`Формат номера: ${NUMBER_FORMAT_LABELS[format]}`);
    verdict = 'different';
  }
  if (verdict === 'different' && reply !== null && !format) {
    const form = learnReplyForm(model, profile, record.step, reply, now, run.utcOffsetMinutes);
    if (form) {
      next = withLearntForm(next, form);
      learnt.push(form.form);
    } else if (action.form === 'read')
      note = 'Ответ на чтение другой формы: формы чтения профиль не меняет, нужна правка описания модели.';
  }
  if (next !== profile) await storeLearntProfile(tx, run, profile, next, now);
  // The password step's answer names the password: kept only in the device log, masked (service.ts shows it).
  const kept = action.form === 'password_same' ? null : reply;
  steps[payload.index] = {
    ...record,
    state: 'done',
    reply: kept,
    verdict,
    learnt: learnt.length > 0 ? learnt.join('\n') : null,
    note: note ?? record.note,
  };
  let endReason: string | null = null;
  if (verdict === 'refused')
    endReason = 'Устройство не приняло пароль: проверьте пароль устройства в настройках шлагбаума.';
  else if (record.step.key === 'read_before' && note !== null)
    endReason = 'В тестовой ячейке устройства уже записан номер: проверка остановлена, ничего не записано.';
  await advanceRun(tx, run, steps, payload.index, now, endReason);
}

/** A profile the run learnt, stored with its history row (the run named), as other profile changes are. */
export async function storeLearntProfile(
  tx: Executor,
  run: RunRow,
  old: DeviceProfileOverride | null,
  next: DeviceProfileOverride | null,
  now: Date,
): Promise<void> {
  await repository.setDeviceProfile(tx, run.barrierId, next, now);
  await insertAction(
    tx,
    run.barrierId,
    run.requestedBy,
    { setting: 'device_profile', old, profile: next, conformance_run: run.id },
    now,
  );
}
