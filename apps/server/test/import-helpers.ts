/** Uploading import files in the tests (multipart bodies built by hand, CSV and XLSX files). */
import { stringify } from 'csv-stringify/sync';
import type { LightMyRequestResponse } from 'fastify';
import writeXlsxFile from 'write-excel-file/node';
import type { TestApp } from './test-app.ts';

export const HEADERS = ['Телефон', 'Имя', 'Квартира или примечание', 'Тип', 'Начало', 'Конец', 'Расписание'];

export function multipart(file: Buffer, filename = 'жители.csv', field = 'file') {
  const boundary = `----propusk${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${encodeURIComponent(filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, file, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const csvFile = (rows: string[][], headers = HEADERS, delimiter = ';') =>
  Buffer.from(stringify([headers, ...rows], { delimiter }), 'utf8');

export const xlsxFile = (rows: (string | number | Date)[][], headers = HEADERS) =>
  writeXlsxFile([headers, ...rows], { dateFormat: 'dd.mm.yyyy hh:mm' }).toBuffer();

export function previewImport(t: TestApp, barrierId: number, token: string, file: Buffer, filename?: string) {
  return t.request({
    method: 'POST',
    url: `/api/admin/barriers/${barrierId}/import/preview/`,
    token,
    ...multipart(file, filename),
  });
}

export function commitImport(
  t: TestApp,
  barrierId: number,
  token: string,
  file: Buffer,
  digest: string,
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url: `/api/admin/barriers/${barrierId}/import/?digest=${digest}`,
    token,
    ...multipart(file),
  });
}
