/**
 * Import of residents into one of the administrator's barriers (issue 14): the template, the preview of a
 * file, the import of the same file. Types from @propusk/contracts.
 */
import {
  type ImportPreview,
  type ImportResult,
  importPreviewSchema,
  importResultSchema,
} from '@propusk/contracts/imports';
import { api, apiDownload } from '../../../lib/api-client';

export type { ImportPreview, ImportResult };
export type TemplateFormat = 'xlsx' | 'csv';

const base = (barrierId: number) => `/api/admin/barriers/${barrierId}/import`;

function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

export async function downloadTemplate(barrierId: number, format: TemplateFormat): Promise<Blob> {
  const file = await apiDownload(`${base(barrierId)}/template/`, { format }, `template.${format}`);
  return file.blob;
}

export function previewImport(barrierId: number, file: File): Promise<ImportPreview> {
  return api.post(`${base(barrierId)}/preview/`, fileForm(file), { schema: importPreviewSchema });
}

export function commitImport(barrierId: number, file: File, digest: string): Promise<ImportResult> {
  return api.post(`${base(barrierId)}/`, fileForm(file), { query: { digest }, schema: importResultSchema });
}
