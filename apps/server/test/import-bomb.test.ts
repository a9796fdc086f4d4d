/**
 * Issue 29 item 7: an upload is bounded before it is read. An XLSX of about 800 KB that unpacks to ~240 MB
 * used to take 4 s and 1 GB of the server's memory; it is now refused with a clear 400 before it is inflated
 * (its directory declares more than the bound), and a zip whose directory lies about its sizes is refused too.
 * A workbook of too many rows is read as a stream that stops at the cap. What these cost in time and memory is
 * measured by `npm run bench:import` (its "refused files" table), not here: a timed test flakes on a busy host.
 */
import { IMPORT_MAX_CELL_LENGTH, IMPORT_MAX_ROWS } from '@propusk/contracts/imports';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOwnerWithBarrier, type TestBarrier } from './domain-factories.ts';
import type { TestUser } from './factories.ts';
import { previewImport, xlsxFile } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';
import { deflateRepeated, MB, sheetZip } from './zip-bomb.ts';

describe('an XLSX bomb', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let sheet: Buffer;
  const t = useTestApp();
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
    sheet = await deflateRepeated(240 * MB);
  });

  it('is refused with a 400 naming the unpacked size', async () => {
    const bomb = sheetZip(sheet, 240 * MB);
    expect(bomb.length).toBeLessThan(2 * MB);
    const response = await previewImport(t, barrier.id, owner.token, bomb, 'жители.xlsx');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('import_file_unpacked_too_large');
  });

  it('is refused when its directory declares a small size that the data exceeds', async () => {
    const liar = sheetZip(sheet, 4 * MB);
    const response = await previewImport(t, barrier.id, owner.token, liar, 'жители.xlsx');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('import_file_unpacked_too_large');
  });

  it('stops reading a workbook of too many rows at the cap: a bad row beyond it is never looked at', async () => {
    // 150,000 rows of one number each (~12 MB unpacked, within the zip bounds), and far beyond the cap a row whose
    // cell is longer than any cell may be. Read to the end, the file would be refused for that cell
    // (import_cell_too_long, as the same row near the top is below); the reader stops at row IMPORT_MAX_ROWS + 1.
    const longCell = 'x'.repeat(IMPORT_MAX_CELL_LENGTH + 1);
    const rows = Array.from({ length: 150_000 }, (_, index) => [`+7900${String(index).padStart(7, '0')}`]);
    rows[120_000] = [longCell];
    const workbook = await xlsxFile(rows, ['Телефон']);
    const response = await previewImport(t, barrier.id, owner.token, workbook, 'жители.xlsx');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe('import_too_many_rows');

    const early = rows.slice(0, IMPORT_MAX_ROWS);
    early[10] = [longCell];
    const refused = await previewImport(
      t,
      barrier.id,
      owner.token,
      await xlsxFile(early, ['Телефон']),
      'жители.xlsx',
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().code).toBe('import_cell_too_long');
  });

  it('still reads an ordinary workbook', async () => {
    const file = await xlsxFile([['+79001112233', 'Иванов Иван', 'кв. 1', 'Основной', '', '', '']]);
    const response = await previewImport(t, barrier.id, owner.token, file, 'жители.xlsx');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().rows).toHaveLength(1);
  });
});
