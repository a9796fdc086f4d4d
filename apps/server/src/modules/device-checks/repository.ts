/** SQL of the device checks ("Проверить устройство"). */
import { parseDeviceNumber } from '@propusk/devices/numbers';
import type { ReadQuery, SlotReading } from '@propusk/devices/readback';
import type { DeviceSheet } from '@propusk/devices/sheet-types';
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { actions, barriers, deviceChecks, deviceCommands, deviceSlots } from '../../db/schema.ts';
import type { ReadCommandPayload } from '../../engine/plan/index.ts';

export type CheckRow = typeof deviceChecks.$inferSelect;

export async function latestCheck(executor: Executor, barrierId: number): Promise<CheckRow | undefined> {
  const [row] = await executor
    .select()
    .from(deviceChecks)
    .where(eq(deviceChecks.barrierId, barrierId))
    .orderBy(desc(deviceChecks.id))
    .limit(1);
  return row;
}

export async function checkById(executor: Executor, id: number): Promise<CheckRow | undefined> {
  const [row] = await executor.select().from(deviceChecks).where(eq(deviceChecks.id, id));
  return row;
}

export async function insertCheck(
  executor: Executor,
  values: {
    barrierId: number;
    requestedBy: number | null;
    full: boolean;
    autoRepair: boolean;
    queries: ReadQuery[];
    createdAt: Date;
  },
): Promise<CheckRow> {
  const [row] = await executor.insert(deviceChecks).values(values).returning();
  if (!row) throw new Error('The check was not stored.');
  return row;
}

export async function queueReadCommands(
  executor: Executor,
  barrierId: number,
  payloads: ReadCommandPayload[],
  now: Date,
): Promise<void> {
  if (payloads.length === 0) return;
  await executor
    .insert(deviceCommands)
    .values(payloads.map((payload) => ({ barrierId, kind: 'read', payload, createdAt: now })));
}

export async function recordReading(
  executor: Executor,
  id: number,
  values: { reading?: SlotReading; numbers?: string[]; answered: number },
  complete: boolean,
  now: Date,
): Promise<void> {
  await executor
    .update(deviceChecks)
    .set({ ...values, ...(complete ? { status: 'ready', finishedAt: now } : {}) })
    .where(and(eq(deviceChecks.id, id), eq(deviceChecks.status, 'reading')));
}

export async function failCheck(executor: Executor, id: number, failure: string, now: Date): Promise<void> {
  await executor
    .update(deviceChecks)
    .set({ status: 'failed', failure, finishedAt: now })
    .where(and(eq(deviceChecks.id, id), eq(deviceChecks.status, 'reading')));
}

export async function finishCheck(
  executor: Executor,
  id: number,
  status: 'repaired' | 'cancelled',
  now: Date,
): Promise<CheckRow> {
  const [row] = await executor
    .update(deviceChecks)
    .set({ status, finishedAt: now })
    .where(eq(deviceChecks.id, id))
    .returning();
  if (!row) throw new Error('The check is gone.');
  return row;
}

/** The read queries of a failed check that were not sent yet: not worth an SMS any more. */
export async function cancelOpenReads(executor: Executor, barrierId: number, checkId: number, now: Date) {
  const open = await executor
    .select({ id: deviceCommands.id, payload: deviceCommands.payload })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        eq(deviceCommands.kind, 'read'),
        inArray(deviceCommands.status, ['queued']),
      ),
    );
  const ids = open
    .filter((row) => (row.payload as ReadCommandPayload).check_id === checkId)
    .map((row) => row.id);
  if (ids.length === 0) return;
  await executor
    .update(deviceCommands)
    .set({ status: 'cancelled', finishedAt: now })
    .where(inArray(deviceCommands.id, ids));
}

/** What `device_slots` holds for a slot whose content a check could not read. */
export const UNREADABLE = '?';

/**
 * Trusts a slot reading: each slot read holds what the device said (a slot whose number is unchanged keeps
 * its window, which a read-back cannot see; a line that is not a number is filed as UNREADABLE, so the
 * planner clears or rewrites it). Slots not read are left as they are. The clock is trusted no more.
 */
