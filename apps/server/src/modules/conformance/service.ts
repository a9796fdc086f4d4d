/**
 * «Проверка устройства по модели» (issue 42): the plan a run would follow, starting it, stopping it, and
 * its steps as the screen follows them. The owner or a manager (`settings.manage`). Nothing is sent from a
 * request: a start queues the first step in the outbox, the engine's hook (steps.ts) queues the next.
 */
import type {
  ConformanceAnswer,
  ConformancePlanView,
  ConformanceResponse,
  ConformanceRun,
  ConformanceStepView,
  StartConformanceBody,
} from '@propusk/contracts/conformance';
import { type ConformancePlan, freeSlotForRun, planConformance } from '@propusk/devices/conformance';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import { parseDeviceNumber } from '@propusk/devices/numbers';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  deviceCommands,
  deviceConformanceRuns,
  deviceMessages,
  deviceSlots,
  phones,
  users,
} from '../../db/schema.ts';
import { lockBarrier } from '../../engine/outbox.ts';
import { assertWeeklySmsBudget } from '../../engine/weekly-budget.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import { insertAction } from '../device-checks/repository.ts';
import { answerStep } from './person-steps.ts';
import { advanceRun, type RunRow, type StepRecord, usedSlots } from './steps.ts';

type Deps = Pick<Dependencies, 'db' | 'clock' | 'config'>;

interface Context {
  model: DeviceModel;
  /** The number the clock call comes from (named, else the test number); null: none. */
  callNumber: string | null;
  /** It is on the barrier (a resident's phone, or a number the unit holds): it opens whatever the window. */
  callNumberInUse: boolean;
  /** The person named it himself. */
  callNumberNamed: boolean;
  profile: DeviceProfileOverride | null;
  hasPassword: boolean;
  slot: number | null;
  testNumber: string | null;
  testNumberInUse: boolean;
  running: boolean;
}

async function loadContext(
  executor: Executor,
  user: AuthenticatedUser,
  barrierId: number,
  namedCallNumber?: string,
): Promise<Context> {
  const barrier = await requireBarrierPermission(executor, user.id, barrierId, 'settings.manage');
  if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
  const profile = (barrier.deviceProfile as DeviceProfileOverride | null) ?? null;
  const [person] = await executor.select({ phone: users.phone }).from(users).where(eq(users.id, user.id));
  const [running] = await executor
    .select({ id: deviceConformanceRuns.id })
    .from(deviceConformanceRuns)
    .where(and(eq(deviceConformanceRuns.barrierId, barrierId), eq(deviceConformanceRuns.status, 'running')))
    .limit(1);
  const model = barrier.deviceModel;
  const number = person?.phone && /^\+7\d{10}$/.test(person.phone) ? person.phone : null;
  // A unit that holds numbers, not slots, deletes the test number by its number: never one a resident uses.
  const [inUse] =
    number !== null && getSheet(model).addressing === 'number'
      ? await executor
          .select({ id: phones.id })
          .from(phones)
          .where(and(eq(phones.barrierId, barrierId), eq(phones.phone, number), eq(phones.isActive, true)))
          .limit(1)
      : [];
  const callNumber = namedCallNumber ?? number;
  return {
    model,
    callNumber,
    callNumberInUse: callNumber !== null && (await numberOnBarrier(executor, barrierId, callNumber)),
    callNumberNamed: namedCallNumber !== undefined,
    profile,
    hasPassword: !getSheet(model).hasPassword || barrier.devicePasswordEncrypted !== null,
    slot: freeSlotForRun(model, await usedSlots(executor, barrierId), profile),
    testNumber: number,
    testNumberInUse: inUse !== undefined,
    running: running !== undefined,
  };
}

/** Whether the number opens this barrier's unit anyway: an active phone of it, or a number the unit holds. */
async function numberOnBarrier(executor: Executor, barrierId: number, number: string): Promise<boolean> {
  const [phone] = await executor
    .select({ id: phones.id })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), eq(phones.phone, number), eq(phones.isActive, true)))
    .limit(1);
  if (phone) return true;
  const held = await executor
    .select({ number: deviceSlots.number })
    .from(deviceSlots)
    .where(eq(deviceSlots.barrierId, barrierId));
  return held.some((row) => parseDeviceNumber(row.number) === number);
}

const CALL_NUMBER_IN_USE =
  'Ваш номер уже записан на шлагбауме и открывает его при любом окне: чтобы проверить порядок цифр звонком, укажите другой номер.';

interface PlanChoices {
  includePassword: boolean;
  includeCall: boolean;
  includePower: boolean;
}

function planOf(context: Context, now: Date, choices: PlanChoices): ConformancePlan {
  const callable = context.callNumber !== null && !context.callNumberInUse;
  return planConformance({
    model: context.model,
    profile: context.profile,
    slot: context.slot ?? 1,
    testNumber: context.testNumber ?? '+70000000000',
    now,
    includePassword: choices.includePassword,
    callNumber: choices.includeCall && callable ? context.callNumber : null,
    callRefused: !choices.includeCall
      ? 'Не отмечено: звонить на устройство не будем.'
      : callable
        ? null
        : CALL_NUMBER_IN_USE,
    includePower: choices.includePower,
  });
}

