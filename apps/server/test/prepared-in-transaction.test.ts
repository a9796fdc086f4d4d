/**
 * A statement built once for a database runs on a transaction's own connection (db/prepared.ts): what a
 * transaction wrote and has not committed is what its statement reads; another connection does not see it;
 * the query is built once however many transactions run it.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { preparedStatement } from '../src/db/prepared.ts';
import { rateLimitHits } from '../src/db/schema.ts';
import { useTestApp } from './test-app.ts';

describe('a prepared statement in a transaction', () => {
  const t = useTestApp();

  it("reads the transaction's own uncommitted rows, is built once, and the database's stays on the pool", async () => {
    const { db } = t.deps;
    let builds = 0;
    const countKey = (executor: typeof db) =>
      preparedStatement(executor, 'test.prepared-in-transaction', () => {
        builds += 1;
        return executor
          .select({ hits: sql<number>`count(*)::int` })
          .from(rateLimitHits)
          .where(eq(rateLimitHits.key, sql.placeholder('key')));
      });
    const hits = async (executor: typeof db, key: string) =>
      (await countKey(executor).execute({ key }))[0]?.hits;

    expect(await hits(db, 'prepared-a')).toBe(0);
    for (const key of ['prepared-a', 'prepared-b', 'prepared-c']) {
      let inside: number | undefined;
      await db
        .transaction(async (tx) => {
          await tx.insert(rateLimitHits).values([
            { bucket: 'test', key, at: new Date() },
            { bucket: 'test', key, at: new Date() },
          ]);
          inside = await hits(tx as unknown as typeof db, key);
          tx.rollback();
        })
        .catch(() => {});
      // The transaction's statement saw its two rows; rolled back, the database's sees none of them.
      expect(inside).toBe(2);
      expect(await hits(db, key)).toBe(0);
    }
    // The same through a committed transaction, reading its rows before the commit.
    const inside = await db.transaction(async (tx) => {
      await tx.insert(rateLimitHits).values({ bucket: 'test', key: 'prepared-d', at: new Date() });
      return hits(tx as unknown as typeof db, 'prepared-d');
    });
    expect(inside).toBe(1);
    expect(await hits(db, 'prepared-d')).toBe(1);
    expect(builds).toBe(1);
  });
});
