/**
 * Barriers on the resident's side (spec.md sections 5–7; DESIGN.md sections 4, 5): his list with the barriers
 * his administrator closed to him, a barrier's card, his access, the limits, leaving. The public list and its
 * search: public-search.ts; the owner's side: admin-service.ts. Every function checks who may do it first.
 */

import type { BarrierDetail, BarrierListQuery } from '@propusk/contracts/barriers';
import type { Limits } from '@propusk/contracts/limits';
import { smsSpender } from '../../engine/budget/index.ts';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import type { AuthenticatedUser, SessionInRead } from '../../plugins/authenticate.ts';
import {
  barrierNotFound,
  paginate,
  requireBarrierAccess,
  requireVisibleBarrier,
} from '../barrier-policy/policy.ts';
import { lockLiveBarrier } from '../phones/phone-changes.ts';
import { revokeAccessLocked } from './access-changes.ts';
import { dangersByBarrier, dangersOf, limitsWithBudget, toSummary } from './barrier-views.ts';
import { closedBarriersOf } from './closed-barriers.ts';
import * as repository from './repository.ts';

/**
 * His barriers, and beside them those his administrator closed to him by a block (closed-barriers.ts), on
 * the first page of the list without an address search (where the screen shows them).
 */
export async function listMyBarriers(
  deps: Pick<Dependencies, 'db'>,
  session: SessionInRead,
  query: BarrierListQuery,
) {
  const withClosed = query.page === 1 && !query.address;
  const viewerId = session.userId;
  const {
    rows,
    total,
    closed: carried,
    sessionLive,
  } = await repository.listOwnBarriers(deps.db, viewerId, query, withClosed, session);
  await session.settle(sessionLive);
  // A first page with no row of his own carries no column: the closed barriers are then asked alone.
  const closed = carried ?? (withClosed ? await closedBarriersOf(deps.db, viewerId) : []);
  return {
    ...paginate(
      'barriers',
      rows.map((row) => toSummary(row, viewerId)),
      total,
      query,
    ),
    closed_by_admin: closed,
  };
}

export async function getBarrierCard(
  deps: Pick<Dependencies, 'db'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<BarrierDetail> {
  const { db } = deps;
  await requireVisibleBarrier(db, user.id, barrierId);
  const row = await repository.findBarrierCard(db, barrierId, user.id);
  if (!row) throw barrierNotFound();
  const summary = toSummary(row, user.id);
  const isOwner = row.ownerId === user.id;
  const dangers = summary.has_access || isOwner ? await dangersByBarrier(db, [barrierId]) : new Map();
  return {
    ...summary,
    device_model: row.deviceModel,
    device_phones_amount: row.devicePhonesAmount,
    is_owner: isOwner,
    block_reason: row.blockReason ?? null,
    dangers: dangersOf(dangers.get(barrierId)),
  };
}

export async function checkBarrierAccess(
  deps: Pick<Dependencies, 'db'>,
  user: AuthenticatedUser,
  barrierId: number,
) {
  const { hasAccess } = await requireVisibleBarrier(deps.db, user.id, barrierId);
  return { has_access: hasAccess };
}

export async function getBarrierLimits(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config'>,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<Limits> {
  await requireBarrierAccess(deps.db, user.id, barrierId);
  return limitsWithBudget(deps, barrierId, user.id);
}

export async function leaveBarrier(
  deps: Dependencies,
  user: AuthenticatedUser,
  barrierId: number,
): Promise<void> {
  const barrier = await requireBarrierAccess(deps.db, user.id, barrierId);
  if (barrier.ownerId === user.id) throw conflict('owner_cannot_leave');
  await deps.db.transaction(async (tx) => {
    const locked = await lockLiveBarrier(tx, barrierId);
    await revokeAccessLocked(
      tx,
      deps,
      locked.id,
      user.id,
      { author: 'user', userId: user.id },
      'barrier_exit',
    );
    // Never refused, but counted to the resident who left (the owner's reserve moves only by the owner,
    // staff and the system; docs/decisions/0030).
    const spentBy = await smsSpender(tx, locked.id, user.id);
    await syncBarrierDevice(tx, deps, locked.id, { enforceWeeklyLimit: false, spentBy });
  });
  deps.notifyDeviceCommands([barrierId]);
}
