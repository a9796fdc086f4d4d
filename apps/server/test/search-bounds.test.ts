/**
 * Issue 29 part 8: an address search has at most 8 words (a clear 400), word order does not matter, a user's
 * searches that reach the database are limited per minute (429), and a search's query that runs past its
 * statement_timeout answers 503 `search_timeout`, never a 500.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listPublicBarriers, PublicBarrierSearch } from '../src/modules/barriers/public-search.ts';
import { SEARCHES_PER_MINUTE } from '../src/modules/barriers/search-bounds.ts';
import { addressSearchKey } from '../src/modules/barriers/search-key.ts';
import { createBarrier } from './domain-factories.ts';
import { createAdmin, createUser } from './factories.ts';
import { usesPostgres, useTestApp } from './test-app.ts';

describe('address search bounds', () => {
  const t = useTestApp();

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

  it('keys the search cache by the words as the database reads them, deduplicated and sorted', () => {
    const key = addressSearchKey('Москва, ул. Берёзовая 12');
    expect(key).toBe('12* березовая* москва* ул');
    for (const same of [
      '12 берёзовая  МОСКВА москва ул ул',
      'ул берёзовая Москва 12 12',
      'ул 12березовая москва',
    ]) {
      expect(addressSearchKey(same)).toBe(key);
    }
    // What the database answers differently is never one entry: a last abbreviation is a prefix there.
    expect(addressSearchKey('москва ул')).toBe('москва* ул*');
    expect(addressSearchKey('ул москва')).toBe('москва* ул');
    expect(addressSearchKey('пр-кт мира')).toBe('мира* проспект');
    expect(addressSearchKey('пр кт мира')).toBe('кт* мира* пр');
  });

  it('gives the key the query the database builds (barrier_search_query), word for word', async () => {
    const inputs = [
      'Москва, ул. Берёзовая 12',
      'ул 12березовая москва москва',
      'москва ул',
      'г. Москва, пр-кт Мира, д. 5к2',
      'мкр-н Северный д 1 кв',
      'б-р Рокоссовского, р-н, пр-д Шокальского',
      'ДОМ дом д',
    ];
    for (const input of inputs) {
      const result = (await t.deps.db.execute(
        sql`select barrier_search_query(${input})::text as query`,
      )) as unknown as { rows: { query: string }[] };
      const tokens = (result.rows[0]?.query ?? '')
        .split(' & ')
        .map((token) =>
          token.replace(/^'(.*)'(:\*)?$/, (_, word: string, prefix?: string) => (prefix ? `${word}*` : word)),
        );
      const exact = new Set(tokens.filter((token) => !token.endsWith('*')));
      const expected = [...new Set(tokens)].filter(
        (token) => !(token.endsWith('*') && exact.has(token.slice(0, -1))),
      );
      expect(addressSearchKey(input), input).toBe(expected.sort().join(' '));
    }
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
    // Its words repeated and reordered are the same entry too (the key: normalised words, deduplicated, sorted).
    const repeated = await search(user.token, `лимитная, ${SEARCHES_PER_MINUTE - 1} ЛИМИТНАЯ лимитная`);
    expect(repeated.statusCode, repeated.body).toBe(200);
    const refused = await search(user.token, 'лимитная новая');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'too_many_searches', retry_after: 60 });
    expect((await search(other.token, 'лимитная новая')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await search(user.token, 'лимитная другая')).statusCode).toBe(200);
  });

  it('counts a search once however many of the same user’s requests miss the cache together', async () => {
    const user = await createUser(t);
    for (let index = 0; index < SEARCHES_PER_MINUTE - 1; index += 1)
      expect((await search(user.token, `вместе ${index}`)).statusCode).toBe(200);
    // One search of his budget is left: twenty requests of one new search arriving at once spend it once.
    const together = await Promise.all(Array.from({ length: 20 }, () => search(user.token, 'вместе новая')));
    expect(together.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    // Its answer stays cached, and the next new search is over the limit.
    t.clock.advance(1_000);
    expect((await search(user.token, 'новая вместе')).statusCode).toBe(200);
    expect((await search(user.token, 'вместе другая')).statusCode).toBe(429);
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
      const search = new PublicBarrierSearch(t.deps, { searchStatementTimeout: '200ms' });
      // Another transaction holds the barriers table: the search waits on it until its timeout cancels it.
      const held = await t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`lock table barriers in access exclusive mode`);
        const started = Date.now();
        const failure = await listPublicBarriers(t.deps, search, profile, {
          page: 1,
          page_size: 10,
          address: 'долгая',
        }).then(
          () => undefined,
          (error: unknown) => error,
        );
        return { failure, waited: Date.now() - started };
      });
      expect(held.failure).toMatchObject({ statusCode: 503, code: 'search_timeout' });
      expect(held.waited).toBeLessThan(2000);
      // Without the lock the same service searches again.
      const page = await listPublicBarriers(t.deps, search, profile, {
        page: 1,
        page_size: 10,
        address: 'долгая',
      });
      expect(page.total_count).toBe(0);
    },
  );
});
