/**
 * Issue 31 part 5: liveness and readiness apart, and the database unreachable as an operator sees it: API calls
 * answer 503 `service_unavailable` with `Retry-After` (never 500), the log gets one line when the outage
 * starts and one when it ends, and the app serves again by itself.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { type DeviceProcessing, startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { createLogger } from '../src/lib/logger.ts';
import { captureLog } from './log-capture.ts';
import { namedStatementsInTests, useTestApp } from './test-app.ts';

describe('liveness and readiness', () => {
  let processing: DeviceProcessing | undefined;
  const t = useTestApp();
  afterAll(async () => {
    await processing?.stop();
  });

  it('live answers without the database; ready waits for the job queue, then answers ok', async () => {
    const live = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const early = await t.request({ method: 'GET', url: '/api/health/ready' });
    expect(early.statusCode).toBe(503);
    expect(early.json()).toMatchObject({
      code: 'service_unavailable',
      checks: { database: 'ok', job_queue: 'unavailable' },
    });
    processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null });
    const ready = await t.request({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', job_queue: 'ok' } });
    // The contract of DESIGN.md section 1 is unchanged.
    const old = await t.request({ method: 'GET', url: '/api/health/' });
    expect(old.json()).toEqual({ status: 'ok' });
    await processing.stop();
    processing = undefined;
    const stopped = await t.request({ method: 'GET', url: '/api/health/ready' });
    expect(stopped.statusCode).toBe(503);
  });
});

describe('the database unreachable', () => {
  let unreachable: DatabaseHandle;
  /** The app's database: the real one, or a pool aimed at a closed port; switched by the test. */
  let current: Database;
  const log = captureLog<{ level: number; msg: string; refused?: number; ms?: number }>();
  const lines = log.entries;

  beforeAll(async () => {
    // Nothing listens on port 1: every connection is refused at once (ECONNREFUSED), as when PostgreSQL is down.
    unreachable = await openDatabase({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/propusk',
      dataDir: '/tmp',
      preparedStatements: namedStatementsInTests,
    });
  });
  const t = useTestApp({
    logger: createLogger('info', log.destination),
    configure: (deps) => {
      current = deps.db;
      // Every property read goes to the database of the moment, so the switch reaches the whole app.
      deps.db = new Proxy({} as Database, { get: (_target, key) => Reflect.get(current, key) });
    },
  });
  // Runs before the app's close (after-hooks run in reverse order); the test has switched the app back by then.
  afterAll(() => unreachable.close());

  const askCode = () =>
    t.request({ method: 'POST', url: '/api/auth/codes/', payload: { phone: '+79990000501', mode: 'login' } });

  it('answers 503 with Retry-After to every API call, logs the outage once, and serves again after it', async () => {
    const working = t.deps.db;
    const real = current;
    expect((await askCode()).statusCode).toBe(201);

    current = unreachable.db;
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await askCode());
    answers.push(await t.request({ method: 'GET', url: '/api/health/ready' }));
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(503);
      expect(answer.json()).toMatchObject({ code: 'service_unavailable' });
      expect(answer.headers['retry-after']).toBe('5');
    }
    // The process itself is alive.
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors.map((line) => line.msg)).toEqual([
      'database unreachable: API calls answer 503 until it is back',
    ]);

    current = real;
    // The probe (once a second) sees the database again and closes the outage with one line.
    await vi.waitFor(() => expect(lines.some((line) => line.msg === 'database reachable again')).toBe(true), {
      timeout: 5_000,
      interval: 100,
    });
    const closing = lines.find((line) => line.msg === 'database reachable again');
    expect(closing?.refused).toBe(21);
    expect(lines.filter((line) => line.level >= 50)).toHaveLength(1);
    expect(t.deps.db).toBe(working);
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      payload: { phone: '+79990000502', mode: 'login' },
    });
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe('the 503 body', () => {
  it('is the catalogue text of service_unavailable', async () => {
    const { SERVICE_UNAVAILABLE_BODY } = await import('../src/lib/database-outage.ts');
    const { errorBody } = await import('../src/plugins/error-handler.ts');
    expect(JSON.parse(SERVICE_UNAVAILABLE_BODY)).toEqual(errorBody('service_unavailable'));
  });
});
