/**
 * "Проверить устройство": read a barrier's device whitelist back, show where it differs from the database
 * and what the repair costs, and repair on the administrator's confirmation (docs/decisions/0006).
 *
 * The read queries travel through the device queue like any command (`device_commands` of kind `read`),
 * one at a time, with retries; `recordReadReply` (the engine's hook, engine/hooks.ts) merges each reply into the check.
 * A repair trusts the reading: the slots read take what the device said in `device_slots`, the clock is
 * trusted no more, and the outbox plans the fewest commands from there, deletes first.
 */

import type { DeviceCheck } from '@propusk/contracts/device-checks';
import { desiredWhitelist } from '@propusk/devices/access';
import { planSms } from '@propusk/devices/cost';
import { DAY_MS } from '@propusk/devices/device-time';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import { canBatch, planCommands } from '@propusk/devices/planner';
import {
  adoptList,
  adoptReading,
  diffList,
  diffReading,
  type ReadQuery,
  type SlotReading,
} from '@propusk/devices/readback';
import type { Executor } from '../../db/database.ts';
import { assertWeeklySmsBudget } from '../../engine/budget/index.ts';
import type { ReadOutcome } from '../../engine/hooks.ts';
import type { ReadCommandPayload } from '../../engine/plan/index.ts';
import {
  deviceViewOf,
  loadCommittedSms,
  loadDeviceState,
  lockBarrier,
  syncBarrierDevice,
} from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';
import * as repository from './repository.ts';
import { planQueries, startCheck } from './start-check.ts';

type Deps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'notifyDeviceCommands'>;

/** The barrier's latest check (null: never checked). */
export async function getDeviceCheck(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<{ check: DeviceCheck | null; audit_every_days: number | null }> {
  const barrier = await requireBarrierPermission(deps.db, user.id, barrierId, 'settings.manage');
  const audit_every_days = barrier.deviceAuditDays ?? null;
  const row = await repository.latestCheck(deps.db, barrierId);
  if (!row || !isDeviceModel(barrier.deviceModel)) return { check: null, audit_every_days };
  return { check: await presentCheck(deps, deps.db, barrier.deviceModel, row), audit_every_days };
}

/** Turns the periodic audit on (every 1–90 days) or off (null); written to history. */
export async function setDeviceAudit(
  deps: Pick<Deps, 'db' | 'clock'>,
  user: AuthenticatedUser,
  barrierId: number,
  everyDays: number | null,
): Promise<{ audit_every_days: number | null }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const barrier = await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    await repository.setAuditDays(tx, barrierId, everyDays, now);
    await repository.insertAction(
      tx,
      barrierId,
      user.id,
      { setting: 'device_audit', old: barrier.deviceAuditDays ?? null, every_days: everyDays },
      now,
    );
    return { audit_every_days: everyDays };
  });
}

/**
 * The periodic audit (run by the device worker's sweep): every barrier whose audit is due (its last check
 * older than its period) and whose weekly SMS limit has room for the read is read back; once read, it is
 * repaired by itself. A barrier over its limit waits for the next sweep. Returns the barriers started.
 */
