/**
 * SQL of the public list (`GET /api/barriers/`): a page of live public barriers, the ids and total of an
 * address search (kept a few seconds by public-search.ts, whose pages are then read by id), the public count.
 */
import type { BarrierListQuery, BarrierOrdering } from '@propusk/contracts/barriers';
import { and, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barriers, users } from '../../db/schema.ts';
import { guardKey, type SessionGuard, sessionLiveOrNull } from '../../db/session-guard.ts';

import {
  addressSearch,
  matchesOrderBy,
  orderBy,
  pageValues,
  placeholders,
  summaryColumns,
} from './barrier-columns.ts';

/** Live public barriers, optionally those whose address matches the search (placeholder `address`, addressSearch). */
function publicConditions(hasAddress: boolean): SQL {
  return and(
    isNull(barriers.deletedAt),
    // A literal condition, not `= $1`: a generic plan can then prove the partial index barriers_public_live_idx.
    sql`${barriers.isPublic}`,
    hasAddress ? addressSearch() : undefined,
  ) as SQL;
}

/**
 * The live public barriers whose address matches the search (placeholder `address`, addressSearch), as the derived
 * table `matches` (id, address, created_at). A subquery with OFFSET is planned on its own, never merged into
 * the query that orders it: its plan is the search index, whatever order the list asks for.
 */
const addressMatches = () =>
  sql`(select ${barriers.id} as id, ${barriers.address} as address, ${barriers.createdAt} as created_at from ${barriers} where ${publicConditions(true)} offset 0) as matches`;

function publicPageStatement(
  executor: Executor,
  hasAddress: boolean,
  ordering: BarrierOrdering | undefined,
  guard: SessionGuard | undefined,
) {
  const key = `barriers.publicPage:${hasAddress ? 'address' : 'all'}${guardKey(guard)}:${ordering ?? 'id'}`;
  return preparedStatement(executor, key, () => {
    const page = executor
      .select({ ...summaryColumns(placeholders.viewerId), sessionLive: sessionLiveOrNull(guard) })
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId));
    if (!hasAddress) {
      return page
        .where(publicConditions(false))
        .orderBy(...orderBy(ordering))
        .limit(placeholders.limit)
        .offset(placeholders.offset);
    }
    // A page of an address search past the ids the service keeps (searchPublicBarrierIds). Left to itself,
    // the planner may answer `… order by address limit 5` by walking the address b-tree and filtering every
    // public barrier until it has a page (9.6 ms at 100,000 barriers), where taking the ~900 matches of the
    // search index (addressMatches) and sorting them costs a few ms; only the page's rows are joined with
    // their owners. The cost is bounded by the number of matches, not by the table.
    return page
      .where(
        sql`${barriers.id} in (select matches.id from ${addressMatches()} order by ${matchesOrderBy(ordering)} limit ${placeholders.limit} offset ${placeholders.offset})`,
      )
      .orderBy(...orderBy(ordering));
  });
}

export type BarrierSummaryRow = Omit<Awaited<ReturnType<typeof listPublicBarriers>>[number], 'sessionLive'>;

/** A page of live public barriers, with their owner and whether the viewer has access. */
export async function listPublicBarriers(
  executor: Executor,
  viewerId: number,
  query: BarrierListQuery,
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const hasAddress = Boolean(query.address);
  return publicPageStatement(executor, hasAddress, query.ordering, guard).execute({
    viewerId,
    ...pageValues(query),
    ...(hasAddress ? { address: query.address ?? '' } : {}),
    ...guard?.guardValues,
  });
}

/**
 * The first `limit` ids of the live public barriers whose address matches the search, in the order
 * of the list, and how many match in all: one pass over the trigram matches (the page is a top-N sort of
 * them, the total a window count over the same rows). The service keeps the answer a few seconds, so that
 * the pages of a search, and the same search made by many users, are served by primary key.
 */
export async function searchPublicBarrierIds(
  executor: Executor,
  address: string,
  ordering: BarrierOrdering | undefined,
  limit: number,
): Promise<{ ids: number[]; total: number }> {
  const statement = preparedStatement(executor, `barriers.publicSearch:${ordering ?? 'id'}`, () =>
    executor
      .select({
        id: sql<number>`matches.id`.mapWith(Number),
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(addressMatches())
      .orderBy(matchesOrderBy(ordering))
      .limit(placeholders.limit),
  );
  const rows = await statement.execute({ address, limit });
  return { ids: rows.map((row) => row.id), total: rows[0]?.total ?? 0 };
}

/**
 * The live public barriers of `ids` (a page of `searchPublicBarrierIds`), in the list's order: a barrier
 * that another process deleted or made private since the search was kept is left out.
 */
export async function listPublicBarriersByIds(
  executor: Executor,
  viewerId: number,
  ids: number[],
  ordering: BarrierOrdering | undefined,
) {
  if (ids.length === 0) return [];
  const statement = preparedStatement(executor, `barriers.publicByIds:${ordering ?? 'id'}`, () => {
    // The owner of each of the page's few barriers by his primary key. As a plain join, the generic plan
    // (made without the ids) merge-joined `users` in id order up to the page's largest owner id: 0.40 ms
    // against 0.18 (a lateral sub-select with a limit is not pulled up into a join).
    const owner = executor
      .select({ fullName: users.fullName, phone: users.phone, phonePrivacy: users.phonePrivacy })
      .from(users)
      .where(eq(users.id, barriers.ownerId))
      .limit(1)
      .as('owner');
    return executor
      .select(summaryColumns(placeholders.viewerId, owner))
      .from(barriers)
      .innerJoinLateral(owner, sql`true`)
      .where(and(publicConditions(false), sql`${barriers.id} = any(${sql.placeholder('ids')})`))
      .orderBy(...orderBy(ordering));
  });
  return statement.execute({ viewerId, ids });
}

/** How many live public barriers there are (an address search has its total from searchPublicBarrierIds). */
export async function countPublicBarriers(executor: Executor) {
  const statement = preparedStatement(executor, 'barriers.publicCount', () =>
    executor.select({ count: count() }).from(barriers).where(publicConditions(false)),
  );
  const [row] = await statement.execute({});
  return row?.count ?? 0;
}
