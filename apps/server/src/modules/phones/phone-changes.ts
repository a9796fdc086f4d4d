/**
 * Every change to the phones of a barrier goes through here, inside the caller's transaction:
 *
 *   const barrier = await lockLiveBarrier(tx, barrierId);   // serialises slots and limits per barrier
 *   await addPhoneLocked(tx, deps, barrier, phone, actor);  // limits, slot, phone row, action row
 *   await syncBarrierDevice(tx, deps, barrier.id);          // device commands (409 over the SMS budget)
 *   … commit, then deps.notifyDeviceCommands([barrier.id])
 *
 * The barrier row lock makes "count, then insert" safe under concurrency; the unique indexes on
 * (barrier, slot) and (barrier, number) among active phones are the last line of defence.
 */

import type { ActionAuthor, ActionReason } from '@propusk/contracts/actions';
import { type PhoneType, shortestIntervalMinutes } from '@propusk/contracts/phones';
import { residentSlotRange } from '@propusk/devices/alarms';
import { isDeviceModel } from '@propusk/devices/models';
import { and, eq, gt, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import {
  actions,
  barrierAccess,
  barrierLimits,
  barriers,
  guestPasses,
  phones,
  type WeeklySchedule,
} from '../../db/schema.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, isUniqueViolation } from '../../lib/errors.ts';
import { KeyedTurns } from '../../lib/keyed-turns.ts';
import { barrierNotFound } from '../barrier-policy/policy.ts';
import { assertNumbersNotBlocked } from './blocked-numbers.ts';
import { assertNotAnotherAccountsNumber, findExtraPhonesOfOthers } from './number-claims.ts';

export type PhoneRow = typeof phones.$inferSelect;
export type LimitsRow = typeof barrierLimits.$inferSelect;

export interface LockedBarrier {
  id: number;
  ownerId: number;
  deviceModel: string;
  devicePhonesAmount: number;
  /** The gateway's number in slot 1 (residents then live above the alarm slots), or null. */
  deviceGatewayNumber: string | null;
  limits: Omit<LimitsRow, 'barrierId' | 'updatedAt'>;
}

/** Who made a change, for the history. */
export interface Actor {
  author: ActionAuthor;
  userId: number | null;
}

export interface NewPhone {
  userId: number;
  number: string;
  name: string;
  type: PhoneType;
  startTime: Date | null;
  endTime: Date | null;
  schedule: WeeklySchedule | null;
  /** The resident whose SMS share pays this timed phone's coming SMS (`phones.sms_paid_by`); none: the reserve. */
  smsPaidBy?: number | null;
}

const NO_LIMITS: LockedBarrier['limits'] = {
  userPhoneLimit: null,
  userTempPhoneLimit: null,
  globalTempPhoneLimit: null,
  userSchedulePhoneLimit: null,
  globalSchedulePhoneLimit: null,
  scheduleIntervalLimit: null,
  smsWeeklyLimit: null,
  smsResidentShare: null,
  smsOwnerReserve: null,
};

/**
 * This process's queue per barrier for the frequent phone writes (add, change, remove): they wait for their
 * turn here, holding no database connection, instead of inside `lockLiveBarrier` holding one (KeyedTurns).
 */
export const barrierTurns = new KeyedTurns<number>();

/** Locks the barrier row for the rest of the transaction and reads it with its limits; 404 once deleted. */
export async function lockLiveBarrier(tx: Executor, barrierId: number): Promise<LockedBarrier> {
  // The lock and the read in one statement (one round trip less while the lock is held), in the barrier
  // lock's mode (lockBarrier, engine/outbox.ts) and on the barrier's row only.
  const statement = preparedStatement(tx, 'phones.lockLiveBarrier', () =>
    tx
      .select({
        id: barriers.id,
        ownerId: barriers.ownerId,
        deviceModel: barriers.deviceModel,
        devicePhonesAmount: barriers.devicePhonesAmount,
        deviceGatewayNumber: barriers.deviceGatewayNumber,
        limits: barrierLimits,
      })
      .from(barriers)
      .leftJoin(barrierLimits, eq(barrierLimits.barrierId, barriers.id))
      .where(and(eq(barriers.id, sql.placeholder('barrierId')), isNull(barriers.deletedAt)))
      .for('no key update', { of: barriers }),
  );
  const [row] = await statement.execute({ barrierId });
  if (!row) throw barrierNotFound();
  const {
    barrierId: _barrierId,
    updatedAt: _updatedAt,
    ...limits
  } = row.limits ?? {
    ...NO_LIMITS,
    barrierId,
    updatedAt: new Date(0),
  };
  return {
    id: row.id,
    ownerId: row.ownerId,
    deviceModel: row.deviceModel,
    devicePhonesAmount: row.devicePhonesAmount,
    deviceGatewayNumber: row.deviceGatewayNumber,
    limits,
  };
}

type SlotsOf = { deviceModel: string; devicePhonesAmount: number; deviceGatewayNumber?: string | null };

/**
 * The slots residents' phones may take: 1..amount, or — with the gateway in slot 1 — above the unit's alarm
 * slots where it has room (`residentSlotRange`, issue 30 item 5). Empty (first > last) for an unknown model.
 */
export function residentSlots(barrier: SlotsOf): { first: number; last: number } {
  if (!isDeviceModel(barrier.deviceModel)) return { first: 1, last: 0 };
  return residentSlotRange(
    barrier.deviceModel,
    barrier.devicePhonesAmount,
    Boolean(barrier.deviceGatewayNumber),
  );
}

/** How many numbers of residents the barrier's device can hold: its configured amount, within its slots. */
export function deviceCapacity(barrier: SlotsOf): number {
  const { first, last } = residentSlots(barrier);
  return Math.max(0, last - first + 1);
}

/** What the history stores as a phone's old or new value. */
export function phoneSnapshot(row: PhoneRow): Record<string, unknown> {
  return {
    phone: row.phone,
    name: row.name,
    type: row.type,
    start_time: apiDateTime(row.startTime),
    end_time: apiDateTime(row.endTime),
    schedule: row.schedule ?? null,
    is_active: row.isActive,
  };
}

export async function recordPhoneAction(
  tx: Executor,
  now: Date,
  entry: {
    barrierId: number;
    phone: PhoneRow;
    actionType: 'add_phone' | 'delete_phone' | 'update_phone';
    actor: Actor;
    reason: ActionReason;
    oldValue: Record<string, unknown> | null;
    newValue: Record<string, unknown> | null;
  },
): Promise<void> {
  await tx.insert(actions).values({
    barrierId: entry.barrierId,
    phoneId: entry.phone.id,
    phoneOwnerId: entry.phone.userId,
    actionType: entry.actionType,
    author: entry.actor.author,
    authorUserId: entry.actor.userId,
    reason: entry.reason,
    oldValue: entry.oldValue,
    newValue: entry.newValue,
    createdAt: now,
  });
}

/** 409 unless a schedule's intervals are all at least the barrier's `schedule_interval_limit` long. */
export function assertScheduleIntervalLimit(barrier: LockedBarrier, schedule: WeeklySchedule | null): void {
  const minimum = barrier.limits.scheduleIntervalLimit;
  if (minimum === null || !schedule) return;
  if (shortestIntervalMinutes(schedule) < minimum)
    throw conflict('schedule_interval_too_short', undefined, { minimum_minutes: minimum });
}

/** What the active phones of a barrier count, as one more phone of a user sees them. */
export interface PhoneCounts {
  sameNumber: number;
  userTotal: number;
  userTemporary: number;
  globalTemporary: number;
  userSchedule: number;
  globalSchedule: number;
}

export type PhoneProblem =
  | 'phone_duplicate'
  | 'limit_user_phones'
  | 'limit_user_temporary'
  | 'limit_barrier_temporary'
  | 'limit_user_schedule'
  | 'limit_barrier_schedule'
  | 'schedule_interval_too_short'
  | 'no_free_slot';

/** Why one more phone may not be added (the barrier's rules, in the order they are checked), or null. */
export function phoneLimitProblem(
  barrier: LockedBarrier,
  counts: PhoneCounts,
  phone: Pick<NewPhone, 'type' | 'schedule'>,
): PhoneProblem | null {
  if (counts.sameNumber > 0) return 'phone_duplicate';
  const limits = barrier.limits;
  const over = (count: number, limit: number | null) => limit !== null && count >= limit;
  if (over(counts.userTotal, limits.userPhoneLimit)) return 'limit_user_phones';
  if (phone.type === 'temporary') {
    if (over(counts.userTemporary, limits.userTempPhoneLimit)) return 'limit_user_temporary';
    if (over(counts.globalTemporary, limits.globalTempPhoneLimit)) return 'limit_barrier_temporary';
  }
  if (phone.type === 'schedule') {
    if (over(counts.userSchedule, limits.userSchedulePhoneLimit)) return 'limit_user_schedule';
    if (over(counts.globalSchedule, limits.globalSchedulePhoneLimit)) return 'limit_barrier_schedule';
    const minimum = limits.scheduleIntervalLimit;
    if (minimum !== null && phone.schedule && shortestIntervalMinutes(phone.schedule) < minimum)
      return 'schedule_interval_too_short';
  }
  return null;
}

/**
 * Every limit for one more phone of `phone.type` for `phone.userId` (and, with a number, that the number is
 * not on the barrier yet). An open guest pass (unused, its window not over, its resident still on the barrier)
 * holds the place of a temporary phone of its resident: it counts in his phones, his temporary phones and the
 * barrier's temporary phones.
 * The barrier must be locked by this transaction.
 */
export async function assertPhoneLimits(
  tx: Executor,
  now: Date,
  barrier: LockedBarrier,
  phone: { userId: number; type: PhoneType; number: string | null; schedule?: WeeklySchedule | null },
): Promise<void> {
  const [counts] = await tx
    .select({
      sameNumber:
        phone.number === null
          ? sql<number>`0`
          : sql<number>`count(*) filter (where ${phones.phone} = ${phone.number})::int`,
      userTotal: sql<number>`count(*) filter (where ${phones.userId} = ${phone.userId})::int`,
      userTemporary: sql<number>`count(*) filter (where ${phones.userId} = ${phone.userId} and ${phones.type} = 'temporary')::int`,
      globalTemporary: sql<number>`count(*) filter (where ${phones.type} = 'temporary')::int`,
      userSchedule: sql<number>`count(*) filter (where ${phones.userId} = ${phone.userId} and ${phones.type} = 'schedule')::int`,
      globalSchedule: sql<number>`count(*) filter (where ${phones.type} = 'schedule')::int`,
    })
    .from(phones)
    .where(and(eq(phones.barrierId, barrier.id), eq(phones.isActive, true)));
  if (!counts) throw new Error('count query returned no row');
  const passes = await openGuestPasses(tx, barrier.id, now);
  const open = passes.get(phone.userId) ?? 0;
  const problem = phoneLimitProblem(
    barrier,
    {
      ...counts,
      userTotal: counts.userTotal + open,
      userTemporary: counts.userTemporary + open,
      globalTemporary: counts.globalTemporary + sum(passes.values()),
    },
    { type: phone.type, schedule: phone.schedule ?? null },
  );
  if (problem === 'schedule_interval_too_short') assertScheduleIntervalLimit(barrier, phone.schedule ?? null);
  if (problem) throw conflict(problem);
}

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

/**
 * Open guest passes of a barrier by resident: unused, their window not over, their resident still on the
 * barrier (a resident who left can no longer have his passes used: they hold no place).
 */
async function openGuestPasses(tx: Executor, barrierId: number, now: Date): Promise<Map<number, number>> {
  const rows = await tx
    .select({ userId: guestPasses.forUser, open: sql<number>`count(*)::int` })
    .from(guestPasses)
    .where(
      and(
        eq(guestPasses.barrierId, barrierId),
        eq(guestPasses.status, 'created'),
        gt(guestPasses.expiresAt, now),
        sql`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${guestPasses.barrierId} and ${barrierAccess.userId} = ${guestPasses.forUser})`,
      ),
    )
    .groupBy(guestPasses.forUser);
  return new Map(rows.map((row) => [row.userId, Number(row.open)]));
}

/**
 * Checks every limit for one more phone of `phone.type` for `phone.userId`, then takes the smallest free
 * slot and writes the phone and its `add_phone` action. The barrier must be locked by this transaction.
 */
export async function addPhoneLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrier: LockedBarrier,
  phone: NewPhone,
  actor: Actor,
  reason: ActionReason,
): Promise<PhoneRow> {
  const now = deps.clock.now();
  await assertNumbersNotBlocked(tx, barrier.ownerId, [phone.number]);
  if (phone.type === 'primary') {
    // His own number wins over someone's extra phone holding it (number-claims.ts).
    await releaseExtraPhonesLocked(tx, deps, barrier.id, phone.userId, phone.number, actor);
  } else if (reason !== 'guest_pass') {
    // Another account's number only with its consent: a guest proved his number by a code.
    await assertNotAnotherAccountsNumber(tx, phone.userId, phone.number);
  }
  await assertPhoneLimits(tx, now, barrier, phone);

  const slot = await smallestFreeSlot(tx, barrier);
  if (slot === null) throw conflict('no_free_slot');

  let row: PhoneRow | undefined;
  try {
    [row] = await tx
      .insert(phones)
      .values({
        barrierId: barrier.id,
        userId: phone.userId,
        phone: phone.number,
        name: phone.name,
        type: phone.type,
        slot,
        startTime: phone.type === 'temporary' ? phone.startTime : null,
        endTime: phone.type === 'temporary' ? phone.endTime : null,
        schedule: phone.type === 'schedule' ? phone.schedule : null,
        smsPaidBy: phone.type === 'temporary' || phone.type === 'schedule' ? (phone.smsPaidBy ?? null) : null,
        status: 'pending',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error, 'phones_barrier_number_active_unique')) throw conflict('phone_duplicate');
    if (isUniqueViolation(error, 'phones_primary_per_user_unique')) throw conflict('phone_duplicate');
    throw error;
  }
  if (!row) throw new Error('phone not inserted');
  await recordPhoneAction(tx, now, {
    barrierId: barrier.id,
    phone: row,
    actionType: 'add_phone',
    actor,
    reason,
    oldValue: null,
    newValue: phoneSnapshot(row),
  });
  return row;
}

