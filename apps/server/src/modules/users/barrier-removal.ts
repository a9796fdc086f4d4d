/**
 * Taking an account's numbers off every gate device: used by account deletion and by the platform-wide block
 * (CLI). Runs inside the caller's transaction: the phones leave the database and their delete commands enter
 * the device outbox together, so no number that still opens a gate is left behind (DESIGN.md section 4).
 * The phones and the access are written by the barrier domain's functions (`revokeAccessLocked`,
 * `deactivatePhonesLocked`), the one place that writes phones.
 */
import type { Transaction } from '../../db/database.ts';
import { smsSpender } from '../../engine/budget/index.ts';
import { lockBarrier, syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { revokeAccessLocked } from '../barriers/access-changes.ts';
import { type Actor, deactivatePhonesLocked } from '../phones/phone-changes.ts';
import { cancelPendingRequests, findBarriersOfUser } from './repository.ts';

export type RemovalReason = 'user_deleted' | 'barrier_exit';

const SYSTEM: Actor = { author: 'system', userId: null };

/**
 * On every barrier where the user has access or an active phone (locked in id order): his phones are taken
 * off (`delete_phone`, author `system`) and his access removed, except on live barriers he owns, where he
 * keeps ownership and access and only his numbers leave. Cancels his pending requests and queues the device
 * commands. Returns the barriers whose devices have new commands (to wake the worker after commit).
 */
export async function takeUserOffBarriers(
  tx: Transaction,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  userId: number,
  reason: RemovalReason,
): Promise<number[]> {
  const touched: number[] = [];
  // In id order, as every writer of barrier phones locks, so that two writers cannot deadlock.
  for (const barrier of await findBarriersOfUser(tx, userId)) {
    await lockBarrier(tx, barrier.id);
    if (barrier.isLive && barrier.ownerId === userId) {
      await deactivatePhonesLocked(tx, deps, barrier.id, { userId }, SYSTEM, reason);
    } else {
      await revokeAccessLocked(tx, deps, barrier.id, userId, SYSTEM, reason);
    }
    // A removal is never refused for the weekly SMS limit: a number that must go may not stay on the gate.
    // The account's own deletion is counted to him where he is a resident (a platform block is the system's).
    const spentBy = reason === 'user_deleted' ? await smsSpender(tx, barrier.id, userId) : null;
    if (
      barrier.isLive &&
      (await syncBarrierDevice(tx, deps, barrier.id, { enforceWeeklyLimit: false, spentBy })) > 0
    ) {
      touched.push(barrier.id);
    }
  }
  await cancelPendingRequests(tx, userId, deps.clock.now());
  return touched;
}
