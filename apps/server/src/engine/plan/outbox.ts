/**
 * The device outbox. After any change to a barrier's phones, the domain calls `syncBarrierDevice` inside
 * the same transaction (after `lockBarrier`): it compares what the database says the device should hold
 * now with what the device is believed to hold (device-state.ts), plans the fewest commands with
 * @propusk/devices and stores them as `device_commands` rows. Commands planned earlier but not yet sent are
 * replaced by the new plan, so a phone added and removed before its SMS left costs nothing. The device worker
 * sends them after commit.
 *
 * A change whose commands would exceed the barrier's `sms_weekly_limit` is refused here, before anything
 * is stored (the caller's transaction rolls back; weekly-budget.ts). The worker's own re-plans (after a reply,
 * at the start or end of a time window) are not refused: taking a number off a device must never wait for a
 * budget.
 */

import { desiredWhitelist, type PhoneSpec, sameEntry } from '@propusk/devices/access';
import { planSms, smsPerAttempt } from '@propusk/devices/cost';
import { type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import {
  canBatch,
  commandEntries,
  commandFromJson,
  commandToJson,
  type PlannedCommand,
  planCommands,
} from '@propusk/devices/planner';
import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceCommands, phones } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import {
  assertResidentSmsShare,
  assertWeeklySmsBudget,
  committedSms,
  countCommandsThisWeek,
  loadWeeklyLimit,
} from '../budget/index.ts';
import { type DeviceView, deviceViewOf, GATEWAY_SPEC_ID, loadDeviceState } from './device-state.ts';
import { settlePendingPhones, slotsCovered } from './pending-phones.ts';

/**
 * Serialises every change to one barrier's phones and device state (slot allocation, planning, sending).
 *
 * `for no key update`, the row lock an UPDATE of the barrier takes, not `for update`: both exclude each other
 * (every holder of this lock still waits for the previous one), but `for update` also blocks the `for key share`
 * that PostgreSQL's foreign-key check takes on the barrier for every row inserted into a table that references
 * it (device_messages, device_commands, actions, phones…). Under load half of PostgreSQL's time went to such
 * inserts of other transactions (an inbound reply's message) waiting for the barrier's lock holder
 * (docs/decisions/0027, session of 2026-11-26). The same mode in send-batcher.ts and device-rows.ts.
 */
export async function lockBarrier(executor: Executor, barrierId: number): Promise<void> {
  await executor.execute(
    sql`select id from ${barriers} where ${barriers.id} = ${barrierId} for no key update`,
  );
}

export interface SyncOptions {
  /** Refuse (409) a plan that exceeds `sms_weekly_limit`. Default true (changes made by people). */
  enforceWeeklyLimit?: boolean;
  /** Slots to plan again even though their last command failed (an administrator's retry). */
  retrySlots?: number[];
  /**
   * What the barrier was committed to before the change (committed-sms.ts `loadCommittedSms`, read before writing). A change
   * that queues no command is still checked against the limit when it commits the device to more than this
   * (a schedule edited to more windows, a timed phone on a model without windows added before its start).
   * Not given: 0, so any change with SMS ahead is checked (a caller that knows it changed nothing that
   * costs, e.g. a rename, passes the value so that a spent budget does not refuse it).
   */
  committedBefore?: number;
  /**
   * The resident whose own change this is (sms-shares.ts): its new commands are his, and the change is refused
   * over his share of the weekly limit. Null or absent: the owner, his staff or the system.
   */
  spentBy?: number | null;
  /**
   * The barrier's `sms_weekly_limit` when the caller has read it already (`lockLiveBarrier` reads the limits
   * with the lock): one statement less while the barrier is locked. Absent: read here.
   */
  weeklyLimit?: number | null;
  /** Filled with the phones the sync found as their devices should have them (now `ok`) and when. */
  report?: SyncReport;
}

export interface SyncReport {
  settledPhoneIds: number[];
  settledAt: Date | null;
}

/**
 * How many of the queued commands the new plan starts with (those stay queued as they are). A stored payload
 * comes back from jsonb with its keys reordered (a window's `end` before its `start`), so it is compared in
 * the planner's own form.
 */
function commonPrefix(queued: DeviceView['queued'], plan: PlannedCommand[]): number {
  let index = 0;
  while (
    index < queued.length &&
    index < plan.length &&
    JSON.stringify(commandToJson(commandFromJson(queued[index]!.payload))) ===
      JSON.stringify(commandToJson(plan[index]!))
  ) {
    index += 1;
  }
  return index;
}

