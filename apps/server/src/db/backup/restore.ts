/** Restoring a backup: the file checked whole first, then loaded in one transaction. */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../database.ts';
import {
  BackupError,
  type BackupHeader,
  parseJsonLine,
  readBackupHeader,
  readLines,
  type TableSection,
} from './format.ts';
import {
  nonEmptyTables,
  quote,
  readSchemaVersion,
  readTables,
  setTextSettings,
  type TableInfo,
} from './tables.ts';

/** Rows inserted per statement. */
const INSERT_ROWS = 1000;

export interface RestoreSummary {
  file: string;
  header: BackupHeader;
  rows: number;
  milliseconds: number;
  /** The backup was taken under another server key: device passwords will not decrypt until it is back. */
  otherSecretKey: boolean;
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
