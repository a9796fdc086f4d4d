/**
 * The public list of barriers and its address search (spec.md section 5; docs/decisions/0005, 0024): the
 * count of public barriers and the matches of each search kept a few seconds, searches that reach the
 * database limited per user and bounded in time (search-bounds.ts).
 */

import type { BarrierListQuery } from '@propusk/contracts/barriers';
import type { Dependencies } from '../../lib/dependencies.ts';
import { ResultCache } from '../../lib/result-cache.ts';
import { type AuthenticatedUser, SessionInRead } from '../../plugins/authenticate.ts';
import { pageOffset, paginate } from '../barrier-policy/policy.ts';
import { toSummary } from './barrier-views.ts';
import * as repository from './public-repository.ts';
import { createSearchBounds, SearchLimited } from './search-bounds.ts';
import { addressSearchKey } from './search-key.ts';

/**
 * How long `total_count` of the public list and the matches of an address search may lag behind another
 * process's changes (this process's own creations, deletions and visibility changes show at once). A client
 * pages until it gets fewer items than it asked for, so a total a few seconds old is not visible to it; a
 * barrier made public elsewhere shows in a search within this time.
 */
export const PUBLIC_COUNT_TTL_MS = 5000;
/**
 * How many ids of an address search are kept: the first pages of any page size. A page beyond them is read
 * from the database with the search (its total still from the kept answer).
 */
export const PUBLIC_SEARCH_IDS_KEPT = 1000;

/**
 * What one app keeps of the public list: the count, the matches of each address search (per ordering) and
 * the searches' bounds. Built with the barrier routes and handed to every function that reads or changes
 * the public list (a barrier created, deleted or made public or private: `changed()`).
 */
export class PublicBarrierSearch {
  readonly counts = new ResultCache<number>(PUBLIC_COUNT_TTL_MS, 1);
  readonly searches = new ResultCache<{ ids: number[]; total: number }>(PUBLIC_COUNT_TTL_MS, 500);
  readonly bounds: ReturnType<typeof createSearchBounds>;
  readonly idsKept: number;

  constructor(deps: Dependencies, options: { searchIdsKept?: number; searchStatementTimeout?: string } = {}) {
    this.idsKept = options.searchIdsKept ?? PUBLIC_SEARCH_IDS_KEPT;
    this.bounds = createSearchBounds(deps, { statementTimeout: options.searchStatementTimeout });
  }

  /** The public list changed in this process: its count and searches are read afresh. */
  changed(): void {
    this.counts.invalidate();
    this.searches.invalidate();
  }
}

async function publicPage(
  deps: Pick<Dependencies, 'db'>,
  search: PublicBarrierSearch,
  viewerId: number,
  session: SessionInRead | undefined,
  query: BarrierListQuery,
) {
  const { db } = deps;
  const address = query.address;
  if (!address) {
    const [rows, total] = await Promise.all([
      repository.listPublicBarriers(db, viewerId, query, session),
      search.counts.get('all', () => repository.countPublicBarriers(db)),
    ]);
    await session?.settle(rows[0]?.sessionLive ?? undefined);
    return [rows, total] as const;
  }
  // A search costs the database more than a session check: the session is checked first, on its own.
  await session?.settle(undefined);
  const { bounds } = search;
  const key = `${query.ordering ?? 'id'} ${addressSearchKey(address)}`;
  // Only a search that reaches the database is counted and bounded in time (search-bounds.ts), and counted
  // once: the requests that miss the cache together share its computation, the limit check included (a check
  // before joining let each of them count, and once over the limit none computed, so the cache stayed empty
  // and every request of the minute got 429). Joined to someone else's computation that his limit refused,
  // a request computes on its own budget.
  const compute = () =>
    bounds
      .limit(viewerId)
      .then(() =>
        bounds.run((tx) => repository.searchPublicBarrierIds(tx, address, query.ordering, search.idsKept)),
      );
  const found = await search.searches.get(key, compute).catch((error: unknown) => {
    if (error instanceof SearchLimited && error.userId !== viewerId) return search.searches.get(key, compute);
    throw error;
  });
  const offset = pageOffset(query);
  const end = offset + query.page_size;
  const rows =
    end <= found.ids.length || found.ids.length === found.total
      ? await repository.listPublicBarriersByIds(db, viewerId, found.ids.slice(offset, end), query.ordering)
      : await bounds
          .limit(viewerId)
          .then(() => bounds.run((tx) => repository.listPublicBarriers(tx, viewerId, query)));
  return [rows, found.total] as const;
}

/**
 * `caller`: the route's pending session (the page's statement checks it: db/session-guard.ts), or a user
 * already checked.
 */
export async function listPublicBarriers(
  deps: Pick<Dependencies, 'db'>,
  search: PublicBarrierSearch,
  caller: AuthenticatedUser | SessionInRead,
  query: BarrierListQuery,
) {
  const session = caller instanceof SessionInRead ? caller : undefined;
  const viewerId = session ? session.userId : (caller as AuthenticatedUser).id;
  const [rows, total] = await publicPage(deps, search, viewerId, session, query);
  return paginate(
    'barriers',
    rows.map((row) => toSummary(row, viewerId)),
    total,
    query,
  );
}
