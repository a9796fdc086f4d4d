/**
 * Backup and restore of the application's data, one format for both databases (docs/decisions/0009-metrics-and-backups.md):
 * a gzip'd file of JSON lines.
 *
 *   {"format":"propusk-backup","format_version":1,"schema_version":"0007_…",…,"tables":[{"name","rows"},…]}
 *   {"table":"users","columns":["id","phone",…],"rows":2}
 *   ["1","+79990000001",null,…]          one line per row: each value in PostgreSQL's own text form, or null
 *   …
 *   {"end":true,"rows":1234}
 *
 * Every table of the `public` schema is written, parents before children (the order of their foreign keys),
 * rows in primary-key order, inside one read-only REPEATABLE READ transaction: one consistent snapshot while
 * the server keeps writing (PostgreSQL). Values travel as PostgreSQL's text output and are cast back to the
 * column's type on restore, so every type comes back exactly (a jsonb `null` stays distinct from SQL NULL,
 * timestamps keep their microseconds). pg-boss's schema is not written: its jobs only say *when* to look
 * again, and the worker's start-up sweep rebuilds them from the outbox (`device_commands`), which is written.
 *
 * Restore reads the file twice: once to check it whole (gzip, every line, the counts, the end), without
 * touching the database, then to load it in one transaction (tables emptied with --force, rows inserted,
 * sequences reset past the highest id). A failure at any point leaves the database as it was.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, MIGRATIONS_FOLDER, type Transaction } from './database.ts';

export const BACKUP_FORMAT = 'propusk-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** Rows fetched from a cursor per round trip, and inserted per statement on restore. */
const FETCH_ROWS = 2000;
const INSERT_ROWS = 1000;

/** A refusal or a failure the operator can act on; the message is for him (Russian). */
export class BackupError extends Error {}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  /** The last migration applied to the database the backup was taken from. */
  schema_version: string;
  migrations: number;
  database: 'pglite' | 'postgres';
  created_at: string;
  /** A fingerprint of the server key that encrypted the device passwords (not the key). */
  secret_key_id: string;
  tables: { name: string; rows: number }[];
}

interface TableSection {
  table: string;
  columns: string[];
  rows: number;
}

interface TableInfo {
  name: string;
  columns: { name: string; type: string }[];
  primaryKey: string[];
  hasIdentity: boolean;
  /** Sequences owned by its columns (identity or serial), reset after a restore. */
  sequences: { column: string; sequence: string }[];
}

export interface BackupSummary {
  file: string;
  schemaVersion: string;
  tables: { name: string; rows: number }[];
  rows: number;
  bytes: number;
  milliseconds: number;
}

export interface RestoreSummary {
  file: string;
  header: BackupHeader;
  rows: number;
  milliseconds: number;
  /** The backup was taken under another server key: device passwords will not decrypt until it is back. */
  otherSecretKey: boolean;
}

/** The fingerprint of a server key written into a backup (a hash of it, never the key). */
export function secretKeyId(secretKey: string): string {
  return createHash('sha256').update(`propusk-backup-key-id:${secretKey}`).digest('hex').slice(0, 16);
}

type Executor = Database | Transaction;

async function rows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

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
async function setTextSettings(tx: Transaction): Promise<void> {
  await tx.execute(sql`set local timezone to 'UTC'`);
  await tx.execute(sql`set local datestyle to 'ISO, YMD'`);
  await tx.execute(sql`set local intervalstyle to 'postgres'`);
  await tx.execute(sql`set local extra_float_digits to 3`);
  await tx.execute(sql`set local bytea_output to 'hex'`);
}

/**
 * Writes a backup of every application table to `file` (gzip'd JSON lines), atomically: into a temporary
 * file beside it, renamed when complete.
 */
