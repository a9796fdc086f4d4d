/**
 * SQL of the change history. Every filter is served by an index on (barrier | owner, type, created_at).
 * The list is one prepared statement per filter combination, carrying its page and its total.
 */
import { and, count, desc, eq, getTableColumns, gte, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { actions, barriers, phones, users } from '../../db/schema.ts';
import {
  executeGuardedPage,
  guardKey,
  type SessionGuard,
  sessionLiveOrNull,
} from '../../db/session-guard.ts';
import { holdsPermissionSql, pageOffset, totalOfPage } from '../barrier-policy/policy.ts';

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
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const shape = shapeOf(filter);
  // Built only when the shape's statement is (once per database): values are placeholders.
  const where = () => conditions(filter);
  const page = preparedStatement(executor, `actions.page:${shape}${guardKey(guard)}`, () =>
    executor
      .select({
        ...actionColumns,
        total: sql<number>`(select count(*) from ${actions} where ${where()})`.mapWith(Number),
        sessionLive: sessionLiveOrNull(guard),
      })
      .from(actions)
      .innerJoin(barriers, eq(barriers.id, actions.barrierId))
      .leftJoin(phones, eq(phones.id, actions.phoneId))
      .leftJoin(users, eq(users.id, actions.authorUserId))
      .where(where())
      .orderBy(desc(actions.createdAt), desc(actions.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const values = filterValues(filter);
  const pageValues = { limit: query.page_size, offset: pageOffset(query) };
  const { rows, sessionLive } = await executeGuardedPage(page, values, pageValues, guard);
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `actions.count:${shape}`, () =>
      executor.select({ count: count() }).from(actions).where(where()),
    );
    const [row] = await counted.execute(values);
    return row?.count ?? 0;
  });
  return { rows, total, sessionLive };
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

/** How many actions a filter selects (the history export checks its cap with it before reading any). */
export async function countActions(executor: Executor, filter: ActionFilter): Promise<number> {
  const where = conditions(filter);
  const counted = preparedStatement(executor, `actions.count:${shapeOf(filter)}`, () =>
    executor.select({ count: count() }).from(actions).where(where),
  );
  const [row] = await counted.execute(filterValues(filter));
  return row?.count ?? 0;
}

/**
 * The next `limit` actions of a filter after `after` (newest first, by created_at then id): the history export
 * reads page after page by this key, each page an index range, instead of an offset that rereads the ones before.
 */
export async function listActionsAfter(
  executor: Executor,
  filter: ActionFilter,
  after: { cursorAt: string; id: number } | null,
  limit: number,
): Promise<(ActionRow & { cursorAt: string })[]> {
  const where = conditions(filter);
  const keyset = after
    ? sql`(${actions.createdAt}, ${actions.id}) < (${sql.placeholder('afterAt')}::timestamptz, ${sql.placeholder('afterId')}::integer)`
    : undefined;
  const statement = preparedStatement(
    executor,
    `actions.after:${shapeOf(filter)}:${after ? 'next' : 'first'}`,
    () =>
      executor
        // The key as the database holds it (microseconds; a JavaScript Date keeps milliseconds only).
        .select({ ...actionColumns, cursorAt: sql<string>`${actions.createdAt}::text`.mapWith(String) })
        .from(actions)
        .innerJoin(barriers, eq(barriers.id, actions.barrierId))
        .leftJoin(phones, eq(phones.id, actions.phoneId))
        .leftJoin(users, eq(users.id, actions.authorUserId))
        .where(and(where, keyset))
        .orderBy(desc(actions.createdAt), desc(actions.id))
        .limit(sql.placeholder('limit')),
  );
  const rows = await statement.execute({
    ...filterValues(filter),
    ...(after ? { afterAt: after.cursorAt, afterId: after.id } : {}),
    limit,
  });
  return rows as (ActionRow & { cursorAt: string })[];
}
