/** SQL of access requests. A list is one page query (with user and barrier joined) plus one count. */
import type { AccessRequestListQuery } from '@propusk/contracts/access-requests';
import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { accessRequests, adminBlocks, barriers, users } from '../../db/schema.ts';
import { holdsPermissionSql, pageOffset } from '../barrier-policy/policy.ts';
import { findBlockedNumbers } from '../phones/blocked-numbers.ts';

export type AccessRequestRow = typeof accessRequests.$inferSelect;

/** The barrier's owner, joined beside the request's user. */
const owners = alias(users, 'owners');
export type Side = 'user' | 'admin';

const listColumns = {
  id: accessRequests.id,
  status: accessRequests.status,
  initiator: accessRequests.initiator,
  hiddenForUser: accessRequests.hiddenForUser,
  hiddenForAdmin: accessRequests.hiddenForAdmin,
  createdAt: accessRequests.createdAt,
  updatedAt: accessRequests.updatedAt,
  userId: users.id,
  userName: users.fullName,
  userPhone: users.phone,
  barrierId: barriers.id,
  barrierAddress: barriers.address,
  barrierOwnerName: owners.fullName,
  // The owner's block of the request's user (issue 41 major 2): an accepted request no longer means access.
  closedByAdmin: sql<boolean>`exists (select 1 from ${adminBlocks} where ${adminBlocks.adminId} = ${barriers.ownerId} and ${adminBlocks.userId} = ${accessRequests.userId})`,
};
export type AccessRequestListRow = Awaited<ReturnType<typeof findListRow>> & {};

/**
 * The caller's requests on his side: as a user, his own requests; as an administrator, the requests of his
 * barriers. `outgoing` = started by the caller's side. Hidden ones are left out.
 */
export async function listRequests(
  executor: Executor,
  side: Side,
  callerId: number,
  query: AccessRequestListQuery,
) {
  const conditions: SQL[] = [];
  if (side === 'user') {
    conditions.push(eq(accessRequests.userId, callerId), eq(accessRequests.hiddenForUser, false));
  } else {
    // His own barriers' requests and those of the barriers where his role manages requests.
    conditions.push(
      holdsPermissionSql(barriers.id, callerId, 'requests.manage'),
      eq(accessRequests.hiddenForAdmin, false),
    );
  }
  if (query.type) {
    const ownInitiator = side;
    conditions.push(
      query.type === 'outgoing'
        ? eq(accessRequests.initiator, ownInitiator)
        : sql`${accessRequests.initiator} <> ${ownInitiator}`,
    );
  }
  if (query.status) conditions.push(eq(accessRequests.status, query.status));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    executor
      .select(listColumns)
      .from(accessRequests)
      .innerJoin(users, eq(users.id, accessRequests.userId))
      .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
      .innerJoin(owners, eq(owners.id, barriers.ownerId))
      .where(where)
      .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id))
      .limit(query.page_size)
      .offset(pageOffset(query)),
    executor
      .select({ count: count() })
      .from(accessRequests)
      .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
      .where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

export async function findListRow(executor: Executor, requestId: number) {
  const [row] = await executor
    .select(listColumns)
    .from(accessRequests)
    .innerJoin(users, eq(users.id, accessRequests.userId))
    .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
    .innerJoin(owners, eq(owners.id, barriers.ownerId))
    .where(eq(accessRequests.id, requestId));
  return row;
}

/** The request with its barrier's owner, locked for the rest of the transaction. */
export async function lockRequest(executor: Executor, requestId: number) {
  const [row] = await executor
    .select({ request: accessRequests, ownerId: barriers.ownerId })
    .from(accessRequests)
    .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
    .where(eq(accessRequests.id, requestId))
    .for('update', { of: accessRequests });
  return row;
}

export async function findRequestWithOwner(executor: Executor, requestId: number) {
  const [row] = await executor
    .select({ request: accessRequests, ownerId: barriers.ownerId })
    .from(accessRequests)
    .innerJoin(barriers, eq(barriers.id, accessRequests.barrierId))
    .where(eq(accessRequests.id, requestId));
  return row;
}

export async function insertRequest(executor: Executor, values: typeof accessRequests.$inferInsert) {
  const [row] = await executor.insert(accessRequests).values(values).returning({ id: accessRequests.id });
  if (!row) throw new Error('request not inserted');
  return row.id;
}

export async function updateRequest(
  executor: Executor,
  requestId: number,
  values: Partial<typeof accessRequests.$inferInsert>,
) {
  await executor.update(accessRequests).set(values).where(eq(accessRequests.id, requestId));
}

export async function findLiveUser(executor: Executor, userId: number) {
  const [row] = await executor
    .select({ id: users.id, phone: users.phone, isActive: users.isActive })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row;
}

/**
 * Whether the administrator blocked this account, or its number (a new account with a blocked number, or the
 * number of another blocked account: blocked-numbers.ts).
 */
export async function isBlockedBy(executor: Executor, adminId: number, userId: number): Promise<boolean> {
  const [row] = await executor
    .select({ userId: adminBlocks.userId })
    .from(adminBlocks)
    .where(and(eq(adminBlocks.adminId, adminId), eq(adminBlocks.userId, userId)));
  if (row) return true;
  const [user] = await executor.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  return user ? (await findBlockedNumbers(executor, adminId, [user.phone])).size > 0 : false;
}
