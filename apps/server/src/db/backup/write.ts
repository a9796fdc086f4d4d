/** Writing a backup: one read-only snapshot of every table into a gzip'd file, renamed when whole. */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '../database.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupHeader,
  type TableSection,
} from './format.ts';
import { quote, readSchemaVersion, readTables, rows, setTextSettings } from './tables.ts';

/** Rows fetched from a cursor per round trip. */
const FETCH_ROWS = 2000;

export interface BackupSummary {
  file: string;
  schemaVersion: string;
  tables: { name: string; rows: number }[];
  rows: number;
  bytes: number;
  milliseconds: number;
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
