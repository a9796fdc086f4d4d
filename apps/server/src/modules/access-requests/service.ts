/**
 * Access requests (spec.md section 4; DESIGN.md sections 2, 4). The same rules serve both sides:
 * `side` is 'user' for /api/access_requests/… and 'admin' for /api/admin/access_requests/…
 *
 * - pending → accepted | rejected by the receiving side; pending → cancelled by the sender;
 *   accepted, rejected and cancelled are final (409).
 * - Accepting grants access and the user's primary phone in one transaction, limits checked first; if a
 *   limit or the device refuses, nothing changes and the request stays pending.
 * - `hidden_for_user` hides the request from the caller's side only, and does nothing else.
 */

import type {
  AccessRequest,
  AccessRequestListQuery,
  CreateAccessRequestBody,
  UpdateAccessRequestBody,
} from '@propusk/contracts/access-requests';
import { maskPhone } from '@propusk/contracts/phone-mask';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, forbidden, HttpError, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { lockPhoneCodes } from '../auth/repository.ts';
import {
  paginate,
  requireBarrierPermission,
  requireVisibleBarrier,
  userHasAccess,
} from '../barrier-policy/policy.ts';
import { grantAccessLocked } from '../barriers/access-changes.ts';
import { lockLiveBarrier } from '../phones/phone-changes.ts';
import { addInvitationExtraPhonesLocked } from './invitation-extras.ts';
import { hasMuted } from './invitation-mutes.ts';
import { claimWaitingInvitations, hasWaitingFor } from './phone-invitation-repository.ts';
import type { Side } from './repository.ts';
import * as repository from './repository.ts';

const requestNotFound = () => notFound('access_request_not_found');

/**
 * What the administrator's side may read of the user (issue 28 part 1): his name and number once he shared
 * them, by a request of his own or by accepting the invitation. A pending, rejected or cancelled invitation
 * shows the number masked and no name, so that inviting ids one by one harvests nothing.
 */
export function isSharedWithAdmin(row: { initiator: Side; status: string }): boolean {
  return row.initiator === 'user' || row.status === 'accepted';
}

function toAccessRequest(row: NonNullable<repository.AccessRequestListRow>, side: Side): AccessRequest {
  const isShared = side === 'user' || isSharedWithAdmin(row);
  return {
    id: row.id,
    user: row.userId,
    barrier: row.barrierId,
    user_full_name: isShared ? row.userName : null,
    user_phone: isShared ? row.userPhone : maskPhone(row.userPhone),
    barrier_address: row.barrierAddress,
    barrier_owner_name: row.barrierOwnerName,
    status: row.status,
    initiator: row.initiator,
    closed_by_admin: Boolean(row.closedByAdmin),
    type: row.initiator === side ? 'outgoing' : 'incoming',
    hidden_for_user: side === 'user' ? row.hiddenForUser : row.hiddenForAdmin,
    created_at: apiDateTime(row.createdAt),
    updated_at: apiDateTime(row.updatedAt),
  };
}

async function present(
  deps: Pick<Dependencies, 'db'>,
  requestId: number,
  side: Side,
): Promise<AccessRequest> {
  const row = await repository.findListRow(deps.db, requestId);
  if (!row) throw requestNotFound();
  return toAccessRequest(row, side);
}

async function insertPending(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  values: {
    userId: number;
    barrierId: number;
    initiator: Side;
    hiddenForUser?: boolean;
  },
) {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const id = await repository.insertRequest(tx, {
        ...values,
        status: 'pending',
        createdAt: now,
        updatedAt: now,
      });
      // The other side hears of it (issue 43): the barrier's staff of a request, the person of an invitation.
      await recordNotification(
        tx,
        values.initiator === 'user'
          ? { kind: 'access_request_new', barrierId: values.barrierId, actorUserId: values.userId }
          : { kind: 'invitation', barrierId: values.barrierId, userId: values.userId },
      );
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'access_requests_one_pending')) {
      throw conflict('access_request_pending');
    }
    throw error;
  }
}

export async function listAccessRequests(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  side: Side,
  caller: AuthenticatedUser,
  query: AccessRequestListQuery,
) {
  const { db } = deps;
  // Invitations by number waiting for his number become his invitations here (issue 28 part 2: a number
  // with an account waits like one without, so that the invitation's answer tells nothing).
  if (side === 'user' && (await hasWaitingFor(db, caller.phone))) {
    await db.transaction(async (tx) => {
      await lockPhoneCodes(tx, caller.phone);
      await claimWaitingInvitations(tx, caller.phone, caller.id, deps.clock.now());
    });
  }
  const { rows, total } = await repository.listRequests(db, side, caller.id, query);
  return paginate(
    'access_requests',
    rows.map((row) => toAccessRequest(row, side)),
    total,
    query,
  );
}

