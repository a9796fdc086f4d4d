/**
 * Zip files built by hand for the import's bounds (issue 29 item 7): a sheet deflated from one repeated row
 * without holding it, and a zip whose directory declares whatever sizes a test or the bench asks for
 * (import-bomb.test.ts, scripts/bench-import.ts).
 */
import { constants, createDeflateRaw, deflateRawSync } from 'node:zlib';

export const MB = 1024 * 1024;

/** Deflates `total` bytes of one repeated sheet row without holding them: the compressed stream only. */
export async function deflateRepeated(total: number): Promise<Buffer> {
  const row = Buffer.from('<row><c t="inlineStr"><is><t>+79001234567</t></is></c></row>'.repeat(16_384));
  const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  for (let written = 0; written < total; written += row.length) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

/** A zip with the given entries (deflated data, and the unpacked size its headers declare). */
export function zip(entries: { name: string; data: Buffer; unpacked: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.unpacked, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.unpacked, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The content types part every test workbook carries, deflated. */
const typesXml = Buffer.from('<?xml version="1.0"?><Types/>');
export const typesEntry = {
  name: '[Content_Types].xml',
  data: deflateRawSync(typesXml),
  unpacked: typesXml.length,
};

/** A zip of one sheet (deflated `sheet`) whose directory declares `unpacked` bytes for it. */
export const sheetZip = (sheet: Buffer, unpacked: number) =>
  zip([typesEntry, { name: 'xl/worksheets/sheet1.xml', data: sheet, unpacked }]);