export async function startDueAudits(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number[]> {
  const now = deps.clock.now();
  const started: number[] = [];
  for (const barrierId of await repository.barriersWithAuditDue(deps.db, now)) {
    const ok = await deps.db.transaction(async (tx) => {
      await lockBarrier(tx, barrierId);
      const barrier = await repository.auditBarrier(tx, barrierId);
      if (!barrier || !isDeviceModel(barrier.deviceModel) || barrier.deviceAuditDays === null) return false;
      const latest = await repository.latestCheck(tx, barrierId);
      const dueAt = latest ? latest.createdAt.getTime() + barrier.deviceAuditDays * DAY_MS : 0;
      if (latest?.status === 'reading' || dueAt > now.getTime()) return false;
      const queries = await planQueries(
        tx,
        barrierId,
        barrier.deviceModel,
        barrier.deviceProfile,
        false,
        now,
      );
      try {
        await assertWeeklySmsBudget(tx, barrierId, queries.length, now, () =>
          loadCommittedSms(tx, deps, barrierId, now),
        );
      } catch {
        return false;
      }
      await startCheck(tx, {
        barrierId,
        requestedBy: null,
        full: false,
        autoRepair: true,
        queries,
        action: { setting: 'device_audit_check' },
        now,
      });
      return true;
    });
    if (ok) started.push(barrierId);
  }
  // The caller (the worker's sweep) drives them with every barrier that has an open command.
  return started;
}

/** Starts a check: its read queries are queued (409 while another check is reading, or over the SMS limit). */
export async function startDeviceCheck(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
  body: { full?: boolean | undefined },
): Promise<{ check: DeviceCheck; audit_every_days: number | null }> {
  const now = deps.clock.now();
  let auditEveryDays: number | null = null;
  const check = await deps.db.transaction(async (tx) => {
    const barrier = await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_model_unknown');
    const model = barrier.deviceModel;
    auditEveryDays = barrier.deviceAuditDays ?? null;
    const running = await repository.latestCheck(tx, barrierId);
    if (running?.status === 'reading') throw conflict('device_check_running');
    const queries = await planQueries(tx, barrierId, model, barrier.deviceProfile, body.full ?? false, now);
    await assertWeeklySmsBudget(tx, barrierId, queries.length, now, () =>
      loadCommittedSms(tx, deps, barrierId, now),
    );
    const row = await startCheck(tx, {
      barrierId,
      requestedBy: user.id,
      full: body.full ?? false,
      autoRepair: false,
      queries,
      action: { setting: 'device_check' },
      now,
    });
    return presentCheck(deps, tx, model, row);
  });
  deps.notifyDeviceCommands([barrierId]);
  return { check, audit_every_days: auditEveryDays };
}

/** Repairs the device from the latest finished check: 409 unless one is ready. */
export async function repairDevice(
  deps: Deps,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<{ check: DeviceCheck; queued: number }> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const barrier = await requireBarrierPermission(tx, user.id, barrierId, 'settings.manage');
    await lockBarrier(tx, barrierId);
    if (!isDeviceModel(barrier.deviceModel)) throw conflict('device_check_not_ready');
    const model = barrier.deviceModel;
    const row = await repository.latestCheck(tx, barrierId);
    if (row?.status !== 'ready') throw conflict('device_check_not_ready');
    await applyReading(tx, model, row, now);
    const queued = await syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: true });
    const repaired = await repository.finishCheck(tx, row.id, 'repaired', now);
    await repository.insertAction(tx, barrierId, user.id, { setting: 'device_repair', queued }, now);
    return { check: await presentCheck(deps, tx, model, repaired), queued };
  });
  deps.notifyDeviceCommands([barrierId]);
  return result;
}

/**
 * The engine's hook (its `readReply`, src/domain-hooks.ts): a reply (or a failure) to a read command. Merges the reading into its check and
 * settles the check when every query is answered, or fails it.
 */
export async function recordReadReply(
  deps: Pick<Deps, 'clock' | 'config'>,
  executor: Executor,
  payload: ReadCommandPayload,
  reply: ReadOutcome,
  now: Date,
): Promise<void> {
  const row = await repository.checkById(executor, payload.check_id);
  if (row?.status !== 'reading') return;
  if (reply === null) return;
  if (reply.outcome === 'refused' || reply.outcome === 'format_error' || reply.outcome === 'no_reply') {
    await repository.failCheck(executor, row.id, reply.outcome, now);
    await repository.cancelOpenReads(executor, row.barrierId, row.id, now);
    return;
  }
  const answered = row.answered + 1;
  const total = (row.queries as ReadQuery[]).length;
  if (reply.outcome === 'read_list') {
    await repository.recordReading(
      executor,
      row.id,
      { numbers: reply.numbers, answered },
      answered >= total,
      now,
    );
  } else if (reply.outcome === 'read') {
    const reading = { ...(row.reading as SlotReading), ...reply.slots };
    await repository.recordReading(executor, row.id, { reading, answered }, answered >= total, now);
  }
  if (answered >= total && row.autoRepair) await autoRepair(deps, executor, row.id, now);
}

