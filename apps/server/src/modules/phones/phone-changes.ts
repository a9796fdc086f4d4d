/**
 * Every change to the phones of a barrier goes through here, inside the caller's transaction:
 *
 *   const barrier = await lockLiveBarrier(tx, barrierId);   // serialises slots and limits per barrier
 *   await addPhoneLocked(tx, deps, barrier, phone, actor);  // rules and slot (phone-admission.ts), phone and action rows
 *   await syncBarrierDevice(tx, deps, barrier.id);          // device commands (409 over the SMS budget)
 *   … commit, then deps.notifyDeviceCommands([barrier.id])
 *
 * The barrier row lock makes "count, then insert" safe under concurrency; the unique indexes on
 * (barrier, slot) and (barrier, number) among active phones are the last line of defence.
 */

import type { ActionReason } from '@propusk/contracts/actions';
import { and, eq, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { actions, barrierLimits, barriers, phones } from '../../db/schema.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, isUniqueViolation } from '../../lib/errors.ts';
import { KeyedTurns } from '../../lib/keyed-turns.ts';
import { barrierNotFound } from '../barrier-policy/policy.ts';
import { assertNumbersNotBlocked, numberBlocked } from './blocked-numbers.ts';
import { findExtraPhonesOfOthers } from './number-claims.ts';
import { admitPhone, loadPhoneBatchContext, planPhoneBatch, throwPhoneProblem } from './phone-admission.ts';

import { type Actor, isTimedType, type LockedBarrier, type NewPhone, type PhoneRow } from './phone-types.ts';

export type { Actor, LimitsRow, LockedBarrier, NewPhone, PhoneRow } from './phone-types.ts';

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
  // lock's mode (lockBarrier, engine/plan/outbox.ts) and on the barrier's row only.
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

/** The row of a new phone: pending, its window or schedule as its type keeps, who pays a timed phone's SMS. */
export function newPhoneRow(barrierId: number, phone: NewPhone, slot: number | null, now: Date) {
  return {
    barrierId,
    userId: phone.userId,
    phone: phone.number,
    name: phone.name,
    type: phone.type,
    slot,
    startTime: phone.type === 'temporary' ? phone.startTime : null,
    endTime: phone.type === 'temporary' ? phone.endTime : null,
    schedule: phone.type === 'schedule' ? phone.schedule : null,
    smsPaidBy: isTimedType(phone.type) ? (phone.smsPaidBy ?? null) : null,
    status: 'pending' as const,
    createdAt: now,
    updatedAt: now,
  };
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

/**
 * Checks every rule for one more phone (`admitPhone`: one statement), then takes the smallest free slot and
 * writes the phone and its `add_phone` action. The barrier must be locked by this transaction.
 * `noAccess`: the error when the phone's owner is not on the barrier (checked only when given: access may be
 * lost between a caller's own check and the lock).
 */
export async function addPhoneLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrier: LockedBarrier,
  phone: NewPhone,
  actor: Actor,
  reason: ActionReason,
  options: { noAccess?: () => Error; beforeNumber?: () => Promise<void> } = {},
): Promise<PhoneRow> {
  const now = deps.clock.now();
  // His own number wins over someone's extra phone holding it (number-claims.ts); a refusal below rolls it back.
  if (phone.type === 'primary')
    await releaseExtraPhonesLocked(tx, deps, barrier.id, phone.userId, phone.number, actor);
  const admission = await admitPhone(tx, now, barrier, phone);
  if (options.noAccess && !admission.hasAccess) throw options.noAccess();
  // The barrier's limits (and the caller's own, `beforeNumber`: a resident's SMS share) come before anything
  // about the number, so that an add that cannot happen tells nothing of it (issue 40 item 4, decision 0030).
  if (admission.problem && admission.problem !== 'phone_duplicate')
    throwPhoneProblem(barrier, admission.problem);
  await options.beforeNumber?.();
  if (admission.blocked) throw numberBlocked();
  // Another account's number only with its consent: a guest proved his number by a code.
  if (phone.type !== 'primary' && reason !== 'guest_pass' && admission.otherAccount)
    throw conflict('phone_of_other_account');
  if (admission.problem) throwPhoneProblem(barrier, admission.problem);
  const slot = admission.slot;
  if (slot === null) throw conflict('no_free_slot');

  let row: PhoneRow | undefined;
  try {
    [row] = await tx
      .insert(phones)
      .values(newPhoneRow(barrier.id, phone, slot, now))
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
  for (const entry of plan) if (entry.problem) throwPhoneProblem(barrier, entry.problem);
  const rows: PhoneRow[] = [];
  for (let start = 0; start < batch.length; start += BATCH_CHUNK) {
    const values = batch
      .slice(start, start + BATCH_CHUNK)
      .map((phone, offset) =>
        newPhoneRow(barrier.id, { ...phone, smsPaidBy: null }, plan[start + offset]?.slot ?? null, now),
      );
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
