/**
 * `npm run bench:import [-- --rows 1000]`: times an import of residents on PostgreSQL (DATABASE_URL, on
 * loopback; a fresh database is created for the run and dropped after it). A barrier whose device holds 1,000
 * numbers (Telemetrica), then a file of `rows` rows (half residents, the rest their permanent, temporary and
 * scheduled numbers): the preview of the CSV and of the same rows as XLSX, then the commit, each over HTTP
 * through the real app (parsing, checks, the outbox's plan). Targets (issue 14): preview < 2 s, commit < 5 s.
 * Then the files the import refuses (issue 29 item 7): a zip bomb (~240 MB unpacked), a zip whose directory lies
 * about its sizes, and a workbook of 150,000 rows; each refused in < 1 s, the process's RSS growing < 50 MB
 * (heap + external is printed beside it: garbage not yet collected counts there).
 */
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import writeXlsxFile from 'write-excel-file/node';
import { barrierLimits, barriers } from '../src/db/schema.ts';
import { createAdmin } from '../test/factories.ts';
import { HEADERS, multipart, previewImport, xlsxFile } from '../test/import-helpers.ts';
import { createTestApp } from '../test/test-app.ts';
import { deflateRepeated, MB, sheetZip } from '../test/zip-bomb.ts';
import { assertLoopback, benchDatabaseUrl } from './bench-lib.ts';

function fileRows(count: number): string[][] {
  const rows: string[][] = [];
  for (let index = 0; rows.length < count; index++) {
    const phone = (offset: number) => `+7916${String(index * 2 + offset).padStart(7, '0')}`;
    rows.push([phone(0), `Жилец ${index}`, `кв. ${index + 1}`, 'Основной', '', '', '']);
    if (rows.length >= count) break;
    const kind = index % 4;
    if (kind === 0 || kind === 1)
      rows.push([phone(1), `Родные ${index}`, `кв. ${index + 1}`, 'Постоянный', '', '', '']);
    if (kind === 2) {
      rows.push([phone(1), `Гость ${index}`, '', 'Временный', '01.12.2026 10:00', '20.12.2026 22:00', '']);
    }
    if (kind === 3)
      rows.push([
        phone(1),
        `Няня ${index}`,
        '',
        'По расписанию',
        '',
        '',
        'пн-пт 08:00-20:00; сб 10:00-14:00',
      ]);
  }
  return rows;
}

async function main() {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000' } } });
  const count = Number(values.rows);
  const url = benchDatabaseUrl();
  assertLoopback(url);
  process.env.DATABASE_URL = url;
  const t = await createTestApp();
  try {
    if (t.handle.kind !== 'postgres') throw new Error('PostgreSQL only');
    const admin = await createAdmin(t, { fullName: 'Администратор' });
    const [barrier] = await t.deps.db
      .insert(barriers)
      .values({
        ownerId: admin.id,
        address: 'г. Москва, ул. Замерная, д. 1',
        devicePhone: '+79550000001',
        deviceModel: 'Telemetrica',
        devicePhonesAmount: 1000,
      })
      .returning({ id: barriers.id });
    if (!barrier) throw new Error('barrier not created');
    await t.deps.db.insert(barrierLimits).values({ barrierId: barrier.id });
    const rows = fileRows(count);
    const csv = Buffer.from(stringify([HEADERS, ...rows], { delimiter: ';' }));
    const xlsx = await writeXlsxFile([HEADERS, ...rows]).toBuffer();
    const post = async (path: string, file: Buffer) => {
      const start = process.hrtime.bigint();
      const response = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/import/${path}`,
        token: admin.token,
        ...multipart(file),
      });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (response.statusCode >= 300) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
      return { ms, body: response.json() };
    };
    // One warm-up of the code paths on a small file (JIT, prepared plans), not counted.
    await post('preview/', Buffer.from(stringify([HEADERS, ...rows.slice(0, 10)], { delimiter: ';' })));
    const csvPreview = await post('preview/', csv);
    const xlsxPreview = await post('preview/', xlsx);
    const problems = csvPreview.body.totals.rows_with_problems;
    if (problems > 0) throw new Error(`the bench file has ${problems} rows with problems`);
    const commit = await post(`?digest=${csvPreview.body.digest}`, csv);
    console.log(`rows: ${rows.length} (CSV ${csv.length} bytes, XLSX ${xlsx.length} bytes), PostgreSQL`);
    console.log('| step | ms | target |');
    console.log('|---|---:|---:|');
    console.log(`| preview, CSV | ${csvPreview.ms.toFixed(0)} | < 2000 |`);
    console.log(`| preview, XLSX | ${xlsxPreview.ms.toFixed(0)} | < 2000 |`);
    console.log(`| commit, CSV | ${commit.ms.toFixed(0)} | < 5000 |`);
    console.log(
      `totals: ${commit.body.phones} phones, ${commit.body.residents} residents, ${commit.body.sms} SMS planned (preview said ${csvPreview.body.totals.sms}), ${commit.body.send_minutes} min to send`,
    );
    await refusedFiles(async (file, code) => {
      const response = await previewImport(t, barrier.id, admin.token, file, 'жители.xlsx');
      if (response.statusCode !== 400 || response.json().code !== code) {
        throw new Error(`expected 400 ${code}, got ${response.statusCode} ${response.body}`);
      }
    });
  } finally {
    await t.close();
  }
}

/** Each refused file: the time of its preview and the process's memory before and after it (RSS; heap + external). */
async function refusedFiles(preview: (file: Buffer, code: string) => Promise<void>) {
  const sheet = await deflateRepeated(240 * MB);
  const rows = Array.from({ length: 150_000 }, (_, index) => [`+7900${String(index).padStart(7, '0')}`]);
  const files = [
    {
      name: 'zip bomb, 240 MB declared',
      file: sheetZip(sheet, 240 * MB),
      code: 'import_file_unpacked_too_large',
    },
    {
      name: 'zip declaring 4 MB, 240 MB inside',
      file: sheetZip(sheet, 4 * MB),
      code: 'import_file_unpacked_too_large',
    },
    { name: '150,000 rows', file: await xlsxFile(rows, ['Телефон']), code: 'import_too_many_rows' },
  ];
  console.log(`refused files${globalThis.gc ? '' : ' (run with --expose-gc for steadier memory figures)'}`);
  console.log('| file | bytes | ms | RSS growth MB | heap + external growth MB | target |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const { name, file, code } of files) {
    globalThis.gc?.();
    const before = process.memoryUsage();
    const start = process.hrtime.bigint();
    await preview(file, code);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const after = process.memoryUsage();
    const heap = (after.heapUsed + after.external - before.heapUsed - before.external) / MB;
    console.log(
      `| ${name} | ${file.length} | ${ms.toFixed(0)} | ${((after.rss - before.rss) / MB).toFixed(1)} | ${heap.toFixed(1)} | < 1000 ms, RSS < 50 MB |`,
    );
  }
}

await main();
