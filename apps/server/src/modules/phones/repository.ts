/** SQL of the phone calls. */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barriers, phones } from '../../db/schema.ts';
import { pageOffset, totalOfPage } from '../barrier-policy/policy.ts';
import type { PhoneRow } from './phone-changes.ts';

/**
 * Active phones of a barrier, optionally of one user: primary first, then in the order they were added. One
 * named statement per shape, the page and its total together (totalOfPage: an uncorrelated count, computed
 * once), instead of two plain statements planned at every call.
 */
export async function listActivePhones(
  executor: Executor,
  filter: { barrierId: number; userId?: number | undefined },
  query: { page: number; page_size: number },
) {
  const ofUser = filter.userId !== undefined;
  const where = () =>
    and(
      eq(phones.barrierId, sql.placeholder('barrierId')),
      eq(phones.isActive, true),
      ofUser ? eq(phones.userId, sql.placeholder('userId')) : undefined,
    );
  const page = preparedStatement(executor, `phones.activePage:${ofUser ? 'user' : 'all'}`, () =>
    executor
      .select({
        phone: phones,
        total: sql<number>`(select count(*) from ${phones} where ${where()})`.mapWith(Number),
      })
      .from(phones)
      .where(where())
      .orderBy(asc(phones.userId), asc(phones.createdAt), asc(phones.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const values = { barrierId: filter.barrierId, ...(ofUser ? { userId: filter.userId } : {}) };
  const rows = await page.execute({ ...values, limit: query.page_size, offset: pageOffset(query) });
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `phones.activeCount:${ofUser ? 'user' : 'all'}`, () =>
      executor.select({ count: count() }).from(phones).where(where()),
    );
    const [row] = await counted.execute(values);
    return row?.count ?? 0;
  });
  return { rows: rows.map((row) => row.phone), total };
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
