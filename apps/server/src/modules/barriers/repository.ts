/**
 * SQL of a barrier and of the resident's own list: the card, the owner, the writes, the limits, and the page of
 * barriers he has access to. The public list is in public-repository.ts, the administrator's in
 * admin-repository.ts. A list is one page query, whatever the page size, with its total in the same statement
 * (or, for the public list, from a query whose answer the service keeps a few seconds); the list queries are
 * prepared statements, one per shape (scope, address filter, ordering).
 */
import type { BarrierListQuery } from '@propusk/contracts/barriers';
import type { LimitField, SmsShareField } from '@propusk/contracts/limits';
import { and, count, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import {
  accessRequests,
  adminBlocks,
  barrierAccess,
  barrierLimits,
  barriers,
  users,
} from '../../db/schema.ts';
import {
  executeGuardedPage,
  guardKey,
  type SessionGuard,
  sessionLiveOrNull,
} from '../../db/session-guard.ts';
import { totalOfPage } from '../barrier-policy/policy.ts';
import {
  addressSearchAmongChosen,
  orderBy,
  pageValues,
  placeholders,
  summaryColumns,
} from './barrier-columns.ts';
import { closedBarriersColumn, toClosedBarriers } from './closed-barriers.ts';

/** Live barriers the viewer (placeholder `viewerId`) has access to, optionally matching the address search. */
function ownConditions(hasAddress: boolean): SQL {
  return and(
    isNull(barriers.deletedAt),
    sql`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${placeholders.viewerId})`,
    hasAddress ? addressSearchAmongChosen() : undefined,
  ) as SQL;
}

/**
 * A page of the live barriers the viewer has access to, and their total in the same statement (totalOfPage).
 * With `withClosed`, the same statement also reads the barriers his administrators closed to him
 * (closed-barriers.ts): `closed` is undefined when the page had no row to carry them.
 */
export async function listOwnBarriers(
  executor: Executor,
  viewerId: number,
  query: BarrierListQuery,
  withClosed = false,
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const hasAddress = Boolean(query.address);
  const shape = `${hasAddress ? 'address' : 'all'}${withClosed ? '+closed' : ''}${guardKey(guard)}`;
  const page = preparedStatement(executor, `barriers.ownPage:${shape}:${query.ordering ?? 'id'}`, () =>
    executor
      .select({
        ...summaryColumns(placeholders.viewerId),
        total: sql<number>`(select count(*) from ${barriers} where ${ownConditions(hasAddress)})`.mapWith(
          Number,
        ),
        closed: withClosed ? closedBarriersColumn(placeholders.viewerId) : sql<null>`null`,
        sessionLive: sessionLiveOrNull(guard),
      })
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(ownConditions(hasAddress))
      .orderBy(...orderBy(query.ordering))
      .limit(placeholders.limit)
      .offset(placeholders.offset),
  );
  const filter = { viewerId, ...(hasAddress ? { address: query.address ?? '' } : {}) };
  const { rows, sessionLive } = await executeGuardedPage(page, filter, pageValues(query), guard);
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `barriers.ownCount:${shape.replace(/\+live:.*/, '')}`, () =>
      executor.select({ count: count() }).from(barriers).where(ownConditions(hasAddress)),
    );
    const [row] = await counted.execute(filter);
    return row?.count ?? 0;
  });
  const closed = withClosed && rows[0] ? toClosedBarriers(rows[0].closed ?? []) : undefined;
  return { rows, total, closed, sessionLive };
}

export async function findBarrierCard(executor: Executor, barrierId: number, viewerId: number) {
  const [row] = await executor
    .select({
      ...summaryColumns(viewerId),
      devicePhone: barriers.devicePhone,
      deviceModel: barriers.deviceModel,
      devicePhonesAmount: barriers.devicePhonesAmount,
      // The owner's own block of the viewer (DESIGN.md section 4), so the card can say why he has no access.
      blockReason: sql<
        string | null
      >`(select ${adminBlocks.reason} from ${adminBlocks} where ${adminBlocks.adminId} = ${barriers.ownerId} and ${adminBlocks.userId} = ${viewerId})`,
    })
    .from(barriers)
    .innerJoin(users, eq(users.id, barriers.ownerId))
    .where(and(eq(barriers.id, barrierId), isNull(barriers.deletedAt)));
  return row;
}

export async function findOwner(executor: Executor, userId: number) {
  const [row] = await executor
    .select({ id: users.id, phone: users.phone })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row;
}

export async function insertBarrier(executor: Executor, values: typeof barriers.$inferInsert) {
  const [row] = await executor.insert(barriers).values(values).returning({ id: barriers.id });
  if (!row) throw new Error('barrier not inserted');
  await executor
    .insert(barrierLimits)
    .values({ barrierId: row.id, updatedAt: values.createdAt ?? new Date() });
  return row.id;
}

export async function updateBarrier(
  executor: Executor,
  barrierId: number,
  values: Partial<typeof barriers.$inferInsert>,
) {
  await executor.update(barriers).set(values).where(eq(barriers.id, barrierId));
}

/** Soft-deletes the barrier: access rows go, pending requests are cancelled, history stays. */
export async function markBarrierDeleted(executor: Executor, barrierId: number, now: Date) {
  await executor.update(barriers).set({ deletedAt: now, updatedAt: now }).where(eq(barriers.id, barrierId));
  await executor.delete(barrierAccess).where(eq(barrierAccess.barrierId, barrierId));
  await executor
    .update(accessRequests)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(accessRequests.barrierId, barrierId), eq(accessRequests.status, 'pending')));
}

export async function findLimits(executor: Executor, barrierId: number) {
  const [row] = await executor.select().from(barrierLimits).where(eq(barrierLimits.barrierId, barrierId));
  return row;
}

const limitColumns: Record<LimitField | SmsShareField, keyof typeof barrierLimits.$inferInsert> = {
  sms_resident_share: 'smsResidentShare',
  sms_owner_reserve: 'smsOwnerReserve',
  user_phone_limit: 'userPhoneLimit',
  user_temp_phone_limit: 'userTempPhoneLimit',
  global_temp_phone_limit: 'globalTempPhoneLimit',
  user_schedule_phone_limit: 'userSchedulePhoneLimit',
  global_schedule_phone_limit: 'globalSchedulePhoneLimit',
  schedule_interval_limit: 'scheduleIntervalLimit',
  sms_weekly_limit: 'smsWeeklyLimit',
};

export async function upsertLimits(
  executor: Executor,
  barrierId: number,
  changes: Partial<Record<LimitField | SmsShareField, number | null>>,
  now: Date,
) {
  const values: Record<string, number | null | Date> = { updatedAt: now };
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined) values[limitColumns[field as LimitField | SmsShareField]] = value;
  }
  await executor
    .insert(barrierLimits)
    .values({ barrierId, ...values })
    .onConflictDoUpdate({ target: barrierLimits.barrierId, set: values });
}

/**
 * A live barrier whose unit confirmed a command holds this device number (issue 40 item 4, decision 0030).
 * Serialised per number by a transaction lock, so that two creations cannot both read "free" past a
 * confirmation being written.
 */
export async function devicePhoneConfirmedElsewhere(tx: Executor, devicePhone: string): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`device-phone:${devicePhone}`}))`);
  const [row] = await tx
    .select({ id: barriers.id })
    .from(barriers)
    .where(
      and(
        eq(barriers.devicePhone, devicePhone),
        isNull(barriers.deletedAt),
        isNotNull(barriers.deviceConfirmedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}