/** The steps that send an SMS (a step that asks the person sends none). */
const smsSteps = (plan: ConformancePlan) => plan.steps.filter((step) => step.action.form !== 'ask').length;

type Unavailable =
  | 'conformance_running'
  | 'conformance_no_read_back'
  | 'device_password_not_set'
  | 'conformance_no_free_slot'
  | 'conformance_no_test_number'
  | 'conformance_test_number_in_use';

/** Why a run cannot start now (an error code), or null. */
function unavailable(context: Context): Unavailable | null {
  if (context.running) return 'conformance_running';
  if (!getSheet(context.model).readBack) return 'conformance_no_read_back';
  if (!context.hasPassword) return 'device_password_not_set';
  if (context.slot === null) return 'conformance_no_free_slot';
  if (context.testNumber === null) return 'conformance_no_test_number';
  if (context.testNumberInUse) return 'conformance_test_number_in_use';
  return null;
}

function planView(deps: Deps, context: Context, now: Date): ConformancePlanView {
  const without = planOf(context, now, { includePassword: false, includeCall: false, includePower: false });
  const withPassword = planOf(context, now, {
    includePassword: true,
    includeCall: false,
    includePower: false,
  });
  const callable = context.callNumber !== null && !context.callNumberInUse;
  // Every step the model has, as if the call could be made (the screen lists what the ticks add).
  const everything = planOf(
    { ...context, callNumber: context.callNumber ?? '+70000000000', callNumberInUse: false },
    now,
    { includePassword: true, includeCall: true, includePower: true },
  );
  const callSms = everything.steps.filter((step) => step.action.form === 'clock_trial').length;
  const reason = unavailable(context);
  const stepMinutes = deps.config.DEVICE_REPLY_TIMEOUT_MS / 60_000;
  return {
    available: reason === null,
    reason,
    model: context.model,
    model_label: getSheet(context.model).label,
    slot: context.slot,
    test_number: context.testNumber,
    sms: smsSteps(without),
    sms_with_password: smsSteps(withPassword),
    has_password_step: withPassword.steps.length > without.steps.length,
    has_call_step: callSms > 0,
    call_sms: callSms,
    call_refused: callable ? null : CALL_NUMBER_IN_USE,
    has_power_step: everything.steps.some((step) => step.key === 'power_cut'),
    max_minutes: Math.ceil(smsSteps(withPassword) * stepMinutes),
    steps: everything.steps.map((step) => ({ key: step.key, label: step.label })),
    skipped: without.skipped.filter(
      (skip) => !['Смена пароля', 'Порядок цифр времени', 'СМС о питании'].includes(skip.form),
    ),
  };
}

const confirmedStep = (record: StepRecord) =>
  record.verdict === 'as_sheet' ||
  record.verdict === 'opened' ||
  record.state === 'skipped' ||
  (record.verdict === 'no_answer' && !record.step.expectsReply);

/** What a step asks of the person (only while it waits for him), and the texts a power step captured. */
function askOf(record: StepRecord): Pick<ConformanceStepView, 'asks' | 'call_number' | 'captured'> {
  const { action } = record.step;
  const waiting = record.state === 'sent' && action.form === 'ask';
  return {
    asks: waiting ? action.ask : null,
    call_number: action.form === 'ask' && action.ask === 'call' ? action.number : null,
    captured: record.captured ?? [],
  };
}

async function runView(executor: Executor, run: RunRow): Promise<ConformanceRun> {
  const steps = run.steps as StepRecord[];
  const ids = steps.flatMap((record) => (record.command_id === null ? [] : [record.command_id]));
  const sent =
    ids.length === 0
      ? []
      : await executor
          .select({
            commandId: deviceMessages.commandId,
            direction: deviceMessages.direction,
            text: deviceMessages.text,
          })
          .from(deviceMessages)
          .where(and(eq(deviceMessages.barrierId, run.barrierId), inArray(deviceMessages.commandId, ids)))
          .orderBy(deviceMessages.id);
  // What the device log keeps, the password masked: the SMS sent, and the answer where the step keeps none.
  const sentText = new Map(
    sent.filter((row) => row.direction === 'out').map((row) => [row.commandId, row.text]),
  );
  const replyText = new Map(
    sent.filter((row) => row.direction === 'in').map((row) => [row.commandId, row.text]),
  );
  const views: ConformanceStepView[] = steps.map((record) => ({
    key: record.step.key,
    label: record.step.label,
    state: record.state,
    sent_text: record.command_id === null ? null : (sentText.get(record.command_id) ?? null),
    reply:
      record.reply ??
      (record.state === 'done' && record.command_id !== null
        ? (replyText.get(record.command_id) ?? null)
        : null),
    verdict: record.verdict,
    expects_reply: record.step.expectsReply,
    learnt: record.learnt,
    note: record.note,
    ...askOf(record),
  }));
  return {
    id: run.id,
    status: run.status as ConformanceRun['status'],
    stop_requested: run.stopRequested,
    slot: run.slot,
    test_number: run.testNumber,
    steps: views,
    all_confirmed:
      run.status === 'finished' && steps.every((record) => confirmedStep(record) && record.note === null),
    end_reason: run.endReason,
    created_at: run.createdAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
  };
}