export async function writeBackup(
  db: Database,
  options: { file: string; database: 'pglite' | 'postgres'; secretKeyId: string; now?: Date },
): Promise<BackupSummary> {
  const started = performance.now();
  const file = path.resolve(options.file);
  const partial = `${file}.partial-${process.pid}`;
  let summary: Omit<BackupSummary, 'bytes' | 'milliseconds'> | undefined;
  try {
    await db.transaction(
      async (tx) => {
        await setTextSettings(tx);
        const schema = await readSchemaVersion(tx);
        const tables = await readTables(tx);
        const counts: { name: string; rows: number }[] = [];
        for (const table of tables) {
          const [row] = await rows<{ count: string | number }>(
            tx,
            sql.raw(`select count(*) as count from ${quote(table.name)}`),
          );
          counts.push({ name: table.name, rows: Number(row?.count ?? 0) });
        }
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          format_version: BACKUP_FORMAT_VERSION,
          schema_version: schema.version,
          migrations: schema.migrations,
          database: options.database,
          created_at: (options.now ?? new Date()).toISOString(),
          secret_key_id: options.secretKeyId,
          tables: counts,
        };
        const total = counts.reduce((sum, table) => sum + table.rows, 0);

        async function* lines(): AsyncGenerator<string> {
          yield `${JSON.stringify(header)}\n`;
          for (const [index, table] of tables.entries()) {
            const section: TableSection = {
              table: table.name,
              columns: table.columns.map((column) => column.name),
              rows: counts[index]?.rows ?? 0,
            };
            yield `${JSON.stringify(section)}\n`;
            const values = table.columns.map((column) => `${quote(column.name)}::text`).join(', ');
            const order =
              table.primaryKey.length > 0 ? ` order by ${table.primaryKey.map(quote).join(', ')}` : '';
            await tx.execute(
              sql.raw(
                `declare propusk_backup no scroll cursor for select to_json(array[${values}]::text[])::text as line from ${quote(table.name)}${order}`,
              ),
            );
            let written = 0;
            for (;;) {
              const batch = await rows<{ line: string }>(
                tx,
                sql.raw(`fetch forward ${FETCH_ROWS} from propusk_backup`),
              );
              if (batch.length === 0) break;
              written += batch.length;
              yield `${batch.map((row) => row.line).join('\n')}\n`;
            }
            await tx.execute(sql.raw('close propusk_backup'));
            if (written !== section.rows) {
              throw new Error(`${table.name}: counted ${section.rows} rows, read ${written}.`);
            }
          }
          yield `${JSON.stringify({ end: true, rows: total })}\n`;
        }

        await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial, { mode: 0o600 }));
        summary = { file, schemaVersion: schema.version, tables: counts, rows: total };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    const code = (error as NodeJS.ErrnoException)?.code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      throw new BackupError(`Не удалось записать резервную копию в ${file}: ${(error as Error).message}.`);
    }
    throw error;
  }
  if (!summary) throw new Error('The backup was not written.');
  return {
    ...summary,
    bytes: (await stat(file)).size,
    milliseconds: Math.round(performance.now() - started),
  };
}

/** The lines of a gzip'd backup, with the errors of a file that is not one (or is cut short) made clear. */
async function* readLines(file: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const input = createReadStream(file);
  input.on('error', (error) => gunzip.destroy(error));
  const text = input.pipe(gunzip);
  text.setEncoding('utf8');
  try {
    yield* splitLines(text);
  } catch (error) {
    throw describeReadError(file, error);
  } finally {
    input.destroy();
    // Reading stopped early (the header alone, or a refusal): what gunzip still finds is of no interest, and
    // an error it would raise with no listener left would take the process down.
    gunzip.on('error', () => {});
    gunzip.destroy();
  }
}

/**
 * Lines split on `\n` alone. Not `readline`: since Node 24 it also ends a line at U+2028 and U+2029 (and it
 * always did at a lone `\r`), which JSON leaves unescaped inside strings, so a text holding one would cut a
 * row in two and a valid backup would be refused (issue 31 part 2). Our writer ends every line with `\n`
 * and escapes every control character inside a line; a `\r` before the `\n` (a file that went through a
 * Windows tool) is dropped.
 */
export async function* splitLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of chunks) {
    rest += chunk;
    let start = 0;
    let end = rest.indexOf('\n', start);
    while (end !== -1) {
      yield withoutCarriageReturn(rest.slice(start, end));
      start = end + 1;
      end = rest.indexOf('\n', start);
    }
    rest = rest.slice(start);
  }
  if (rest !== '') yield withoutCarriageReturn(rest);
}

const withoutCarriageReturn = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

