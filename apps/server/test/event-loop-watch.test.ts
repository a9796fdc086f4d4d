/**
 * Issue 40 item 1: a request that blocks the event loop for more than 200 ms is logged at `warn` with its route
 * pattern (never its URL), counted by route on /metrics, and the loop's delay is on /metrics. The block is made
 * inside a real request: the clock the request reads busy-waits 300 ms once.
 */
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, type TestUser } from './factories.ts';
import { captureLog } from './log-capture.ts';
import { useTestApp } from './test-app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('the event loop watch', () => {
  let user: TestUser;
  const log = captureLog();
  let blockNextClockRead = false;

  const t = useTestApp({
    env: { METRICS_TOKEN: TOKEN },
    configure: (deps) => {
      deps.logger = pino({ level: 'info' }, log.destination);
      deps.eventLoopBlockMs = 200;
      const clock = deps.clock;
      const now = clock.now.bind(clock);
      clock.now = () => {
        if (blockNextClockRead) {
          blockNextClockRead = false;
          const until = performance.now() + 300;
          while (performance.now() < until) {
            // The request computes for 300 ms: nothing else runs.
          }
        }
        return now();
      };
    },
  });
  beforeAll(async () => {
    user = await createAdmin(t, { fullName: 'Админ' });
  });

  const blockLines = () => log.entries.filter((line) => String(line.msg).startsWith('event loop blocked'));

  it('logs a request that blocked the loop for more than 200 ms, with its route pattern, and counts it', async () => {
    // Let the heartbeat settle after the app's start (migrations on the embedded database block too).
    await new Promise((resolve) => setTimeout(resolve, 300));
    log.clear();
    blockNextClockRead = true;
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/users/${user.id}/?q=secret`,
      token: user.token,
    });
    expect(blockNextClockRead).toBe(false);
    expect(response.statusCode).toBeLessThan(500);
    // The heartbeat notices the late tick once the loop runs again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const blocked = blockLines();
    expect(blocked.length).toBeGreaterThanOrEqual(1);
    const line = blocked[0] as { level: number; blocked_ms: number; routes: string[]; msg: string };
    expect(line.level).toBe(40);
    expect(line.blocked_ms).toBeGreaterThanOrEqual(200);
    expect(line.routes).toContain('GET /api/admin/users/:id/');
    expect(JSON.stringify(blocked)).not.toContain('secret');
    expect(JSON.stringify(blocked)).not.toContain(`/api/admin/users/${user.id}/`);

    const scrape = await t.request({ method: 'GET', url: '/metrics', token: TOKEN });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toMatch(
      /propusk_event_loop_blocks_total\{route="GET \/api\/admin\/users\/:id\/"\} [1-9]/,
    );
    const max = scrape.body.match(/propusk_event_loop_delay_seconds\{stat="max"\} (\S+)/)?.[1];
    expect(Number(max)).toBeGreaterThanOrEqual(0.2);
    expect(scrape.body).toMatch(/propusk_event_loop_delay_seconds\{stat="p99"\} \S+/);
  });
});
