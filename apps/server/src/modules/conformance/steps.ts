/**
 * How a conformance run moves (issue 42): a step is one device command of kind `conformance`, queued after
 * the previous one settled (the engine's hook, registered by `registerConformanceHooks`), so the unit hears
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
import { isDeviceModel } from '@propusk/devices/models';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceCommands, deviceConformanceRuns, deviceSlots, phones } from '../../db/schema.ts';
import { CONFORMANCE_KIND } from '../../engine/device-rows.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from '../../engine/failure-reasons.ts';
import { type CommandOutcome, onCommandSettled, type SettledCommand } from '../../engine/hooks.ts';
import type { ConformancePayload } from '../../engine/read-commands.ts';
import { insertAction } from '../device-checks/repository.ts';

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
}

export type RunRow = typeof deviceConformanceRuns.$inferSelect;

const CLEANUP_KEYS = new Set(['delete', 'read_after']);

/** Queues step `index` of the run: its device command, the step marked sent. */
async function queueStep(tx: Executor, run: RunRow, steps: StepRecord[], index: number, now: Date) {
  const record = steps[index]!;
  const payload: ConformancePayload = { run_id: run.id, index, step: record.step };
  const [command] = await tx
    .insert(deviceCommands)
    .values({ barrierId: run.barrierId, kind: CONFORMANCE_KIND, payload, createdAt: now })
    .returning({ id: deviceCommands.id });
  steps[index] = { ...record, state: 'sent', command_id: command?.id ?? null };
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
  const written = steps.some(
    (record) => record.step.key === 'add' && (record.state === 'sent' || record.state === 'done'),
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
      const [taken] = await tx
        .select({ id: phones.id })
        .from(phones)
        .where(and(eq(phones.barrierId, run.barrierId), eq(phones.slot, run.slot), eq(phones.isActive, true)))
        .limit(1);
      if (taken) {
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
  await tx
    .update(deviceConformanceRuns)
    .set({
      steps,
      ...(endReason ? { endReason } : {}),
      ...(done ? { status: ending ? 'stopped' : 'finished', finishedAt: now } : {}),
    })
    .where(eq(deviceConformanceRuns.id, run.id));
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
  const [run] = await tx
    .select()
    .from(deviceConformanceRuns)
    .where(eq(deviceConformanceRuns.id, payload.run_id))
    .for('update');
  if (run?.status !== 'running') return;
  const steps = run.steps as StepRecord[];
  const record = steps[payload.index];
  if (!record || record.command_id !== command.id) return;
  const [barrier] = await tx
    .select({ model: barriers.deviceModel, profile: barriers.deviceProfile })
    .from(barriers)
    .where(eq(barriers.id, run.barrierId));
  if (!barrier || !isDeviceModel(barrier.model)) return;
  const model = barrier.model;
  const profile = (barrier.profile as DeviceProfileOverride | null) ?? null;
  let reply: string | null = null;
  if (outcome.confirmed) {
    const [row] = await tx
      .select({ reply: deviceCommands.reply })
      .from(deviceCommands)
      .where(eq(deviceCommands.id, command.id));
    reply = row?.reply ?? null;
  }
  const verdict = outcome.confirmed
    ? conformanceVerdict(model, profile, record.step, reply)
    : failureVerdict(outcome.reason);
  let learnt: string | null = null;
  let note: string | null = null;
  const { action } = record.step;
  if (reply !== null && action.form === 'read')
    note = readNote(
      record.step.key,
      readShows(model, profile, action.query, reply, run.slot, run.testNumber),
    );
  if (verdict === 'different' && reply !== null) {
    const form = learnReplyForm(model, profile, record.step, reply, now, run.utcOffsetMinutes);
    if (form) {
      const next = withLearntForm(profile, form);
      await tx
        .update(barriers)
        .set({ deviceProfile: next, updatedAt: now })
        .where(eq(barriers.id, run.barrierId));
      await insertAction(
        tx,
        run.barrierId,
        run.requestedBy,
        { setting: 'device_profile', old: profile, profile: next, conformance_run: run.id },
        now,
      );
      learnt = form.form;
    } else if (action.form === 'read')
      note = 'Ответ на чтение другой формы: формы чтения профиль не меняет, нужна правка описания модели.';
  }
  // The password step's answer names the password: kept only in the device log, masked (service.ts shows it).
  const kept = action.form === 'password_same' ? null : reply;
  steps[payload.index] = {
    ...record,
    state: 'done',
    reply: kept,
    verdict,
    learnt,
    note: note ?? record.note,
  };
  let endReason: string | null = null;
  if (verdict === 'refused')
    endReason = 'Устройство не приняло пароль: проверьте пароль устройства в настройках шлагбаума.';
  else if (record.step.key === 'read_before' && note !== null)
    endReason = 'В тестовой ячейке устройства уже записан номер: проверка остановлена, ничего не записано.';
  await advanceRun(tx, run, steps, payload.index, now, endReason);
}

/** Registers the run's hook with the engine (src/domain-hooks.ts). */
export function registerConformanceHooks(): void {
  onCommandSettled('conformance', recordStep);
}

/** The slots the test number must not take: every phone's and every slot the unit is believed to hold. */
export async function usedSlots(executor: Executor, barrierId: number): Promise<number[]> {
  const owned = await executor
    .select({ slot: phones.slot })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), isNotNull(phones.slot)));
  const held = await executor
    .select({ slot: deviceSlots.slot })
    .from(deviceSlots)
    .where(eq(deviceSlots.barrierId, barrierId));
  return [...owned.flatMap((row) => (row.slot === null ? [] : [row.slot])), ...held.map((row) => row.slot)];
}