/**
 * A periodic audit that found the device out of step repairs it at once: numbers the database does not
 * allow come off (never waiting for a budget, like every withdrawal), missing ones go on. In step: nothing.
 */
async function autoRepair(
  deps: Pick<Deps, 'clock' | 'config'>,
  executor: Executor,
  checkId: number,
  now: Date,
): Promise<void> {
  const row = await repository.checkById(executor, checkId);
  const barrier = row ? await repository.auditBarrier(executor, row.barrierId) : undefined;
  if (row?.status !== 'ready' || !barrier || !isDeviceModel(barrier.deviceModel)) return;
  const model = barrier.deviceModel;
  const check = await presentCheck(deps, executor, model, row);
  if (check.differences.length === 0) return;
  await applyReading(executor, model, row, now);
  const queued = await syncBarrierDevice(executor, deps, row.barrierId, { enforceWeeklyLimit: false });
  await repository.finishCheck(executor, row.id, 'repaired', now);
  await repository.insertAction(
    executor,
    row.barrierId,
    null,
    { setting: 'device_audit_repair', queued },
    now,
  );
}

async function applyReading(executor: Executor, model: DeviceModel, row: repository.CheckRow, now: Date) {
  if (row.numbers !== null) {
    await repository.applyListReading(executor, row.barrierId, row.numbers as string[], getSheet(model), now);
  } else {
    await repository.applySlotReading(executor, row.barrierId, row.reading as SlotReading, now);
  }
}

/** Which slots a check's queries read: 1 to the last one (ranges from slot 1 on), of the model's slots. */
function readRange(model: DeviceModel, queries: ReadQuery[]) {
  if (queries.some((query) => query.kind === 'list')) return { slots_read_to: null, slot_count: null };
  const last = Math.max(
    0,
    ...queries.map((query) => (query.kind === 'range' ? query.to : query.kind === 'slot' ? query.slot : 0)),
  );
  return { slots_read_to: last, slot_count: getSheet(model).slotCount };
}

export async function presentCheck(
  deps: Pick<Deps, 'config' | 'clock'>,
  executor: Executor,
  model: DeviceModel,
  row: repository.CheckRow,
): Promise<DeviceCheck> {
  const now = deps.clock.now();
  const base = {
    id: row.id,
    status: row.status as DeviceCheck['status'],
    full: row.full,
    automatic: row.autoRepair,
    created_at: apiDateTime(row.createdAt),
    finished_at: apiDateTime(row.finishedAt),
    queries_total: (row.queries as ReadQuery[]).length,
    queries_answered: row.answered,
    failure: (row.failure as DeviceCheck['failure']) ?? null,
    slots_read: Object.keys(row.reading as SlotReading).length,
    ...readRange(model, row.queries as ReadQuery[]),
  };
  const nothing = { repair_sms: 0, repair_numbers_sms: 0, repair_clock_sms: 0 };
  if (row.status !== 'ready' && row.status !== 'repaired') return { ...base, differences: [], ...nothing };
  const state = await loadDeviceState(executor, row.barrierId);
  const desired = desiredWhitelist(
    model,
    state?.specs ?? [],
    now,
    deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
  );
  const view = deviceViewOf(state, now);
  const differences =
    row.numbers !== null
      ? diffList({ numbers: row.numbers as string[], desired })
      : diffReading({ reading: row.reading as SlotReading, believed: view.believed.entries, desired, now });
  if (row.status === 'repaired') return { ...base, differences, ...nothing };
  const adopted =
    row.numbers !== null
      ? adoptList(view.believed, row.numbers as string[])
      : adoptReading(view.believed, row.reading as SlotReading);
  // The engine's own plan: several numbers in one SMS where it batches (canBatch), so the count is exact.
  const repair = planCommands({ model, desired, believed: adopted, now, batch: canBatch(model) });
  // One planned command is one SMS (a batch of numbers too), two where the model confirms a change by reading
  // it back (planSms); the clock is the only other kind a repair sends.
  const clock = repair.filter((command) => command.kind === 'set_clock').length;
  const sms = planSms(model, repair);
  return {
    ...base,
    differences,
    repair_sms: sms,
    repair_numbers_sms: sms - clock,
    repair_clock_sms: clock,
  };
}