async function latestRun(executor: Executor, barrierId: number): Promise<RunRow | undefined> {
  const [run] = await executor
    .select()
    .from(deviceConformanceRuns)
    .where(eq(deviceConformanceRuns.barrierId, barrierId))
    .orderBy(desc(deviceConformanceRuns.id))
    .limit(1);
  return run;
}

export async function getConformance(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<ConformanceResponse> {
  const context = await loadContext(deps.db, user, barrierId);
  const run = await latestRun(deps.db, barrierId);
  return {
    plan: planView(deps, context, deps.clock.now()),
    run: run ? await runView(deps.db, run) : null,
  };
}

/** Starts a run: the plan stored, its first step queued, the start in history; one transaction. */
export async function startConformance(
  deps: Deps & Pick<Dependencies, 'notifyDeviceCommands'>,
  user: AuthenticatedUser,
  barrierId: number,
  body: StartConformanceBody,
): Promise<ConformanceResponse> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    const context = await loadContext(tx, user, barrierId, body.include_call ? body.call_number : undefined);
    const reason = unavailable(context);
    if (reason === 'conformance_running') throw conflict(reason);
    if (reason !== null) throw badRequest(reason);
    if (body.include_call && context.callNumberInUse) throw badRequest('conformance_call_number_in_use');
    const plan = planOf(context, now, {
      includePassword: body.include_password === true,
      includeCall: body.include_call === true,
      includePower: body.include_power === true,
    });
    await assertWeeklySmsBudget(tx, deps, barrierId, smsSteps(plan), now);
    const steps: StepRecord[] = plan.steps.map((step) => ({
      step,
      state: 'pending',
      command_id: null,
      reply: null,
      verdict: null,
      learnt: null,
      note: null,
    }));
    const [run] = await tx
      .insert(deviceConformanceRuns)
      .values({
        barrierId,
        requestedBy: user.id,
        slot: context.slot ?? 1,
        testNumber: context.testNumber ?? '',
        includePassword: body.include_password === true,
        utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
        steps,
        createdAt: now,
      })
      .returning();
    if (!run) throw new Error('The run was not stored.');
    await advanceRun(tx, run, steps, -1, now);
    await insertAction(tx, barrierId, user.id, { setting: 'conformance_run', run: run.id }, now);
  });
  deps.notifyDeviceCommands([barrierId]);
  return getConformance(deps, user, barrierId);
}

/**
 * Stops the running run: the steps not sent yet are skipped; once the test number may have been written,
 * its delete and the last read are still sent. A step already on its way is waited for (its answer is kept).
 */
export async function stopConformance(
  deps: Deps & Pick<Dependencies, 'notifyDeviceCommands'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<ConformanceResponse> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    const [run] = await tx
      .select()
      .from(deviceConformanceRuns)
      .where(and(eq(deviceConformanceRuns.barrierId, barrierId), eq(deviceConformanceRuns.status, 'running')))
      .for('update');
    if (!run) throw conflict('conformance_not_running');
    const stopping = { ...run, stopRequested: true };
    await tx
      .update(deviceConformanceRuns)
      .set({ stopRequested: true })
      .where(eq(deviceConformanceRuns.id, run.id));
    const steps = run.steps as StepRecord[];
    const current = steps.findIndex((record) => record.state === 'sent');
    const record = current >= 0 ? steps[current] : undefined;
    if (!record || record.command_id === null) {
      // A step that waits for the person is not waited for.
      if (record) steps[current] = { ...record, state: 'skipped', note: 'Проверка остановлена.' };
      await advanceRun(tx, stopping, steps, current, now);
      return;
    }
    // A step the engine has not sent yet is taken back; one on its way is waited for.
    const cancelled = await tx
      .update(deviceCommands)
      .set({ status: 'cancelled', finishedAt: now, nextAttemptAt: null })
      .where(
        and(
          eq(deviceCommands.id, record.command_id),
          eq(deviceCommands.status, 'queued'),
          eq(deviceCommands.attempts, 0),
        ),
      )
      .returning({ id: deviceCommands.id });
    if (cancelled.length === 0) return;
    steps[current] = { ...record, state: 'skipped', note: 'Не отправлено: проверка остановлена.' };
    await advanceRun(tx, stopping, steps, current, now);
  });
  deps.notifyDeviceCommands([barrierId]);
  return getConformance(deps, user, barrierId);
}

/** The person's answer to the step that asks him (a call, the power cut); the run goes on. */
export async function answerConformance(
  deps: Deps & Pick<Dependencies, 'notifyDeviceCommands'>,
  user: AuthenticatedUser,
  barrierId: number,
  body: { answer: ConformanceAnswer },
): Promise<ConformanceResponse> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await answerStep(tx, barrierId, body.answer, now);
  });
  deps.notifyDeviceCommands([barrierId]);
  return getConformance(deps, user, barrierId);
}