/**
 * The plan for the barrier's device as the database describes it now, plus `extraSpecs` (phones not written
 * yet: a preview), without writing anything: the commands the new plan keeps from the queue, those it drops
 * (`stale`) and those it adds (`fresh`). null for a barrier without a known model.
 */
async function planDevice(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
  options: SyncOptions,
  extraSpecs: readonly (PhoneSpec & { id: number })[] = [],
) {
  const now = deps.clock.now();
  const state = await loadDeviceState(executor, barrierId);
  if (!state || !isDeviceModel(state.model)) return null;
  const model: DeviceModel = state.model;
  const specs = [...state.specs, ...extraSpecs];
  const view = deviceViewOf(state, now);
  const retry = new Set(options.retrySlots ?? []);

  const desiredBySlot = new Map(
    desiredWhitelist(model, specs, now, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES).map((entry) => [
      entry.slot,
      entry,
    ]),
  );
  let believed = view.believed;
  const unconfirmed = new Set(believed.unconfirmedSlots ?? []);
  const uncertain = [...(believed.uncertain ?? [])];
  const frozen = new Set<number>();
  for (const [slot, intended] of view.quarantined) {
    if (!retry.has(slot) && sameEntry(desiredBySlot.get(slot) ?? null, intended)) {
      // The database still wants what failed: leave the slot alone until something changes.
      frozen.add(slot);
      desiredBySlot.delete(slot);
      unconfirmed.delete(slot);
    } else {
      unconfirmed.add(slot);
      // On a number-addressed device the failed add's number may be there, whatever slot it was filed under.
      if (intended && view.addressing === 'number') uncertain.push({ slot, number: intended.number });
    }
  }
  believed = {
    uncertain,
    entries: believed.entries.filter((entry) => !frozen.has(entry.slot)),
    clockSetAt: view.clockQuarantined && retry.size === 0 ? now : (believed.clockSetAt ?? null),
    unconfirmedSlots: [...unconfirmed].sort((a, b) => a - b),
  };
  // Several numbers in one SMS where the model's batch reply says how many it took (canBatch: TELL).
  const plan = planCommands({
    model,
    desired: [...desiredBySlot.values()],
    believed,
    now,
    batch: canBatch(model),
    alone: view.alone,
  });
  const kept = commonPrefix(view.queued, plan);
  return {
    now,
    model,
    specs,
    believed,
    stale: view.queued.slice(kept),
    fresh: plan.slice(kept),
    plan,
    hasPendingPhones: state.hasPendingPhones,
    pendingPhones: state.pendingPhones,
    open: state.open,
  };
}

/**
 * What `syncBarrierDevice` would queue if `extraSpecs` were added to the barrier's phones, without writing:
 * the number of new commands (SMS) and whether the weekly SMS limit would refuse them (the same check,
 * counting the queued commands the plan would cancel as cancelled). For previews (a bulk import).
 */
export async function forecastDeviceSync(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
  extraSpecs: readonly (PhoneSpec & { id: number })[],
  options: Pick<SyncOptions, 'committedBefore'> = {},
): Promise<{ sms: number; overWeeklyLimit: boolean }> {
  const planned = await planDevice(executor, deps, barrierId, {}, extraSpecs);
  if (!planned) return { sms: 0, overWeeklyLimit: false };
  const { now, model, specs, believed, stale, fresh, plan } = planned;
  const limit = await loadWeeklyLimit(executor, barrierId);
  const sms = planSms(model, fresh);
  if (limit === null) return { sms, overWeeklyLimit: false };
  const clockSetAt = plan.some((command) => command.kind === 'set_clock')
    ? now
    : (believed.clockSetAt ?? null);
  const committed = committedSms(deps, now, { model, specs, clockSetAt });
  if (fresh.length === 0 && committed <= (options.committedBefore ?? 0))
    return { sms: 0, overWeeklyLimit: false };
  const used =
    (await countCommandsThisWeek(executor, barrierId, now)) -
    planSms(
      model,
      stale.map((row) => commandFromJson(row.payload)),
    );
  return { sms, overWeeklyLimit: used + sms + committed > limit };
}

/**
 * Plans and queues the commands that bring the barrier's device to the state the database now describes.
 * Must run inside the transaction of the change, after `lockBarrier`. Returns the SMS of the commands
 * newly queued (0 when the queue already held the right plan; two a change on a `read_back` model). Queued commands that the new plan still
 * starts with stay as they are; the rest of the old plan is cancelled.
 */