/**
 * Takes off other users' extra phones holding `number`, the primary number of `userId` coming onto the
 * barrier (reason `primary_taken`: their owners see it in their history). Returns how many.
 */
export async function releaseExtraPhonesLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrierId: number,
  userId: number,
  number: string,
  actor: Actor,
): Promise<number> {
  let released = 0;
  for (const phoneId of await findExtraPhonesOfOthers(tx, barrierId, userId, number)) {
    released += (await deactivatePhonesLocked(tx, deps, barrierId, { phoneId }, actor, 'primary_taken'))
      .length;
  }
  return released;
}

/** The smallest residents' slot that no active phone of the barrier holds, or null when all are taken. */
async function smallestFreeSlot(tx: Executor, barrier: LockedBarrier): Promise<number | null> {
  const { first, last } = residentSlots(barrier);
  if (last < first) return null;
  const result = (await tx.execute(sql`
    select candidate.slot::int as slot
    from generate_series(${first}::int, ${last}::int) as candidate(slot)
    where not exists (
      select 1 from ${phones} where ${phones.barrierId} = ${barrier.id} and ${phones.slot} = candidate.slot
    )
    order by candidate.slot
    limit 1`)) as unknown as { rows: { slot: number | string }[] };
  const slot = result.rows[0]?.slot;
  return slot === undefined ? null : Number(slot);
}

