/**
 * The device outbox. After any change to a barrier's phones, the domain calls `syncBarrierDevice` inside
 * the same transaction (after `lockBarrier`): it compares what the database says the device should hold
 * now with what the device is believed to hold (confirmed slots, plus the effect of commands already sent
 * and awaiting their reply), plans the fewest commands with @propusk/devices and stores them as
 * `device_commands` rows. Commands planned earlier but not yet sent are replaced by the new plan, so a phone
 * added and removed before its SMS left costs nothing. The device worker sends them after commit.
 *
 * A change whose commands would exceed the barrier's `sms_weekly_limit` is refused here, before anything
 * is stored (the caller's transaction rolls back). The worker's own re-plans (after a reply, at the start or
 * end of a time window) are not refused: taking a number off a device must never wait for a budget.
 *
 * A slot whose last command failed after every retry is "quarantined": its state on the device is unknown,
 * and sending the same command again and again would only burn SMS. It is planned again when what the
 * database wants for it changes (the phone is edited or removed), when an administrator retries the phone,
 * or, for deletes and the clock (nobody sees them in the UI), an hour after the failure.
 */

import { desiredWhitelist, type PhoneSpec, sameEntry, type WhitelistEntry } from '@propusk/devices/access';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import {
  applyConfirmed,
  type BelievedState,
  commandFromJson,
  commandToJson,
  type PlannedCommand,
  type PlannedCommandJson,
  planCommands,
} from '@propusk/devices/planner';
import { forecastCommittedSms } from '@propusk/devices/weekly-sms';
import { and, asc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierLimits, barriers, deviceCommands, deviceSlots, phones } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** A failed delete or clock command is tried again by itself after this long. */
export const QUARANTINE_REARM_MS = 60 * 60 * 1000;
/** Command kinds that are device whitelist commands (the planner's), as opposed to settings. */
export const WHITELIST_COMMAND_KINDS = ['add', 'add_window', 'delete', 'set_clock'] as const;
const whitelistKinds = [...WHITELIST_COMMAND_KINDS];

/** Serialises every change to one barrier's phones and device state (slot allocation, planning, sending). */
export async function lockBarrier(executor: Executor, barrierId: number): Promise<void> {
  await executor.execute(sql`select id from ${barriers} where ${barriers.id} = ${barrierId} for update`);
}

/** The active phones of a barrier in the planner's terms. */
export async function loadPhoneSpecs(
  executor: Executor,
  barrierId: number,
): Promise<(PhoneSpec & { id: number })[]> {
  const rows = await executor
    .select({
      id: phones.id,
      slot: phones.slot,
      number: phones.phone,
      kind: phones.type,
      start: phones.startTime,
      end: phones.endTime,
      schedule: phones.schedule,
    })
    .from(phones)
    .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true), isNotNull(phones.slot)));
  return rows.map((row) => ({ ...row, slot: row.slot as number }));
}

/** The entry a whitelist command leaves in its slot (null: the slot is empty afterwards). */
function intendedEntry(command: PlannedCommand): WhitelistEntry | null {
  if (command.kind === 'delete' || command.slot === undefined || command.number === undefined) return null;
  return command.window
    ? { slot: command.slot, number: command.number, window: command.window }
    : { slot: command.slot, number: command.number };
}

export interface DeviceView {
  /** Confirmed state plus every command that was sent and awaits its reply (or its retry). */
  believed: BelievedState;
  /** Unsent commands of the current plan, in order. */
  queued: { id: number; payload: PlannedCommandJson }[];
  /** Slot → what its failed command tried to leave there. */
  quarantined: Map<number, WhitelistEntry | null>;
  clockQuarantined: boolean;
  addressing: 'slot' | 'number';
}

