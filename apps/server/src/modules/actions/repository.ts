/** SQL of the change history. Every filter is served by an index on (barrier | owner, type, created_at). */
import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { actions, barriers } from '../../db/schema.ts';
import { pageOffset } from '../barriers/policy.ts';

export type ActionRow = typeof actions.$inferSelect;

export async function listActions(
  executor: Executor,
  filter: {
    barrierId: number;
    phoneOwnerId?: number;
    actionType?: ActionRow['actionType'] | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
  },
  query: { page: number; page_size: number },
) {
  const conditions: SQL[] = [eq(actions.barrierId, filter.barrierId)];
  if (filter.phoneOwnerId !== undefined) conditions.push(eq(actions.phoneOwnerId, filter.phoneOwnerId));
  if (filter.actionType) conditions.push(eq(actions.actionType, filter.actionType));
  if (filter.from) conditions.push(gte(actions.createdAt, filter.from));
  if (filter.to) conditions.push(lte(actions.createdAt, filter.to));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    executor
      .select()
      .from(actions)
      .where(where)
      .orderBy(desc(actions.createdAt), desc(actions.id))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor.select({ count: count() }).from(actions).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

export async function findAction(executor: Executor, actionId: number) {
  const [row] = await executor
    .select({ action: actions, ownerId: barriers.ownerId, barrierDeletedAt: barriers.deletedAt })
    .from(actions)
    .innerJoin(barriers, eq(barriers.id, actions.barrierId))
    .where(eq(actions.id, actionId));
  return row;
}
