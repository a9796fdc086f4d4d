/**
 * GET /metrics as Prometheus scrapes it: absent without METRICS_TOKEN, 401 to a wrong token, the text format
 * with a bearer token; the figures move when the app does what they count (an HTTP call, a device command
 * sent through the demo provider, a command waiting, a reply that answers nothing, the pg-boss queues).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handleDeviceReply } from '../src/engine/reply/index.ts';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp, useTestApp } from './test-app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [
        pair[1],
        pair[2],
      ]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  const t = useTestApp();

  it('does not exist: the JSON 404 of any unknown server path, whatever the token', async () => {
    for (const token of [undefined, TOKEN]) {
      const response = await t.request({ method: 'GET', url: '/metrics', token });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
    const unknown = await t.request({ method: 'GET', url: '/api/no-such-thing/' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const scrape = async () => {
    const response = await t.request({ method: 'GET', url: '/metrics', token: TOKEN });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  const t = useTestApp({ env: { METRICS_TOKEN: TOKEN } });
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('refuses a missing or wrong token with 401 as any API error, the metrics not shown', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const response = await t.request({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json()).toEqual({
        detail: 'Authentication credentials were not provided or are invalid.',
        code: 'not_authenticated',
      });
      expect(response.body).not.toContain('propusk_');
    }
  });

  it('answers the Prometheus text format with every metric of the app and the process', async () => {
    const response = await t.request({ method: 'GET', url: '/metrics', token: TOKEN });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'propusk_http_request_duration_seconds',
      'propusk_sms_sent_total',
      'propusk_sms_failed_total',
      'propusk_device_command_send_latency_seconds',
      'propusk_device_replies_unmatched_total',
      'propusk_device_commands_waiting',
      'propusk_device_command_oldest_waiting_age_seconds',
      'propusk_job_queue_jobs',
      'propusk_metrics_database_up',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(response.body).toContain(`# TYPE ${name} `);
    }
    expect(sample(response.body, 'propusk_metrics_database_up')).toBe(1);
  });

  it('times HTTP requests by route pattern, never by raw URL; unknown paths are one label', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const read = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/`,
      token: admin.token,
    });
    expect(read.statusCode).toBe(200);
    await t.request({ method: 'GET', url: '/api/admin/barriers/999999/', token: admin.token });
    await t.request({ method: 'GET', url: '/api/probe-a/' });
    await t.request({ method: 'GET', url: '/api/probe-b/?x=1' });

    const text = await scrape();
    const route = '/api/admin/barriers/:id/';
    expect(sample(text, 'propusk_http_request_duration_seconds_count', { route, status_code: '200' })).toBe(
      1,
    );
    expect(sample(text, 'propusk_http_request_duration_seconds_count', { route, status_code: '404' })).toBe(
      1,
    );
    expect(
      sample(text, 'propusk_http_request_duration_seconds_count', {
        route: 'unmatched',
        method: 'GET',
        status_code: '404',
      }),
    ).toBe(2);
    expect(text).not.toContain(`/api/admin/barriers/${barrier.id}/`);
    expect(text).not.toContain('probe-a');
  });

  it('counts a device command sent through the demo provider, and its commit-to-gateway latency', async () => {
    const before = await scrape();
    const sentBefore = sample(before, 'propusk_sms_sent_total', { provider: 'demo', purpose: 'device' }) ?? 0;
    const latencyBefore = sample(before, 'propusk_device_command_send_latency_seconds_count') ?? 0;

    const barrier = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    // The worker picks the command up 3 seconds after the change committed.
    t.clock.advance(3000);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toHaveLength(1);

    const after = await scrape();
    expect(sample(after, 'propusk_sms_sent_total', { provider: 'demo', purpose: 'device' })).toBe(
      sentBefore + 1,
    );
    expect(sample(after, 'propusk_device_command_send_latency_seconds_count')).toBe(latencyBefore + 1);
    // 3 s falls in the 5 s bucket, not in the 2.5 s one.
    const bucket = (le: string) =>
      sample(after, 'propusk_device_command_send_latency_seconds_bucket', { le });
    expect((bucket('5') ?? 0) - (bucket('2.5') ?? 0)).toBe(1);
  });

  it('shows waiting device commands and the age of the oldest, read from the outbox at scrape', async () => {
    const waitingBefore =
      sample(await scrape(), 'propusk_device_commands_waiting', { status: 'queued' }) ?? 0;
    const barrier = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    t.clock.advance(90_000);

    const text = await scrape();
    expect(sample(text, 'propusk_device_commands_waiting', { status: 'queued' })).toBe(waitingBefore + 2);
    expect(sample(text, 'propusk_device_command_oldest_waiting_age_seconds')).toBeGreaterThanOrEqual(90);

    // Sent and waiting for the reply: one in flight, one queued behind it.
    await h.run(barrier.id, { answer: false });
    const inFlight = await scrape();
    expect(sample(inFlight, 'propusk_device_commands_waiting', { status: 'sent' })).toBe(1);
    expect(sample(inFlight, 'propusk_device_commands_waiting', { status: 'queued' })).toBe(waitingBefore + 1);
  });

  it('counts an inbound SMS that answers no command', async () => {
    const before = sample(await scrape(), 'propusk_device_replies_unmatched_total') ?? 0;
    const result = await handleDeviceReply(t.deps, { from: '+79990001122', text: 'Hello' });
    expect(result.matched).toBeNull();
    expect(sample(await scrape(), 'propusk_device_replies_unmatched_total')).toBe(before + 1);
  });

  it('counts a login code SMS by provider and purpose', async () => {
    const before =
      sample(await scrape(), 'propusk_sms_sent_total', { provider: 'demo', purpose: 'code' }) ?? 0;
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      payload: { phone: '+79990003344', mode: 'login' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(sample(await scrape(), 'propusk_sms_sent_total', { provider: 'demo', purpose: 'code' })).toBe(
      before + 1,
    );
  });

  it("reads the pg-boss queues' sizes at scrape once the worker has made them", async () => {
    expect(await scrape()).not.toMatch(/^propusk_job_queue_jobs\{/m);
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: false });
    try {
      // A command sent and left unanswered: the worker stores a wake-up job for its reply timeout.
      const barrier = await h.createBarrier({ ownerId: admin.id });
      await h.addPhone(barrier.id, { userId: admin.id });
      await processing.worker.kick(barrier.id);
      await processing.worker.idle();
      const text = await scrape();
      const wake = ['queued', 'deferred', 'active'].map((state) =>
        sample(text, 'propusk_job_queue_jobs', { queue: 'device-wake', state }),
      );
      expect(wake.every((value) => typeof value === 'number')).toBe(true);
      expect(wake.reduce((sum = 0, value = 0) => sum + value, 0)).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'propusk_job_queue_jobs', { queue: 'device-sweep', state: 'queued' })).toBe(0);
    } finally {
      await processing.stop();
    }
  });
});

describe('two apps in one process', () => {
  it('keep their own registries: one counts nothing of the other', async () => {
    const one = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const two = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      await one.request({ method: 'GET', url: '/api/health/' });
      await one.request({ method: 'GET', url: '/api/health/' });
      await two.request({ method: 'GET', url: '/api/health/' });
      const count = async (t: TestApp) =>
        sample(
          (await t.request({ method: 'GET', url: '/metrics', token: TOKEN })).body,
          'propusk_http_request_duration_seconds_count',
          { route: '/api/health/' },
        );
      expect(await count(one)).toBe(2);
      expect(await count(two)).toBe(1);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
