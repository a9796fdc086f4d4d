/**
 * The first sheet of an XLSX read row by row, as a stream, and stopped at a cap (issue 29 item 7): a workbook
 * within the zip bounds (zip-bounds.ts, 16 MB unpacked) may still hold a quarter of a million short rows, which
 * a whole-workbook parser turns into arrays for seconds (measured: 50,000 rows, 1.6 s and +50 MB RSS with
 * read-excel-file) before the import's cap of 5,000 refuses them. Here the sheet's XML is inflated as a stream
 * and its rows handed to `onRow` one by one; when `onRow` says stop, the inflation stops.
 *
 * What it reads (ECMA-376 Part 1, SpreadsheetML): `xl/workbook.xml` (the first `<sheet>`, `date1904`),
 * `xl/_rels/workbook.xml.rels` (its part), `xl/sharedStrings.xml` (`<si>` strings, rich text runs joined),
 * `xl/styles.xml` (`cellXfs` number formats: a cell with a date format is a date), and the sheet's
 * `<row r>` / `<c r s t><v>` / inline `<is><t>`. Cells come out as text the way the import reads them: numbers
 * as JavaScript prints them, dates as Date (wall time, UTC), booleans as true/false.
 */

import { Readable } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { badRequest } from '../../lib/errors.ts';
import { attributeOf, elements, firstElement, scanElements, startTag, startTags } from './xml-scan.ts';
import type { ZipEntry } from './zip-bounds.ts';

export type XlsxCell = string | number | boolean | Date | null;

const invalid = () => badRequest('import_file_invalid');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? '';
  });
}

/** The text of every `<t>` inside `xml` (a shared string or an inline string), phonetic runs left out. */
function textOf(xml: string): string {
  let withoutPhonetic = '';
  let from = 0;
  for (const phonetic of elements(xml, 'rPh')) {
    const start = xml.lastIndexOf('<rPh', phonetic.end - 1);
    withoutPhonetic += xml.slice(from, start);
    from = phonetic.end;
  }
  withoutPhonetic += xml.slice(from);
  let text = '';
  for (const run of elements(withoutPhonetic, 't')) text += decodeXml(run.body);
  return text;
}

function readEntry(file: Buffer, entry: ZipEntry | undefined): string | null {
  if (!entry) return null;
  const data = file.subarray(entry.dataStart, entry.dataStart + entry.compressed);
  const bytes =
    entry.method === 0 ? data : inflateRawSync(data, { maxOutputLength: Math.max(1, entry.unpacked) });
  return bytes.toString('utf8');
}

function entryStream(file: Buffer, entry: ZipEntry): Readable {
  const data = file.subarray(entry.dataStart, entry.dataStart + entry.compressed);
  const source = Readable.from([data]);
  return entry.method === 0 ? source : source.pipe(createInflateRaw());
}

/** The part of the workbook's first sheet, e.g. `xl/worksheets/sheet1.xml`. */
function firstSheetPath(entries: Map<string, ZipEntry>, file: Buffer): { path: string; date1904: boolean } {
  const workbook = readEntry(file, entries.get('xl/workbook.xml'));
  const rels = readEntry(file, entries.get('xl/_rels/workbook.xml.rels'));
  if (!workbook || !rels) throw invalid();
  const sheet = startTag(workbook, 'sheet');
  const id =
    sheet !== undefined &&
    (attributeOf(sheet, 'r:id') ?? attributeOf(sheet, (name) => name.endsWith(':id') && name.length > 3));
  if (!id) throw invalid();
  const relation = startTags(rels, 'Relationship').find((tag) => attributeOf(tag, 'Id') === id);
  const target = relation && attributeOf(relation, 'Target');
  if (!target) throw invalid();
  const path = target.startsWith('/')
    ? target.slice(1)
    : `xl/${target.startsWith('./') ? target.slice(2) : target}`;
  const pr = startTag(workbook, 'workbookPr');
  const date1904 = pr ? ['1', 'true'].includes(attributeOf(pr, 'date1904') ?? '') : false;
  return { path, date1904 };
}

/**
 * The shared strings, read as far as a cell asks: a workbook writes them in order of first use, so the rows up
 * to the cap need only the first part of a large table (150,000 strings read whole took most of a second).
 */
function sharedStrings(file: Buffer, entries: Map<string, ZipEntry>): (index: number) => string {
  const xml = readEntry(file, entries.get('xl/sharedStrings.xml')) ?? '';
  const strings = scanElements(xml, 'si');
  const read: string[] = [];
  return (index) => {
    while (read.length <= index) {
      const item = strings.next();
      if (!item) return '';
      read.push(textOf(item.body));
    }
    return read[index] ?? '';
  };
}

