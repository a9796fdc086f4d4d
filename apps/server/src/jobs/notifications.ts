/**
 * The notification worker (issue 43, docs/decisions/0035) on the device worker's pg-boss instance: a
 * dispatch of the outbox every few seconds in each process (rows are claimed with SKIP LOCKED, so processes
 * share them), and the `push-delivery` queue, one job per device, retried with backoff while the push
 * service is unreachable; a job delayed by quiet hours waits in the queue (`startAfter`).
 */
import type { PgBoss } from 'pg-boss';
import type { Dependencies } from '../lib/dependencies.ts';
import { type DeliveryJob, deliver, dispatchNotifications } from '../modules/notifications/dispatch.ts';
import { runNotificationChecks } from '../modules/notifications/periodic.ts';
import { sendPowerSms } from '../modules/notifications/power-sms.ts';

export const PUSH_DELIVERY_QUEUE = 'push-delivery';
export const POWER_SMS_QUEUE = 'power-sms';
export const NOTIFICATION_CHECKS_QUEUE = 'notification-checks';
/** Every hour at :07 (access ending within a day, the weekly SMS limit and shares). */
export const NOTIFICATION_CHECKS_CRON = '7 * * * *';
const DISPATCH_INTERVAL_MS = 2000;

export interface NotificationWorker {
  /** Dispatches what is pending now (tests; the timer does it otherwise). */
  dispatchNow(): Promise<void>;
  stop(): void;
}

export async function registerNotifications(
  boss: PgBoss,
  deps: Pick<Dependencies, 'db' | 'clock' | 'logger' | 'config' | 'secrets' | 'sms' | 'metrics'>,
  options: { pollingIntervalSeconds: number; cronPollingIntervalSeconds: number; cron: string | null },
): Promise<NotificationWorker> {
  await boss.createQueue(PUSH_DELIVERY_QUEUE, {
    retryLimit: 6,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
  });
  await boss.work<DeliveryJob>(
    PUSH_DELIVERY_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize: 5 },
    async (jobs) => {
      for (const job of jobs) await deliver(deps, job.data);
    },
  );
  // An administrator's SMS on power loss (power-sms.ts): retried while the gateway refuses it, sent once
  // (the gateway's key is the notice's).
  await boss.createQueue(POWER_SMS_QUEUE, {
    retryLimit: 6,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
  });
  await boss.work<{ noticeId: number }>(
    POWER_SMS_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds },
    async (jobs) => {
      for (const job of jobs) await sendPowerSms(deps, job.data.noticeId);
    },
  );
  await boss.createQueue(NOTIFICATION_CHECKS_QUEUE);
  await boss.work(
    NOTIFICATION_CHECKS_QUEUE,
    { pollingIntervalSeconds: options.cronPollingIntervalSeconds },
    async () => {
      await runNotificationChecks(deps);
    },
  );
  if (options.cron) {
    await boss.schedule(NOTIFICATION_CHECKS_QUEUE, options.cron, null, {
      singletonKey: 'notification-checks',
    });
  } else {
    await boss.unschedule(NOTIFICATION_CHECKS_QUEUE).catch(() => {});
  }
  const enqueue = async (job: DeliveryJob, startAfter: Date) => {
    await boss.send(PUSH_DELIVERY_QUEUE, job, startAfter > deps.clock.now() ? { startAfter } : {});
  };
  const enqueuePowerSms = async (noticeId: number) => {
    await boss.send(POWER_SMS_QUEUE, { noticeId });
  };
  let running: Promise<void> | null = null;
  const dispatchNow = async () => {
    while (running) await running;
    running = (async () => {
      while ((await dispatchNotifications(deps, enqueue, enqueuePowerSms)) === 100) {}
    })();
    try {
      await running;
    } finally {
      running = null;
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    dispatchNow().catch((error) => deps.logger.error({ err: error }, 'notification dispatch failed'));
  }, DISPATCH_INTERVAL_MS);
  timer.unref();
  return { dispatchNow, stop: () => clearInterval(timer) };
}