/** What the device holds or will hold once the commands already on their way are confirmed. */
export async function loadDeviceView(executor: Executor, barrierId: number, now: Date): Promise<DeviceView> {
  const [barrier] = await executor
    .select({ clockSetAt: barriers.deviceClockSetAt, model: barriers.deviceModel })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  // A number-addressed device (Telemetrica) holds a set of numbers: commands concern a number, not a slot.
  const addressing =
    barrier && isDeviceModel(barrier.model) ? getSheet(barrier.model).addressing : ('slot' as const);
  const key = addressing === 'number' ? 'number' : 'slot';
  const slots = await executor.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrierId));
  let believed: BelievedState = {
    clockSetAt: barrier?.clockSetAt ?? null,
    entries: slots.map((row) => ({
      slot: row.slot,
      number: row.number,
      ...(row.windowStart && row.windowEnd ? { window: { start: row.windowStart, end: row.windowEnd } } : {}),
    })),
  };
  const open = await executor
    .select({
      id: deviceCommands.id,
      payload: deviceCommands.payload,
      status: deviceCommands.status,
      attempts: deviceCommands.attempts,
    })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.status, ['queued', 'sent']),
        inArray(deviceCommands.kind, whitelistKinds),
      ),
    )
    .orderBy(asc(deviceCommands.id));
  const queued: DeviceView['queued'] = [];
  for (const row of open) {
    const payload = row.payload as PlannedCommandJson;
    if (row.status === 'queued' && row.attempts === 0) queued.push({ id: row.id, payload });
    else believed = applyConfirmed(believed, commandFromJson(payload), now, addressing);
  }

  // Failed commands that no later command of the same slot (or the clock) superseded.
  const failed = (await executor.execute(sql`
    select f.payload, f.finished_at from ${deviceCommands} f
    where f.barrier_id = ${barrierId} and f.status = 'failed' and f.attempts > 0
      and f.kind in ('add', 'add_window', 'delete', 'set_clock')
      and not exists (
        select 1 from ${deviceCommands} l
        where l.barrier_id = f.barrier_id and l.id > f.id and l.status <> 'cancelled'
          and l.kind in ('add', 'add_window', 'delete', 'set_clock')
          and coalesce(l.payload->>${key}, '') = coalesce(f.payload->>${key}, '')
      )`)) as unknown as { rows: { payload: PlannedCommandJson; finished_at: string | Date | null }[] };
  const quarantined = new Map<number, WhitelistEntry | null>();
  let clockQuarantined = false;
  for (const row of failed.rows) {
    const command = commandFromJson(row.payload);
    const finishedAt = row.finished_at ? new Date(row.finished_at) : now;
    const rearmed = now.getTime() - finishedAt.getTime() >= QUARANTINE_REARM_MS;
    if (command.kind === 'set_clock') {
      clockQuarantined ||= !rearmed;
    } else if (command.slot !== undefined && !(command.kind === 'delete' && rearmed)) {
      quarantined.set(command.slot, intendedEntry(command));
    } else if (command.slot !== undefined) {
      // A re-armed delete: the slot's content is unknown, so the planner clears it.
      believed = {
        ...believed,
        unconfirmedSlots: [...(believed.unconfirmedSlots ?? []), command.slot],
        ...(command.number !== undefined
          ? { uncertain: [...(believed.uncertain ?? []), { slot: command.slot, number: command.number }] }
          : {}),
      };
    }
  }
  return { believed, queued, quarantined, clockQuarantined, addressing };
}

/** The device's projected state: what it will hold once every open command is confirmed. */
export async function loadProjectedState(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<BelievedState> {
  const view = await loadDeviceView(executor, barrierId, now);
  let state = view.believed;
  for (const command of view.queued)
    state = applyConfirmed(state, commandFromJson(command.payload), now, view.addressing);
  return state;
}

/** Command SMS sent or queued for this barrier's device in the 7 days before `now` (retries count). */
export async function countCommandsThisWeek(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`coalesce(sum(greatest(${deviceCommands.attempts}, 1)), 0)::int` })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.status, ['queued', 'sent', 'confirmed', 'failed']),
        gt(deviceCommands.createdAt, new Date(now.getTime() - WEEK_MS)),
      ),
    );
  return row?.count ?? 0;
}

/** What the barrier's timed phones have committed its device to over the coming week (weekly-sms.ts). */
export async function loadCommittedSms(
  executor: Executor,
  deps: Pick<Dependencies, 'config'>,
  barrierId: number,
  now: Date,
  known?: { model: DeviceModel; specs: readonly PhoneSpec[]; clockSetAt: Date | null },
): Promise<number> {
  let source = known;
  if (!source) {
    const [barrier] = await executor
      .select({ model: barriers.deviceModel, clockSetAt: barriers.deviceClockSetAt })
      .from(barriers)
      .where(eq(barriers.id, barrierId));
    if (!barrier || !isDeviceModel(barrier.model)) return 0;
    source = {
      model: barrier.model,
      specs: await loadPhoneSpecs(executor, barrierId),
      clockSetAt: barrier.clockSetAt,
    };
  }
  return forecastCommittedSms(
    source.model,
    source.specs,
    now,
    source.clockSetAt,
    deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
  ).total;
}

/** The barrier's `sms_weekly_limit` (null: none). */
async function loadWeeklyLimit(executor: Executor, barrierId: number): Promise<number | null> {
  const [limits] = await executor
    .select({ smsWeeklyLimit: barrierLimits.smsWeeklyLimit })
    .from(barrierLimits)
    .where(eq(barrierLimits.barrierId, barrierId));
  return limits?.smsWeeklyLimit ?? null;
}

/**
 * 409 when `extra` more SMS would take the barrier over its weekly limit: the SMS of the last seven days,
 * plus `extra`, plus what its timed phones are committed to over the coming week (`committed`; loaded when
 * not given), must stay within `sms_weekly_limit`. Counting the committed SMS is what keeps a change by a
 * person from spending the SMS that accepted phones' windows will need.
 */
export async function assertWeeklySmsBudget(
  executor: Executor,
  deps: Pick<Dependencies, 'config'>,
  barrierId: number,
  extra: number,
  now: Date,
  committed?: number,
): Promise<void> {
  const limit = await loadWeeklyLimit(executor, barrierId);
  if (limit === null) return;
  const used = await countCommandsThisWeek(executor, barrierId, now);
  const ahead = committed ?? (await loadCommittedSms(executor, deps, barrierId, now));
  if (used + extra + ahead > limit) throw conflict('sms_weekly_limit');
}

