/**
 * The pieces the barrier lists' statements share: the orderings, the placeholders of a page, the columns of a
 * barrier's summary, and the address search's SQL (repository.ts, public-repository.ts, admin-repository.ts).
 */
import type { BarrierOrdering } from '@propusk/contracts/barriers';
import type { PhonePrivacy } from '@propusk/contracts/common';
import { asc, desc, type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { accessRequests, barrierAccess, barriers, users } from '../../db/schema.ts';
import { pageOffset } from '../barrier-policy/policy.ts';

export function orderBy(ordering: BarrierOrdering | undefined): SQL[] {
  switch (ordering) {
    case 'address':
      return [asc(barriers.address), asc(barriers.id)];
    case '-address':
      return [desc(barriers.address), desc(barriers.id)];
    case 'created_at':
      return [asc(barriers.createdAt), asc(barriers.id)];
    case '-created_at':
      return [desc(barriers.createdAt), desc(barriers.id)];
    case '-id':
      return [desc(barriers.id)];
    default:
      return [asc(barriers.id)];
  }
}

/** The same orderings over the columns of the `matches` subquery of an address search. */
export function matchesOrderBy(ordering: BarrierOrdering | undefined): SQL {
  switch (ordering) {
    case 'address':
      return sql.raw('matches.address asc, matches.id asc');
    case '-address':
      return sql.raw('matches.address desc, matches.id desc');
    case 'created_at':
      return sql.raw('matches.created_at asc, matches.id asc');
    case '-created_at':
      return sql.raw('matches.created_at desc, matches.id desc');
    case '-id':
      return sql.raw('matches.id desc');
    default:
      return sql.raw('matches.id asc');
  }
}

export const placeholders = {
  viewerId: sql.placeholder('viewerId'),
  address: sql.placeholder('address'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
};
export const pageValues = (query: { page: number; page_size: number }) => ({
  limit: query.page_size,
  offset: pageOffset(query),
});

/** The owner's columns: of `users` joined, or of a sub-select of them (listPublicBarriersByIds). */
export interface OwnerColumns {
  fullName: SQLWrapper;
  phone: SQLWrapper;
  phonePrivacy: SQLWrapper;
}

export const summaryColumns = (viewerId: number | Placeholder, owner: OwnerColumns = users) => ({
  id: barriers.id,
  address: barriers.address,
  additionalInfo: barriers.additionalInfo,
  isPublic: barriers.isPublic,
  ownerId: barriers.ownerId,
  ownerName: sql<string | null>`${owner.fullName}`,
  ownerPhone: sql<string>`${owner.phone}`,
  ownerPrivacy: sql<PhonePrivacy>`${owner.phonePrivacy}`,
  /** Given out only to a viewer with access or the owner (service.ts `toSummary`). */
  devicePhone: barriers.devicePhone,
  hasAccess: sql<boolean>`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${viewerId})`,
  // At most one pending request per user and barrier (access_requests_one_pending, which serves this probe).
  pendingInitiator: sql<
    'user' | 'admin' | null
  >`(select ${accessRequests.initiator} from ${accessRequests} where ${accessRequests.userId} = ${viewerId} and ${accessRequests.barrierId} = ${barriers.id} and ${accessRequests.status} = 'pending')`,
});

/**
 * The address search (placeholder `address`): every word of it is a prefix of some word of the address, in
 * any order, punctuation, case, ё and abbreviations aside (migration 0011; served by barriers_search_vector_idx).
 */
export const addressSearch = () => sql`${barriers.searchVector} @@ ${searchQuery()}`;

/**
 * The search text made a tsquery once per statement: a sub-select is computed once (an InitPlan), where the
 * function called with a parameter (as in a prepared statement's generic plan) would be called again for
 * every row it checks (~1 ms each).
 */
export const searchQuery = () => sql`(select barrier_search_query(${placeholders.address}))`;

/**
 * The same search among a few barriers already chosen by an index (a user's access rows, an administrator's
 * barriers). `is true` is not an index condition: the generic plan of the statement, made without the search
 * text, might otherwise read the search index for every barrier matching it instead of checking the user's
 * few barriers.
 */
export const addressSearchAmongChosen = () => sql`(${barriers.searchVector} @@ ${searchQuery()}) is true`;
