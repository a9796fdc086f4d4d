/**
 * A 500's log line carries the error and the route, never the SQL parameters of a failed query nor the
 * query string of the request (issue 17, part 6): a failed statement's parameters hold names, phone numbers
 * and device-password ciphertext.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorForLog } from '../src/lib/log-error.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { captureLog } from './log-capture.ts';
import { type TestApp, useTestApp } from './test-app.ts';

const SECRET_PARAMETER = 'Секретов Секрет +79990001122 ciphertext-0xDEADBEEF';
const SECRET_QUERY = 'searched-address-7f3a';

describe('the log of a 500', () => {
  let admin: TestUser;
  const log = captureLog<{ msg: string; reqId: string; err: Record<string, unknown> }>();
  let failedQuery: unknown;

  const t = useTestApp({ logger: createLogger('info', log.destination) });
  beforeAll(async () => {
    admin = await createAdmin(t);
    // A real failed statement of the app's database, with the secret among its parameters.
    try {
      await t.deps.db.execute(sql`select ${SECRET_PARAMETER}::text as name, 1 / 0 as broken`);
    } catch (error) {
      failedQuery = error;
    }
  });

  it('has a failed query that carries its parameters (what must not be logged)', () => {
    expect(failedQuery).toBeInstanceOf(Error);
    expect((failedQuery as { params?: unknown[] }).params).toContain(SECRET_PARAMETER);
    expect(String((failedQuery as Error).message)).toContain(SECRET_PARAMETER);
  });

  it('logs the error and the route, without the parameters or the query string', async () => {
    const db = t.deps.db as unknown as { select: (...args: unknown[]) => unknown };
    const select = db.select;
    db.select = () => {
      throw failedQuery;
    };
    log.clear();
    let response: Awaited<ReturnType<TestApp['request']>>;
    try {
      response = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/my/?address=${SECRET_QUERY}`,
        token: admin.token,
      });
    } finally {
      db.select = select;
    }
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: expect.any(String), code: 'internal_error' });
    expect(response.body).not.toContain(SECRET_PARAMETER);

    const written = log.lines.join('\n');
    expect(written).not.toContain(SECRET_PARAMETER);
    expect(written).not.toContain('+79990001122');
    expect(written).not.toContain(SECRET_QUERY);
    expect(written).not.toContain('address=');

    const fault = log.entries.find((line) => line.msg === 'unhandled error');
    expect(fault).toMatchObject({
      level: 50,
      reqId: expect.any(String),
      method: 'GET',
      route: '/api/admin/barriers/my/',
      url: '/api/admin/barriers/my/',
      err: {
        message: expect.stringContaining('Failed query: select'),
        stack: expect.stringContaining('Failed query: select'),
        cause: { message: 'division by zero', code: '22012' },
      },
    });
    expect(fault!.err.params).toBeUndefined();
    expect(fault!.err.query).toBeUndefined();
    const completed = log.entries.find((line) => line.msg === 'request completed');
    expect(completed).toMatchObject({ statusCode: 500, url: '/api/admin/barriers/my/', reqId: fault!.reqId });
  });

  it('keeps only the allowed fields of an error and its causes', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_phone"'), {
      code: '23505',
      constraint: 'users_phone',
      detail: 'Key (phone)=(+79990001122) already exists.',
      where: 'SQL statement with +79990001122',
      parameters: ['+79990001122'],
    });
    const error = Object.assign(new Error('Failed query: insert into users\nparams: +79990001122,Секретов'), {
      params: ['+79990001122', 'Секретов'],
      query: 'insert into users',
      body: { phone: '+79990001122' },
      cause,
    });
    const logged = errorForLog(error);
    expect(JSON.stringify(logged)).not.toContain('+79990001122');
    expect(JSON.stringify(logged)).not.toContain('Секретов');
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'Failed query: insert into users\nparams: [omitted]',
      cause: { code: '23505', constraint: 'users_phone' },
    });
  });
});
