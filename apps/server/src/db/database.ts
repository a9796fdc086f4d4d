/**
 * One database handle for the whole process: PostgreSQL through `pg` when DATABASE_URL is set, otherwise an
 * embedded PostgreSQL (PGlite) kept in DATA_DIR. Both speak the same SQL and take the same migrations.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { useNamedStatements } from './prepared.ts';
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

/** Connections of the send pool (PostgreSQL; opened when first used), unless DATABASE_SEND_POOL_SIZE says otherwise. */
const SEND_POOL_SIZE = 4;

/** The connections of the device worker's sends (Dependencies.sendDb): PostgreSQL's second pool, else none. */
export const sendDbOf = (handle: DatabaseHandle): Database | undefined =>
  handle.kind === 'postgres' ? handle.sendDb : undefined;

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
  sendPoolSize?: number;
  /**
   * Named prepared statements (db/prepared.ts); false behind PgBouncer in transaction mode. Required: the
   * choice is the process's (every handle's statements follow the last one opened), so a handle opened
   * without saying would turn names back on for the others (a second pool in a test once did, behind PgBouncer).
   */
  preparedStatements: boolean;
}): Promise<DatabaseHandle> {
  const named = options.preparedStatements;
  useNamedStatements(named);
  if (options.databaseUrl) {
    const settings = named ? NAMED_STATEMENT_SETTINGS : undefined;
    const pool = openPool(options.databaseUrl, options.poolSize ?? 20, settings);
    const sendPool = openPool(options.databaseUrl, options.sendPoolSize ?? SEND_POOL_SIZE, settings);
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
  return embeddedHandle(pglite);
}

/**
 * The settings of a connection that runs named statements (DATABASE_PREPARED_STATEMENTS=on: PostgreSQL
 * directly), set once when it opens (docs/decisions/0027, session of 2026-11-26):
 * - `plan_cache_mode = force_generic_plan`: a named statement is planned once per connection. Under `auto`
 *   PostgreSQL never adopts the generic plan of a page query (it estimates `LIMIT $n OFFSET $m` as 10 % of
 *   the table each, so the generic cost is thousands of times the custom one) and plans the public list's page
 *   again at every call: ~0.2 ms of PostgreSQL CPU per request, as much as the rest of the request.
 * - `jit = off`: that same inflated estimate (228,909 for a 5-row page) passes jit_above_cost (100,000), and
 *   a generic plan is then JIT-compiled at every execution: 31–83 ms for a query that runs in 0.2 ms. This,
 *   not the generic plan, was the public list's regression. The app has no query that JIT would speed up.
 * Behind PgBouncer in transaction mode (named statements off) nothing is set: a session setting would land
 * on whichever server connection carried it, and an unnamed statement is planned with its values anyway.
 */
const NAMED_STATEMENT_SETTINGS = 'set plan_cache_mode = force_generic_plan; set jit = off';
const noop = () => {};

function openPool(connectionString: string, max: number, settings: string | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    // No `options` startup parameter: PgBouncer refuses it (the settings above are a query instead), run
    // before the pool hands the new connection out. A server that refuses one (PostgreSQL older than 12)
    // keeps its defaults: slower plans, same results.
    ...(settings ? { onConnect: (client: pg.ClientBase) => client.query(settings).then(noop, noop) } : {}),
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

/** An in-memory embedded database, for tests; optionally loaded from a `dumpDataDir` tarball. */
export async function openMemoryDatabase(template?: Blob): Promise<DatabaseHandle> {
  const pglite = await PGlite.create({
    extensions: { pg_trgm },
    ...(template ? { loadDataDir: template } : {}),
  });
  return embeddedHandle(pglite);
}

/**
 * A handle on an open embedded database, with a drizzle instance of its own: what is cached per database handle
 * (the send batcher, the gateway buckets written) is keyed by that instance.
 */
export function embeddedHandle(pglite: PGlite): DatabaseHandle {
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  return { kind: 'pglite', db, pglite, close: () => pglite.close() };
}

/** Key of the transaction-level advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 727274;

/**
 * Applies the pending migrations. On PostgreSQL several processes may start at once (or `npm run migrate`
 * beside a starting server): each runs the whole check-and-apply in one transaction that first takes a
 * transaction-level advisory lock, so one applies and the others wait, then find nothing left to do. A
 * transaction-level lock (not a session lock) ends with its transaction on the same server connection, so it
 * holds through PgBouncer in transaction mode (docs/decisions/0027). The bookkeeping is drizzle's own
 * (`drizzle.__drizzle_migrations`, one row per migration, its folder time as `created_at`), as its migrator
 * keeps it, so databases migrated before stay as they are.
 */
export async function applyMigrations(handle: DatabaseHandle): Promise<{ applied: number }> {
  if (handle.kind === 'pglite') {
    // One process holds DATA_DIR (its lock): nothing to serialise.
    const pending = (await pendingMigrations(handle)).length;
    // biome-ignore lint/suspicious/noExplicitAny: the pglite migrator wants its own database type
    await migratePglite(handle.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
    return { applied: pending };
  }
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const client = await handle.pool.connect();
  let applied = 0;
  try {
    await client.query('begin');
    await client.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query('create schema if not exists drizzle');
    await client.query(
      'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    const last = await client.query<{ created_at: string }>(
      'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
    );
    const lastMillis = last.rows[0] ? Number(last.rows[0].created_at) : Number.NEGATIVE_INFINITY;
    for (const migration of migrations) {
      if (migration.folderMillis <= lastMillis) continue;
      for (const statement of migration.sql) await client.query(statement);
      await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
        migration.hash,
        migration.folderMillis,
      ]);
      applied += 1;
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { applied };
}

/** The migrations of this version not yet applied to the database (names of their files), oldest first. */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const exists = (await handle.db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  )) as unknown as { rows: { present: boolean }[] };
  let lastMillis = Number.NEGATIVE_INFINITY;
  if (exists.rows[0]?.present) {
    const last = (await handle.db.execute(
      sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { last: string | null }[] };
    if (last.rows[0]?.last != null) lastMillis = Number(last.rows[0].last);
  }
  return migrations
    .filter((migration) => migration.folderMillis > lastMillis)
    .map((migration) => journal.entries.find((entry) => entry.when === migration.folderMillis)?.tag ?? '?');
}
