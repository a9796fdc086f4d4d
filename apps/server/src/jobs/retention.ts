/**
 * The daily retention job (modules/privacy/retention.ts has the rules; docs/decisions/0022). A pg-boss cron
 * on the device worker's instance, like phone-expiry: it survives restarts and one process runs each day's
 * run. A run that finds nothing to do costs a handful of index-less scans of rows past the cutoff.
 */
import type { PgBoss } from 'pg-boss';
import { type RetentionDeps, runRetention } from '../modules/privacy/retention.ts';

export const RETENTION_QUEUE = 'retention';
/** Every day at 03:17 UTC (night in Russia, away from the round hours other jobs like). */
export const RETENTION_CRON = '17 3 * * *';

export async function registerRetention(
  boss: PgBoss,
  deps: RetentionDeps,
  options: { pollingIntervalSeconds: number; cron: string | null },
): Promise<void> {
  await boss.createQueue(RETENTION_QUEUE);
  await boss.work(RETENTION_QUEUE, { pollingIntervalSeconds: options.pollingIntervalSeconds }, async () => {
    await runRetention(deps);
  });
  if (options.cron) {
    await boss.schedule(RETENTION_QUEUE, options.cron, null, { singletonKey: 'retention' });
  } else {
    await boss.unschedule(RETENTION_QUEUE).catch(() => {});
  }
}