/**
 * What a batch of new phones is checked against: the barrier's active phones as counts, and its free slots.
 * Read once, under the barrier lock, by `addPhonesLocked` (or by a preview that writes nothing).
 */
export interface PhoneBatchContext {
  numbers: Set<string>;
  perUser: Map<number, { total: number; temporary: number; schedule: number }>;
  globalTemporary: number;
  globalSchedule: number;
  freeSlots: number[];
}

export async function loadPhoneBatchContext(
  tx: Executor,
  barrier: LockedBarrier,
  now: Date,
): Promise<PhoneBatchContext> {
  const active = await tx
    .select({ phone: phones.phone, userId: phones.userId, type: phones.type })
    .from(phones)
    .where(and(eq(phones.barrierId, barrier.id), eq(phones.isActive, true)));
  const taken = await tx
    .select({ slot: phones.slot })
    .from(phones)
    .where(and(eq(phones.barrierId, barrier.id), isNotNull(phones.slot)));
  const context: PhoneBatchContext = {
    numbers: new Set(),
    perUser: new Map(),
    globalTemporary: 0,
    globalSchedule: 0,
    freeSlots: [],
  };
  for (const row of active) countPhone(context, row.userId, row.phone, row.type);
  // An open guest pass holds the place of a temporary phone of its resident (as in `assertPhoneLimits`).
  for (const [userId, open] of await openGuestPasses(tx, barrier.id, now)) {
    const user = context.perUser.get(userId) ?? { total: 0, temporary: 0, schedule: 0 };
    user.total += open;
    user.temporary += open;
    context.globalTemporary += open;
    context.perUser.set(userId, user);
  }
  const used = new Set(taken.map((row) => row.slot));
  const { first, last } = residentSlots(barrier);
  for (let slot = first; slot <= last; slot++) if (!used.has(slot)) context.freeSlots.push(slot);
  return context;
}