/** Built-in number formats that are dates or times (ECMA-376 Part 1, 18.8.30). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

function isDateFormatCode(code: string): boolean {
  // Quoted text, escapes and [colour]/[locale] sections say nothing about dates (read in one pass).
  let bare = '';
  for (let index = 0; index < code.length; index += 1) {
    const character = code.charAt(index);
    const closing = character === '"' ? '"' : character === '[' ? ']' : undefined;
    if (closing) {
      const end = code.indexOf(closing, index + 1);
      if (end < 0) {
        bare += code.slice(index);
        break;
      }
      index = end;
    } else if (character === '\\') index += 1;
    else bare += character;
  }
  return /[dmyhs]/i.test(bare) && bare.trim().toLowerCase() !== 'general';
}

/** For each cell style index (`s`), whether its number format is a date. */
function dateStyles(file: Buffer, entries: Map<string, ZipEntry>): boolean[] {
  const xml = readEntry(file, entries.get('xl/styles.xml'));
  if (!xml) return [];
  const custom = new Map<number, string>();
  for (const tag of startTags(xml, 'numFmt')) {
    const id = Number(attributeOf(tag, 'numFmtId'));
    custom.set(id, decodeXml(attributeOf(tag, 'formatCode') ?? ''));
  }
  const cellXfs = firstElement(xml, 'cellXfs')?.body ?? '';
  return startTags(cellXfs, 'xf').map((tag) => {
    const id = Number(attributeOf(tag, 'numFmtId') ?? 0);
    const code = custom.get(id);
    return code === undefined ? DATE_FORMAT_IDS.has(id) : isDateFormatCode(code);
  });
}

/** "BC12" → 54 (zero-based column of a cell reference); null when there is none. */
function columnOf(reference: string | undefined): number | null {
  const letters = reference ? /^[A-Z]+/.exec(reference)?.[0] : undefined;
  if (!letters) return null;
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1;
}

/** A day count of the workbook's date system as wall time (UTC), to the second. */
function serialToDate(serial: number, date1904: boolean): Date {
  const epochDays = date1904 ? 24107 : 25569;
  return new Date(Math.round((serial - epochDays) * 86_400) * 1000);
}

/**
 * Reads the first sheet's rows in order and hands each (its 1-based row number and its cells, a gap as null)
 * to `onRow`; `onRow` returns false to stop reading. Refuses (400 `import_file_invalid`) a workbook whose parts
 * cannot be found.
 */
export async function readXlsxRows(
  file: Buffer,
  entries: Map<string, ZipEntry>,
  onRow: (line: number, cells: XlsxCell[]) => boolean,
): Promise<void> {
  const { path, date1904 } = firstSheetPath(entries, file);
  const sheetEntry = entries.get(path);
  if (!sheetEntry) throw invalid();
  const sharedString = sharedStrings(file, entries);
  const isDate = dateStyles(file, entries);

  const cellValue = (tag: string, body: string): XlsxCell => {
    const type = attributeOf(tag, 't') ?? 'n';
    if (type === 'inlineStr') return textOf(firstElement(body, 'is')?.body ?? '');
    const raw = firstElement(body, 'v')?.body;
    if (raw === undefined) return null;
    const value = decodeXml(raw);
    if (type === 's') return Number.isInteger(Number(value)) ? sharedString(Number(value)) : '';
    if (type === 'str' || type === 'e') return value;
    if (type === 'b') return value === '1';
    const number = Number(value);
    if (Number.isNaN(number)) return value;
    if (type === 'd') return new Date(value);
    return isDate[Number(attributeOf(tag, 's') ?? 0)] ? serialToDate(number, date1904) : number;
  };

  const parseRow = (tag: string, body: string, fallbackLine: number) => {
    const line = Number(attributeOf(tag, 'r') ?? fallbackLine);
    const cells: XlsxCell[] = [];
    for (const cell of elements(body, 'c')) {
      const column = columnOf(attributeOf(cell.attributes, 'r')) ?? cells.length;
      while (cells.length < column) cells.push(null);
      cells[column] = cellValue(cell.attributes, cell.body);
    }
    return { line, cells };
  };

  const stream = entryStream(file, sheetEntry);
  const decoder = new TextDecoder('utf-8');
  // Only what may still be an unfinished row (from its `<row`) is kept between chunks, never the whole sheet, and
  // no part of it is searched twice (xml-scan.ts).
  const rows = scanElements('', 'row');
  let lastLine = 0;
  try {
    for await (const chunk of stream) {
      rows.extend(decoder.decode(chunk as Buffer, { stream: true }), rows.position);
      for (let row = rows.next(); row; row = rows.next()) {
        const { line, cells } = parseRow(row.attributes, row.body, lastLine + 1);
        lastLine = line;
        if (!onRow(line, cells)) return;
      }
    }
  } finally {
    stream.destroy();
  }
}
