/**
 * Issue 29 part 8: an address search has at most 8 words (a clear 400), word order does not matter, a user's
 * searches that reach the database are limited per minute (429), and a search's query that runs past its
 * statement_timeout answers 503 `search_timeout`, never a 500.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCHES_PER_MINUTE } from '../src/modules/barriers/search-bounds.ts';
import { createBarrierService } from '../src/modules/barriers/service.ts';
import { createBarrier } from './domain-factories.ts';
import { createAdmin, createUser } from './factories.ts';
import { createTestApp, type TestApp, usesPostgres } from './test-app.ts';

describe('address search bounds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const search = (token: string, address: string) =>
    t.request({ method: 'GET', url: `/api/barriers/?address=${encodeURIComponent(address)}`, token });

  it('refuses more than 8 words with a clear 400 and finds the same barriers in any word order', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner, { address: 'г Москва, ул Берёзовая, д 12' });
    const user = await createUser(t);
    const nine = await search(user.token, 'а б в г д е ж з и');
    expect(nine.statusCode).toBe(400);
    expect(nine.json()).toEqual({ address: ['Enter at most 8 words.'] });
    const forward = await search(user.token, 'Москва Берёзовая 12');
    const backward = await search(user.token, '12 берёзовая москва');
    expect(forward.statusCode).toBe(200);
    expect(forward.json().barriers.map((item: { id: number }) => item.id)).toContain(barrier.id);
    expect(backward.json().barriers.map((item: { id: number }) => item.id)).toEqual(
      forward.json().barriers.map((item: { id: number }) => item.id),
    );
  });

  it('limits the searches of one user that reach the database; cached searches and other users go on', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    for (let index = 0; index < SEARCHES_PER_MINUTE; index += 1) {
      const answer = await search(user.token, `лимитная ${index}`);
      expect(answer.statusCode).toBe(200);
    }
    // The last search is still in the few-seconds cache: answering it costs the database nothing.
    expect((await search(user.token, `${SEARCHES_PER_MINUTE - 1} Лимитная`)).statusCode).toBe(200);
    const refused = await search(user.token, 'лимитная новая');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'too_many_searches', retry_after: 60 });
    expect((await search(other.token, 'лимитная новая')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await search(user.token, 'лимитная другая')).statusCode).toBe(200);
  });

  // The embedded PGlite never cancels a statement (it ignores statement_timeout); PostgreSQL does.
  it.skipIf(!usesPostgres)(
    'answers 503 search_timeout when the search runs past its statement_timeout',
    async () => {
      const user = await createUser(t);
      const profile = {
        id: user.id,
        sessionId: 'test',
        role: 'user' as const,
        phone: user.phone,
        fullName: null,
        phonePrivacy: 'public' as const,
        passwordChangeRequired: false,
        consentedToCurrentPolicy: true,
      };
      const service = createBarrierService(t.deps, { searchStatementTimeout: '200ms' });
      // Another transaction holds the barriers table: the search waits on it until its timeout cancels it.
      const held = await t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`lock table barriers in access exclusive mode`);
        const started = Date.now();
        const failure = await service.listPublic(profile, { page: 1, page_size: 10, address: 'долгая' }).then(
          () => undefined,
          (error: unknown) => error,
        );
        return { failure, waited: Date.now() - started };
      });
      expect(held.failure).toMatchObject({ statusCode: 503, code: 'search_timeout' });
      expect(held.waited).toBeLessThan(2000);
      // Without the lock the same service searches again.
      const page = await service.listPublic(profile, { page: 1, page_size: 10, address: 'долгая' });
      expect(page.total_count).toBe(0);
    },
  );
});
