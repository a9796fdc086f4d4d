/**
 * Prometheus metrics of one app (GET /metrics, modules/metrics). Each app gets its own `Registry`, never
 * prom-client's global one: tests build several apps in one process, and each must count only its own.
 *
 * The instruments here are counted where things happen (the SMS call sites, the device queue, the HTTP
 * hook); the gauges are filled from the database at each scrape (modules/metrics/repository.ts), so that
 * they tell the truth whichever process wrote the rows.
 */
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Where Prometheus scrapes (outside /api/: it is the operator's, not the client's). */
export const METRICS_PATH = '/metrics';

export interface Metrics {
  readonly registry: Registry;
  /** By route pattern (`/api/barriers/:id/`), never the raw URL; requests no route matched are `unmatched`. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly smsSent: Counter<'provider' | 'gateway' | 'purpose'>;
  readonly smsFailed: Counter<'provider' | 'gateway' | 'purpose'>;
  /** From the change that stored a device command (its commit) to the SMS handed to the gateway, first try. */
  readonly deviceCommandSendLatency: Histogram;
  /** SMS from anyone that answered no device command in flight (kept in inbound_sms, logged as unrecognised). */
  readonly unmatchedDeviceReplies: Counter;
  /** The units' own SMS, by kind (`power_failure`, `power_restored`, `alarm`; issue 30 item 5). */
  readonly deviceAlarms: Counter<'kind'>;
  readonly smsCodesRefusedByBudget: Counter;
  readonly deviceCommandsWaiting: Gauge<'status'>;
  readonly oldestWaitingCommandAge: Gauge;
  readonly jobQueueJobs: Gauge<'queue' | 'state'>;
  /** 1 when the scrape's database queries answered, 0 when they failed (the gauges above are then empty). */
  readonly databaseUp: Gauge;
  /** Rows the retention job removed or anonymised, by kind (modules/privacy/retention.ts, 0022). */
  readonly retentionRows: Counter<'kind'>;
  /**
   * The event loop's delay since the last scrape (issue 40 item 1), by `stat`: max, p99, mean (seconds), from
   * `perf_hooks.monitorEventLoopDelay` while `watchEventLoopDelay` runs.
   */
  readonly eventLoopDelay: Gauge<'stat'>;
  /**
   * Times the event loop was blocked longer than the watch's threshold (plugins/event-loop-watch.ts), by the route
   * pattern of each request in flight then (`none` when there was none).
   */
  readonly eventLoopBlocks: Counter<'route'>;
  /** Starts measuring the event loop's delay (for `eventLoopDelay`); the function returned stops it. */
  watchEventLoopDelay(): () => void;
  /** Adds the process metrics (CPU, memory, event loop, GC); once, and only when /metrics is served. */
  collectProcessMetrics(): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  let collectsProcess = false;
  let delay: IntervalHistogram | undefined;
  return {
    registry,
    eventLoopDelay: new Gauge({
      name: 'propusk_event_loop_delay_seconds',
      help: 'Delay of the event loop since the last scrape, by stat: max, p99, mean (perf_hooks.monitorEventLoopDelay).',
      labelNames: ['stat'],
      registers,
      collect() {
        if (!delay) return;
        const seconds = (nanoseconds: number) => (Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : 0);
        this.set({ stat: 'max' }, seconds(delay.max));
        this.set({ stat: 'p99' }, seconds(delay.percentile(99)));
        this.set({ stat: 'mean' }, seconds(delay.mean));
        delay.reset();
      },
    }),
    eventLoopBlocks: new Counter({
      name: 'propusk_event_loop_blocks_total',
      help: 'Times the event loop was blocked more than 200 ms, by the route pattern of each request in flight then (none: no request).',
      labelNames: ['route'],
      registers,
    }),
    watchEventLoopDelay() {
      const histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      delay = histogram;
      return () => {
        histogram.disable();
        if (delay === histogram) delay = undefined;
      };
    },
    httpRequestDuration: new Histogram({
      name: 'propusk_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    smsSent: new Counter({
      name: 'propusk_sms_sent_total',
      help: 'SMS the gateway accepted, by provider, gateway (device commands: its configured name) and purpose (code, invitation, device, power_notice).',
      labelNames: ['provider', 'gateway', 'purpose'],
      registers,
    }),
    smsFailed: new Counter({
      name: 'propusk_sms_failed_total',
      help: 'SMS the gateway refused or could not be reached for, by provider, gateway and purpose (code, invitation, device, power_notice).',
      labelNames: ['provider', 'gateway', 'purpose'],
      registers,
    }),
    deviceCommandSendLatency: new Histogram({
      name: 'propusk_device_command_send_latency_seconds',
      help: 'From the commit that stored a device command to its SMS handed to the gateway (first attempt).',
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    }),
    smsCodesRefusedByBudget: new Counter({
      name: 'propusk_sms_codes_refused_by_budget_total',
      help: 'Code requests refused because the hourly SMS budget of the server was spent (SMS_CODE_BUDGET_PER_HOUR).',
      registers,
    }),
    unmatchedDeviceReplies: new Counter({
      name: 'propusk_device_replies_unmatched_total',
      help: 'Inbound SMS that answered no device command in flight (kept, shown as unrecognised).',
      registers,
    }),
    deviceAlarms: new Counter({
      name: 'propusk_device_alarms_total',
      help: 'SMS the devices sent by themselves, by kind: power_failure, power_restored, alarm.',
      labelNames: ['kind'],
      registers,
    }),
    deviceCommandsWaiting: new Gauge({
      name: 'propusk_device_commands_waiting',
      help: 'Device commands not finished: queued (to be sent) or sent (waiting for the reply).',
      labelNames: ['status'],
      registers,
    }),
    oldestWaitingCommandAge: new Gauge({
      name: 'propusk_device_command_oldest_waiting_age_seconds',
      help: 'Age of the oldest device command not finished (0 when none waits).',
      registers,
    }),
    jobQueueJobs: new Gauge({
      name: 'propusk_job_queue_jobs',
      help: 'pg-boss jobs by queue and state: queued (due), deferred (due later), active.',
      labelNames: ['queue', 'state'],
      registers,
    }),
    databaseUp: new Gauge({
      name: 'propusk_metrics_database_up',
      help: '1 when the database answered the queries of this scrape, 0 when it did not.',
      registers,
    }),
    retentionRows: new Counter({
      name: 'propusk_retention_rows_total',
      help: 'Rows the retention job removed (history, device messages, openings, logs) or anonymised (deleted accounts), by kind.',
      labelNames: ['kind'],
      registers,
    }),
    collectProcessMetrics() {
      if (collectsProcess) return;
      collectsProcess = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
