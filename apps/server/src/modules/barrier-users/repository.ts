/** SQL of barrier users, user lookup and the administrator's own blocks. */
import type { BarrierUserListQuery } from '@propusk/contracts/barrier-users';
import { and, asc, count, desc, eq, inArray, isNull, like, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { accessRequests, adminBlocks, barrierAccess, barriers, phones, users } from '../../db/schema.ts';
import {
  executeGuardedPage,
  guardKey,
  type SessionGuard,
  sessionLiveOrNull,
} from '../../db/session-guard.ts';
import { holdsPermissionSql, likePattern, pageOffset, totalOfPage } from '../barrier-policy/policy.ts';

function orderBy(ordering: BarrierUserListQuery['ordering']): SQL[] {
  switch (ordering) {
    case 'full_name':
      return [sql`${users.fullName} asc nulls last`, asc(users.id)];
    case '-full_name':
      return [sql`${users.fullName} desc nulls last`, desc(users.id)];
    case 'phone':
      return [asc(users.phone)];
    case '-phone':
      return [desc(users.phone)];
    // The access row's user_id is users.id (the join): ordered by the access row's own columns, the page
    // is read in order from barrier_access_barrier_created_idx instead of sorting every user of the barrier.
    case '-created_at':
      return [desc(barrierAccess.createdAt), desc(barrierAccess.userId)];
    default:
      return [asc(barrierAccess.createdAt), asc(barrierAccess.userId)];
  }
}

/**
 * Users with access to the barrier, its owner left out, each with his count of active phones there, and
 * their total, in one prepared statement per shape (search or not, ordering). The statement is scoped to
 * the administrator: it yields nothing unless the barrier is his live barrier (then he is its owner, the
 * user left out), checked once by an uncorrelated `exists`.
 *
 * The total: without a search, a count of the barrier's access rows (index-only, no join); with a search,
 * `count(*) over ()` of the matching rows, so that the name and phone of each user are matched once rather
 * than once for the page and once more for the count. The match reads the copies of the name and phone in
 * barrier_access (index-only, `barrier_access_barrier_created_search_idx`). Either way the phone
 * counts are computed for the rows of the page only.
 */
export async function listBarrierUsers(
  executor: Executor,
  adminId: number,
  barrierId: number,
  query: BarrierUserListQuery,
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const hasSearch = Boolean(query.search);
  // A phone is `+` and digits: a search with any other character can match names only, and then the phone
  // copy is not compared at all (half the pattern matches of a search by name).
  const matchesPhones = hasSearch && /^[+\d]+$/.test(query.search ?? '');
  const searchShape = hasSearch ? (matchesPhones ? 'search' : 'search-name') : 'all';
  const shape = `${searchShape}:${query.ordering ?? 'created_at'}`;
  // Built only when the shape's statement is (once per database): values are placeholders.
  const accessScope = () =>
    and(
      eq(barrierAccess.barrierId, sql.placeholder('barrierId')),
      ne(barrierAccess.userId, sql.placeholder('adminId')),
      sql`exists (select 1 from ${barriers} where ${barriers.id} = ${sql.placeholder('barrierId')} and ${holdsPermissionSql(barriers.id, sql.placeholder('adminId'), 'users.manage')} and ${isNull(barriers.deletedAt)})`,
    ) as SQL;
  const where = () =>
    hasSearch
      ? (and(
          accessScope(),
          // What ILIKE does, done once: ILIKE lowers the pattern and the text on every row; the access row
          // keeps the user's `lower(full_name)` and phone (migration 0013, kept by triggers), so the match reads
          // the barrier's index entries only and users are read for the matches alone. A phone (`+` and
          // digits) has no case to fold.
          matchesPhones
            ? or(
                sql`${barrierAccess.searchName} like (select lower(${sql.placeholder('search')}))`,
                like(barrierAccess.searchPhone, sql.placeholder('search')),
              )
            : sql`${barrierAccess.searchName} like (select lower(${sql.placeholder('search')}))`,
        ) as SQL)
      : accessScope();
  const page = preparedStatement(executor, `barrierUsers.page:${shape}${guardKey(guard)}`, () =>
    executor
      .select({
        id: users.id,
        fullName: users.fullName,
        phone: users.phone,
        role: users.role,
        phonePrivacy: users.phonePrivacy,
        // As this administrator sees him: blocked by the platform or by him.
        isActive: sql<boolean>`(${users.isActive} and not exists (select 1 from ${adminBlocks} where ${adminBlocks.userId} = ${users.id} and ${adminBlocks.adminId} = ${sql.placeholder('adminId')}))`,
        createdAt: barrierAccess.createdAt,
        phonesCount: sql<number>`(select count(*)::int from ${phones} where ${phones.barrierId} = ${barrierAccess.barrierId} and ${phones.userId} = ${users.id} and ${phones.isActive})`,
        total: (hasSearch
          ? sql<number>`count(*) over ()`
          : sql<number>`(select count(*) from ${barrierAccess} where ${accessScope()})`
        ).mapWith(Number),
        sessionLive: sessionLiveOrNull(guard),
      })
      .from(barrierAccess)
      .innerJoin(users, eq(users.id, barrierAccess.userId))
      .where(where())
      .orderBy(...orderBy(query.ordering))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const values = { barrierId, adminId, ...(hasSearch ? { search: likePattern(query.search ?? '') } : {}) };
  const pageValues = { limit: query.page_size, offset: pageOffset(query) };
  const { rows, sessionLive } = await executeGuardedPage(page, values, pageValues, guard);
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `barrierUsers.count:${searchShape}`, () =>
      executor
        .select({ count: count() })
        .from(barrierAccess)
        .innerJoin(users, eq(users.id, barrierAccess.userId))
        .where(where()),
    );
    const [row] = await counted.execute(values);
    return row?.count ?? 0;
  });
  return { rows, total, sessionLive };
}

