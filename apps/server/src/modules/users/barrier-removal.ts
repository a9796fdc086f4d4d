/**
 * Taking an account's numbers off every gate device: used by account deletion and by the platform-wide block
 * (CLI). Runs inside the caller's transaction: the phones leave the database and their delete commands enter
 * the device outbox together, so no number that still opens a gate is left behind (DESIGN.md section 4).
 */
import type { Transaction } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { lockBarrier, syncBarrierDevice } from '../devices/outbox.ts';
import {
  cancelPendingRequests,
  deactivatePhones,
  deleteBarrierAccess,
  findActivePhonesOfUser,
  findOwnedBarrierIds,
  insertActions,
} from './repository.ts';

export type RemovalReason = 'user_deleted' | 'barrier_exit';

/**
 * Deactivates all active phones of the user, writes a `delete_phone` action (author `system`) for each,
 * removes his access (except to barriers he owns), cancels his pending requests and queues the device
 * commands. Returns the barriers whose devices have new commands (to wake the worker after commit).
 */
export async function takeUserOffBarriers(
  tx: Transaction,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  userId: number,
  reason: RemovalReason,
): Promise<number[]> {
  const now = deps.clock.now();
  const userPhones = await findActivePhonesOfUser(tx, userId);
  const liveBarrierIds = [...new Set(userPhones.filter((p) => p.isBarrierLive).map((p) => p.barrierId))].sort(
    (a, b) => a - b,
  );
  // Lock in id order, as every writer of barrier phones does, so that two writers cannot deadlock.
  for (const barrierId of liveBarrierIds) await lockBarrier(tx, barrierId);

  await deactivatePhones(
    tx,
    userPhones.map((phone) => phone.id),
    now,
  );
  await insertActions(
    tx,
    userPhones.map((phone) => ({
      barrierId: phone.barrierId,
      phoneId: phone.id,
      phoneOwnerId: userId,
      actionType: 'delete_phone' as const,
      author: 'system' as const,
      authorUserId: null,
      reason,
      oldValue: { phone: phone.phone, type: phone.type, name: phone.name },
      newValue: null,
      createdAt: now,
    })),
  );
  await deleteBarrierAccess(tx, userId, await findOwnedBarrierIds(tx, userId));
  await cancelPendingRequests(tx, userId, now);

  const touched: number[] = [];
  for (const barrierId of liveBarrierIds) {
    // A removal is never refused for the weekly SMS limit: a number that must go may not stay on the gate.
    if ((await syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false })) > 0)
      touched.push(barrierId);
  }
  return touched;
}
