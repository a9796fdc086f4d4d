/**
 * May one more phone come onto a barrier, and into which slot: its rules (the barrier's limits, an open guest
 * pass holding a temporary phone's place, a number an administrator blocked, a number another account logs in
 * with) and its free slots, for one phone (`admitPhone`, one statement) or a batch (`planPhoneBatch`). Every
 * check runs under the barrier lock its caller holds (phone-changes.ts), so "check, then insert" is safe.
 */
import { type PhoneType, shortestIntervalMinutes } from '@propusk/contracts/phones';
import { residentSlotRange } from '@propusk/devices/alarms';
import { isDeviceModel } from '@propusk/devices/models';
import { and, eq, gt, isNotNull, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barrierAccess, guestPasses, phones, type WeeklySchedule } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import type { LockedBarrier, NewPhone } from './phone-types.ts';

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

/**
 * Why one more phone may not be added (the barrier's rules, in the order they are checked: the limits before
 * the number already on the barrier), or null.
 */
export function phoneLimitProblem(
  barrier: LockedBarrier,
  counts: PhoneCounts,
  phone: Pick<NewPhone, 'type' | 'schedule'>,
): PhoneProblem | null {
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
  // Last: the limits tell nothing of the number, this does (issue 40 item 4).
  if (counts.sameNumber > 0) return 'phone_duplicate';
  return null;
}

/**
 * Open guest passes of a barrier by resident: unused, their window not over, their resident still on the
 * barrier (a resident who left can no longer have his passes used: they hold no place).
 */
