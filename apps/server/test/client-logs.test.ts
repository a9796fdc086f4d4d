import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/lib/rate-limiter.ts';
import { createTestApp, type TestApp } from './test-app.ts';

describe('POST /api/logs/ (client log push)', () => {
  let t: TestApp;
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      configure: (deps) => {
        deps.rateLimits.logs = new RateLimiter(3, 60_000);
        const record = (level: string) => (fields: Record<string, unknown>, message: string) => {
          lines.push({ level, fields, message });
        };
        deps.logger = Object.assign(Object.create(deps.logger), {
          info: record('info'),
          warn: record('warn'),
          error: record('error'),
          debug: record('debug'),
        });
      },
    });
  });
  afterAll(() => t.close());

  it('writes the entry to the server log and answers 204 without a login', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/logs/',
      payload: { level: 'warn', app: 'web', page: 'add-phone', message: 'Ошибка при сохранении номера.' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(lines).toContainEqual({
      level: 'warn',
      fields: expect.objectContaining({ source: 'client', app: 'web', page: 'add-phone' }),
      message: 'Ошибка при сохранении номера.',
    });
  });

  it('refuses a bad body with field errors', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/logs/',
      payload: { level: 'shout', app: 'web', page: '', message: 'x'.repeat(2001) },
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(expect.arrayContaining(['level', 'page', 'message']));
  });

  it('rate limits per IP with retry_after', async () => {
    let last = await t.request({
      method: 'POST',
      url: '/api/logs/',
      payload: { level: 'info', app: 'web', page: 'add-phone', message: 'one' },
    });
    for (let index = 0; index < 3 && last.statusCode !== 429; index += 1) {
      last = await t.request({
        method: 'POST',
        url: '/api/logs/',
        payload: { level: 'info', app: 'web', page: 'add-phone', message: 'again' },
      });
    }
    expect(last.statusCode).toBe(429);
    expect(last.json().retry_after).toBeGreaterThan(0);
    expect(last.headers['retry-after']).toBeDefined();
  });
});