/** A user asks for access to a public barrier. */
export async function askForAccess(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  caller: AuthenticatedUser,
  body: CreateAccessRequestBody,
): Promise<AccessRequest> {
  const { db } = deps;
  if (body.user !== caller.id) throw forbidden('request_only_for_self');
  const { barrier, hasAccess } = await requireVisibleBarrier(db, caller.id, body.barrier);
  if (hasAccess) throw conflict('already_has_access');
  if (!barrier.isPublic) throw forbidden('barrier_not_public');
  if (await repository.isBlockedBy(db, barrier.ownerId, caller.id)) {
    throw forbidden('blocked_on_barrier');
  }
  const id = await insertPending(deps, { userId: caller.id, barrierId: barrier.id, initiator: 'user' });
  return present(deps, id, 'user');
}

/** The owner (or his staff who manage requests) invites a user to the barrier. */
export async function inviteToBarrier(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  admin: AuthenticatedUser,
  body: CreateAccessRequestBody,
): Promise<AccessRequest> {
  const { db } = deps;
  const barrier = await requireBarrierPermission(db, admin.id, body.barrier, 'requests.manage');
  const user = await repository.findLiveUser(db, body.user);
  if (!user?.isActive) throw notFound('user_not_found');
  if (await userHasAccess(db, barrier.id, user.id)) throw conflict('already_has_access');
  // The owner's block closes his barriers, whoever of his staff invites.
  if (await repository.isBlockedBy(db, barrier.ownerId, user.id)) throw conflict('blocked_on_barrier');
  // A person who muted the owner's invitations never sees it; the administrator sees it wait (0030).
  const hiddenForUser = await hasMuted(db, user.id, barrier.ownerId);
  const id = await insertPending(deps, {
    userId: user.id,
    barrierId: barrier.id,
    initiator: 'admin',
    hiddenForUser,
  });
  return present(deps, id, 'admin');
}

export async function updateAccessRequest(
  deps: Dependencies,
  side: Side,
  caller: AuthenticatedUser,
  requestId: number,
  body: UpdateAccessRequestBody,
): Promise<AccessRequest> {
  const { db } = deps;
  const found = await repository.findRequestWithOwner(db, requestId);
  if (!found) throw requestNotFound();
  if (side === 'user' ? found.request.userId !== caller.id : found.ownerId !== caller.id) {
    if (side === 'user') throw requestNotFound();
    // Staff of the barrier whose role manages requests act for it; anyone else does not see it.
    await requireBarrierPermission(db, caller.id, found.request.barrierId, 'requests.manage').catch(
      (error: unknown) => {
        throw error instanceof HttpError && error.statusCode === 404 ? requestNotFound() : error;
      },
    );
  }

  const hidden =
    body.hidden_for_user === undefined
      ? {}
      : side === 'user'
        ? { hiddenForUser: body.hidden_for_user }
        : { hiddenForAdmin: body.hidden_for_user };

  const status = body.status;
  if (status === undefined) {
    await repository.updateRequest(db, requestId, hidden);
    return present(deps, requestId, side);
  }

  const isSender = found.request.initiator === side;
  if (found.request.status !== 'pending') throw conflict('access_request_processed');
  if (status === 'cancelled' && !isSender) throw forbidden('access_request_only_sender');
  if (status !== 'cancelled' && isSender) throw forbidden('access_request_only_receiver');

  let barrierToNotify: number | null = null;
  await db.transaction(async (tx) => {
    const locked = await repository.lockRequest(tx, requestId);
    if (locked?.request.status !== 'pending') throw conflict('access_request_processed');
    const now = deps.clock.now();
    if (status === 'accepted') {
      const { request } = locked;
      const barrier = await lockLiveBarrier(tx, request.barrierId);
      if (await repository.isBlockedBy(tx, barrier.ownerId, request.userId)) {
        throw conflict('blocked_on_barrier');
      }
      const user = await repository.findLiveUser(tx, request.userId);
      if (!user?.isActive) throw notFound('user_not_found');
      await grantAccessLocked(tx, deps, barrier, user, { author: side, userId: caller.id });
      // An import's invitation: the extra numbers it kept come with the acceptance (issue 29 item 5).
      await addInvitationExtraPhonesLocked(tx, deps, barrier, requestId, user.id);
      await syncBarrierDevice(tx, deps, barrier.id);
      barrierToNotify = barrier.id;
    }
    await repository.updateRequest(tx, requestId, { status, updatedAt: now, ...hidden });
    // His request answered by the barrier (issue 43).
    if (side === 'admin' && (status === 'accepted' || status === 'rejected')) {
      await recordNotification(tx, {
        kind: status === 'accepted' ? 'request_accepted' : 'request_rejected',
        barrierId: locked.request.barrierId,
        userId: locked.request.userId,
      });
    }
  });
  if (barrierToNotify !== null) deps.notifyDeviceCommands([barrierToNotify]);
  return present(deps, requestId, side);
}
