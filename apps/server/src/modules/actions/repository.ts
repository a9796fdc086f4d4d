/**
 * SQL of the change history. Every filter is served by an index on (barrier | owner, type, created_at).
 * The list is one prepared statement per filter combination, carrying its page and its total.
 */
import { and, count, desc, eq, getTableColumns, gte, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { actions, barriers, phones, users } from '../../db/schema.ts';
import { holdsPermissionSql, pageOffset, totalOfPage } from '../barriers/policy.ts';

/**
 * An action with what its card shows beside the ids: the phone's number, the author's name and the
 * barrier's model (to name a setting). Joined by primary key after the page is chosen.
 */
const actionColumns = {
  ...getTableColumns(actions),
  phoneNumber: phones.phone,
  authorName: users.fullName,
  deviceModel: barriers.deviceModel,
};
export type ActionRow = typeof actions.$inferSelect & {
  phoneNumber: string | null;
  authorName: string | null;
  deviceModel: string;
};

export interface ActionFilter {
  barrierId: number;
  /** Only actions on phones of this user. */
  phoneOwnerId?: number | undefined;
  /** Only if the barrier is a live barrier whose history this administrator may read (otherwise nothing). */
  barrierOwnerId?: number | undefined;
  actionType?: ActionRow['actionType'] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const placeholder = (name: keyof ActionFilter) => sql.placeholder(name);

function conditions(filter: ActionFilter): SQL {
  return and(
    eq(actions.barrierId, placeholder('barrierId')),
    filter.phoneOwnerId !== undefined ? eq(actions.phoneOwnerId, placeholder('phoneOwnerId')) : undefined,
    // Uncorrelated: PostgreSQL checks it once, before reading any action.
    filter.barrierOwnerId !== undefined
      ? sql`exists (select 1 from ${barriers} where ${barriers.id} = ${placeholder('barrierId')} and ${holdsPermissionSql(barriers.id, placeholder('barrierOwnerId'), 'history.view')} and ${isNull(barriers.deletedAt)})`
      : undefined,
    filter.actionType ? eq(actions.actionType, placeholder('actionType')) : undefined,
    filter.from ? gte(actions.createdAt, placeholder('from')) : undefined,
    filter.to ? lte(actions.createdAt, placeholder('to')) : undefined,
  ) as SQL;
}

/** Which optional conditions a filter has: the shape of its statement. */
function shapeOf(filter: ActionFilter): string {
  const flags = [
    filter.phoneOwnerId !== undefined ? 'user' : '',
    filter.barrierOwnerId !== undefined ? 'owner' : '',
    filter.actionType ? 'type' : '',
    filter.from ? 'from' : '',
    filter.to ? 'to' : '',
  ];
  return flags.filter(Boolean).join('+') || 'barrier';
}

function filterValues(filter: ActionFilter): Record<string, unknown> {
  return {
    barrierId: filter.barrierId,
    ...(filter.phoneOwnerId !== undefined ? { phoneOwnerId: filter.phoneOwnerId } : {}),
    ...(filter.barrierOwnerId !== undefined ? { barrierOwnerId: filter.barrierOwnerId } : {}),
    ...(filter.actionType ? { actionType: filter.actionType } : {}),
    ...(filter.from ? { from: filter.from.toISOString() } : {}),
    ...(filter.to ? { to: filter.to.toISOString() } : {}),
  };
}

/** A page of a barrier's actions, newest first, and their total, in one statement (totalOfPage). */
export async function listActions(
  executor: Executor,
  filter: ActionFilter,
  query: { page: number; page_size: number },
) {
  const shape = shapeOf(filter);
  const where = conditions(filter);
  const page = preparedStatement(executor, `actions.page:${shape}`, () =>
    executor
      .select({
        ...actionColumns,
        total: sql<number>`(select count(*) from ${actions} where ${where})`.mapWith(Number),
      })
      .from(actions)
      .innerJoin(barriers, eq(barriers.id, actions.barrierId))
      .leftJoin(phones, eq(phones.id, actions.phoneId))
      .leftJoin(users, eq(users.id, actions.authorUserId))
      .where(where)
      .orderBy(desc(actions.createdAt), desc(actions.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const values = filterValues(filter);
  const rows = await page.execute({ ...values, limit: query.page_size, offset: pageOffset(query) });
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `actions.count:${shape}`, () =>
      executor.select({ count: count() }).from(actions).where(where),
    );
    const [row] = await counted.execute(values);
    return row?.count ?? 0;
  });
  return { rows, total };
}

export async function findAction(executor: Executor, actionId: number) {
  const [row] = await executor
    .select({ action: actionColumns, ownerId: barriers.ownerId, barrierDeletedAt: barriers.deletedAt })
    .from(actions)
    .innerJoin(barriers, eq(barriers.id, actions.barrierId))
    .leftJoin(phones, eq(phones.id, actions.phoneId))
    .leftJoin(users, eq(users.id, actions.authorUserId))
    .where(eq(actions.id, actionId));
  return row;
}
