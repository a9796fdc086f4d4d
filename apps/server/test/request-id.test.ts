/**
 * Issue 31 part 7: a request's id. A valid incoming `X-Request-Id` is kept, anything else replaced by a fresh
 * UUID; the id is echoed in the answer, on every log line of the request, stored with the device commands the
 * request caused and named again on the log lines of their sending.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import type { TestBarrier } from './domain-factories.ts';
import type { TestUser } from './factories.ts';
import { captureLog } from './log-capture.ts';
import { useTestApp } from './test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  let h: DeviceHarness;
  let barrier: TestBarrier;
  let user: TestUser;
  const log = captureLog();
  const lines = log.entries;

  const t = useTestApp({ logger: createLogger('debug', log.destination) });
  beforeAll(async () => {
    ({ h, barrier, user } = await createDeviceScene(t));
  });

  const linesOf = (id: string) => lines.filter((line) => line.reqId === id);

  it('keeps a valid incoming id: in the answer and on every log line of the request', async () => {
    const id = 'edge-7f3a.9:b_c-1';
    const before = lines.length;
    const response = await t.request({ method: 'GET', url: '/api/health/', headers: { 'x-request-id': id } });
    expect(response.headers['x-request-id']).toBe(id);
    const own = lines.slice(before);
    expect(own.length).toBeGreaterThanOrEqual(2); // incoming (debug) and completed
    for (const line of own) expect(line.reqId).toBe(id);
  });

  it('replaces an id that is too long or holds other characters with a fresh UUID', async () => {
    for (const hostile of ['x'.repeat(129), 'id with spaces', 'id\u2028next', '<script>', 'ид', '']) {
      const response = await t.request({
        method: 'GET',
        url: '/api/health/',
        headers: { 'x-request-id': hostile },
      });
      const answered = String(response.headers['x-request-id']);
      expect(answered).toMatch(UUID);
      expect(linesOf(answered).length).toBeGreaterThan(0);
      if (hostile) expect(JSON.stringify(lines)).not.toContain(JSON.stringify(hostile).slice(1, -1));
    }
    expect(linesOf('x'.repeat(128)).length).toBe(0);
    const exact = await t.request({
      method: 'GET',
      url: '/api/health/',
      headers: { 'x-request-id': 'y'.repeat(128) },
    });
    expect(exact.headers['x-request-id']).toBe('y'.repeat(128));
  });

  it('generates a different UUID for each request without one, errors included', async () => {
    const one = await t.request({ method: 'GET', url: '/api/health/' });
    const two = await t.request({ method: 'GET', url: '/api/no-such-route/' });
    expect(two.statusCode).toBe(404);
    expect(one.headers['x-request-id']).toMatch(UUID);
    expect(two.headers['x-request-id']).toMatch(UUID);
    expect(one.headers['x-request-id']).not.toBe(two.headers['x-request-id']);
  });

  it('is stored with the device commands the request caused and named when they are sent', async () => {
    const id = 'add-phone-4711';
    const added = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/phones/`,
      token: user.token,
      headers: { 'x-request-id': id },
      payload: { phone: '+79990004711', name: 'Гость', type: 'permanent' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const caused = (await h.commands(barrier.id)).filter((command) => command.requestId === id);
    expect(caused.map((command) => command.kind)).toEqual(['add']);
    // Commands stored outside a request (the scene's set-up went through requests too: each has its own id).
    expect((await h.commands(barrier.id)).every((command) => command.requestId !== null)).toBe(true);
    await h.run(barrier.id);
    const sent = lines.filter(
      (line) => line.msg === 'device command sent' && line.commandId === caused[0]?.id,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.requestId).toBe(id);
  });
});
