import multipart from '@fastify/multipart';
import { barrierParamsSchema } from '@propusk/contracts/barriers';
import {
  IMPORT_MAX_FILE_BYTES,
  importCommitQuerySchema,
  importPreviewSchema,
  importResultSchema,
  importTemplateQuerySchema,
} from '@propusk/contracts/imports';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { commitImport, importTemplateFile, previewImport } from './service.ts';

/** The one file of a multipart upload (field `file`), at most IMPORT_MAX_FILE_BYTES. */
async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest('import_file_missing');
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file();
  } catch {
    throw badRequest('import_file_missing');
  }
  if (part?.fieldname !== 'file') throw badRequest('import_file_missing');
  try {
    return await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, 'import_file_too_large');
    }
    throw badRequest('import_file_missing');
  }
}

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export const importRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  // Only these routes read multipart bodies (the plugin is encapsulated here).
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_FILE_BYTES, files: 1, fields: 2, parts: 3 },
  });
  const tags = ['admin: import'];
  const preHandler = app.requireAdmin;

  app.get(
    '/api/admin/barriers/:id/import/template/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'The import template (Russian headers, an explanation line, example rows as comments)',
        params: barrierParamsSchema,
        querystring: importTemplateQuerySchema,
        response: failures(401, 403, 404),
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const file = await importTemplateFile(deps, currentUser(request), request.params.id, format);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="import-template.${format}"`)
        .type(CONTENT_TYPES[format])
        .send(file);
    },
  );

  app.post(
    '/api/admin/barriers/:id/import/preview/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary:
          'Check an import file (multipart field "file", CSV or XLSX): every row with its problems, the totals, the SMS it will cost',
        params: barrierParamsSchema,
        response: { 200: importPreviewSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) =>
      previewImport(deps, currentUser(request), request.params.id, () => uploadedFile(request)),
  );

  app.post(
    '/api/admin/barriers/:id/import/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary:
          'Import the previewed file (sent again, with its digest): all rows in one transaction, or nothing (409)',
        params: barrierParamsSchema,
        querystring: importCommitQuerySchema,
        response: { 201: importResultSchema, ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const result = await commitImport(
        deps,
        currentUser(request),
        request.params.id,
        () => uploadedFile(request),
        request.query.digest,
      );
      return reply.status(201).send(result);
    },
  );
};
