/**
 * The embedded databases of one test worker, kept between test files and reset to the template instead of
 * opened anew. Opening PGlite from the migrated template costs about 1.3 CPU-s (a WASM instance and its 128 MB
 * memory, the tarball unpacked, PostgreSQL's start): 150 apps a pass, about a third of the embedded pass's CPU. A reset
 * empties the tables (identities restarted) and ends whatever a file left in the session; a database whose shape
 * is no longer the template's (pg-boss's schema, a test's own DDL) or that was closed is dropped, and the next app
 * gets a fresh one. Files run one after another in a worker (vitest `isolate: false`), so the idle list outlives
 * a file; two apps open at once get two databases.
 */
import type { PGlite } from '@electric-sql/pglite';
import { type DatabaseHandle, embeddedHandle } from '../src/db/database.ts';

type EmbeddedHandle = Extract<DatabaseHandle, { kind: 'pglite' }>;

const idle: EmbeddedHandle[] = [];
let templateShape: string | undefined;

/**
 * Every object outside PostgreSQL's own schemas, each with what a test could change in it: relations and
 * their columns, functions (their source), triggers, constraints, schemas, extensions.
 */
const SHAPE = `
  select md5(coalesce(string_agg(item, ',' order by item), '')) as shape from (
    select 'n:' || nspname as item from pg_namespace
      where nspname not like 'pg\\_%' and nspname <> 'information_schema'
    union all
    select 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
    union all
    select 'a:' || c.oid::regclass::text || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod)
        || ':' || a.attnotnull || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
      from pg_attribute a join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attnum > 0 and not a.attisdropped and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
    union all
    select 'p:' || n.nspname || '.' || p.proname || ':' || md5(coalesce(p.prosrc, '')) from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
    union all
    select 't:' || tgrelid::regclass::text || '.' || tgname || ':' || tgenabled::text from pg_trigger where not tgisinternal
    union all
    select 'k:' || conrelid::regclass::text || '.' || conname || ':' || pg_get_constraintdef(oid) from pg_constraint
      where connamespace in (select oid from pg_namespace where nspname not like 'pg\\_%')
    union all
    select 'e:' || extname || ':' || extversion from pg_extension
  ) items`;

async function shapeOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ shape: string }>(SHAPE);
  return rows[0]?.shape ?? '';
}

/** Back to the template's state, or false when it cannot be (then the database is closed by the caller). */
async function reset(handle: EmbeddedHandle): Promise<boolean> {
  const { pglite } = handle;
  if (pglite.closed) return false;
  try {
    // A transaction a failed test left open, session settings, advisory locks, prepared statements.
    await pglite.exec('rollback');
    await pglite.exec('discard all');
    if ((await shapeOf(pglite)) !== templateShape) return false;
    const { rows } = await pglite.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
    );
    if (rows.length > 0) {
      await pglite.exec(`truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade`);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * A migrated embedded database: one this worker used before and reset, or a new one (`open`: from the template,
 * migrated). Its `close` hands it back for the next app.
 */
export async function leaseEmbeddedDatabase(open: () => Promise<DatabaseHandle>): Promise<DatabaseHandle> {
  for (let handle = idle.pop(); handle; handle = idle.pop()) {
    if (await reset(handle)) return leased(handle);
    if (!handle.pglite.closed) await handle.pglite.close().catch(() => {});
  }
  const handle = await open();
  if (handle.kind !== 'pglite') return handle;
  templateShape ??= await shapeOf(handle.pglite);
  return leased(handle);
}

/** A handle for one app: a drizzle instance of its own (caches keyed by it start empty), `close` hands it back. */
function leased(handle: EmbeddedHandle): DatabaseHandle {
  let returned = false;
  return {
    ...embeddedHandle(handle.pglite),
    close: async () => {
      if (returned) return;
      returned = true;
      idle.push(handle);
    },
  };
}
