/**
 * The job that ends temporary phones whose time is over (modules/phones/expiry.ts has the rule). It runs
 * every minute from a pg-boss cron, on the device worker's pg-boss instance, so it survives restarts and
 * several processes share it (pg-boss hands each run to one of them; the barrier lock makes a double run
 * harmless). The device worker also ends a barrier's phones when it wakes at a window's end, which is the
 * on-time path; this job is the safety net (a lost wake-up, a process that was down at the time).
 */
import type { PgBoss } from 'pg-boss';
import { type ExpiryDeps, type ExpiryResult, expireEndedPhones } from '../modules/phones/expiry.ts';

export const PHONE_EXPIRY_QUEUE = 'phone-expiry';

/** Ends what has ended and wakes the device processing of the barriers that got commands. */
export async function runPhoneExpiry(
  deps: ExpiryDeps,
  wake: (barrierIds: number[]) => void,
): Promise<ExpiryResult> {
  const result = await expireEndedPhones(deps);
  if (result.commandBarrierIds.length > 0) wake(result.commandBarrierIds);
  return result;
}

export async function registerPhoneExpiry(
  boss: PgBoss,
  deps: ExpiryDeps,
  wake: (barrierIds: number[]) => void,
  options: { pollingIntervalSeconds: number; cron: string | null },
): Promise<void> {
  await boss.createQueue(PHONE_EXPIRY_QUEUE);
  await boss.work(
    PHONE_EXPIRY_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds },
    async () => {
      await runPhoneExpiry(deps, wake);
    },
  );
  if (options.cron) {
    await boss.schedule(PHONE_EXPIRY_QUEUE, options.cron, null, { singletonKey: 'phone-expiry' });
  } else {
    await boss.unschedule(PHONE_EXPIRY_QUEUE).catch(() => {});
  }
}
