/** SQL of a barrier's staff (co-administrators and dispatchers). */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { actions, barrierStaff, barriers, users } from '../../db/schema.ts';
import type { StaffRole } from '../barrier-policy/policy.ts';

const memberColumns = {
  id: users.id,
  fullName: users.fullName,
  phone: users.phone,
  role: barrierStaff.role,
  createdAt: barrierStaff.createdAt,
};

export async function listStaff(executor: Executor, barrierId: number) {
  return executor
    .select(memberColumns)
    .from(barrierStaff)
    .innerJoin(users, eq(users.id, barrierStaff.userId))
    .where(and(eq(barrierStaff.barrierId, barrierId), isNull(users.deletedAt)))
    .orderBy(asc(barrierStaff.createdAt), asc(users.id));
}

export async function findStaffMember(executor: Executor, barrierId: number, userId: number) {
  const [row] = await executor
    .select(memberColumns)
    .from(barrierStaff)
    .innerJoin(users, eq(users.id, barrierStaff.userId))
    .where(
      and(eq(barrierStaff.barrierId, barrierId), eq(barrierStaff.userId, userId), isNull(users.deletedAt)),
    );
  return row;
}

/** The live account with this phone, if any (its role tells whether it is an administrator). */
export async function findLiveUserByPhone(executor: Executor, phone: string) {
  const [row] = await executor
    .select({ id: users.id, role: users.role, isActive: users.isActive, fullName: users.fullName })
    .from(users)
    .where(and(eq(users.phone, phone), isNull(users.deletedAt)));
  return row;
}

/** Whether the account is already staff on one of this owner's barriers (issue 28 part 2: a known colleague). */
export async function isStaffOfOwner(executor: Executor, ownerId: number, userId: number): Promise<boolean> {
  const [row] = await executor
    .select({ userId: barrierStaff.userId })
    .from(barrierStaff)
    .innerJoin(barriers, eq(barriers.id, barrierStaff.barrierId))
    .where(and(eq(barrierStaff.userId, userId), eq(barriers.ownerId, ownerId)))
    .limit(1);
  return Boolean(row);
}

/** Adds the row; false when this administrator is already on the barrier. */
export async function insertStaff(
  executor: Executor,
  values: { barrierId: number; userId: number; role: StaffRole; addedBy: number; createdAt: Date },
): Promise<boolean> {
  const inserted = await executor
    .insert(barrierStaff)
    .values(values)
    .onConflictDoNothing()
    .returning({ userId: barrierStaff.userId });
  return inserted.length > 0;
}

export async function updateStaffRole(
  executor: Executor,
  barrierId: number,
  userId: number,
  role: StaffRole,
) {
  await executor
    .update(barrierStaff)
    .set({ role })
    .where(and(eq(barrierStaff.barrierId, barrierId), eq(barrierStaff.userId, userId)));
}

export async function deleteStaff(executor: Executor, barrierId: number, userId: number): Promise<boolean> {
  const deleted = await executor
    .delete(barrierStaff)
    .where(and(eq(barrierStaff.barrierId, barrierId), eq(barrierStaff.userId, userId)))
    .returning({ userId: barrierStaff.userId });
  return deleted.length > 0;
}

/** A staff change in the barrier's history (a `barrier_setting` action whose setting names the change). */
export async function insertStaffAction(
  executor: Executor,
  values: {
    barrierId: number;
    authorUserId: number;
    newValue: Record<string, unknown>;
    oldValue?: Record<string, unknown> | null;
    createdAt: Date;
  },
) {
  await executor.insert(actions).values({
    barrierId: values.barrierId,
    actionType: 'barrier_setting',
    author: 'admin',
    authorUserId: values.authorUserId,
    reason: 'manual',
    oldValue: values.oldValue ?? null,
    newValue: values.newValue,
    createdAt: values.createdAt,
  });
}
