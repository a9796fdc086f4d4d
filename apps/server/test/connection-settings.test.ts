/**
 * The settings a connection of named statements starts with (db/database.ts, docs/decisions/0027): planned
 * once per connection (force_generic_plan) and never JIT-compiled. Without them the public list's page was
 * planned again at every request, and its generic plan was JIT-compiled at every execution (31–83 ms instead
 * of 0.2 ms, issue 31 part 9). Behind PgBouncer (named statements off) the connection is left as it comes.
 * Needs PostgreSQL; opened directly (DATABASE_ADMIN_URL in CI's PgBouncer pass), as named statements are.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { usesPostgres } from './test-app.ts';

const directUrl = () => process.env.DATABASE_ADMIN_URL ?? process.env.DATABASE_URL ?? '';

async function settingsOf(query: (text: string) => Promise<{ rows: { value: string }[] }>) {
  const read = async (name: string) =>
    (await query(`select current_setting('${name}') as value`)).rows[0]?.value;
  return { planCacheMode: await read('plan_cache_mode'), jit: await read('jit') };
}

async function serverDefaults() {
  const client = new pg.Client({ connectionString: directUrl() });
  await client.connect();
  try {
    return await settingsOf((text) => client.query(text));
  } finally {
    await client.end();
  }
}

async function withHandle(preparedStatements: boolean, use: (handle: DatabaseHandle) => Promise<void>) {
  const handle = await openDatabase({
    databaseUrl: directUrl(),
    dataDir: '.',
    poolSize: 2,
    preparedStatements,
  });
  try {
    await use(handle);
  } finally {
    await handle.close();
  }
}

describe.skipIf(!usesPostgres)('connection settings', () => {
  it('named statements: every connection, from its first query, plans once and never JIT-compiles', async () => {
    await withHandle(true, async (handle) => {
      if (handle.kind !== 'postgres') throw new Error('expected PostgreSQL');
      // The very first query of a fresh connection already sees them (queued before it).
      expect(await settingsOf((text) => handle.pool.query(text))).toEqual({
        planCacheMode: 'force_generic_plan',
        jit: 'off',
      });
      // Both connections of the pool, checked out at once, and the device worker's pool.
      const clients = await Promise.all([handle.pool.connect(), handle.pool.connect()]);
      for (const client of clients) {
        expect(await settingsOf((text) => client.query(text))).toEqual({
          planCacheMode: 'force_generic_plan',
          jit: 'off',
        });
        client.release();
      }
      const send = (await handle.sendDb.execute(sql`select current_setting('jit') as value`)) as unknown as {
        rows: { value: string }[];
      };
      expect(send.rows[0]?.value).toBe('off');
    });
  });

  it('unnamed statements (PgBouncer): the connection keeps the server defaults', async () => {
    const defaults = await serverDefaults();
    await withHandle(false, async (handle) => {
      if (handle.kind !== 'postgres') throw new Error('expected PostgreSQL');
      expect(await settingsOf((text) => handle.pool.query(text))).toEqual(defaults);
    });
  });
});
