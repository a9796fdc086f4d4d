/**
 * «Проверка устройства по модели» (issue 42): the plan a run would follow, starting it, stopping it, and
 * its steps as the screen follows them. The owner or a manager (`settings.manage`). Nothing is sent from a
 * request: a start queues the first step in the outbox, the engine's hook (steps.ts) queues the next.
 */
import type {
  ConformanceAnswer,
  ConformanceResponse,
  ConformanceRun,
  ConformanceStepView,
  StartConformanceBody,
} from '@propusk/contracts/conformance';
import type { Executor } from '../../db/database.ts';
import { assertWeeklySmsBudget } from '../../engine/budget/index.ts';
import { loadCommittedSms, lockBarrier } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import { insertAction } from '../device-checks/repository.ts';
import { answerStep } from './person-steps.ts';
import { type Deps, loadContext, planOf, planView, smsSteps, unavailable } from './plan.ts';
import * as repository from './repository.ts';
import { advanceRun, type RunRow, type StepRecord } from './steps.ts';

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
  const sent = ids.length === 0 ? [] : await repository.stepMessages(executor, run.barrierId, ids);
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

export async function getConformance(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<ConformanceResponse> {
  const context = await loadContext(deps.db, user, barrierId);
  const run = await repository.latestRun(deps.db, barrierId);
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
    await assertWeeklySmsBudget(tx, barrierId, smsSteps(plan), now, () =>
      loadCommittedSms(tx, deps, barrierId, now),
    );
    const steps: StepRecord[] = plan.steps.map((step) => ({
      step,
      state: 'pending',
      command_id: null,
      reply: null,
      verdict: null,
      learnt: null,
      note: null,
    }));
    const run = await repository.insertRun(tx, {
      barrierId,
      requestedBy: user.id,
      slot: context.slot ?? 1,
      testNumber: context.testNumber ?? '',
      includePassword: body.include_password === true,
      utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
      steps,
      createdAt: now,
    });
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
    const run = await repository.lockRunningRun(tx, barrierId);
    if (!run) throw conflict('conformance_not_running');
    const stopping = { ...run, stopRequested: true };
    await repository.updateRun(tx, run.id, { stopRequested: true });
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
    if (!(await repository.cancelUnsentCommand(tx, record.command_id, now))) return;
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
