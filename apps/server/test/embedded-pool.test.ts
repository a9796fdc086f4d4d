/**
 * The embedded databases a test worker keeps between apps (embedded-pool.ts): the next app finds the template's
 * state, never the last app's rows, ids, session or schema. On PostgreSQL every app has a database of its own.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createUser } from './factories.ts';
import { createTestApp, usesPostgres } from './test-app.ts';

describe.skipIf(usesPostgres)('an embedded database handed to the next app', () => {
  it('has no rows of the last app, its ids start again, and its session is new', async () => {
    const first = await createTestApp();
    const firstDatabase = first.handle.kind === 'pglite' ? first.handle.pglite : undefined;
    await createUser(first, { fullName: 'Первый' });
    await createUser(first, { fullName: 'Второй' });
    await first.handle.db.execute(sql`set statement_timeout = 1234`);
    await first.handle.db.execute(sql`begin`);
    await first.close();

    const second = await createTestApp();
    try {
      // The same database, reset (the point of the pool), with a drizzle instance of its own.
      expect(second.handle.kind === 'pglite' && second.handle.pglite).toBe(firstDatabase);
      expect(second.handle.db).not.toBe(first.handle.db);
      expect(await second.handle.db.select().from(users)).toEqual([]);
      const user = await createUser(second, { fullName: 'Снова первый' });
      expect(user.id).toBe(1);
      const setting = await second.handle.db.execute(sql`show statement_timeout`);
      expect(
        (setting as unknown as { rows: { statement_timeout: string }[] }).rows[0]?.statement_timeout,
      ).toBe('0');
    } finally {
      await second.close();
    }
  });

  it('is not handed on when a test changed its shape: the next app gets a fresh one', async () => {
    const first = await createTestApp();
    const firstDatabase = first.handle.kind === 'pglite' ? first.handle.pglite : undefined;
    await first.handle.db.execute(sql`create schema scratch`);
    await first.handle.db.execute(sql`create table scratch.kept (id int)`);
    await first.close();

    const second = await createTestApp();
    try {
      expect(second.handle.kind === 'pglite' && second.handle.pglite).not.toBe(firstDatabase);
      expect(firstDatabase?.closed).toBe(true);
      const schemas = await second.handle.db.execute(
        sql`select count(*)::int as count from pg_namespace where nspname = 'scratch'`,
      );
      expect((schemas as unknown as { rows: { count: number }[] }).rows[0]?.count).toBe(0);
    } finally {
      await second.close();
    }
  });
});
