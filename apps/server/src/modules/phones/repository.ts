/** SQL of the phone calls. */
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barrierAccess, barriers, phones } from '../../db/schema.ts';
import {
  executeGuardedPage,
  guardKey,
  type SessionGuard,
  sessionLiveOrNull,
} from '../../db/session-guard.ts';
import { holdsPermissionSql, pageOffset, totalOfPage } from '../barrier-policy/policy.ts';
import type { PhoneRow } from './phone-changes.ts';

/**
 * Who reads a phone list, as a condition of its statement: a resident with access to the live barrier, or an
 * administrator holding `phones.manage` on it. Out of that scope the list is empty; the caller then runs the
 * policy check to tell an empty list from a barrier he may not read (404/403, as checking first would), so a
 * list that has rows needs no statement of its own for the check.
 */
export type PhoneListReader = { resident: number } | { administrator: number };

function readerCondition(reader: PhoneListReader): SQL {
  const barrierId = sql.placeholder('barrierId');
  const readerId = sql.placeholder('readerId');
  return 'resident' in reader
    ? sql`exists (select 1 from ${barrierAccess} inner join ${barriers} on ${barriers.id} = ${barrierAccess.barrierId} where ${barrierAccess.barrierId} = ${barrierId} and ${barrierAccess.userId} = ${readerId} and ${barriers.deletedAt} is null)`
    : sql`exists (select 1 from ${barriers} where ${barriers.id} = ${barrierId} and ${barriers.deletedAt} is null and ${holdsPermissionSql(barriers.id, readerId, 'phones.manage')})`;
}

/**
 * Active phones of a barrier, optionally of one user, as `reader` may read them (PhoneListReader): primary
 * first, then in the order they were added. One named statement per shape, the page and its total together
 * (totalOfPage: an uncorrelated count, computed once), instead of two plain statements planned at every call.
 */
export async function listActivePhones(
  executor: Executor,
  filter: { barrierId: number; userId?: number | undefined },
  reader: PhoneListReader,
  query: { page: number; page_size: number },
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const ofUser = filter.userId !== undefined;
  const shape = `${ofUser ? 'user' : 'all'}:${'resident' in reader ? 'resident' : 'administrator'}`;
  const where = () =>
    and(
      eq(phones.barrierId, sql.placeholder('barrierId')),
      eq(phones.isActive, true),
      ofUser ? eq(phones.userId, sql.placeholder('userId')) : undefined,
      readerCondition(reader),
    );
  const page = preparedStatement(executor, `phones.activePage:${shape}${guardKey(guard)}`, () =>
    executor
      .select({
        phone: phones,
        total: sql<number>`(select count(*) from ${phones} where ${where()})`.mapWith(Number),
        sessionLive: sessionLiveOrNull(guard),
      })
      .from(phones)
      .where(where())
      .orderBy(asc(phones.userId), asc(phones.createdAt), asc(phones.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const values = {
    barrierId: filter.barrierId,
    readerId: 'resident' in reader ? reader.resident : reader.administrator,
    ...(ofUser ? { userId: filter.userId } : {}),
  };
  const pageValues = { limit: query.page_size, offset: pageOffset(query) };
  const { rows, sessionLive } = await executeGuardedPage(page, values, pageValues, guard);
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `phones.activeCount:${shape}`, () =>
      executor.select({ count: count() }).from(phones).where(where()),
    );
    const [row] = await counted.execute(values);
    return row?.count ?? 0;
  });
  return { rows: rows.map((row) => row.phone), total, sessionLive };
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