async function openGuestPasses(tx: Executor, barrierId: number, now: Date): Promise<Map<number, number>> {
  const statement = preparedStatement(tx, 'phones.openGuestPasses', () =>
    tx
      .select({ userId: guestPasses.forUser, open: sql<number>`count(*)::int` })
      .from(guestPasses)
      .where(
        and(
          eq(guestPasses.barrierId, sql.placeholder('barrierId')),
          eq(guestPasses.status, 'created'),
          gt(guestPasses.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
          sql`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${guestPasses.barrierId} and ${barrierAccess.userId} = ${guestPasses.forUser})`,
        ),
      )
      .groupBy(guestPasses.forUser),
  );
  const rows = await statement.execute({ barrierId, now: now.toISOString() });
  return new Map(rows.map((row) => [row.userId, Number(row.open)]));
}

/** The phone's owner is on the barrier. */
const hasAccessSql = (barrierId: SQLWrapper, userId: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${barrierAccess} a where a.barrier_id = ${barrierId} and a.user_id = ${userId})`;

/** The barrier's administrator blocked the number, or the account that logs in with it (blocked-numbers.ts). */
const blockedSql = (ownerId: SQLWrapper, number: SQLWrapper) =>
  sql<boolean>`exists (select 1 from admin_blocks ab join users bu on bu.id = ab.user_id
    where ab.admin_id = ${ownerId} and (ab.phone = ${number} or bu.phone = ${number}))`;

/** Another live account logs in with the number (number-claims.ts). */
const otherAccountSql = (number: SQLWrapper, userId: SQLWrapper) =>
  sql<boolean>`exists (select 1 from users o where o.phone = ${number} and o.deleted_at is null and o.id <> ${userId})`;

/** `admitPhone`'s checks of the person and the number (not the counts), for several phones in one statement. */
export async function admitPeople(
  tx: Executor,
  barrier: LockedBarrier,
  phones: readonly { userId: number; number: string }[],
): Promise<Pick<Admission, 'hasAccess' | 'blocked' | 'otherAccount'>[]> {
  if (phones.length === 0) return [];
  const userIds = phones.map((phone) => phone.userId);
  const numbers = phones.map((phone) => phone.number);
  const result = (await tx.execute(sql`
    select ${hasAccessSql(sql`${barrier.id}::int`, sql`i.user_id`)} as has_access,
      ${blockedSql(sql`${barrier.ownerId}::int`, sql`i.number`)} as blocked,
      ${otherAccountSql(sql`i.number`, sql`i.user_id`)} as other_account
    from unnest(${sql.param(userIds)}::int[], ${sql.param(numbers)}::text[]) with ordinality as i(user_id, number, position)
    order by i.position`)) as unknown as {
    rows: { has_access: boolean; blocked: boolean; other_account: boolean }[];
  };
  return result.rows.map((row) => ({
    hasAccess: row.has_access,
    blocked: row.blocked,
    otherAccount: row.other_account,
  }));
}

/** What `admitPhone` read about one more phone, in one statement under the barrier lock. */
export interface Admission {
  /** The phone's owner is on the barrier. */
  hasAccess: boolean;
  /** The barrier's administrator blocked the number (blocked-numbers.ts). */
  blocked: boolean;
  /** Another live account logs in with the number (number-claims.ts). */
  otherAccount: boolean;
  /** Null when the barrier's rules allow one more phone of this type for this user. */
  problem: PhoneProblem | null;
  /** The smallest residents' slot that no phone of the barrier holds, or null when all are taken. */
  slot: number | null;
}

/**
 * Everything one more phone is checked against, read in one statement (one round trip while the barrier is
 * locked, instead of six): its owner's access, a block of the number, another account's number, the barrier's
 * counts with the open guest passes (an open pass — unused, its window not over, its resident still on the
 * barrier — holds the place of a temporary phone of its resident: it counts in his phones, his temporary phones
 * and the barrier's temporary phones), and the smallest free slot. `number` null: a place is checked without a
 * number (a guest pass being created). The barrier must be locked by this transaction.
 */
export async function admitPhone(
  tx: Executor,
  now: Date,
  barrier: LockedBarrier,
  phone: { userId: number; type: PhoneType; number: string | null; schedule?: WeeklySchedule | null },
): Promise<Admission> {
  const { first, last } = residentSlots(barrier);
  const statement = preparedStatement(tx, 'phones.admit', () =>
    tx
      .select({
        hasAccess: hasAccessSql(sql.placeholder('barrierId'), sql.placeholder('userId')),
        blocked: blockedSql(sql.placeholder('ownerId'), sql`${sql.placeholder('number')}::text`),
        otherAccount: otherAccountSql(sql`${sql.placeholder('number')}::text`, sql.placeholder('userId')),
        sameNumber: sql<number>`c.same_number`,
        userTotal: sql<number>`c.user_total`,
        userTemporary: sql<number>`c.user_temporary`,
        globalTemporary: sql<number>`c.global_temporary`,
        userSchedule: sql<number>`c.user_schedule`,
        globalSchedule: sql<number>`c.global_schedule`,
        passesOfUser: sql<number>`g.of_user`,
        passesAll: sql<number>`g.all_open`,
        slot: sql<number | null>`(select candidate.slot::int
          from generate_series(${sql.placeholder('first')}::int, ${sql.placeholder('last')}::int) as candidate(slot)
          where not exists (select 1 from ${phones} s
            where s.barrier_id = ${sql.placeholder('barrierId')} and s.slot = candidate.slot)
          order by candidate.slot limit 1)`,
      })
      .from(
        sql`(select count(*) filter (where p.phone = ${sql.placeholder('number')}::text)::int as same_number,
            count(*) filter (where p.user_id = ${sql.placeholder('userId')})::int as user_total,
            count(*) filter (where p.user_id = ${sql.placeholder('userId')} and p.type = 'temporary')::int
              as user_temporary,
            count(*) filter (where p.type = 'temporary')::int as global_temporary,
            count(*) filter (where p.user_id = ${sql.placeholder('userId')} and p.type = 'schedule')::int
              as user_schedule,
            count(*) filter (where p.type = 'schedule')::int as global_schedule
          from ${phones} p where p.barrier_id = ${sql.placeholder('barrierId')} and p.is_active) c
        cross join (select count(*) filter (where gp.for_user = ${sql.placeholder('userId')})::int as of_user,
            count(*)::int as all_open
          from ${guestPasses} gp
          where gp.barrier_id = ${sql.placeholder('barrierId')} and gp.status = 'created'
            and gp.expires_at > ${sql.placeholder('now')}::timestamptz
            and exists (select 1 from ${barrierAccess} ga
              where ga.barrier_id = gp.barrier_id and ga.user_id = gp.for_user)) g`,
      ),
  );
  const [row] = await statement.execute({
    barrierId: barrier.id,
    userId: phone.userId,
    ownerId: barrier.ownerId,
    number: phone.number,
    first,
    last,
    now: now.toISOString(),
  });
  if (!row) throw new Error('admission query returned no row');
  const problem = phoneLimitProblem(
    barrier,
    {
      sameNumber: row.sameNumber,
      userTotal: row.userTotal + row.passesOfUser,
      userTemporary: row.userTemporary + row.passesOfUser,
      globalTemporary: row.globalTemporary + row.passesAll,
      userSchedule: row.userSchedule,
      globalSchedule: row.globalSchedule,
    },
    { type: phone.type, schedule: phone.schedule ?? null },
  );
  return {
    hasAccess: row.hasAccess,
    blocked: row.blocked,
    otherAccount: row.otherAccount,
    problem,
    slot: row.slot === null ? null : Number(row.slot),
  };
}

/** The 409 of a problem `admitPhone` found (a schedule's too short interval names the barrier's minimum). */
export function phoneProblemError(barrier: LockedBarrier, problem: PhoneProblem) {
  const minimum = barrier.limits.scheduleIntervalLimit;
  return problem === 'schedule_interval_too_short' && minimum !== null
    ? conflict(problem, undefined, { minimum_minutes: minimum })
    : conflict(problem);
}

/** 409 with the problem's code when `admitPhone` found one (the schedule's shortest interval named). */
export function throwPhoneProblem(barrier: LockedBarrier, problem: PhoneProblem): never {
  throw phoneProblemError(barrier, problem);
}

/** Every limit for one more phone of `phone.type` for `phone.userId` (`admitPhone`); 409 when one is reached. */
export async function assertPhoneLimits(
  tx: Executor,
  now: Date,
  barrier: LockedBarrier,
  phone: { userId: number; type: PhoneType; number: string | null; schedule?: WeeklySchedule | null },
): Promise<void> {
  const { problem } = await admitPhone(tx, now, barrier, phone);
  if (problem) throwPhoneProblem(barrier, problem);
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
  // Built once per database (db/prepared.ts): every group of adds reads them under the barrier's lock.
  const active = await preparedStatement(tx, 'phones.batchActive', () =>
    tx
      .select({ phone: phones.phone, userId: phones.userId, type: phones.type })
      .from(phones)
      .where(and(eq(phones.barrierId, sql.placeholder('barrierId')), eq(phones.isActive, true))),
  ).execute({ barrierId: barrier.id });
  const taken = await preparedStatement(tx, 'phones.batchSlots', () =>
    tx
      .select({ slot: phones.slot })
      .from(phones)
      .where(and(eq(phones.barrierId, sql.placeholder('barrierId')), isNotNull(phones.slot))),
  ).execute({ barrierId: barrier.id });
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

/** The barrier's limits for one more phone of a batch, the number aside (`planPhoneBatch` adds it). */
export function batchLimitProblem(
  context: PhoneBatchContext,
  barrier: LockedBarrier,
  phone: NewPhone,
): PhoneProblem | null {
  const user = context.perUser.get(phone.userId) ?? { total: 0, temporary: 0, schedule: 0 };
  return phoneLimitProblem(
    barrier,
    {
      sameNumber: 0,
      userTotal: user.total,
      userTemporary: user.temporary,
      globalTemporary: context.globalTemporary,
      userSchedule: user.schedule,
      globalSchedule: context.globalSchedule,
    },
    phone,
  );
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