export async function applySlotReading(
  executor: Executor,
  barrierId: number,
  reading: SlotReading,
  now: Date,
): Promise<void> {
  const slots = Object.keys(reading).map(Number);
  if (slots.length > 0) {
    const existing = await executor
      .select()
      .from(deviceSlots)
      .where(and(eq(deviceSlots.barrierId, barrierId), inArray(deviceSlots.slot, slots)));
    await executor
      .delete(deviceSlots)
      .where(and(eq(deviceSlots.barrierId, barrierId), inArray(deviceSlots.slot, slots)));
    const rows = Object.entries(reading)
      .filter(([, value]) => value !== null)
      .map(([slotText, value]) => {
        const slot = Number(slotText);
        const number = parseDeviceNumber(value ?? '') === value ? (value as string) : UNREADABLE;
        const kept = existing.find((row) => row.slot === slot && row.number === number);
        return kept ?? { barrierId, slot, number, windowStart: null, windowEnd: null, confirmedAt: now };
      });
    if (rows.length > 0) await executor.insert(deviceSlots).values(rows);
  }
  await forgetClock(executor, barrierId);
}

/**
 * Trusts the list of a number-addressed device: numbers it does not hold leave `device_slots`; numbers it
 * holds that we never filed get a slot from the top of the range (the device has none; ours are only
 * bookkeeping), so the planner deletes them by number unless a phone wants them.
 */
export async function applyListReading(
  executor: Executor,
  barrierId: number,
  numbers: readonly string[],
  sheet: DeviceSheet,
  now: Date,
): Promise<void> {
  const existing = await executor.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrierId));
  const gone = existing.filter((row) => !numbers.includes(row.number)).map((row) => row.slot);
  if (gone.length > 0) {
    await executor
      .delete(deviceSlots)
      .where(and(eq(deviceSlots.barrierId, barrierId), inArray(deviceSlots.slot, gone)));
  }
  const known = new Set(existing.map((row) => row.number));
  const taken = new Set(existing.filter((row) => !gone.includes(row.slot)).map((row) => row.slot));
  let free = sheet.slotCount;
  const rows = [];
  for (const number of numbers) {
    if (known.has(number)) continue;
    while (taken.has(free) && free > 1) free -= 1;
    taken.add(free);
    rows.push({ barrierId, slot: free, number, windowStart: null, windowEnd: null, confirmedAt: now });
  }
  if (rows.length > 0) await executor.insert(deviceSlots).values(rows);
  await forgetClock(executor, barrierId);
}

async function forgetClock(executor: Executor, barrierId: number): Promise<void> {
  await executor.update(barriers).set({ deviceClockSetAt: null }).where(eq(barriers.id, barrierId));
}

export async function setAuditDays(executor: Executor, barrierId: number, days: number | null, now: Date) {
  await executor
    .update(barriers)
    .set({ deviceAuditDays: days, updatedAt: now })
    .where(eq(barriers.id, barrierId));
}

export async function auditBarrier(executor: Executor, barrierId: number) {
  const [row] = await executor
    .select({
      deviceModel: barriers.deviceModel,
      deviceProfile: barriers.deviceProfile,
      deviceAuditDays: barriers.deviceAuditDays,
    })
    .from(barriers)
    .where(and(eq(barriers.id, barrierId), isNull(barriers.deletedAt)));
  return row;
}

/** Barriers with an audit whose last check started before its period (or that were never checked). */
export async function barriersWithAuditDue(executor: Executor, now: Date): Promise<number[]> {
  const rows = await executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(
      and(
        isNotNull(barriers.deviceAuditDays),
        isNull(barriers.deletedAt),
        sql`not exists (
          select 1 from ${deviceChecks} c
          where c.barrier_id = ${barriers.id}
            and (c.status = 'reading' or c.created_at > ${now}::timestamptz - make_interval(days => ${barriers.deviceAuditDays}))
        )`,
      ),
    )
    .orderBy(barriers.id);
  return rows.map((row) => row.id);
}

export async function insertAction(
  executor: Executor,
  barrierId: number,
  userId: number | null,
  newValue: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await executor.insert(actions).values({
    barrierId,
    actionType: 'barrier_setting',
    author: userId === null ? 'system' : 'admin',
    authorUserId: userId,
    reason: 'manual',
    newValue,
    createdAt: now,
  });
}