function countPhone(context: PhoneBatchContext, userId: number, number: string, type: PhoneType): void {
  context.numbers.add(number);
  const user = context.perUser.get(userId) ?? { total: 0, temporary: 0, schedule: 0 };
  user.total += 1;
  if (type === 'temporary') {
    user.temporary += 1;
    context.globalTemporary += 1;
  }
  if (type === 'schedule') {
    user.schedule += 1;
    context.globalSchedule += 1;
  }
  context.perUser.set(userId, user);
}

/**
 * Checks a batch of new phones in order, each as `addPhoneLocked` would with the ones before it already added
 * (the same rules: `phoneLimitProblem`, then the smallest free slot). A phone with a problem takes nothing.
 * Pure over `context`, which it updates: one entry per phone, its slot or its problem.
 */
export function planPhoneBatch(
  context: PhoneBatchContext,
  barrier: LockedBarrier,
  batch: readonly NewPhone[],
): ({ slot: number; problem: null } | { slot: null; problem: PhoneProblem })[] {
  return batch.map((phone) => {
    const user = context.perUser.get(phone.userId) ?? { total: 0, temporary: 0, schedule: 0 };
    const problem = phoneLimitProblem(
      barrier,
      {
        sameNumber: context.numbers.has(phone.number) ? 1 : 0,
        userTotal: user.total,
        userTemporary: user.temporary,
        globalTemporary: context.globalTemporary,
        userSchedule: user.schedule,
        globalSchedule: context.globalSchedule,
      },
      phone,
    );
    if (problem) return { slot: null, problem };
    const slot = context.freeSlots.shift();
    if (slot === undefined) return { slot: null, problem: 'no_free_slot' as const };
    countPhone(context, phone.userId, phone.number, phone.type);
    return { slot, problem: null };
  });
}

