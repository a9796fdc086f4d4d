/**
 * The extra numbers an import kept with the invitation of a resident who already had an account (issue 29
 * item 5, docs/decisions/0023), added when his access request is accepted, in the acceptance's transaction and
 * after his own number. Each goes through `addPhoneLocked`, every rule of a phone added by hand (the owner's
 * blocks, another account's number, limits, slots), as the administrator who imported it; one that a rule now
 * refuses (or whose window has ended) is left out, so that the acceptance itself never fails because of it,
 * and the resident sees what he got in his list of numbers.
 */
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { HttpError } from '../../lib/errors.ts';
import { addPhoneLocked, type LockedBarrier } from '../phones/phone-changes.ts';
import { findExtraPhonesFor } from './phone-invitation-repository.ts';

/** Returns how many were added and how many left out. */
export async function addInvitationExtraPhonesLocked(
  tx: Executor,
  deps: Pick<Dependencies, 'clock' | 'logger'>,
  barrier: LockedBarrier,
  accessRequestId: number,
  userId: number,
): Promise<{ added: number; skipped: number }> {
  const kept = await findExtraPhonesFor(tx, accessRequestId);
  if (!kept) return { added: 0, skipped: 0 };
  const now = deps.clock.now();
  let added = 0;
  let skipped = 0;
  for (const extra of kept.extraPhones) {
    const endTime = extra.end_time === null ? null : new Date(extra.end_time);
    if (endTime !== null && endTime <= now) {
      skipped += 1;
      continue;
    }
    try {
      // A savepoint: a refused number leaves the acceptance's transaction usable.
      await tx.transaction((savepoint) =>
        addPhoneLocked(
          savepoint,
          deps,
          barrier,
          {
            userId,
            number: extra.number,
            name: extra.name,
            type: extra.type,
            startTime: extra.start_time === null ? null : new Date(extra.start_time),
            endTime,
            schedule: extra.schedule,
          },
          { author: 'admin', userId: kept.invitedBy },
          'manual',
        ),
      );
      added += 1;
    } catch (error) {
      if (!(error instanceof HttpError) || (error.statusCode !== 409 && error.statusCode !== 400))
        throw error;
      skipped += 1;
    }
  }
  if (skipped > 0) {
    deps.logger.info(
      { barrierId: barrier.id, accessRequestId, added, skipped },
      'import extra numbers left out',
    );
  }
  return { added, skipped };
}
