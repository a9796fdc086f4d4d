/**
 * The event loop watched (issue 40 item 1): one request that computes for long stops every other one, health
 * included. A heartbeat timer ticks every HEARTBEAT_MS; a tick that comes more than EVENT_LOOP_BLOCK_MS late means
 * (deps.eventLoopBlockMs, when set) the loop was blocked, and a `warn` line names the route patterns (never the URLs) of the requests in flight
 * during the block (those that finished in it too), with the block's length; `propusk_event_loop_blocks_total`
 * counts it by route. The delay itself is measured for /metrics (`propusk_event_loop_delay_seconds`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Dependencies } from '../lib/dependencies.ts';
import { routeForLog } from '../lib/log-privacy.ts';

/** A block longer than this is logged. */
export const EVENT_LOOP_BLOCK_MS = 200;
const HEARTBEAT_MS = 20;
/** Finished requests remembered, to name the one that blocked the loop when it ended before the late tick. */
const RECENT_MAX = 64;

interface Span {
  route: string;
  start: number;
  end?: number;
}

export const eventLoopWatchPlugin = fp(async (app: FastifyInstance, options: { deps: Dependencies }) => {
  const { deps } = options;
  const blockMs = deps.eventLoopBlockMs ?? EVENT_LOOP_BLOCK_MS;
  const inFlight = new Map<FastifyRequest, Span>();
  const recent: Span[] = [];

  // Synchronous hooks (issue 44 part 5): an async one costs every request a promise and a microtask.
  app.addHook('onRequest', (request, _reply, done) => {
    inFlight.set(request, { route: `${request.method} ${routeForLog(request)}`, start: performance.now() });
    done();
  });
  const finish = (request: FastifyRequest) => {
    const span = inFlight.get(request);
    if (!span) return;
    inFlight.delete(request);
    span.end = performance.now();
    recent.push(span);
    if (recent.length > RECENT_MAX) recent.shift();
  };
  app.addHook('onResponse', (request, _reply, done) => {
    finish(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finish(request);
    done();
  });

  let last = performance.now();
  const heartbeat = setInterval(() => {
    const now = performance.now();
    const late = now - last - HEARTBEAT_MS;
    last = now;
    if (late <= blockMs) return;
    const blockStart = now - late;
    const overlapping = [...inFlight.values(), ...recent].filter(
      (span) => span.start <= now && (span.end === undefined || span.end >= blockStart),
    );
    const routes = [...new Set(overlapping.map((span) => span.route))].sort();
    for (const route of routes.length > 0 ? routes : ['none']) deps.metrics.eventLoopBlocks.inc({ route });
    deps.logger.warn(
      { blocked_ms: Math.round(late), routes },
      `event loop blocked for ${Math.round(late)} ms${routes.length > 0 ? ` during ${routes.join(', ')}` : ''}`,
    );
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const stopDelay = deps.metrics.watchEventLoopDelay();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    stopDelay();
  });
});
