// Writes the app's icons into apps/web/public/ (favicon.ico, PNGs for the web manifest and iOS) from one
// drawing, the same as public/favicon.svg: a barrier (post and striped boom) on the primary blue. Pure Node
// (zlib for PNG's deflate), so no image tool or download is needed. Run after changing the drawing:
// `node apps/web/scripts/make-icons.mjs`; the outputs are committed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const publicDir = path.resolve(import.meta.dirname, '../public');

const BLUE = [0x19, 0x71, 0xc2]; // Mantine blue-8, the theme's primary shade
const WHITE = [0xff, 0xff, 0xff];
const RED = [0xe0, 0x31, 0x31];

/**
 * The drawing on a 64×64 grid (as favicon.svg): a rounded square; a post at x 12–20, y 14–52; a boom at
 * y 22–30 from x 20 to 54 with red stripes; a base at y 50–54, x 8–24. `maskable` leaves a safe margin.
 */
function colourAt(x, y, maskable) {
  if (!maskable) {
    const r = 12;
    const cx = Math.min(Math.max(x, r), 64 - r);
    const cy = Math.min(Math.max(y, r), 64 - r);
    if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  }
  const scale = maskable ? 0.8 : 1;
  const u = (x - 32) / scale + 32;
  const v = (y - 32) / scale + 32;
  if (u >= 12 && u < 20 && v >= 14 && v < 52) return WHITE;
  if (u >= 8 && u < 24 && v >= 50 && v < 55) return WHITE;
  if (u >= 20 && u < 54 && v >= 22 && v < 30) {
    const stripe = Math.floor((u - 20) / 6) % 2 === 1;
    return stripe ? RED : WHITE;
  }
  return BLUE;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `size` px, each pixel averaged over 4×4 samples (smooth edges). */
function png(size, maskable = false) {
  const samples = 4;
  const rows = [];
  for (let py = 0; py < size; py += 1) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px += 1) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const x = ((px + (sx + 0.5) / samples) / size) * 64;
          const y = ((py + (sy + 0.5) / samples) / size) * 64;
          const colour = colourAt(x, y, maskable);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 1;
        }
      }
      const offset = 1 + px * 4;
      row[offset] = a ? Math.round(r / a) : 0;
      row[offset + 1] = a ? Math.round(g / a) : 0;
      row[offset + 2] = a ? Math.round(b / a) : 0;
      row[offset + 3] = Math.round((a / samples ** 2) * 255);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO holding PNG images (every browser since 2010 reads PNG inside ICO). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + images.length * 16;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size >= 256 ? 0 : size;
    entry[1] = size >= 256 ? 0 : size;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}

const outputs = {
  'icon-192.png': png(192),
  'icon-512.png': png(512),
  'icon-maskable-512.png': png(512, true),
  'apple-touch-icon.png': png(180, true),
  'favicon.ico': ico([16, 32, 48].map((size) => ({ size, data: png(size) }))),
};
for (const [name, data] of Object.entries(outputs)) {
  writeFileSync(path.join(publicDir, name), data);
  console.log(`${name}: ${data.length} bytes`);
}
