/**
 * The device outbox. After any change to a barrier's phones, the domain calls `syncBarrierDevice` inside
 * the same transaction: it compares what the database says the device should hold now with what the device
 * is believed to hold (confirmed slots, plus the effect of commands already queued or in flight), plans the
 * fewest commands with @propusk/devices and stores them as `device_commands` rows. The device worker sends
 * them after commit. A change whose commands would exceed the barrier's `sms_weekly_limit` is refused here,
 * before anything is stored (the caller's transaction rolls back).
 */

import { desiredWhitelist, type PhoneSpec } from '@propusk/devices/access';
import { type DeviceModel, isDeviceModel } from '@propusk/devices/models';
import {
  applyConfirmed,
  type BelievedState,
  commandFromJson,
  commandToJson,
  type PlannedCommandJson,
  planCommands,
} from '@propusk/devices/planner';
import { and, asc, eq, gt, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierLimits, barriers, deviceCommands, deviceSlots, phones } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';

export const SMS_WEEKLY_LIMIT_DETAIL = 'The weekly SMS limit of this barrier would be exceeded.';
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Command kinds that are device whitelist commands (the planner's), as opposed to settings. */
export const WHITELIST_COMMAND_KINDS = ['add', 'add_window', 'delete', 'set_clock'] as const;

/** Serialises every change to one barrier's phones and device state (slot allocation, planning). */
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

/** What the device will hold once every queued and in-flight whitelist command is confirmed. */
export async function loadProjectedState(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<BelievedState> {
  const [barrier] = await executor
    .select({ clockSetAt: barriers.deviceClockSetAt })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  const slots = await executor.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrierId));
  let state: BelievedState = {
    clockSetAt: barrier?.clockSetAt ?? null,
    entries: slots.map((row) => ({
      slot: row.slot,
      number: row.number,
      ...(row.windowStart && row.windowEnd ? { window: { start: row.windowStart, end: row.windowEnd } } : {}),
    })),
  };
  const open = await executor
    .select({ payload: deviceCommands.payload })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.status, ['queued', 'sent']),
        inArray(deviceCommands.kind, [...WHITELIST_COMMAND_KINDS]),
      ),
    )
    .orderBy(asc(deviceCommands.id));
  for (const row of open)
    state = applyConfirmed(state, commandFromJson(row.payload as PlannedCommandJson), now);
  return state;
}

/** Whitelist SMS sent or queued for this barrier's device in the 7 days before `now`. */
export async function countCommandsThisWeek(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        ne(deviceCommands.status, 'cancelled'),
        gt(deviceCommands.createdAt, new Date(now.getTime() - WEEK_MS)),
      ),
    );
  return row?.count ?? 0;
}

/**
 * Plans and queues the commands that bring the barrier's device to the state the database now describes.
 * Must run inside the transaction of the change, after `lockBarrier`. Returns the number of commands queued.
 */
export async function syncBarrierDevice(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
): Promise<number> {
  const now = deps.clock.now();
  const [barrier] = await executor
    .select({ model: barriers.deviceModel, smsWeeklyLimit: barrierLimits.smsWeeklyLimit })
    .from(barriers)
    .leftJoin(barrierLimits, eq(barrierLimits.barrierId, barriers.id))
    .where(eq(barriers.id, barrierId));
  if (!barrier || !isDeviceModel(barrier.model)) return 0;
  const model: DeviceModel = barrier.model;
  const specs = await loadPhoneSpecs(executor, barrierId);
  const desired = desiredWhitelist(model, specs, now, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES);
  const projected = await loadProjectedState(executor, barrierId, now);
  const plan = planCommands({ model, desired, believed: projected, now });
  if (plan.length === 0) return 0;

  if (barrier.smsWeeklyLimit !== null && barrier.smsWeeklyLimit !== undefined) {
    const sentThisWeek = await countCommandsThisWeek(executor, barrierId, now);
    if (sentThisWeek + plan.length > barrier.smsWeeklyLimit) throw conflict(SMS_WEEKLY_LIMIT_DETAIL);
  }

  const phoneIdBySlot = new Map(specs.map((spec) => [spec.slot, spec.id]));
  await executor.insert(deviceCommands).values(
    plan.map((command) => ({
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
  const pendingPhoneIds = plan
    .filter((command) => command.kind === 'add' || command.kind === 'add_window')
    .map((command) => phoneIdBySlot.get(command.slot as number))
    .filter((id): id is number => id !== undefined);
  if (pendingPhoneIds.length > 0) {
    await executor
      .update(phones)
      .set({ status: 'pending', updatedAt: now })
      .where(inArray(phones.id, pendingPhoneIds));
  }
  return plan.length;
}
