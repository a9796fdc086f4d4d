/** SQL of the exports (issue 14 part 3): read page by page, so that an export never holds the whole table. */
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierAccess, phones, users } from '../../db/schema.ts';

/** One row per active phone of each user with access (a user without any still has his row). */
const userPhoneJoin = and(
  eq(phones.barrierId, barrierAccess.barrierId),
  eq(phones.userId, barrierAccess.userId),
  eq(phones.isActive, true),
  isNull(phones.deletedAt),
);

export async function countUserPhoneRows(executor: Executor, barrierId: number): Promise<number> {
  const [row] = await executor
    .select({ count: count() })
    .from(barrierAccess)
    .innerJoin(users, eq(users.id, barrierAccess.userId))
    .leftJoin(phones, userPhoneJoin)
    .where(eq(barrierAccess.barrierId, barrierId));
  return row?.count ?? 0;
}

/** A page of the users of a barrier with their phones, in the order they got access, primary phone first. */
export function listUserPhoneRows(executor: Executor, barrierId: number, limit: number, offset: number) {
  return executor
    .select({
      userId: users.id,
      fullName: users.fullName,
      userPhone: users.phone,
      role: users.role,
      accessSince: barrierAccess.createdAt,
      phoneId: phones.id,
      phone: phones.phone,
      phoneName: phones.name,
      type: phones.type,
      startTime: phones.startTime,
      endTime: phones.endTime,
      schedule: phones.schedule,
      status: phones.status,
    })
    .from(barrierAccess)
    .innerJoin(users, eq(users.id, barrierAccess.userId))
    .leftJoin(phones, userPhoneJoin)
    .where(eq(barrierAccess.barrierId, barrierId))
    .orderBy(
      asc(barrierAccess.createdAt),
      asc(users.id),
      sql`case ${phones.type} when 'primary' then 0 else 1 end`,
      asc(phones.id),
    )
    .limit(limit)
    .offset(offset);
}
export type UserPhoneRow = Awaited<ReturnType<typeof listUserPhoneRows>>[number];
