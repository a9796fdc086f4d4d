/**
 * The busiest reads check the caller's session in their own statement (issue 44 part 5, db/session-guard.ts,
 * docs/decisions/0040). What a caller observes must not change: for every way a session ends (revoked,
 * expired, account deleted or blocked; for an administrator also his role taken and a password change owed),
 * each such read answers exactly what a route with the separate session check answers for the same token,
 * and never its page, though the page has rows. A live session's read is one statement fewer.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  type TestBarrier,
} from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

interface GuardedRead {
  who: 'resident' | 'admin';
  url: (barrierId: number) => string;
  /** The list of the answer, which must have rows before the session ends. */
  list: string;
}

const READS: GuardedRead[] = [
  { who: 'resident', url: () => '/api/barriers/', list: 'barriers' },
  { who: 'resident', url: () => '/api/barriers/my/', list: 'barriers' },
  { who: 'resident', url: (id) => `/api/barriers/${id}/actions/`, list: 'actions' },
  { who: 'resident', url: (id) => `/api/barriers/${id}/phones/my/`, list: 'phones' },
  { who: 'admin', url: () => '/api/admin/barriers/my/', list: 'barriers' },
  { who: 'admin', url: (id) => `/api/admin/barriers/${id}/actions/`, list: 'actions' },
  { who: 'admin', url: (id) => `/api/admin/barriers/${id}/users/`, list: 'users' },
  { who: 'admin', url: (id) => `/api/admin/barriers/${id}/phones/my/`, list: 'phones' },
];

/** Ways a session stops being good, each done straight in the database as another process would. */
const ENDINGS: { name: string; admin?: true; end: (t: TestApp, userId: number) => Promise<unknown> }[] = [
  {
    name: 'the session revoked',
    end: (t, id) => t.deps.db.execute(sql`update sessions set revoked_at = now() where user_id = ${id}`),
  },
  {
    name: 'the session expired',
    end: (t, id) => {
      // By the app's clock (the tests' manual one), which both checks compare with.
      const past = new Date(t.clock.now().getTime() - 60_000).toISOString();
      return t.deps.db.execute(sql`update sessions set expires_at = ${past} where user_id = ${id}`);
    },
  },
  {
    name: 'the account deleted',
    end: (t, id) => t.deps.db.execute(sql`update users set deleted_at = now() where id = ${id}`),
  },
  {
    name: 'the account blocked',
    end: (t, id) => t.deps.db.execute(sql`update users set is_active = false where id = ${id}`),
  },
  {
    name: 'his administrator role taken',
    admin: true,
    end: (t, id) => t.deps.db.execute(sql`update users set role = 'user' where id = ${id}`),
  },
  {
    name: 'a password change owed',
    admin: true,
    end: (t, id) => t.deps.db.execute(sql`update users set password_change_required = true where id = ${id}`),
  },
];

/** A public barrier with history: its owner, a resident with access who added a number. */
async function world(t: TestApp): Promise<{ barrier: TestBarrier; owner: TestUser; resident: TestUser }> {
  const { owner, barrier } = await createOwnerWithBarrier(t, { is_public: true });
  const resident = await createUserWithAccess(t, barrier, 'Житель');
  const added = await addPhone(t, resident, barrier.id);
  expect(added.statusCode, added.body).toBe(201);
  return { barrier, owner, resident };
}

/** Statements the app sends to its database while `run` runs. */
async function countStatements(t: TestApp, run: () => Promise<unknown>): Promise<number> {
  const target = (t.handle.kind === 'pglite' ? t.handle.pglite : t.handle.pool) as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const original = target.query;
  let statements = 0;
  target.query = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    target.query = original;
  }
  return statements;
}

describe('reads that check the session in their own statement', () => {
  const t = useTestApp();

  for (const read of READS) {
    for (const ending of ENDINGS.filter((one) => !one.admin || read.who === 'admin')) {
      it(`${read.url(0).replace('/0/', '/{id}/')} with ${ending.name}: the same answer as a separate check, never the page`, async () => {
        const { barrier, owner, resident } = await world(t);
        const caller = read.who === 'admin' ? owner : resident;
        const url = read.url(barrier.id);
        const before = await t.request({ method: 'GET', url, token: caller.token });
        expect(before.statusCode, before.body).toBe(200);
        expect(before.json()[read.list].length).toBeGreaterThan(0);

        await ending.end(t, caller.id);
        // A route that checks the session on its own first (an administrator's: his role too).
        const classicUrl = read.who === 'admin' ? `/api/admin/barriers/${barrier.id}/` : '/api/users/me/';
        const classic = await t.request({ method: 'GET', url: classicUrl, token: caller.token });
        expect([401, 403]).toContain(classic.statusCode);
        const guarded = await t.request({ method: 'GET', url, token: caller.token });
        expect({ status: guarded.statusCode, body: guarded.json() }).toEqual({
          status: classic.statusCode,
          body: classic.json(),
        });
      });
    }
  }

  it('answers a live session in one statement fewer than the session check and the page', async () => {
    const { barrier, owner, resident } = await world(t);
    for (const read of READS) {
      const caller = read.who === 'admin' ? owner : resident;
      const url = read.url(barrier.id);
      let answer = await t.request({ method: 'GET', url, token: caller.token });
      const statements = await countStatements(t, async () => {
        answer = await t.request({ method: 'GET', url, token: caller.token });
      });
      expect(answer.statusCode, answer.body).toBe(200);
      // The administrator's list reads the page's device states in a second statement.
      expect({ url, statements }).toEqual({ url, statements: url === '/api/admin/barriers/my/' ? 2 : 1 });
    }
  });

  it('settles an empty page with the separate check: a live session gets its empty list', async () => {
    const newcomer = await createAdmin(t);
    const mine = await t.request({ method: 'GET', url: '/api/admin/barriers/my/', token: newcomer.token });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ barriers: [], total_count: 0 });
  });
});

describe('a read that forgets to settle its session', () => {
  let forgot: TestApp['app'] | undefined;
  const t = useTestApp();

  beforeAll(async () => {
    const app = (await import('fastify')).default({ logger: false });
    const { authenticatePlugin, sessionInRead } = await import('../src/plugins/authenticate.ts');
    await app.register(authenticatePlugin, { deps: t.deps });
    app.get('/forgot', { preHandler: app.authenticateInRead }, async (request) => ({
      user: sessionInRead(request).userId,
    }));
    await app.ready();
    forgot = app;
  });

  it('answers 500, never what it read', async () => {
    const { owner } = await createOwnerWithBarrier(t);
    const response = await forgot?.inject({
      method: 'GET',
      url: '/forgot',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response?.statusCode).toBe(500);
    expect(response?.body).not.toContain(String(owner.id));
    await forgot?.close();
  });
});
