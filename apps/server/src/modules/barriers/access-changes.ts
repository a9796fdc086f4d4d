import type { ActionReason } from '@propusk/contracts/actions';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierAccess } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import {
  type Actor,
  addPhoneLocked,
  deactivatePhonesLocked,
  type LockedBarrier,
  type PhoneRow,
} from '../phones/phone-changes.ts';

export async function grantAccessLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrier: LockedBarrier,
  user: { id: number; phone: string },
  actor: Actor,
): Promise<PhoneRow> {
  const inserted = await tx
    .insert(barrierAccess)
    .values({ barrierId: barrier.id, userId: user.id, createdAt: deps.clock.now() })
    .onConflictDoNothing()
    .returning({ userId: barrierAccess.userId });
  if (inserted.length === 0) throw conflict('already_has_access');
  return addPhoneLocked(
    tx,
    deps,
    barrier,
    {
      userId: user.id,
      number: user.phone,
      name: '',
      type: 'primary',
      startTime: null,
      endTime: null,
      schedule: null,
    },
    actor,
    'access_granted',
  );
}

/** Removes the user's access and every phone of his on the barrier. Returns whether he had access. */
export async function revokeAccessLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  barrierId: number,
  userId: number,
  actor: Actor,
  reason: ActionReason,
): Promise<boolean> {
  const removed = await tx
    .delete(barrierAccess)
    .where(and(eq(barrierAccess.barrierId, barrierId), eq(barrierAccess.userId, userId)))
    .returning({ userId: barrierAccess.userId });
  await deactivatePhonesLocked(tx, deps, barrierId, { userId }, actor, reason);
  return removed.length > 0;
}