/**
 * `addPhoneLocked` for many phones at once (a bulk import): the same limits and slots, checked in order
 * (`planPhoneBatch`), then one insert of the phones and one of their `add_phone` actions. The first problem
 * refuses the whole batch (409 with its code). The barrier must be locked by this transaction.
 */
export async function addPhonesLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrier: LockedBarrier,
  batch: readonly (NewPhone & { reason: ActionReason })[],
  actor: Actor,
): Promise<PhoneRow[]> {
  if (batch.length === 0) return [];
  const now = deps.clock.now();
  await assertNumbersNotBlocked(
    tx,
    barrier.ownerId,
    batch.map((phone) => phone.number),
  );
  const plan = planPhoneBatch(await loadPhoneBatchContext(tx, barrier, now), barrier, batch);
  for (const [index, entry] of plan.entries()) {
    if (entry.problem === 'schedule_interval_too_short')
      assertScheduleIntervalLimit(barrier, batch[index]?.schedule ?? null);
    if (entry.problem) throw conflict(entry.problem);
  }
  const rows: PhoneRow[] = [];
  for (let start = 0; start < batch.length; start += BATCH_CHUNK) {
    const values = batch.slice(start, start + BATCH_CHUNK).map((phone, offset) => ({
      barrierId: barrier.id,
      userId: phone.userId,
      phone: phone.number,
      name: phone.name,
      type: phone.type,
      slot: plan[start + offset]?.slot ?? null,
      startTime: phone.type === 'temporary' ? phone.startTime : null,
      endTime: phone.type === 'temporary' ? phone.endTime : null,
      schedule: phone.type === 'schedule' ? phone.schedule : null,
      status: 'pending' as const,
      createdAt: now,
      updatedAt: now,
    }));
    try {
      rows.push(...(await tx.insert(phones).values(values).returning()));
    } catch (error) {
      if (isUniqueViolation(error, 'phones_barrier_number_active_unique')) throw conflict('phone_duplicate');
      if (isUniqueViolation(error, 'phones_primary_per_user_unique')) throw conflict('phone_duplicate');
      throw error;
    }
  }
  const reasonByNumber = new Map(batch.map((phone) => [phone.number, phone.reason]));
  for (let start = 0; start < rows.length; start += BATCH_CHUNK) {
    await tx.insert(actions).values(
      rows.slice(start, start + BATCH_CHUNK).map((row) => ({
        barrierId: barrier.id,
        phoneId: row.id,
        phoneOwnerId: row.userId,
        actionType: 'add_phone' as const,
        author: actor.author,
        authorUserId: actor.userId,
        reason: reasonByNumber.get(row.phone) ?? ('manual' as const),
        oldValue: null,
        newValue: phoneSnapshot(row),
        createdAt: now,
      })),
    );
  }
  return rows;
}

