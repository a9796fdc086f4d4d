/**
 * What a backup reads of the database itself: the schema's version, its tables in the order of their foreign
 * keys, and the text form of values that both directions share.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, MIGRATIONS_FOLDER, type Transaction } from '../database.ts';

export async function rows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface TableInfo {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
  hasIdentity: boolean;
  /** Sequences owned by its columns (identity or serial), reset after a restore. */
  sequences: { column: string; sequence: string }[];
}

/** The last migration applied (its tag from the journal) and how many were applied. */
export async function readSchemaVersion(
  executor: Executor,
): Promise<{ version: string; migrations: number }> {
  const [row] = await rows<{ last: string | number | null; applied: string | number }>(
    executor,
    sql`select max(created_at) as last, count(*) as applied from drizzle.__drizzle_migrations`,
  );
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const last = Number(row?.last ?? 0);
  const tag = journal.entries.find((entry) => entry.when === last)?.tag;
  return { version: tag ?? `unknown-${last}`, migrations: Number(row?.applied ?? 0) };
}

/** Every table of the `public` schema with its columns, primary key and sequences, parents first. */
export async function readTables(executor: Executor): Promise<TableInfo[]> {
  const columns = await rows<{ table_name: string; column_name: string; type: string; is_identity: boolean }>(
    executor,
    sql`
      select c.relname as table_name, a.attname as column_name,
        format_type(a.atttypid, a.atttypmod) as type, a.attidentity <> '' as is_identity
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and a.attgenerated = ''
      order by c.relname, a.attnum`,
  );
  const keys = await rows<{ table_name: string; column_name: string }>(
    executor,
    sql`
      select c.relname as table_name, a.attname as column_name
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey::int2[])
      where n.nspname = 'public' and i.indisprimary
      order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const references = await rows<{ child: string; parent: string }>(
    executor,
    sql`
      select c.relname as child, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public'`,
  );
  const sequences = await rows<{ table_name: string; column_name: string; sequence: string | null }>(
    executor,
    sql`
      select c.relname as table_name, a.attname as column_name,
        pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) as sequence
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`,
  );

  const tables = new Map<string, TableInfo>();
  for (const column of columns) {
    let table = tables.get(column.table_name);
    if (!table) {
      table = { name: column.table_name, columns: [], primaryKey: [], hasIdentity: false, sequences: [] };
      tables.set(column.table_name, table);
    }
    table.columns.push({ name: column.column_name, type: column.type });
    table.hasIdentity ||= column.is_identity;
  }
  for (const key of keys) tables.get(key.table_name)?.primaryKey.push(key.column_name);
  for (const row of sequences) {
    if (row.sequence)
      tables.get(row.table_name)?.sequences.push({ column: row.column_name, sequence: row.sequence });
  }

  // Parents before children; ties in name order, so that two backups of one database list tables alike.
  const parents = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references) {
    if (child !== parent && tables.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.size) {
    const ready = [...tables.keys()]
      .filter((name) => !placed.has(name) && [...(parents.get(name) ?? [])].every((p) => placed.has(p)))
      .sort();
    if (ready.length === 0) throw new Error('The foreign keys of the public schema form a cycle.');
    for (const name of ready) {
      placed.add(name);
      ordered.push(tables.get(name) as TableInfo);
    }
  }
  return ordered;
}

/** Values in their text form whatever the server's settings, so that they read back the same. */
export async function setTextSettings(tx: Transaction): Promise<void> {
  await tx.execute(sql`set local timezone to 'UTC'`);
  await tx.execute(sql`set local datestyle to 'ISO, YMD'`);
  await tx.execute(sql`set local intervalstyle to 'postgres'`);
  await tx.execute(sql`set local extra_float_digits to 3`);
  await tx.execute(sql`set local bytea_output to 'hex'`);
}

/** The tables of `tables` that hold at least one row. */
export async function nonEmptyTables(executor: Executor, tables: TableInfo[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    const [row] = await rows<{ present: boolean }>(
      executor,
      sql.raw(`select exists (select 1 from ${quote(table.name)}) as present`),
    );
    if (row?.present) found.push(table.name);
  }
  return found;
}
