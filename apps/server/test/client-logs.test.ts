import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/lib/rate-limiter.ts';
import { createUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('POST /api/logs/ (client log push)', () => {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];

  const t = useTestApp({
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

  // Issue 40 item 7. Each of these comes from its own address: the limit above is 3 a minute per IP.
  let address = 0;
  const push = (payload: Record<string, unknown>, token?: string) => {
    address += 1;
    return t.request({
      method: 'POST',
      url: '/api/logs/',
      payload,
      token,
      remoteAddress: `10.40.7.${address}`,
    });
  };

  it('takes only a known app, and logs nothing for another', async () => {
    const before = lines.length;
    for (const app of ['mobile', 'web\u001b[31m', 'WEB', `web ${'x'.repeat(40)}`, '']) {
      const response = await push({ level: 'info', app, page: 'add-phone', message: 'hello' });
      expect(response.statusCode, app).toBe(400);
      // A control character is refused before the choice, with its own message.
      expect(response.json().app, app).toEqual([
        /\p{Cc}/u.test(app) ? 'Must not contain control characters.' : 'Invalid choice.',
      ]);
    }
    expect(lines.length).toBe(before);
  });

  it('masks numbers and codes by their digits whatever separates them, and passwords by their name', async () => {
    const before = lines.length;
    const message = [
      'номер +7 (916) 123-45-67',
      'ещё 8 916 123 45 67 и 8-916-765-43-21',
      'код 12 34 56 и 65-43-21',
      'password: hunter2-Secret',
      'пароль Шлагбаум-Лесная',
      '"pwd":"x9y8z7"',
      'шлагбаум 42, слот 7, 2026-11-28',
    ].join('; ');
    expect((await push({ level: 'warn', app: 'web', page: 'add-phone', message })).statusCode).toBe(204);
    const logged = lines.slice(before).map((line) => line.message);
    expect(logged).toHaveLength(1);
    const text = logged[0] ?? '';
    for (const secret of [
      '916',
      '123-45',
      '12 34 56',
      '65-43-21',
      '765',
      'hunter2',
      'Secret',
      'Шлагбаум-Лесная',
      'x9y8z7',
    ])
      expect(text, secret).not.toContain(secret);
    expect(text).toContain('*******4567');
    expect(text).toContain('*******4321');
    expect(text).toContain('код ****** и ******');
    expect(text).toContain('password: [hidden]');
    expect(text).toContain('пароль [hidden]');
    // What support needs stays: small numbers, a date.
    expect(text).toContain('шлагбаум 42, слот 7, 2026-11-28');
  });

  it('logs an anonymous line at most as a warning, and a signed-in one at its level', async () => {
    const before = lines.length;
    const anonymous = await push({ level: 'error', app: 'web', page: 'add-phone', message: 'упало' });
    expect(anonymous.statusCode).toBe(204);
    const badToken = await push(
      { level: 'error', app: 'web', page: 'add-phone', message: 'упало' },
      'not-a-jwt',
    );
    expect(badToken.statusCode).toBe(204);
    const user = await createUser(t);
    const signedIn = await push(
      { level: 'error', app: 'web', page: 'add-phone', message: 'упало' },
      user.token,
    );
    expect(signedIn.statusCode).toBe(204);
    expect(lines.slice(before).map(({ level, fields }) => [level, fields.anonymous, fields.userId])).toEqual([
      ['warn', true, undefined],
      ['warn', true, undefined],
      ['error', undefined, user.id],
    ]);
    expect(lines[before]?.fields.sentLevel).toBe('error');
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
