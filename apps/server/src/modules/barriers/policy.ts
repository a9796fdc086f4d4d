/**
 * Who may see and act on a barrier (DESIGN.md section 4). Every service method of the barrier domain starts
 * with one of these checks, before anything is read for the caller or written.
 *
 * - A barrier that the caller may not know about (deleted, private without access, another owner's on the
 *   administrator side) is 404, never data.
 * - A barrier the caller can see but not use (a public one without access) is 403 for user-side calls that
 *   need access.
 */

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barrierAccess, barriers } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/errors.ts';

export type BarrierRow = typeof barriers.$inferSelect;

export const barrierNotFound = () => notFound('barrier_not_found');

/** The live barrier and whether `userId` has access to it, in one query. */
export async function findBarrierForUser(
  executor: Executor,
  barrierId: number,
  userId: number,
): Promise<{ barrier: BarrierRow; hasAccess: boolean } | null> {
  const statement = preparedStatement(executor, 'policy.barrierForUser', () =>
    executor
      .select({
        barrier: barriers,
        hasAccess: sql<boolean>`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${sql.placeholder('userId')})`,
      })
      .from(barriers)
      .where(and(eq(barriers.id, sql.placeholder('barrierId')), isNull(barriers.deletedAt))),
  );
  const [row] = await statement.execute({ barrierId, userId });
  return row ? { barrier: row.barrier, hasAccess: Boolean(row.hasAccess) } : null;
}

/** A barrier the user may see: public, or one he has access to (the owner always has). */
export async function requireVisibleBarrier(executor: Executor, userId: number, barrierId: number) {
  const found = await findBarrierForUser(executor, barrierId, userId);
  if (!found || !(found.barrier.isPublic || found.hasAccess || found.barrier.ownerId === userId)) {
    throw barrierNotFound();
  }
  return found;
}

/** A barrier the user has access to: 404 when he may not see it, 403 when he sees it without access. */
export async function requireBarrierAccess(executor: Executor, userId: number, barrierId: number) {
  const found = await requireVisibleBarrier(executor, userId, barrierId);
  if (!found.hasAccess) throw forbidden('barrier_no_access');
  return found.barrier;
}

/** A live barrier owned by this administrator; anyone else's is 404. */
export async function requireOwnedBarrier(
  executor: Executor,
  adminId: number,
  barrierId: number,
): Promise<BarrierRow> {
  const statement = preparedStatement(executor, 'policy.ownedBarrier', () =>
    executor
      .select()
      .from(barriers)
      .where(
        and(
          eq(barriers.id, sql.placeholder('barrierId')),
          eq(barriers.ownerId, sql.placeholder('adminId')),
          isNull(barriers.deletedAt),
        ),
      ),
  );
  const [barrier] = await statement.execute({ barrierId, adminId });
  if (!barrier) throw barrierNotFound();
  return barrier;
}

/**
 * What an administrator may do on a barrier. Today only the owner holds a barrier, and he may do all of it;
 * co-administrators and dispatchers (issues 14 and 16) are given a subset by their role. Every administrator-side
 * service method names the one permission it needs and calls `requireBarrierPermission` before anything else.
 */
export const BARRIER_PERMISSIONS = [
  'barrier.delete', // delete the barrier (owner only)
  'staff.manage', // add and remove co-administrators and dispatchers (owner only)
  'barrier.edit', // name, address, limits, device number and password, public flag
  'settings.manage', // device settings and device checks
  'users.manage', // users of the barrier, blocks, invitations, import and export of users
  'phones.manage', // phones of the barrier's users
  'requests.manage', // access requests
  'history.view', // history and its export
  'device.health', // the device log and health
  'relay.open', // open the gate once from the app
  'relay.hold', // emergency hold-open and its end
] as const;
export type BarrierPermission = (typeof BARRIER_PERMISSIONS)[number];

/** A live barrier on which this administrator holds `permission`; a barrier he holds nothing on is 404. */
export async function requireBarrierPermission(
  executor: Executor,
  adminId: number,
  barrierId: number,
  _permission: BarrierPermission,
): Promise<BarrierRow> {
  return requireOwnedBarrier(executor, adminId, barrierId);
}

export async function userHasAccess(executor: Executor, barrierId: number, userId: number): Promise<boolean> {
  const [row] = await executor
    .select({ userId: barrierAccess.userId })
    .from(barrierAccess)
    .where(and(eq(barrierAccess.barrierId, barrierId), eq(barrierAccess.userId, userId)));
  return Boolean(row);
}

/** The owner's phone on a barrier card, as his phone privacy allows the viewer to see it. */
export function visibleOwnerPhone(
  owner: { phone: string; phonePrivacy: 'public' | 'protected' | 'private' },
  viewer: { isOwner: boolean; hasAccess: boolean },
): string | null {
  if (viewer.isOwner || owner.phonePrivacy === 'public') return owner.phone;
  if (owner.phonePrivacy === 'protected' && viewer.hasAccess) return owner.phone;
  return null;
}

/** `%`, `_` and `\` are literal in a search text; the rest is a case-insensitive substring (ILIKE). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export const pageOffset = (query: { page: number; page_size: number }) => (query.page - 1) * query.page_size;

/**
 * The total of a list whose page statement carries it in every row (an uncorrelated `(select count(*) …)`,
 * computed once). A page past the end has no row to carry it: then `count` is asked (a client that pages
 * until it gets fewer items than it asked for never gets there).
 */
export async function totalOfPage(
  rows: { total: number }[],
  query: { page: number; page_size: number },
  count: () => Promise<number>,
): Promise<number> {
  const [first] = rows;
  if (first) return first.total;
  return pageOffset(query) === 0 ? 0 : count();
}

/** The list body of DESIGN.md section 2: `{"<items>": [...], total_count, current_page, page_size}`. */
export function paginate<K extends string, T>(
  key: K,
  items: T[],
  total: number,
  query: { page: number; page_size: number },
) {
  return { [key]: items, total_count: total, current_page: query.page, page_size: query.page_size } as {
    [P in K]: T[];
  } & { total_count: number; current_page: number; page_size: number };
}