function describeReadError(file: string, error: unknown): Error {
  if (error instanceof BackupError) return error;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new BackupError(`Файл ${file} не найден.`);
  if (code === 'EISDIR') return new BackupError(`${file} — это каталог, а не файл резервной копии.`);
  if (code === 'EACCES') return new BackupError(`Нет прав на чтение файла ${file}.`);
  if (code === 'Z_DATA_ERROR' && /header/i.test((error as Error).message)) {
    return new BackupError(`Файл ${file} не является резервной копией Пропуска (это не gzip-архив).`);
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new BackupError(
      `Файл резервной копии ${file} повреждён или обрезан (${(error as Error).message}).`,
    );
  }
  return error as Error;
}

function parseJsonLine(file: string, line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new BackupError(`Файл резервной копии ${file} повреждён: строка ${lineNumber} не читается.`);
  }
}

function parseHeader(file: string, line: string | undefined): BackupHeader {
  let header: Partial<BackupHeader> | null = null;
  try {
    header = line === undefined ? null : (JSON.parse(line) as Partial<BackupHeader>);
  } catch {
    header = null;
  }
  if (!header || header.format !== BACKUP_FORMAT) {
    throw new BackupError(`Файл ${file} не является резервной копией Пропуска.`);
  }
  if (header.format_version !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `Файл ${file} записан в формате резервной копии версии ${header.format_version}, ` +
        `а эта версия Пропуска читает только версию ${BACKUP_FORMAT_VERSION}.`,
    );
  }
  if (typeof header.schema_version !== 'string' || !Array.isArray(header.tables)) {
    throw new BackupError(`Файл ${file} повреждён: в заголовке нет версии схемы или списка таблиц.`);
  }
  return header as BackupHeader;
}

/** The header of a backup file (its first line), checked to be one of ours. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  for await (const line of readLines(file)) return parseHeader(file, line);
  return parseHeader(file, undefined);
}

/**
 * Reads the whole file once without touching the database: every line parses, each table's rows are as
 * many as announced and have as many values as it has columns, the end marker is there.
 */
async function checkWholeFile(file: string, header: BackupHeader, tables: TableInfo[]): Promise<void> {
  const known = new Map(tables.map((table) => [table.name, table]));
  let lineNumber = 0;
  let section: TableSection | null = null;
  let remaining = 0;
  let total = 0;
  let ended = false;
  const seen: string[] = [];
  for await (const line of readLines(file)) {
    lineNumber += 1;
    if (lineNumber === 1) continue;
    if (ended) throw new BackupError(`Файл резервной копии ${file} повреждён: после конца есть данные.`);
    const value = parseJsonLine(file, line, lineNumber);
    if (remaining > 0) {
      if (!Array.isArray(value) || value.length !== section?.columns.length) {
        throw new BackupError(
          `Файл резервной копии ${file} повреждён: строка ${lineNumber} (таблица ${section?.table}) не совпадает со списком столбцов.`,
        );
      }
      remaining -= 1;
      total += 1;
      continue;
    }
    const marker = value as Partial<TableSection> & { end?: boolean; rows?: number };
    if (marker.end === true) {
      if (marker.rows !== total) {
        throw new BackupError(
          `Файл резервной копии ${file} повреждён: строк ${total}, а записано ${marker.rows}.`,
        );
      }
      ended = true;
      continue;
    }
    if (
      typeof marker.table !== 'string' ||
      !Array.isArray(marker.columns) ||
      typeof marker.rows !== 'number'
    ) {
      throw new BackupError(`Файл резервной копии ${file} повреждён: строка ${lineNumber} не читается.`);
    }
    const table = known.get(marker.table);
    if (!table) {
      throw new BackupError(
        `В резервной копии есть таблица ${marker.table}, которой нет в этой базе данных.`,
      );
    }
    const expected = table.columns.map((column) => column.name);
    if ([...marker.columns].sort().join(',') !== [...expected].sort().join(',')) {
      throw new BackupError(
        `Столбцы таблицы ${marker.table} в резервной копии (${marker.columns.join(', ')}) ` +
          `не совпадают со столбцами этой базы данных (${expected.join(', ')}).`,
      );
    }
    section = marker as TableSection;
    remaining = section.rows;
    seen.push(`${section.table}:${section.rows}`);
  }
  if (!ended || remaining > 0) {
    throw new BackupError(
      `Файл резервной копии ${file} обрезан: в нём нет конца (прочитано строк: ${lineNumber}).`,
    );
  }
  const announced = header.tables.map((table) => `${table.name}:${table.rows}`);
  if (seen.join(',') !== announced.join(',')) {
    throw new BackupError(`Файл резервной копии ${file} повреждён: таблицы не совпадают с заголовком.`);
  }
}

