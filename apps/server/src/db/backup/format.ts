/**
 * The file of a backup (db/backup.ts says what it holds): its header, the Russian errors of a file that is
 * not one, and its lines read back one at a time.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

export const BACKUP_FORMAT = 'propusk-backup';
export const BACKUP_FORMAT_VERSION = 1;
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

export interface TableSection {
  table: string;
  columns: string[];
  rows: number;
}

/** The fingerprint of a server key written into a backup (a hash of it, never the key). */
export function secretKeyId(secretKey: string): string {
  return createHash('sha256').update(`propusk-backup-key-id:${secretKey}`).digest('hex').slice(0, 16);
}

/** The lines of a gzip'd backup, with the errors of a file that is not one (or is cut short) made clear. */
export async function* readLines(file: string): AsyncGenerator<string> {
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

export function parseJsonLine(file: string, line: string, lineNumber: number): unknown {
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
