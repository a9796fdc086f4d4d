/**
 * One database handle for the whole process: PostgreSQL through `pg` when DATABASE_URL is set, otherwise an
 * embedded PostgreSQL (PGlite) kept in DATA_DIR. Both speak the same SQL and take the same migrations.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either this or the database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');

export type DatabaseHandle =
  | {
      kind: 'postgres';
      db: Database;
      pool: pg.Pool;
      /** A second, small pool for the device worker's sending transactions (Dependencies.sendDb). */
      sendDb: Database;
      close: () => Promise<void>;
    }
  | { kind: 'pglite'; db: Database; pglite: PGlite; close: () => Promise<void> };

export class DatabaseLockedError extends Error {}

/** Connections of the send pool (PostgreSQL; opened when first used). */
const SEND_POOL_SIZE = 4;

/** The connections of the device worker's sends (Dependencies.sendDb): PostgreSQL's second pool, else none. */
export const sendDbOf = (handle: DatabaseHandle): Database | undefined =>
  handle.kind === 'postgres' ? handle.sendDb : undefined;

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = openPool(options.databaseUrl, options.poolSize ?? 20);
    const sendPool = openPool(options.databaseUrl, SEND_POOL_SIZE);
    const db = drizzlePostgres(pool, { schema }) as unknown as Database;
    const sendDb = drizzlePostgres(sendPool, { schema }) as unknown as Database;
    return {
      kind: 'postgres',
      db,
      pool,
      sendDb,
      close: async () => {
        await Promise.all([pool.end(), sendPool.end()]);
      },
    };
  }
  const directory = path.join(options.dataDir, 'pglite');
  mkdirSync(directory, { recursive: true });
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir: directory, extensions: { pg_trgm } });
  } catch (error) {
    throw new DatabaseLockedError(
      `Cannot open the embedded database in ${directory}: ${(error as Error).message}. ` +
        'Is another Propusk process (server or CLI) using this DATA_DIR?',
    );
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return { kind: 'pglite', db, pglite, close: () => pglite.close() };
}

/** An in-memory embedded database, for tests; optionally loaded from a `dumpDataDir` tarball. */
function openPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    // The named statements of db/prepared.ts are written for one plan whatever the values. Left to its
    // heuristic, PostgreSQL keeps re-planning a statement whose generic plan it costs above the custom
    // one, which is every paged list (`limit $n` is costed as a tenth of the table): ~0.2 ms of planning
    // for ~0.06 ms of execution on every request. Unnamed statements (all others) are planned per call
    // whatever this says. An `options` in DATABASE_URL replaces this one.
    options: '-c plan_cache_mode=force_generic_plan',
  });
  // A dropped idle connection must not take the process down; the pool replaces it.
  pool.on('error', () => {});
  // Nor a connection dropped while checked out (PostgreSQL restarted between two queries of a
  // transaction): pg-pool listens for errors only on idle clients, and an 'error' event without a listener
  // ends the process. The query in progress fails on its own; the pool discards the broken client when it
  // is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

export async function openMemoryDatabase(template?: Blob): Promise<DatabaseHandle> {
  const pglite = await PGlite.create({
    extensions: { pg_trgm },
    ...(template ? { loadDataDir: template } : {}),
  });
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return { kind: 'pglite', db, pglite, close: () => pglite.close() };
}

export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgres') {
    // Several processes may start at once: one applies, the others wait on the advisory lock.
    const client = await handle.pool.connect();
    try {
      await client.query('select pg_advisory_lock(727274)');
      await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
    return;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the pglite migrator wants its own database type
  await migratePglite(handle.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
}
