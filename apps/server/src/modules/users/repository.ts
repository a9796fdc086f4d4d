/** Queries of the own-profile and account operations. */
import { and, asc, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accessRequests, barrierAccess, barriers, phones, users } from '../../db/schema.ts';

export type UserUpdate = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'fullName'
    | 'phonePrivacy'
    | 'phone'
    | 'passwordHash'
    | 'passwordChangeRequired'
    | 'role'
    | 'isActive'
    | 'blockReason'
    | 'deletedAt'
  >
>;

export async function updateUser(
  executor: Executor,
  id: number,
  values: UserUpdate,
  now: Date,
): Promise<void> {
  await executor
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, id));
}

export async function insertUser(
  executor: Executor,
  values: Pick<typeof users.$inferInsert, 'phone' | 'fullName' | 'role' | 'passwordHash' | 'phonePrivacy'>,
  now: Date,
): Promise<number> {
  const [row] = await executor
    .insert(users)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning({ id: users.id });
  if (!row) throw new Error('user not created');
  return row.id;
}

export async function countOwnedLiveBarriers(executor: Executor, userId: number): Promise<number> {
  const [row] = await executor
    .select({ count: count() })
    .from(barriers)
    .where(and(eq(barriers.ownerId, userId), isNull(barriers.deletedAt)));
  return row?.count ?? 0;
}

/**
 * Every barrier where the user has access or an active phone, in id order, with whether it is live (not
 * deleted): the barriers his account deletion or block must clear.
 */
export async function findBarriersOfUser(
  executor: Executor,
  userId: number,
): Promise<{ id: number; ownerId: number; isLive: boolean }[]> {
  const rows = await executor
    .select({ id: barriers.id, ownerId: barriers.ownerId, deletedAt: barriers.deletedAt })
    .from(barriers)
    .where(
      or(
        inArray(
          barriers.id,
          executor
            .select({ id: barrierAccess.barrierId })
            .from(barrierAccess)
            .where(eq(barrierAccess.userId, userId)),
        ),
        inArray(
          barriers.id,
          executor
            .select({ id: phones.barrierId })
            .from(phones)
            .where(and(eq(phones.userId, userId), eq(phones.isActive, true))),
        ),
      ),
    )
    .orderBy(asc(barriers.id));
  return rows.map(({ deletedAt, ...row }) => ({ ...row, isLive: deletedAt === null }));
}

/** Live barriers on which the user has an active primary phone, in id order. */
export async function findLiveBarrierIdsWithPrimaryPhone(
  executor: Executor,
  userId: number,
): Promise<number[]> {
  const rows = await executor
    .selectDistinct({ id: phones.barrierId })
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(
      and(
        eq(phones.userId, userId),
        eq(phones.isActive, true),
        eq(phones.type, 'primary'),
        isNull(barriers.deletedAt),
      ),
    )
    .orderBy(asc(phones.barrierId));
  return rows.map((row) => row.id);
}

/** Pending requests of the user (his own and invitations to him) end as cancelled. */
export async function cancelPendingRequests(executor: Executor, userId: number, now: Date): Promise<void> {
  await executor
    .update(accessRequests)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(accessRequests.userId, userId), eq(accessRequests.status, 'pending')));
}

/** Another live account holding this phone, if any. */
export async function findOtherLiveUserIdByPhone(
  executor: Executor,
  phone: string,
  exceptUserId: number,
): Promise<number | undefined> {
  const [row] = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), isNull(users.deletedAt), ne(users.id, exceptUserId)))
    .limit(1);
  return row?.id;
}
