/** SQL of the phone calls. */
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barriers, phones } from '../../db/schema.ts';
import { pageOffset } from '../barrier-policy/policy.ts';
import type { PhoneRow } from './phone-changes.ts';

/** Active phones of a barrier, optionally of one user: primary first, then in the order they were added. */
export async function listActivePhones(
  executor: Executor,
  filter: { barrierId: number; userId?: number | undefined },
  query: { page: number; page_size: number },
) {
  const conditions: SQL[] = [eq(phones.barrierId, filter.barrierId), eq(phones.isActive, true)];
  if (filter.userId !== undefined) conditions.push(eq(phones.userId, filter.userId));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    executor
      .select()
      .from(phones)
      .where(where)
      .orderBy(asc(phones.userId), asc(phones.createdAt), asc(phones.id))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor.select({ count: count() }).from(phones).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

/** A phone with its barrier's owner and whether the barrier is deleted. */
export async function findPhone(executor: Executor, phoneId: number) {
  // Named: read after every phone write, and planning it (the phones table's many indexes) cost 0.3 ms a call.
  const statement = preparedStatement(executor, 'phones.find', () =>
    executor
      .select({ phone: phones, ownerId: barriers.ownerId, barrierDeletedAt: barriers.deletedAt })
      .from(phones)
      .innerJoin(barriers, eq(barriers.id, phones.barrierId))
      .where(eq(phones.id, sql.placeholder('phoneId'))),
  );
  const [row] = await statement.execute({ phoneId });
  return row;
}

export async function updatePhone(
  executor: Executor,
  phoneId: number,
  values: Partial<typeof phones.$inferInsert>,
): Promise<PhoneRow> {
  const [row] = await executor.update(phones).set(values).where(eq(phones.id, phoneId)).returning();
  if (!row) throw new Error('phone not updated');
  return row;
}