export interface SyncOptions {
  /** Refuse (409) a plan that exceeds `sms_weekly_limit`. Default true (changes made by people). */
  enforceWeeklyLimit?: boolean;
  /** Slots to plan again even though their last command failed (an administrator's retry). */
  retrySlots?: number[];
  /**
   * What the barrier was committed to before the change (`loadCommittedSms`, read before writing). A change
   * that queues no command is still checked against the limit when it commits the device to more than this
   * (a schedule edited to more windows, a timed phone on a model without windows added before its start).
   * Not given: 0, so any change with SMS ahead is checked (a caller that knows it changed nothing that
   * costs, e.g. a rename, passes the value so that a spent budget does not refuse it).
   */
  committedBefore?: number;
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
  const [barrier] = await executor
    .select({ model: barriers.deviceModel })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  if (!barrier || !isDeviceModel(barrier.model)) return null;
  const model: DeviceModel = barrier.model;
  const specs = [...(await loadPhoneSpecs(executor, barrierId)), ...extraSpecs];
  const view = await loadDeviceView(executor, barrierId, now);
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
  const plan = planCommands({ model, desired: [...desiredBySlot.values()], believed, now });
  const kept = commonPrefix(view.queued, plan);
  return { now, model, specs, believed, stale: view.queued.slice(kept), fresh: plan.slice(kept), plan };
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
  if (limit === null) return { sms: fresh.length, overWeeklyLimit: false };
  const clockSetAt = plan.some((command) => command.kind === 'set_clock')
    ? now
    : (believed.clockSetAt ?? null);
  const committed = await loadCommittedSms(executor, deps, barrierId, now, { model, specs, clockSetAt });
  if (fresh.length === 0 && committed <= (options.committedBefore ?? 0))
    return { sms: 0, overWeeklyLimit: false };
  const used = (await countCommandsThisWeek(executor, barrierId, now)) - stale.length;
  return { sms: fresh.length, overWeeklyLimit: used + fresh.length + committed > limit };
}

/**
 * Plans and queues the commands that bring the barrier's device to the state the database now describes.
 * Must run inside the transaction of the change, after `lockBarrier`. Returns the number of commands
 * newly queued (0 when the queue already held the right plan). Queued commands that the new plan still
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
  const { now, model, specs, believed, stale, fresh, plan } = planned;
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
  if ((options.enforceWeeklyLimit ?? true) && (await loadWeeklyLimit(executor, barrierId)) !== null) {
    // The clock as the device will have it once this plan is sent (the forecast counts its renewal).
    const clockSetAt = plan.some((command) => command.kind === 'set_clock')
      ? now
      : (believed.clockSetAt ?? null);
    const committed = await loadCommittedSms(executor, deps, barrierId, now, { model, specs, clockSetAt });
    if (fresh.length > 0 || committed > (options.committedBefore ?? 0))
      await assertWeeklySmsBudget(executor, deps, barrierId, fresh.length, now, committed);
  }
  if (fresh.length > 0) {
    const phoneIdBySlot = new Map(specs.map((spec) => [spec.slot, spec.id]));
    await executor.insert(deviceCommands).values(
      fresh.map((command) => ({
        barrierId,
        phoneId:
          command.slot !== undefined && command.kind !== 'delete'
            ? (phoneIdBySlot.get(command.slot) ?? null)
            : null,
        kind: command.kind,
        payload: commandToJson(command),
        createdAt: now,
      })),
    );
    const pendingPhoneIds = fresh
      .filter((command) => command.kind === 'add' || command.kind === 'add_window')
      .map((command) => phoneIdBySlot.get(command.slot as number))
      .filter((id): id is number => id !== undefined);
    if (pendingPhoneIds.length > 0) {
      await executor
        .update(phones)
        .set({ status: 'pending', updatedAt: now })
        .where(inArray(phones.id, pendingPhoneIds));
    }
  }
  const queuedCount = fresh.length;
  await settlePendingPhones(executor, barrierId, now);
  return queuedCount;
}

/**
 * A pending phone with no command on its way for its slot is as the device should have it (e.g. a
 * temporary phone on a model without windows, before its start): it is `ok`.
 */
export async function settlePendingPhones(executor: Executor, barrierId: number, now: Date): Promise<void> {
  await executor.execute(sql`
    update ${phones} set status = 'ok', updated_at = ${now}
    where ${phones.barrierId} = ${barrierId} and ${phones.isActive} and ${phones.status} = 'pending'
      and not exists (
        select 1 from ${deviceCommands} c
        where c.barrier_id = ${barrierId} and c.status in ('queued', 'sent')
          and c.kind in ('add', 'add_window', 'delete')
          and (c.payload->>'slot')::int = ${phones.slot}
      )`);
}