export async function syncBarrierDevice(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
  options: SyncOptions = {},
): Promise<number> {
  const planned = await planDevice(executor, deps, barrierId, options);
  if (!planned) return 0;
  const { now, model, specs, believed, stale, fresh, plan, hasPendingPhones, pendingPhones, open } = planned;
  // Two SMS a change where the model confirms it by reading it back (planSms).
  const freshSms = planSms(model, fresh);
  if (stale.length > 0) {
    await executor
      .update(deviceCommands)
      .set({ status: 'cancelled', finishedAt: now })
      .where(
        inArray(
          deviceCommands.id,
          stale.map((row) => row.id),
        ),
      );
  }
  // Barriers without a limit pay nothing for the forecast.
  const enforce = options.enforceWeeklyLimit ?? true;
  if (
    enforce &&
    (options.weeklyLimit !== undefined ? options.weeklyLimit : await loadWeeklyLimit(executor, barrierId)) !==
      null
  ) {
    // The clock as the device will have it once this plan is sent (the forecast counts its renewal).
    const clockSetAt = plan.some((command) => command.kind === 'set_clock')
      ? now
      : (believed.clockSetAt ?? null);
    const committed = committedSms(deps, now, { model, specs, clockSetAt });
    if (fresh.length > 0 || committed > (options.committedBefore ?? 0))
      await assertWeeklySmsBudget(executor, barrierId, freshSms, now, committed);
    // His timed phones' coming SMS count in his share too (phones.sms_paid_by): a change that commits the
    // device to more is checked even when it queues nothing now.
    if (options.spentBy != null)
      await assertResidentSmsShare(
        executor,
        barrierId,
        options.spentBy,
        freshSms,
        now,
        deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
        { committedGrew: committed > (options.committedBefore ?? 0) },
      );
  }
  let pendingPhoneIds: number[] = [];
  if (fresh.length > 0) {
    const phoneIdBySlot = new Map(
      specs.filter((spec) => spec.id !== GATEWAY_SPEC_ID).map((spec) => [spec.slot, spec.id]),
    );
    const dueAts = commandDeadlines(fresh);
    await executor.insert(deviceCommands).values(
      fresh.map((command, index) => ({
        barrierId,
        phoneId:
          command.slot !== undefined && command.kind !== 'delete'
            ? (phoneIdBySlot.get(command.slot) ?? null)
            : null,
        kind: command.kind,
        spentBy: options.spentBy ?? null,
        smsPerAttempt: smsPerAttempt(model, command),
        payload: commandToJson(command),
        createdAt: now,
        dueAt: dueAts[index] ?? null,
      })),
    );
    // A batch links no phone (one row, several numbers): its phones are found by the slots it carries.
    pendingPhoneIds = fresh
      .filter((command) => command.kind === 'add' || command.kind === 'add_window')
      .flatMap((command) => commandEntries(command).map((entry) => phoneIdBySlot.get(entry.slot)))
      .filter((id): id is number => id !== undefined);
  }
  // Phones marked pending just now have their command queued: only those pending before can be settled, and
  // only when one of them is left without an open command for its slot (else the statement would change
  // nothing: skipped, one round trip less under the barrier lock on every add).
  const alreadyPending = new Set(pendingPhones.map((phone) => phone.id));
  const toMark = pendingPhoneIds.filter((id) => !alreadyPending.has(id));
  const staleIds = new Set(stale.map((row) => row.id));
  const covered = slotsCovered([
    ...open.filter((row) => !staleIds.has(row.id)).map((row) => row.payload),
    ...fresh.map(commandToJson),
  ]);
  const marked = new Set(pendingPhoneIds);
  const mustSettle =
    hasPendingPhones &&
    // A pending phone without a slot (not in `pendingPhones`): the statement decides.
    (pendingPhones.length === 0 ||
      pendingPhones.some((phone) => !marked.has(phone.id) && !covered.has(phone.slot)));
  if (mustSettle) {
    const settled = await settlePendingPhones(executor, barrierId, now, pendingPhoneIds);
    if (options.report) {
      options.report.settledPhoneIds.push(...settled);
      options.report.settledAt = now;
    }
  } else if (toMark.length > 0)
    await executor
      .update(phones)
      .set({ status: 'pending', updatedAt: now })
      .where(inArray(phones.id, toMark));
  return freshSms;
}

/**
 * Each command's deadline in the queue's order across barriers (`device_commands.due_at`; null: when it is
 * stored): a window's start; for the clock, the soonest start of the windows planned after it (it is written
 * for them, and carries no deadline of its own).
 */
function commandDeadlines(commands: readonly PlannedCommand[]): (Date | null)[] {
  return commands.map((command, index) => {
    if (command.window) return command.window.start;
    if (command.kind !== 'set_clock') return null;
    let soonest: Date | null = null;
    for (const later of commands.slice(index + 1))
      if (later.window && (soonest === null || later.window.start < soonest)) soonest = later.window.start;
    return soonest;
  });
}