/** Rows per insert statement of a batch (well under the 65,535 parameters of one statement). */
const BATCH_CHUNK = 500;

/** Which active phones of a barrier `deactivatePhonesLocked` takes off (all of them when empty). */
export interface PhoneFilter {
  userId?: number;
  phoneId?: number;
  /** Temporary phones whose `end_time` is before this instant. */
  endedBefore?: Date;
}

/**
 * Takes phones off a barrier: inactive, slot freed, `deleted_at` set, one `delete_phone` action each (in
 * phone id order). The rows stay (history points to them). Returns the phones removed.
 */
export async function deactivatePhonesLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrierId: number,
  filter: PhoneFilter,
  actor: Actor,
  reason: ActionReason,
): Promise<PhoneRow[]> {
  const now = deps.clock.now();
  const conditions = [eq(phones.barrierId, barrierId), eq(phones.isActive, true)];
  if (filter.userId !== undefined) conditions.push(eq(phones.userId, filter.userId));
  if (filter.phoneId !== undefined) conditions.push(eq(phones.id, filter.phoneId));
  if (filter.endedBefore !== undefined) {
    conditions.push(eq(phones.type, 'temporary'), lt(phones.endTime, filter.endedBefore));
  }
  const removed = (
    await tx
      .update(phones)
      .set({ isActive: false, slot: null, deletedAt: now, updatedAt: now })
      .where(and(...conditions))
      .returning()
  ).sort((a, b) => a.id - b.id);
  if (removed.length > 0) {
    await tx.insert(actions).values(
      removed.map((row) => ({
        barrierId,
        phoneId: row.id,
        phoneOwnerId: row.userId,
        actionType: 'delete_phone' as const,
        author: actor.author,
        authorUserId: actor.userId,
        reason,
        oldValue: { ...phoneSnapshot(row), is_active: true },
        newValue: phoneSnapshot(row),
        createdAt: now,
      })),
    );
  }
  return removed;
}

