/**
 * The device worker: drives the queue in `device_commands` (src/engine: send.ts, send-batcher.ts, replies.ts,
 * order.ts). pg-boss keeps
 * the *when* (a reply timeout, a retry after backoff, the start or end of a time window, a sweep every
 * minute) in jobs that survive restarts; the database rows keep the *what*. A commit that wrote commands
 * wakes the worker in-process at once (`kick`), so the first SMS leaves within milliseconds; the jobs make
 * sure nothing waits forever if the process stopped in between.
 *
 * Jobs carry only a barrier id: handling one twice, or after the work was already done, changes nothing.
 * The every-minute `phone-expiry` job (jobs/phone-expiry.ts) runs on the same pg-boss instance.
 */

import { createHash } from 'node:crypto';
import { fromPglite, PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../db/database.ts';
import { outsideRequest } from '../db/request-context.ts';
import type { QueueDeps } from '../engine/plan/index.ts';
import type { ProcessResult } from '../engine/send/index.ts';
import {
  barriersNeedingAttention,
  firstBarriersWithOpenCommands,
  nextReconcileAt,
  processBarrier,
  reconcileBarrier,
} from '../engine/send/index.ts';
import type { Dependencies } from '../lib/dependencies.ts';
import { startDueAudits } from '../modules/device-checks/service.ts';
import { expireEndedPhones } from '../modules/phones/expiry.ts';
import { NOTIFICATION_CHECKS_CRON, type NotificationWorker, registerNotifications } from './notifications.ts';
import { registerPhoneExpiry } from './phone-expiry.ts';
import { RETENTION_CRON, registerRetention } from './retention.ts';

export const WAKE_QUEUE = 'device-wake';
export const SWEEP_QUEUE = 'device-sweep';
/** How often the queues that only a cron fills are polled, in seconds (DeviceWorker.start says why). */
export const CRON_QUEUE_POLLING_SECONDS = 10;

interface WakeData {
  barrierId: number;
  /** Re-plan first: a time window may have opened or closed. */
  reconcile?: boolean;
}

export interface DeviceWorkerOptions {
  /** How often idle workers look for due jobs (seconds, ≥ 0.5). */
  pollingIntervalSeconds?: number;
  /** Cron of the safety sweep and of the phone-expiry job. Default every minute. Null: neither (tests). */
  sweepCron?: string | null;
  /** pg-boss schema; tests running two "processes" share one. */
  schema?: string;
}

/** A stable job id per (barrier, purpose, instant): the same wake-up is stored once. */
function jobId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Held barriers read from the head of the queue's order at a time when a send token comes. */
const THROTTLED_PAGE = 50;

export class DeviceWorker {
  private readonly running = new Map<number, { again: boolean; reconcile: boolean; done: Promise<void> }>();
  private stopped = false;
  /**
   * Barriers waiting for a send token (the gateways' rate): one timer for all of them, at the soonest
   * token, drives them in the queue's priority order (revocations first, then the soonest deadline) and stops
   * at the first that is held back again — no wake-up per barrier per token.
   */
  private readonly throttled = new Set<number>();
  private throttleTimer: NodeJS.Timeout | null = null;
  private throttleAt = Number.POSITIVE_INFINITY;
  private draining = false;
  /** The notification outbox's dispatch and the push deliveries (jobs/notifications.ts). */
  notifications: NotificationWorker | null = null;
  /** Ends its listening to the dependencies' wake-up (lib/device-wake.ts), at its stop. */
  private stopListening: () => void = () => {};

  private constructor(
    private readonly deps: QueueDeps,
    private readonly boss: PgBoss,
  ) {}

  static async start(
    deps: QueueDeps & Pick<Dependencies, 'databaseOutage' | 'deviceWake'>,
    handle: DatabaseHandle,
    options: DeviceWorkerOptions = {},
  ): Promise<DeviceWorker> {
    const common = {
      schema: options.schema ?? 'pgboss',
      // The device worker needs no pg-boss maintenance beyond the defaults; keep its warnings in our log.
    };
    const create = () => {
      const made =
        handle.kind === 'pglite'
          ? new PgBoss({ ...common, db: fromPglite(handle.pglite), backend: 'pglite' })
          : new PgBoss({
              ...common,
              db: { executeSql: (text, values) => handle.pool.query(text, values as unknown[]) },
            });
      made.on('error', (error) => {
        // While the database is unreachable its outage is logged once (lib/database-outage.ts), not at each poll.
        if (deps.databaseOutage?.noteFailure(error)) return;
        deps.logger.error({ err: error }, 'pg-boss error');
      });
      return made;
    };
    let boss = create();
    // Several processes starting at once on a new database can race in pg-boss's own first install
    // (`duplicate key … pg_namespace_nspname_index`, seen with three processes through PgBouncer): the loser
    // starts again, a fresh instance, and finds the schema installed (docs/decisions/0027).
    for (let attempt = 1; ; attempt++) {
      try {
        await boss.start();
        break;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= 3 || !['23505', '42P06', '42P07', '42710'].includes(String(code))) throw error;
        deps.logger.info({ code, attempt }, 'pg-boss install raced with another process: starting again');
        await boss.stop({ graceful: false }).catch(() => {});
        boss = create();
      }
    }
    await boss.createQueue(WAKE_QUEUE);
    await boss.createQueue(SWEEP_QUEUE);
    const worker = new DeviceWorker(deps, boss);
    // Once a second on either database: a commit wakes the worker at once (lib/device-wake.ts), so polling serves
    // due jobs (follow-ups, expiries, deliveries) only. On the embedded database 0.5 s cost an idle server 7 % of a
    // core (docs/journal/2026-11-29-fourteenth-session.md).
    const polling = Math.max(0.5, options.pollingIntervalSeconds ?? 1);
    // The queues that only pg-boss's cron fills (the sweep, the expiry's safety net, retention, the hourly
    // notification checks) are polled every ten seconds: a job of a minute's cron starts at most that much later,
    // where an idle server polled seven queues a second (four of them these).
    const cronPolling = Math.max(polling, CRON_QUEUE_POLLING_SECONDS);
    await boss.work<WakeData>(
      WAKE_QUEUE,
      { pollingIntervalSeconds: polling, batchSize: 20 },
      async (jobs) => {
        await Promise.all(jobs.map((job) => worker.kick(job.data.barrierId, job.data.reconcile ?? false)));
      },
    );
    await boss.work(SWEEP_QUEUE, { pollingIntervalSeconds: cronPolling }, async () => worker.sweep());
    const cron = options.sweepCron === undefined ? '* * * * *' : options.sweepCron;
    if (cron) await boss.schedule(SWEEP_QUEUE, cron, null, { singletonKey: 'sweep' });
    else await boss.unschedule(SWEEP_QUEUE).catch(() => {});
    await registerPhoneExpiry(
      boss,
      deps,
      (barrierIds) => {
        for (const barrierId of barrierIds) void worker.kick(barrierId);
      },
      { pollingIntervalSeconds: cronPolling, cron },
    );
    // Daily, on the same instance (docs/decisions/0022); off where the sweep is off (tests).
    await registerRetention(boss, deps, {
      pollingIntervalSeconds: cronPolling,
      cron: cron ? RETENTION_CRON : null,
    });
    // Web Push (issue 43): the outbox's dispatch and the deliveries, on the same instance.
    worker.notifications = await registerNotifications(boss, deps, {
      pollingIntervalSeconds: polling,
      cronPollingIntervalSeconds: cronPolling,
      cron: cron ? NOTIFICATION_CHECKS_CRON : null,
    });
    // From now on a commit that wrote device commands wakes this worker at once, not at its next job.
    worker.stopListening = deps.deviceWake.listen((barrierIds) => {
      // The worker serves every request: what it does (and stores) is not the waking request's.
      outsideRequest(() => {
        for (const barrierId of new Set(barrierIds)) void worker.kick(barrierId);
      });
    });
    return worker;
  }

  /** Started and not stopped: its pg-boss polls (GET /api/health/ready). */
  isRunning(): boolean {
    return !this.stopped;
  }

  /** Wakes the barrier's processing now (coalesced: one run at a time per barrier in this process). */
  kick(barrierId: number, reconcile = false): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const current = this.running.get(barrierId);
    if (current) {
      current.again = true;
      current.reconcile ||= reconcile;
      return current.done;
    }
    const entry = { again: true, reconcile, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        while (entry.again && !this.stopped) {
          entry.again = false;
          const shouldReconcile = entry.reconcile;
          entry.reconcile = false;
          await this.drive(barrierId, shouldReconcile);
        }
      } finally {
        this.running.delete(barrierId);
      }
    })();
    this.running.set(barrierId, entry);
    return entry.done;
  }

  /** Every barrier with an open command or timed phones, re-planned and driven. */
  async sweep(): Promise<void> {
    // Periodic audits first: the read queries they queue are then driven with everything else.
    await startDueAudits(this.deps).catch((error) =>
      this.deps.logger.error({ err: error }, 'device audits could not start'),
    );
    const barrierIds = await barriersNeedingAttention(this.deps.db);
    for (const barrierId of barrierIds) await this.kick(barrierId, true);
  }

  /** Settles every run in progress in this process (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening();
    this.notifications?.stop();
    if (this.throttleTimer) clearTimeout(this.throttleTimer);
    this.throttleTimer = null;
    await this.idle();
    await this.boss.stop({ graceful: true, close: false, timeout: 5000 }).catch(() => {});
  }

  private async drive(barrierId: number, reconcile: boolean): Promise<void> {
    try {
      if (reconcile) {
        // A window may have closed: a temporary phone that ended leaves the barrier before the re-plan.
        await expireEndedPhones(this.deps, { barrierId });
        await reconcileBarrier(this.deps, barrierId);
      }
      const observed: { reconcileAt?: Date | null } = {};
      const result = await processBarrier(this.deps, barrierId, {}, observed);
      if (result.state === 'gateway_failed' && result.retryAt.getTime() <= this.deps.clock.now().getTime()) {
        // Another gateway takes it now: run this barrier again right away.
        const entry = this.running.get(barrierId);
        if (entry) entry.again = true;
        return;
      }
      if (result.state === 'throttled') this.holdForToken(barrierId, result.until);
      await this.scheduleFollowUp(barrierId, result);
      // Read with the barrier in the sending transaction, when that transaction decided it.
      const next =
        observed.reconcileAt !== undefined
          ? observed.reconcileAt
          : await nextReconcileAt(this.deps, barrierId);
      if (next) await this.wakeAt(barrierId, next, true);
    } catch (error) {
      // The sweep comes back to this barrier within a minute.
      this.deps.logger.error({ err: error, barrierId }, 'device worker step failed');
    }
  }

  private holdForToken(barrierId: number, until: Date): void {
    this.throttled.add(barrierId);
    const delay = Math.max(0, until.getTime() - this.deps.clock.now().getTime());
    const at = Date.now() + delay;
    if (this.throttleTimer && at >= this.throttleAt) return;
    if (this.throttleTimer) clearTimeout(this.throttleTimer);
    this.throttleAt = at;
    this.throttleTimer = setTimeout(() => {
      this.throttleTimer = null;
      this.throttleAt = Number.POSITIVE_INFINITY;
      void this.drainThrottled();
    }, delay);
    this.throttleTimer.unref?.();
  }

  /** Drives the barriers held for a token, most urgent first, until one is held back again. */
  private async drainThrottled(): Promise<void> {
    if (this.draining || this.stopped) return;
    this.draining = true;
    try {
      // The head of the queue's order among the held barriers, a page at a time (never the whole order: with
      // tens of thousands of commands queued the timer fires at every token).
      const driven = new Set<number>();
      for (;;) {
        const page = await firstBarriersWithOpenCommands(this.deps.db, {
          limit: THROTTLED_PAGE,
          among: [...this.throttled],
          skip: driven,
        });
        // Held barriers left without an open command need no token.
        if (page.done)
          for (const barrierId of this.throttled)
            if (!page.barrierIds.includes(barrierId)) this.throttled.delete(barrierId);
        for (const barrierId of page.barrierIds) {
          if (this.stopped) return;
          driven.add(barrierId);
          this.throttled.delete(barrierId);
          await this.kick(barrierId);
          // Held back again: the others wait for the timer it armed.
          if (this.throttled.has(barrierId)) return;
        }
        if (page.done) return;
      }
    } catch (error) {
      this.deps.logger.error(
        { err: error },
        'device worker could not drive the barriers waiting for a token',
      );
    } finally {
      this.draining = false;
    }
  }

  private async scheduleFollowUp(barrierId: number, result: ProcessResult): Promise<void> {
    if (result.state === 'sent') await this.wakeAt(barrierId, result.replyDueAt, false);
    else if (result.state === 'waiting') await this.wakeAt(barrierId, result.until, false);
    else if (result.state === 'gateway_failed') await this.wakeAt(barrierId, result.retryAt, false);
  }

  private async wakeAt(barrierId: number, at: Date, reconcile: boolean): Promise<void> {
    const data: WakeData = { barrierId, reconcile };
    await this.boss.send(WAKE_QUEUE, data, {
      id: jobId(`${barrierId}:${reconcile ? 'reconcile' : 'wake'}:${at.toISOString()}`),
      startAfter: at,
      retryLimit: 3,
    });
  }
}
