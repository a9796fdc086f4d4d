/** Queries of the own-profile and account operations. */
import { and, asc, count, eq, inArray, isNull, ne, notInArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accessRequests, actions, barrierAccess, barriers, phones, users } from '../../db/schema.ts';

export type UserUpdate = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'fullName'
    | 'phonePrivacy'
    | 'phone'
    | 'passwordHash'
    | 'passwordVerifiedAt'
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
  values: Pick<typeof users.$inferInsert, 'phone' | 'fullName' | 'role' | 'passwordHash'>,
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

export interface UserPhoneRow {
  id: number;
  barrierId: number;
  userId: number;
  phone: string;
  name: string;
  type: 'primary' | 'permanent' | 'temporary' | 'schedule';
  isBarrierLive: boolean;
}

const phoneColumns = {
  id: phones.id,
  barrierId: phones.barrierId,
  userId: phones.userId,
  phone: phones.phone,
  name: phones.name,
  type: phones.type,
  barrierDeletedAt: barriers.deletedAt,
};

function toPhoneRow(row: { barrierDeletedAt: Date | null } & Omit<UserPhoneRow, 'isBarrierLive'>) {
  const { barrierDeletedAt, ...rest } = row;
  return { ...rest, isBarrierLive: barrierDeletedAt === null };
}

/** Every active phone of a user, on any barrier. */
export async function findActivePhonesOfUser(executor: Executor, userId: number): Promise<UserPhoneRow[]> {
  const rows = await executor
    .select(phoneColumns)
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(and(eq(phones.userId, userId), eq(phones.isActive, true)))
    .orderBy(asc(phones.barrierId), asc(phones.id));
  return rows.map(toPhoneRow);
}

/** The active phone with this number on a barrier, whoever's it is. */
export async function findActivePhoneByNumber(
  executor: Executor,
  barrierId: number,
  number: string,
): Promise<UserPhoneRow | undefined> {
  const [row] = await executor
    .select(phoneColumns)
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(and(eq(phones.barrierId, barrierId), eq(phones.phone, number), eq(phones.isActive, true)))
    .limit(1);
  return row ? toPhoneRow(row) : undefined;
}

/** Takes phones off their barriers: inactive, slot freed, soft-deleted (history still points at them). */
export async function deactivatePhones(executor: Executor, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await executor
    .update(phones)
    .set({ isActive: false, slot: null, deletedAt: now, updatedAt: now })
    .where(inArray(phones.id, ids));
}

export async function setPhoneNumber(
  executor: Executor,
  id: number,
  number: string,
  now: Date,
): Promise<void> {
  await executor.update(phones).set({ phone: number, updatedAt: now }).where(eq(phones.id, id));
}

export type ActionInsert = typeof actions.$inferInsert;

export async function insertActions(executor: Executor, rows: ActionInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await executor.insert(actions).values(rows);
}

/** Removes the user's access to every barrier except the listed ones. */
export async function deleteBarrierAccess(
  executor: Executor,
  userId: number,
  keepBarrierIds: number[] = [],
): Promise<void> {
  await executor
    .delete(barrierAccess)
    .where(
      keepBarrierIds.length > 0
        ? and(eq(barrierAccess.userId, userId), notInArray(barrierAccess.barrierId, keepBarrierIds))
        : eq(barrierAccess.userId, userId),
    );
}

export async function findOwnedBarrierIds(executor: Executor, userId: number): Promise<number[]> {
  const rows = await executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(and(eq(barriers.ownerId, userId), isNull(barriers.deletedAt)));
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