/** The tables of `tables` that hold at least one row. */
async function nonEmptyTables(executor: Executor, tables: TableInfo[]): Promise<string[]> {
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

/**
 * Restores a backup into `db`: refused (nothing changed) when the file is not a whole backup of this schema
 * version, or when the database already holds data and `force` is not given. One transaction.
 */
export async function restoreBackup(
  db: Database,
  options: { file: string; force: boolean; secretKeyId: string },
): Promise<RestoreSummary> {
  const started = performance.now();
  const file = path.resolve(options.file);
  const header = await readBackupHeader(file);
  const schema = await readSchemaVersion(db);
  if (header.schema_version !== schema.version) {
    throw new BackupError(
      `Резервная копия сделана для схемы базы данных «${header.schema_version}», а у этой базы данных схема ` +
        `«${schema.version}». Восстановите копию той версией Пропуска, которая её сделала, и затем обновите ` +
        'программу: миграции применятся сами.',
    );
  }
  const tables = await readTables(db);
  const occupied = await nonEmptyTables(db, tables);
  if (occupied.length > 0 && !options.force) {
    throw new BackupError(
      `В базе данных уже есть данные (таблицы: ${occupied.join(', ')}). Восстановление заменит их все; ` +
        'если это и нужно, повторите команду с --force.',
    );
  }
  await checkWholeFile(file, header, tables);

  const byName = new Map(tables.map((table) => [table.name, table]));
  let total = 0;
  await db.transaction(async (tx) => {
    await setTextSettings(tx);
    // Checked again inside the transaction: someone may have written since.
    if (!options.force && (await nonEmptyTables(tx, tables)).length > 0) {
      throw new BackupError('В базе данных появились данные, пока шла проверка файла; ничего не изменено.');
    }
    await tx.execute(sql.raw(`truncate table ${tables.map((table) => quote(table.name)).join(', ')}`));

    let insert: ((batch: string[]) => Promise<void>) | null = null;
    let batch: string[] = [];
    let remaining = 0;
    const flush = async () => {
      if (batch.length > 0 && insert) await insert(batch);
      batch = [];
    };
    let lineNumber = 0;
    for await (const line of readLines(file)) {
      lineNumber += 1;
      if (lineNumber === 1) continue;
      if (remaining > 0) {
        batch.push(line);
        remaining -= 1;
        total += 1;
        if (batch.length >= INSERT_ROWS) await flush();
        continue;
      }
      await flush();
      const marker = JSON.parse(line) as TableSection & { end?: boolean };
      if (marker.end === true) break;
      const table = byName.get(marker.table) as TableInfo;
      const types = new Map(table.columns.map((column) => [column.name, column.type]));
      const targets = marker.columns.map(quote).join(', ');
      const casts = marker.columns.map((column, index) => `(e->>${index})::${types.get(column)}`).join(', ');
      const overriding = table.hasIdentity ? ' overriding system value' : '';
      insert = async (lines) => {
        try {
          await tx.execute(
            sql`${sql.raw(`insert into ${quote(table.name)} (${targets})${overriding} select ${casts} from jsonb_array_elements(`)}${`[${lines.join(',')}]`}${sql.raw('::jsonb) as e')}`,
          );
        } catch (error) {
          const cause = (error as { cause?: Error }).cause ?? (error as Error);
          throw new BackupError(
            `Строки таблицы ${table.name} из резервной копии не записываются в базу данных (${cause.message}); ` +
              'база данных не изменена.',
          );
        }
      };
      remaining = marker.rows;
    }
    await flush();

    for (const table of tables) {
      for (const { column, sequence } of table.sequences) {
        await tx.execute(
          sql.raw(
            `select setval('${sequence.replaceAll("'", "''")}', coalesce((select max(${quote(column)}) from ${quote(table.name)}), 0) + 1, false)`,
          ),
        );
      }
    }
  });
  return {
    file,
    header,
    rows: total,
    milliseconds: Math.round(performance.now() - started),
    otherSecretKey: header.secret_key_id !== options.secretKeyId,
  };
}
