/** SQL of the barrier calls. Lists are one page query plus one count query, whatever the page size. */
import type { BarrierListQuery, BarrierOrdering } from '@propusk/contracts/barriers';
import type { LimitField } from '@propusk/contracts/limits';
import { and, asc, count, desc, eq, ilike, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accessRequests, barrierAccess, barrierLimits, barriers, users } from '../../db/schema.ts';
import { likePattern, pageOffset } from './policy.ts';

function orderBy(ordering: BarrierOrdering | undefined): SQL[] {
  switch (ordering) {
    case 'address':
      return [asc(barriers.address), asc(barriers.id)];
    case '-address':
      return [desc(barriers.address), desc(barriers.id)];
    case 'created_at':
      return [asc(barriers.createdAt), asc(barriers.id)];
    case '-created_at':
      return [desc(barriers.createdAt), desc(barriers.id)];
    case '-id':
      return [desc(barriers.id)];
    default:
      return [asc(barriers.id)];
  }
}

const summaryColumns = (viewerId: number) => ({
  id: barriers.id,
  address: barriers.address,
  additionalInfo: barriers.additionalInfo,
  isPublic: barriers.isPublic,
  ownerId: barriers.ownerId,
  ownerName: users.fullName,
  ownerPhone: users.phone,
  ownerPrivacy: users.phonePrivacy,
  hasAccess: sql<boolean>`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${viewerId})`,
});

export type BarrierSummaryRow = Awaited<ReturnType<typeof listBarriers>>['rows'][number];

/** Public barriers, or the barriers the viewer has access to (`mine`), with their owner. */
export async function listBarriers(
  executor: Executor,
  viewerId: number,
  scope: 'public' | 'mine',
  query: BarrierListQuery,
) {
  const conditions: SQL[] = [isNull(barriers.deletedAt)];
  if (scope === 'public') conditions.push(eq(barriers.isPublic, true));
  else {
    conditions.push(
      sql`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${viewerId})`,
    );
  }
  if (query.address) conditions.push(ilike(barriers.address, likePattern(query.address)));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    executor
      .select(summaryColumns(viewerId))
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(where)
      .orderBy(...orderBy(query.ordering))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor.select({ count: count() }).from(barriers).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

const adminColumns = {
  id: barriers.id,
  address: barriers.address,
  ownerId: barriers.ownerId,
  ownerName: users.fullName,
  ownerPhone: users.phone,
  devicePhone: barriers.devicePhone,
  deviceModel: barriers.deviceModel,
  devicePhonesAmount: barriers.devicePhonesAmount,
  additionalInfo: barriers.additionalInfo,
  isPublic: barriers.isPublic,
  createdAt: barriers.createdAt,
};
export type AdminBarrierRow = Awaited<ReturnType<typeof findOwnedBarrierRow>>;

export async function listOwnedBarriers(executor: Executor, ownerId: number, query: BarrierListQuery) {
  const conditions: SQL[] = [eq(barriers.ownerId, ownerId), isNull(barriers.deletedAt)];
  if (query.address) conditions.push(ilike(barriers.address, likePattern(query.address)));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    executor
      .select(adminColumns)
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(where)
      .orderBy(...orderBy(query.ordering))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor.select({ count: count() }).from(barriers).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

export async function findOwnedBarrierRow(executor: Executor, barrierId: number) {
  const [row] = await executor
    .select(adminColumns)
    .from(barriers)
    .innerJoin(users, eq(users.id, barriers.ownerId))
    .where(and(eq(barriers.id, barrierId), isNull(barriers.deletedAt)));
  return row;
}

export async function findBarrierCard(executor: Executor, barrierId: number, viewerId: number) {
  const [row] = await executor
    .select({
      ...summaryColumns(viewerId),
      devicePhone: barriers.devicePhone,
      deviceModel: barriers.deviceModel,
      devicePhonesAmount: barriers.devicePhonesAmount,
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

const limitColumns: Record<LimitField, keyof typeof barrierLimits.$inferInsert> = {
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
  changes: Partial<Record<LimitField, number | null>>,
  now: Date,
) {
  const values: Record<string, number | null | Date> = { updatedAt: now };
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined) values[limitColumns[field as LimitField]] = value;
  }
  await executor
    .insert(barrierLimits)
    .values({ barrierId, ...values })
    .onConflictDoUpdate({ target: barrierLimits.barrierId, set: values });
}
