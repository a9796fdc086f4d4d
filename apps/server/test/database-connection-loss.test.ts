/**
 * PostgreSQL restarting (or an operator terminating a backend) while a connection is checked out of the pool,
 * between two queries of a transaction, must not end the process: the pool discards that connection and the
 * next request gets a fresh one. Found by `npm run bench:resilience` (pg_ctl restart under load). Needs
 * PostgreSQL (DATABASE_URL); the embedded database has no connections to lose.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { namedStatementsInTests, usesPostgres } from './test-app.ts';

describe.skipIf(!usesPostgres)('a PostgreSQL connection lost while checked out', () => {
  it('neither raises an unhandled error nor breaks the pool', async () => {
    const handle = await openDatabase({
      databaseUrl: process.env.DATABASE_URL,
      dataDir: '.',
      poolSize: 2,
      preparedStatements: namedStatementsInTests,
    });
    if (handle.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const unhandled: unknown[] = [];
    const onUncaught = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const client = await handle.pool.connect();
      // Inside a transaction, as in the app: through PgBouncer in transaction mode (CI) only a transaction holds
      // one server connection between two queries.
      await client.query('begin');
      const backend = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const killer = new pg.Client({
        connectionString: process.env.DATABASE_ADMIN_URL ?? process.env.DATABASE_URL,
      });
      await killer.connect();
      await killer.query('select pg_terminate_backend($1)', [backend.rows[0]?.pid]);
      await killer.end();
      // The FATAL message arrives while the client sits checked out with no query running.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(client.query('select 1')).rejects.toThrow();
      client.release();
      const again = await handle.pool.query<{ one: number }>('select 1 as one');
      expect(again.rows[0]?.one).toBe(1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await handle.close();
    }
  });
});