export type MovePrimaryOutcome = 'moved' | 'none' | 'taken';

/**
 * A user's number changed: his primary phone on the barrier takes the new number in the same slot (one
 * `update_phone` action), so the device rewrites that slot and no limit changes. His own extra phone with the
 * new number is removed first (`delete_phone`): it would duplicate the primary; so is another user's extra phone
 * with it (`primary_taken`, number-claims.ts). Another user's primary phone with the new number leaves everything as it was and answers `taken` (the caller refuses the change). `none`: he has
 * no active primary phone here. A number the barrier's owner blocked is refused (409, blocked-numbers.ts). The barrier must be locked by this transaction.
 */
export async function movePrimaryPhoneLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrierId: number,
  userId: number,
  newNumber: string,
  actor: Actor,
  reason: ActionReason = 'primary_phone_change',
): Promise<MovePrimaryOutcome> {
  const now = deps.clock.now();
  const activePhone = (...conditions: SQL[]) =>
    tx
      .select()
      .from(phones)
      .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true), ...conditions))
      .limit(1);
  const [primary] = await activePhone(eq(phones.userId, userId), eq(phones.type, 'primary'));
  if (!primary || primary.phone === newNumber) return 'none';
  const [barrier] = await tx
    .select({ ownerId: barriers.ownerId })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  if (barrier) await assertNumbersNotBlocked(tx, barrier.ownerId, [newNumber]);
  await releaseExtraPhonesLocked(tx, deps, barrierId, userId, newNumber, actor);
  const [clash] = await activePhone(eq(phones.phone, newNumber));
  if (clash && clash.userId !== userId) return 'taken';
  if (clash) await deactivatePhonesLocked(tx, deps, barrierId, { phoneId: clash.id }, actor, reason);
  const [moved] = await tx
    .update(phones)
    .set({ phone: newNumber, updatedAt: now })
    .where(eq(phones.id, primary.id))
    .returning();
  if (!moved) throw new Error('primary phone not updated');
  await recordPhoneAction(tx, now, {
    barrierId,
    phone: moved,
    actionType: 'update_phone',
    actor,
    reason,
    oldValue: phoneSnapshot(primary),
    newValue: phoneSnapshot(moved),
  });
  return 'moved';
}

/**
 * Moves residents' phones to other device slots (the alarm layout of issue 30 item 5: out of slots 1–6).
 * Nothing a person sees changes (number, kind, times), so no history entry is written; the device's SMS of
 * the move are in its log. Each target must be free: the (barrier, slot) constraint refuses anything else.
 * The barrier must be locked by this transaction.
 */
export async function movePhoneSlotsLocked(
  tx: Executor,
  barrierId: number,
  moves: readonly { phoneId: number; to: number }[],
  now: Date,
): Promise<void> {
  for (const move of moves)
    await tx
      .update(phones)
      .set({ slot: move.to, updatedAt: now })
      .where(and(eq(phones.id, move.phoneId), eq(phones.barrierId, barrierId), eq(phones.isActive, true)));
}
