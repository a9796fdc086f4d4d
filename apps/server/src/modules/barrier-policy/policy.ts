/**
 * Who may see and act on a barrier (DESIGN.md section 4). Every service method of the barrier domain starts
 * with one of these checks, before anything is read for the caller or written.
 *
 * - A barrier that the caller may not know about (deleted, private without access, another owner's on the
 *   administrator side) is 404, never data.
 * - A barrier the caller can see but not use (a public one without access) is 403 for user-side calls that
 *   need access.
 */

import {
  BARRIER_PERMISSIONS,
  type BarrierPermission,
  type BarrierRole,
  ROLE_PERMISSIONS,
  roleHolds,
  STAFF_ROLES,
  type StaffRole,
} from '@propusk/contracts/barrier-staff';
import { and, eq, getTableColumns, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barrierAccess, barrierStaff, barriers } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/errors.ts';

/**
 * The barrier's columns a check gives its caller: all but the address's search vector, which only the
 * database reads (given out, it was ~40 % of the row's bytes, printed as text by PostgreSQL and parsed by
 * Node on every barrier-scoped request).
 */
const { searchVector: _searchVector, ...barrierColumns } = getTableColumns(barriers);
export type BarrierRow = Omit<typeof barriers.$inferSelect, 'searchVector'>;

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
        barrier: barrierColumns,
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

/**
 * What an administrator may do on a barrier. The owner (`barriers.owner_id`) holds every permission;
 * co-administrators and dispatchers (`barrier_staff`, issues 14 and 16) hold those of their role
 * (`ROLE_PERMISSIONS`). Every administrator-side service method names the one permission it needs and calls
 * `requireBarrierPermission` before anything else.
 */
export type { BarrierPermission, BarrierRole, StaffRole };
export { BARRIER_PERMISSIONS, ROLE_PERMISSIONS, roleHolds };

/** The staff roles that hold `permission` (the owner holds all). */
export const staffRolesWith = (permission: BarrierPermission): StaffRole[] =>
  STAFF_ROLES.filter((role) => roleHolds(role, permission));

/**
 * SQL: the administrator `adminId` holds `permission` on the barrier whose id is `barrierId` (a column or a
 * value): he owns it (`barriers.owner_id` of the `barriers` row in scope: the query must read `barriers`), or
 * he is its staff with a role that holds it. The roles are constants of the statement, so a prepared statement
 * named for the permission stays one plan.
 */
export function holdsPermissionSql(
  barrierId: SQL | SQLWrapper,
  adminId: SQL | SQLWrapper | number,
  permission: BarrierPermission,
): SQL {
  const roles = staffRolesWith(permission);
  const staff =
    roles.length === 0
      ? sql`false`
      : sql`exists (select 1 from ${barrierStaff} where ${barrierStaff.barrierId} = ${barrierId} and ${barrierStaff.userId} = ${adminId} and ${barrierStaff.role} in (${sql.join(
          roles.map((role) => sql.raw(`'${role}'`)),
          sql`, `,
        )}))`;
  return sql`(${barriers.ownerId} = ${adminId} or ${staff})`;
}

export const barrierPermissionDenied = () => forbidden('barrier_permission_denied');

/**
 * A live barrier on which this administrator holds `permission`, and his role on it, in one query. A barrier
 * he holds nothing on (another's, deleted, missing) is 404, as if it did not exist; one he holds with a role
 * that lacks the permission is 403 `barrier_permission_denied`.
 */
export async function requireBarrierRole(
  executor: Executor,
  adminId: number,
  barrierId: number,
  permission: BarrierPermission,
): Promise<{ barrier: BarrierRow; role: BarrierRole }> {
  const statement = preparedStatement(executor, 'policy.barrierRole', () =>
    executor
      .select({
        barrier: barrierColumns,
        staffRole: sql<StaffRole | null>`(select ${barrierStaff.role} from ${barrierStaff} where ${barrierStaff.barrierId} = ${barriers.id} and ${barrierStaff.userId} = ${sql.placeholder('adminId')})`,
      })
      .from(barriers)
      .where(and(eq(barriers.id, sql.placeholder('barrierId')), isNull(barriers.deletedAt))),
  );
  const [row] = await statement.execute({ barrierId, adminId });
  if (!row) throw barrierNotFound();
  const role: BarrierRole | null = row.barrier.ownerId === adminId ? 'owner' : (row.staffRole ?? null);
  if (!role) throw barrierNotFound();
  if (!roleHolds(role, permission)) throw barrierPermissionDenied();
  return { barrier: row.barrier, role };
}

/** A live barrier on which this administrator holds `permission`: 404 when he holds nothing on it, else 403. */
export async function requireBarrierPermission(
  executor: Executor,
  adminId: number,
  barrierId: number,
  permission: BarrierPermission,
): Promise<BarrierRow> {
  return (await requireBarrierRole(executor, adminId, barrierId, permission)).barrier;
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

/** Paging helpers live in lib/paging.ts (the engine's device log pages too); kept here for the domain modules. */
export { pageOffset, paginate, totalOfPage } from '../../lib/paging.ts';
