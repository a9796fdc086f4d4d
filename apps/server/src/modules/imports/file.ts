/**
 * Reading and writing the import's tables: an XLSX workbook (read row by row up to the cap by xlsx-rows.ts;
 * written by write-excel-file) or a CSV
 * text (csv-parse / csv-stringify; UTF-8, or Windows-1251 as Excel saves it in Russia; comma, semicolon or
 * tab). Every cell comes out as text; a date cell of a workbook as «ДД.ММ.ГГГГ ЧЧ:ММ» (its wall time).
 */
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_CELL_LENGTH,
  IMPORT_MAX_ROWS,
  IMPORT_TEMPLATE_EXAMPLES,
  IMPORT_TEMPLATE_NOTE,
  type ImportColumn,
} from '@propusk/contracts/imports';
import { parse as parseCsv } from 'csv-parse/sync';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import writeXlsxFile from 'write-excel-file/node';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { readXlsxRows } from './xlsx-rows.ts';
import { assertZipBounded } from './zip-bounds.ts';

export type ImportFormat = 'csv' | 'xlsx';

/** One data line of the file: its line number (1 = headers) and its cells by column. */
export interface RawRow {
  line: number;
  cells: Partial<Record<ImportColumn, string>>;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const isZip = (file: Buffer) => ZIP_MAGIC.every((byte, index) => file[index] === byte);

const pad = (value: number) => String(value).padStart(2, '0');

/** A workbook's date cell holds wall time (no zone): read back in UTC, shown as the template writes it. */
function dateCell(date: Date): string {
  const day = `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
  return `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateCell(value);
  return String(value).trim();
}

function decodeText(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return new TextDecoder('windows-1251').decode(file);
  }
}

/** The delimiter of the header line: the most frequent of `;`, `,` and tab. */
function guessDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const count = (character: string) => first.split(character).length - 1;
  return [';', ',', '\t'].reduce((best, next) => (count(next) > count(best) ? next : best), ',');
}

const headerKey = (text: string) => text.trim().toLowerCase().replaceAll('ё', 'е').replace(/\s+/g, ' ');
const COLUMN_BY_HEADER = new Map(
  (Object.entries(IMPORT_COLUMNS) as [ImportColumn, string][]).map(([column, header]) => [
    headerKey(header),
    column,
  ]),
);

/**
 * Takes a table's lines one by one: the first non-empty one is the headers (matched without case and in any
 * order; an unknown one, or no «Телефон», is a 400), then data rows, empty lines and comment lines («#…» in
 * «Телефон») skipped; a data row with a cell longer than IMPORT_MAX_CELL_LENGTH is a 400. `take` says false once there are more than IMPORT_MAX_ROWS rows: the reader stops there.
 */
function createRowCollector() {
  let columns: (ImportColumn | 'unknown' | null)[] | null = null;
  const rows: RawRow[] = [];
  let isOverCap = false;
  return {
    rows,
    get isOverCap() {
      return isOverCap;
    },
    take(line: number, row: string[]): boolean {
      if (row.every((cell) => cell === '')) return true;
      if (!columns) {
        columns = row.map((header) =>
          header === '' ? null : (COLUMN_BY_HEADER.get(headerKey(header)) ?? 'unknown'),
        );
        const named = columns.filter(Boolean);
        if (columns.includes('unknown') || !columns.includes('phone') || new Set(named).size !== named.length)
          throw badRequest('import_headers_invalid');
        return true;
      }
      const cells: RawRow['cells'] = {};
      columns.forEach((column, position) => {
        if (column && column !== 'unknown') cells[column] = row[position] ?? '';
      });
      if ((cells.phone ?? '').startsWith('#')) return true;
      // Every cell bounded before any rule reads it (issue 40 item 1): the file is refused, naming the line.
      if (Object.values(cells).some((cell) => cell.length > IMPORT_MAX_CELL_LENGTH)) {
        throw badRequest('import_cell_too_long', undefined, { line });
      }
      rows.push({ line, cells });
      isOverCap = rows.length > IMPORT_MAX_ROWS;
      return !isOverCap;
    },
  };
}

/** Lines of the file into `collector`: an XLSX as a stream of rows that stops at the cap, a CSV whole. */
async function readTable(
  file: Buffer,
  collector: ReturnType<typeof createRowCollector>,
): Promise<ImportFormat> {
  const invalid = () => badRequest('import_file_invalid');
  const passOn = (error: unknown) => (error instanceof HttpError ? error : invalid());
  if (isZip(file)) {
    // Bounded before it is read: sizes and ratio from the zip's directory, checked by inflating (zip-bounds.ts).
    const entries = assertZipBounded(file);
    try {
      await readXlsxRows(file, entries, (line, cells) => collector.take(line, cells.map(cellText)));
    } catch (error) {
      throw passOn(error);
    }
    return 'xlsx';
  }
  if (file.subarray(0, 4096).includes(0)) throw invalid();
  const text = decodeText(file);
  let table: string[][];
  try {
    table = parseCsv(text, {
      bom: true,
      delimiter: guessDelimiter(text.replace(/^\uFEFF/, '')),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      // A cell far over the bound stops the parser where it grows past this (issue 40 item 1), not at its end.
      max_record_size: IMPORT_MAX_CELL_LENGTH * 8,
    }) as string[][];
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number };
    if (code === 'CSV_MAX_RECORD_SIZE') throw badRequest('import_cell_too_long', undefined, { line: lines });
    throw invalid();
  }
  for (const [index, row] of table.entries()) {
    if (!collector.take(index + 1, row.map(cellText))) break;
  }
  return 'csv';
}

/** The data rows of an uploaded file (createRowCollector), at most IMPORT_MAX_ROWS. */
export async function readImportFile(file: Buffer): Promise<{ format: ImportFormat; rows: RawRow[] }> {
  const collector = createRowCollector();
  const format = await readTable(file, collector);
  if (collector.isOverCap) throw badRequest('import_too_many_rows');
  if (collector.rows.length === 0) throw badRequest('import_empty');
  return { format, rows: collector.rows };
}

/** The template: the headers, the explanation line, and example rows (to be replaced). */
export async function importTemplate(format: ImportFormat): Promise<Buffer> {
  const headers = Object.values(IMPORT_COLUMNS);
  const note = [IMPORT_TEMPLATE_NOTE, ...headers.slice(1).map(() => '')];
  const rows = [headers, note, ...IMPORT_TEMPLATE_EXAMPLES.map((row) => [...row])];
  if (format === 'csv') {
    // A byte order mark, and semicolons: what Excel in Russian opens as columns.
    return Buffer.from(`\uFEFF${stringifyCsv(rows, { delimiter: ';' })}`, 'utf8');
  }
  return writeXlsxFile(
    rows.map((row, index) =>
      row.map((value) => ({ value, type: String, fontWeight: index === 0 ? ('bold' as const) : undefined })),
    ),
    { columns: headers.map((_, index) => ({ width: index === 0 ? 18 : index === 6 ? 36 : 22 })) },
  ).toBuffer();
}
