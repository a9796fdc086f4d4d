/**
 * Writing an export: the Russian cells of each row, then CSV (streamed page by page) or XLSX (built from the
 * rows, which the row cap bounds). CSV is UTF-8 with a byte order mark, `;` between fields and CRLF line ends:
 * Excel with Russian regional settings (where `,` is the decimal separator) splits `;` into columns and reads
 * the Cyrillic right only with the BOM. Phones are text (+7XXXXXXXXXX), dates `ДД.ММ.ГГГГ ЧЧ:ММ` in the
 * deployment's zone (DEVICE_TIMEZONE_OFFSET_MINUTES, Moscow by default), like every time the server shows.
 */
import { Readable } from 'node:stream';
import type { ExportFormat } from '@propusk/contracts/exports';
import { WEEKDAY_LABELS, WEEKDAYS } from '@propusk/contracts/texts/phones';
import { stringify } from 'csv-stringify';
import writeXlsxFile from 'write-excel-file/node';
import type { WeeklySchedule } from '../../db/schema.ts';

const two = (value: number) => String(value).padStart(2, '0');

/** `23.11.2026 19:05` in the zone `offsetMinutes` east of UTC. */
export function formatLocalDateTime(date: Date | null, offsetMinutes: number): string {
  if (!date) return '';
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  return `${two(local.getUTCDate())}.${two(local.getUTCMonth() + 1)}.${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`;
}

/** `Понедельник 08:00–12:00, 14:00–18:00; Среда 09:00–10:00`, days in week order. */
export function formatSchedule(schedule: WeeklySchedule | null): string {
  if (!schedule) return '';
  return WEEKDAYS.flatMap((day) => {
    const intervals = schedule[day] ?? [];
    if (intervals.length === 0) return [];
    const times = intervals.map((interval) => `${interval.start_time}–${interval.end_time}`).join(', ');
    return [`${WEEKDAY_LABELS[day]} ${times}`];
  }).join('; ');
}

/** `с 23.11.2026 10:00 по 24.11.2026 10:00` (either end may be missing). */
export function formatPeriod(start: Date | null, end: Date | null, offsetMinutes: number): string {
  const parts = [
    start ? `с ${formatLocalDateTime(start, offsetMinutes)}` : '',
    end ? `по ${formatLocalDateTime(end, offsetMinutes)}` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

export type Cells = string[];

/**
 * Free text a person typed (a name) that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) gets a leading
 * apostrophe, so that a spreadsheet shows it instead of running it. Phones are ours (+7 and digits): as is.
 */
export function plainText(value: string | null | undefined): string {
  const text = value ?? '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The CSV of a header and rows that arrive page by page. */
export function csvStream(headers: readonly string[], pages: AsyncIterable<Cells[]>): Readable {
  async function* records() {
    yield [...headers];
    for await (const page of pages) yield* page;
  }
  const csv = stringify({ delimiter: ';', bom: true, record_delimiter: 'windows' });
  return Readable.from(records()).pipe(csv);
}

/** One sheet: the header in bold, every cell text (a phone must stay `+7…`, never a number). */
export async function xlsxBuffer(
  sheet: string,
  headers: readonly string[],
  pages: AsyncIterable<Cells[]>,
  widths: number[],
): Promise<Buffer> {
  const data: { value: string; type: StringConstructor; fontWeight?: 'bold' }[][] = [
    headers.map((value) => ({ value, type: String, fontWeight: 'bold' as const })),
  ];
  for await (const page of pages) {
    for (const row of page) data.push(row.map((value) => ({ value, type: String })));
  }
  return writeXlsxFile(data, {
    sheet,
    columns: widths.map((width) => ({ width })),
    stickyRowsCount: 1,
  }).toBuffer();
}

/** `attachment` with an ASCII name (no quoting problems, any browser), e.g. `propusk-12-users-2026-11-23.csv`. */
export function contentDisposition(base: string, format: ExportFormat, now: Date, offsetMinutes: number) {
  const local = new Date(now.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 10);
  const safe = base.replace(/[^a-z0-9-]/gi, '-');
  return `attachment; filename="${safe}-${local}.${format}"`;
}