/** The user as this administrator sees him (his block and its reason), or undefined. */
export async function findUserForAdmin(executor: Executor, adminId: number, where: SQL) {
  const [row] = await executor
    .select({
      id: users.id,
      fullName: users.fullName,
      phone: users.phone,
      role: users.role,
      phonePrivacy: users.phonePrivacy,
      isActive: users.isActive,
      blockReason: adminBlocks.reason,
    })
    .from(users)
    .leftJoin(adminBlocks, and(eq(adminBlocks.userId, users.id), eq(adminBlocks.adminId, adminId)))
    .where(and(where, isNull(users.deletedAt)));
  return row;
}

export const byId = (userId: number) => eq(users.id, userId);
export const byPhone = (phone: string) => eq(users.phone, phone);

/**
 * Whether the user is within this administrator's reach (DESIGN.md section 4): he has or asked for access to
 * one of the administrator's barriers, or accepted an invitation to one, or the administrator blocked him. An
 * invitation he did not accept makes nobody related (issue 28 part 1: inviting ids one by one harvests nothing).
 */
export async function isRelatedUser(
  executor: Executor,
  adminId: number,
  userId: number,
  reach: 'owned' | 'managed' = 'owned',
): Promise<boolean> {
  // 'managed': also the barriers where his staff role manages users (he sees their profiles).
  const held =
    reach === 'owned'
      ? sql`${barriers.ownerId} = ${adminId}`
      : holdsPermissionSql(barriers.id, adminId, 'users.manage');
  const result = (await executor.execute(sql`select (
    exists (select 1 from ${barrierAccess} join ${barriers} on ${barriers.id} = ${barrierAccess.barrierId}
            where ${barrierAccess.userId} = ${userId} and ${held})
    or exists (select 1 from ${accessRequests} join ${barriers} on ${barriers.id} = ${accessRequests.barrierId}
            where ${accessRequests.userId} = ${userId} and ${held}
              and (${accessRequests.initiator} = 'user' or ${accessRequests.status} = 'accepted'))
    or exists (select 1 from ${adminBlocks} where ${adminBlocks.adminId} = ${adminId} and ${adminBlocks.userId} = ${userId})
  ) as related`)) as unknown as { rows: { related: boolean }[] };
  return Boolean(result.rows[0]?.related);
}

/** The administrator's live barriers the user has access to, in id order (the order they are locked in). */
export async function barriersWithAccess(
  executor: Executor,
  adminId: number,
  userId: number,
): Promise<number[]> {
  const rows = await executor
    .select({ id: barriers.id })
    .from(barrierAccess)
    .innerJoin(barriers, eq(barriers.id, barrierAccess.barrierId))
    .where(and(eq(barrierAccess.userId, userId), eq(barriers.ownerId, adminId), isNull(barriers.deletedAt)))
    .orderBy(asc(barriers.id));
  return rows.map((row) => row.id);
}

export async function upsertBlock(
  executor: Executor,
  adminId: number,
  userId: number,
  reason: string,
  now: Date,
) {
  // The number he has now stays blocked with the block (blocked-numbers.ts).
  const blockedPhone = sql<string>`(select ${users.phone} from ${users} where ${users.id} = ${userId})`;
  await executor
    .insert(adminBlocks)
    .values({ adminId, userId, reason, phone: blockedPhone, createdAt: now })
    .onConflictDoUpdate({ target: [adminBlocks.adminId, adminBlocks.userId], set: { reason } });
}

export async function deleteBlock(executor: Executor, adminId: number, userId: number) {
  await executor
    .delete(adminBlocks)
    .where(and(eq(adminBlocks.adminId, adminId), eq(adminBlocks.userId, userId)));
}

/** Closes the user's pending requests on the administrator's barriers: his own rejected, invitations cancelled. */
export async function closePendingRequests(executor: Executor, adminId: number, userId: number, now: Date) {
  const ownedBarrierIds = executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(eq(barriers.ownerId, adminId));
  await executor
    .update(accessRequests)
    .set({
      status: sql`case when ${accessRequests.initiator} = 'user' then 'rejected' else 'cancelled' end::access_request_status`,
      updatedAt: now,
    })
    .where(
      and(
        eq(accessRequests.userId, userId),
        eq(accessRequests.status, 'pending'),
        inArray(accessRequests.barrierId, ownedBarrierIds),
      ),
    );
}

/**
 * «Заблокированные» (issue 41 major 3): the owner's blocks, newest first, a page and the total. A block closes
 * all of the owner's barriers, so every barrier of his lists the same people.
 */
export async function listBlocks(
  executor: Executor,
  ownerId: number,
  query: { page: number; page_size: number },
) {
  const where = eq(adminBlocks.adminId, ownerId);
  const [rows, [total]] = await Promise.all([
    executor
      .select({
        id: users.id,
        fullName: users.fullName,
        phone: sql<string | null>`coalesce(${adminBlocks.phone}, ${users.phone})`,
        reason: adminBlocks.reason,
        blockedAt: adminBlocks.createdAt,
      })
      .from(adminBlocks)
      .innerJoin(users, eq(users.id, adminBlocks.userId))
      .where(where)
      .orderBy(desc(adminBlocks.createdAt), desc(adminBlocks.userId))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor.select({ count: count() }).from(adminBlocks).where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}
