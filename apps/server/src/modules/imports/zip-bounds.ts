/**
 * An XLSX is a zip: 800 KB of it may unpack to 240 MB (issue 29 item 7, docs/decisions/0023). Before the
 * workbook is parsed, its central directory is read by hand (the End Of Central Directory record, then each
 * entry's sizes) and refused when the entries declare more than XLSX_MAX_UNPACKED_BYTES in all, more than
 * XLSX_MAX_ENTRIES entries, a compression ratio above XLSX_MAX_RATIO, or zip64 sizes. Then each entry is
 * inflated with node:zlib bounded by the size it declares (`maxOutputLength`), so a directory that lies about
 * its sizes is refused too, before the parser sees the file. Memory stays within the declared total.
 */
import { inflateRawSync } from 'node:zlib';
import { badRequest } from '../../lib/errors.ts';

/** Far above a 5,000-row table of residents (about 3 MB of sheet XML), far below a bomb. */
export const XLSX_MAX_UNPACKED_BYTES = 16 * 1024 * 1024;
export const XLSX_MAX_ENTRIES = 200;
/** Sheet XML compresses 5 to 30 times; a bomb several hundred times. */
export const XLSX_MAX_RATIO = 100;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const tooLarge = () => badRequest('import_file_unpacked_too_large');
const invalid = () => badRequest('import_file_invalid');

/** One entry of the zip: where its data starts, how it is stored, its sizes. */
export interface ZipEntry {
  method: number;
  dataStart: number;
  compressed: number;
  unpacked: number;
}

/**
 * Throws a 400 unless the zip's entries are within the bounds (sizes declared and real); returns the entries
 * by name, for the workbook's reader (xlsx-rows.ts).
 */
export function assertZipBounded(file: Buffer): Map<string, ZipEntry> {
  const found = new Map<string, ZipEntry>();
  const from = Math.max(0, file.length - 22 - 0xffff);
  let end = -1;
  for (let at = file.length - 22; at >= from; at--) {
    if (file.readUInt32LE(at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw invalid();
  const entries = file.readUInt16LE(end + 10);
  const directoryOffset = file.readUInt32LE(end + 16);
  if (entries === 0xffff || directoryOffset === 0xffffffff) throw tooLarge();
  if (entries > XLSX_MAX_ENTRIES) throw tooLarge();
  let total = 0;
  let at = directoryOffset;
  for (let index = 0; index < entries; index++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL) throw invalid();
    const method = file.readUInt16LE(at + 10);
    const compressed = file.readUInt32LE(at + 20);
    const unpacked = file.readUInt32LE(at + 24);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    const localOffset = file.readUInt32LE(at + 42);
    if (compressed === 0xffffffff || unpacked === 0xffffffff) throw tooLarge();
    total += unpacked;
    if (total > XLSX_MAX_UNPACKED_BYTES) throw tooLarge();
    if (unpacked > 4096 && unpacked > compressed * XLSX_MAX_RATIO) throw tooLarge();
    const dataStart = checkEntryData(file, localOffset, method, compressed, unpacked);
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    found.set(name, { method, dataStart, compressed, unpacked });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return found;
}

/** Inflates one entry, bounded by its declared size: more data than declared is a lie, refused. */
function checkEntryData(
  file: Buffer,
  offset: number,
  method: number,
  compressed: number,
  unpacked: number,
): number {
  if (offset + 30 > file.length || file.readUInt32LE(offset) !== LOCAL) throw invalid();
  const start = offset + 30 + file.readUInt16LE(offset + 26) + file.readUInt16LE(offset + 28);
  if (start + compressed > file.length) throw invalid();
  if (method === 0) {
    if (compressed !== unpacked) throw invalid();
    return start;
  }
  if (method !== 8) throw invalid();
  try {
    inflateRawSync(file.subarray(start, start + compressed), { maxOutputLength: Math.max(1, unpacked) });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge();
    throw invalid();
  }
  return start;
}
