/**
 * `GET /metrics`: Prometheus text format, for `Authorization: Bearer $METRICS_TOKEN` only. Registered only
 * when METRICS_TOKEN is set; without it the path is unknown (404, as any unknown path: plugins/web-app.ts).
 *
 * Registered before the domain routes, as a global plugin: its onResponse hook times every request, labelled
 * by the route pattern that matched (`/api/barriers/:id/`), never the raw URL, so that ids and probing
 * scanners cannot multiply the series; a request no route matched counts as `unmatched`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Dependencies } from '../../lib/dependencies.ts';
import { unauthorized } from '../../lib/errors.ts';
import { METRICS_PATH } from '../../lib/metrics.ts';
import { type JobQueueSize, readDeviceCommandBacklog, readJobQueueSizes } from './repository.ts';

export const UNMATCHED_ROUTE = 'unmatched';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares the digests, so that neither the content nor the length of the token leaks through timing. */
export function isMetricsToken(expected: string, header: string | undefined): boolean {
  const given = header?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
  return timingSafeEqual(digest(expected), digest(given));
}

/**
 * Sets the gauges that are read from the database (read first, then set at once, so that two scrapes at a
 * time never see them half reset). On failure they stay empty and `propusk_metrics_database_up` says 0.
 */
async function readDatabaseGauges(deps: Dependencies): Promise<void> {
  const { metrics } = deps;
  let read: [Awaited<ReturnType<typeof readDeviceCommandBacklog>>, JobQueueSize[]] | null = null;
  try {
    read = await Promise.all([
      readDeviceCommandBacklog(deps.db, deps.clock.now()),
      readJobQueueSizes(deps.db),
    ]);
  } catch (error) {
    deps.logger.error({ err: error }, 'metrics: the database gauges could not be read');
  }
  metrics.deviceCommandsWaiting.reset();
  metrics.oldestWaitingCommandAge.reset();
  metrics.jobQueueJobs.reset();
  metrics.databaseUp.set(read ? 1 : 0);
  if (!read) return;
  const [backlog, queues] = read;
  metrics.deviceCommandsWaiting.set({ status: 'queued' }, backlog.queued);
  metrics.deviceCommandsWaiting.set({ status: 'sent' }, backlog.sent);
  metrics.oldestWaitingCommandAge.set(backlog.oldestAgeSeconds);
  for (const row of queues) metrics.jobQueueJobs.set({ queue: row.queue, state: row.state }, row.jobs);
}

export const metricsPlugin = fp(async (app: FastifyInstance, options: { deps: Dependencies }) => {
  const { deps } = options;
  const token = deps.config.METRICS_TOKEN;
  if (!token) return;
  const { metrics } = deps;
  metrics.collectProcessMetrics();

  // Synchronous: an async hook would cost every request a promise and a microtask (issue 44 part 5).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!isMetricsToken(token, request.headers.authorization)) throw unauthorized();
    await readDatabaseGauges(deps);
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
});
