/**
 * Temporary phones end by themselves. Once a temporary phone's window has closed it no longer opens the
 * gate, so it must not go on holding a device slot or counting against the barrier's limits: it is taken
 * off the barrier like any removed phone (inactive, slot freed, `deleted_at`), with a `delete_phone` action
 * by `system` for the reason `end_time`, and the device is brought in step through the outbox.
 *
 * A window ends at its minute: devices store windows to the minute (`YYMMDDHHmm`) and the planner truncates
 * the end, so a phone ending at 18:00:40 is closed on the device from 18:00. The phone ends then too, and the
 * device worker's wake-up at the window's end (or the every-minute job) finds it on time.
 *
 * On models with time windows (RTU5025) the device already closed the window by itself: the planner treats
 * an ended window as an empty slot, so this costs no SMS. On models without windows the number is deleted
 * from the device at its end (the same delete the reconciler would send).
 */
import { floorToMinute, MINUTE_MS } from '@propusk/devices/device-time';
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, phones } from '../../db/schema.ts';
import { lockBarrier, syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { deactivatePhonesLocked } from './phone-changes.ts';

export type ExpiryDeps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'logger'>;

export interface ExpiryResult {
  /** Barriers on which phones ended. */
  barrierIds: number[];
  /** Barriers whose devices got new commands (wake the worker for them after this returns). */
  commandBarrierIds: number[];
  /** Phones taken off. */
  phoneIds: number[];
}

/** Phones whose `end_time` is before this instant have ended at `now` (their last minute is over). */
export function endCutoff(now: Date): Date {
  return new Date(floorToMinute(now).getTime() + MINUTE_MS);
}

/** Live barriers with an active temporary phone that has ended by `now`, in id order. */
async function barriersWithEndedPhones(
  executor: Executor,
  cutoff: Date,
  barrierId: number | undefined,
): Promise<number[]> {
  const conditions = [
    eq(phones.isActive, true),
    eq(phones.type, 'temporary'),
    lt(phones.endTime, cutoff),
    isNull(barriers.deletedAt),
  ];
  if (barrierId !== undefined) conditions.push(eq(phones.barrierId, barrierId));
  const rows = await executor
    .selectDistinct({ barrierId: phones.barrierId })
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(and(...conditions))
    .orderBy(asc(phones.barrierId));
  return rows.map((row) => row.barrierId);
}

/**
 * Ends every temporary phone whose time is over, one transaction per barrier (so one busy barrier does not
 * hold the others). With `barrierId`, only that barrier. Safe to run at any time and from several processes
 * at once: the barrier lock serialises them, and the second finds nothing left to end.
 */
export async function expireEndedPhones(
  deps: ExpiryDeps,
  options: { barrierId?: number } = {},
): Promise<ExpiryResult> {
  const result: ExpiryResult = { barrierIds: [], commandBarrierIds: [], phoneIds: [] };
  const cutoff = endCutoff(deps.clock.now());
  for (const barrierId of await barriersWithEndedPhones(deps.db, cutoff, options.barrierId)) {
    try {
      const { removed, queued } = await deps.db.transaction(async (tx) => {
        await lockBarrier(tx, barrierId);
        const [barrier] = await tx
          .select({ deletedAt: barriers.deletedAt })
          .from(barriers)
          .where(eq(barriers.id, barrierId));
        if (!barrier || barrier.deletedAt !== null) return { removed: [], queued: 0 };
        const ended = await deactivatePhonesLocked(
          tx,
          deps,
          barrierId,
          { endedBefore: cutoff },
          { author: 'system', userId: null },
          'end_time',
        );
        if (ended.length === 0) return { removed: ended, queued: 0 };
        // Taking a number off is never refused for the weekly SMS budget.
        const queuedCount = await syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false });
        return { removed: ended, queued: queuedCount };
      });
      if (removed.length > 0) {
        result.barrierIds.push(barrierId);
        result.phoneIds.push(...removed.map((phone) => phone.id));
        deps.logger.info({ barrierId, phoneIds: removed.map((phone) => phone.id) }, 'temporary phones ended');
      }
      if (queued > 0) result.commandBarrierIds.push(barrierId);
    } catch (error) {
      // The next run (within a minute) tries this barrier again; the others go on.
      deps.logger.error({ err: error, barrierId }, 'ending temporary phones failed');
    }
  }
  return result;
}
