/**
 * Users of an administrator's barriers (spec.md sections 4, 6; DESIGN.md section 4): list, remove, profile,
 * search by phone, and the administrator's own block. An administrator reaches only users who have or asked
 * for access to one of his barriers, accepted his invitation, or whom he blocked; search by an exact phone too.
 */

import type { AdminUser, BarrierUserListQuery } from '@propusk/contracts/barrier-users';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser, SessionInRead } from '../../plugins/authenticate.ts';
import { barrierPermissionDenied, paginate, requireBarrierPermission } from '../barrier-policy/policy.ts';
import { revokeAccessLocked } from '../barriers/access-changes.ts';
import { lockLiveBarrier } from '../phones/phone-changes.ts';
import { limitLookup } from './lookup-limit.ts';
import * as repository from './repository.ts';

const userNotFound = () => notFound('user_not_found');

function toAdminUser(row: NonNullable<Awaited<ReturnType<typeof repository.findUserForAdmin>>>): AdminUser {
  return {
    id: row.id,
    full_name: row.fullName,
    phone: row.phone,
    role: row.role,
    is_active: row.isActive && row.blockReason === null,
    phone_privacy: row.phonePrivacy,
    block_reason: row.blockReason,
  };
}

/**
 * A user within the administrator's reach: on (or asking for) one of his own barriers, or of the barriers
 * where his staff role manages users. A block is the owner's, closing all of his own barriers, so
 * `reach: 'owned'` for it: staff who reach the user only through another's barrier get 403.
 */
async function requireRelatedUser(
  deps: Pick<Dependencies, 'db'>,
  admin: AuthenticatedUser,
  userId: number,
  reach: 'owned' | 'managed' = 'managed',
) {
  if (!(await repository.isRelatedUser(deps.db, admin.id, userId, reach))) {
    if (reach === 'owned' && (await repository.isRelatedUser(deps.db, admin.id, userId, 'managed'))) {
      throw barrierPermissionDenied();
    }
    throw userNotFound();
  }
  const row = await repository.findUserForAdmin(deps.db, admin.id, repository.byId(userId));
  if (!row) throw userNotFound();
  return row;
}

async function profile(deps: Pick<Dependencies, 'db'>, admin: AuthenticatedUser, userId: number) {
  const row = await repository.findUserForAdmin(deps.db, admin.id, repository.byId(userId));
  if (!row) throw userNotFound();
  return toAdminUser(row);
}

/**
 * The statement yields users only on the administrator's own live barrier, so the ownership check runs
 * only when it yields none: an empty list, or 404 for a barrier that is not his.
 */
export async function listBarrierUsers(
  deps: Pick<Dependencies, 'db'>,
  session: SessionInRead,
  barrierId: number,
  query: BarrierUserListQuery,
) {
  const { db } = deps;
  const adminId = session.userId;
  const { rows, total, sessionLive } = await repository.listBarrierUsers(
    db,
    adminId,
    barrierId,
    query,
    session,
  );
  await session.settle(sessionLive);
  if (total === 0) await requireBarrierPermission(db, adminId, barrierId, 'users.manage');
  return paginate(
    'users',
    rows.map((row) => ({
      id: row.id,
      full_name: row.fullName,
      phone: row.phone,
      created_at: apiDateTime(row.createdAt),
      phones_count: Number(row.phonesCount),
      role: row.role,
      is_active: Boolean(row.isActive),
      phone_privacy: row.phonePrivacy,
    })),
    total,
    query,
  );
}

/** The people the barrier's owner blocked (his block closes all of his barriers), for whoever manages its users. */
export async function listBlockedUsers(
  deps: Pick<Dependencies, 'db'>,
  admin: AuthenticatedUser,
  barrierId: number,
  query: { page: number; page_size: number },
) {
  const { db } = deps;
  const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
  const { rows, total } = await repository.listBlocks(db, barrier.ownerId, query);
  return paginate(
    'users',
    rows.map((row) => ({
      id: row.id,
      full_name: row.fullName,
      phone: row.phone,
      reason: row.reason,
      blocked_at: apiDateTime(row.blockedAt),
    })),
    total,
    query,
  );
}

export async function removeUserFromBarrier(
  deps: Dependencies,
  admin: AuthenticatedUser,
  barrierId: number,
  userId: number,
): Promise<void> {
  const { db } = deps;
  const barrier = await requireBarrierPermission(db, admin.id, barrierId, 'users.manage');
  if (userId === barrier.ownerId) throw conflict('cannot_remove_owner');
  await db.transaction(async (tx) => {
    const locked = await lockLiveBarrier(tx, barrierId);
    const hadAccess = await revokeAccessLocked(
      tx,
      deps,
      locked.id,
      userId,
      { author: 'admin', userId: admin.id },
      'barrier_exit',
    );
    if (!hadAccess) throw notFound('user_not_on_barrier');
    await syncBarrierDevice(tx, deps, locked.id, { enforceWeeklyLimit: false });
  });
  deps.notifyDeviceCommands([barrierId]);
}

export async function getAdminUser(
  deps: Pick<Dependencies, 'db'>,
  admin: AuthenticatedUser,
  userId: number,
): Promise<AdminUser> {
  return toAdminUser(await requireRelatedUser(deps, admin, userId));
}

/**
 * A user within the administrator's reach, by his exact phone (issue 28 part 2, docs/decisions/0021): a
 * number with no account and a stranger's number answer the same 404, so the search tells nobody whether
 * a number has an account. A stranger is invited by number (POST /api/admin/phone_invitations/), which
 * answers alike too. Limited per administrator.
 */
export async function findUserByPhone(
  deps: Dependencies,
  admin: AuthenticatedUser,
  phone: string,
): Promise<AdminUser> {
  const { db } = deps;
  await limitLookup(deps, admin.id);
  const row = await repository.findUserForAdmin(db, admin.id, repository.byPhone(phone));
  if (!row?.isActive || !(await repository.isRelatedUser(db, admin.id, row.id, 'managed'))) {
    throw userNotFound();
  }
  return toAdminUser(row);
}

export async function blockUser(
  deps: Dependencies,
  admin: AuthenticatedUser,
  userId: number,
  reason: string,
): Promise<AdminUser> {
  const { db } = deps;
  if (userId === admin.id) throw badRequest('cannot_block_self');
  await requireRelatedUser(deps, admin, userId, 'owned');
  const now = deps.clock.now();
  const touched = await db.transaction(async (tx) => {
    await repository.upsertBlock(tx, admin.id, userId, reason, now);
    await repository.closePendingRequests(tx, admin.id, userId, now);
    const barrierIds = await repository.barriersWithAccess(tx, admin.id, userId);
    for (const barrierId of barrierIds) {
      const locked = await lockLiveBarrier(tx, barrierId);
      await revokeAccessLocked(
        tx,
        deps,
        locked.id,
        userId,
        { author: 'admin', userId: admin.id },
        'barrier_exit',
      );
      await syncBarrierDevice(tx, deps, locked.id, { enforceWeeklyLimit: false });
    }
    return barrierIds;
  });
  if (touched.length > 0) deps.notifyDeviceCommands(touched);
  return profile(deps, admin, userId);
}

export async function unblockUser(
  deps: Pick<Dependencies, 'db'>,
  admin: AuthenticatedUser,
  userId: number,
): Promise<AdminUser> {
  const { db } = deps;
  await requireRelatedUser(deps, admin, userId, 'owned');
  await repository.deleteBlock(db, admin.id, userId);
  return profile(deps, admin, userId);
}
