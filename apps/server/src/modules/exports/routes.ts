import { barrierActionsParamsSchema } from '@propusk/contracts/actions';
import { barrierParamsSchema } from '@propusk/contracts/barriers';
import {
  actionsExportQuerySchema,
  EXPORT_MEDIA_TYPES,
  usersExportQuerySchema,
} from '@propusk/contracts/exports';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { type ExportFile, exportBarrierHistory, exportBarrierUsers } from './service.ts';

function sendFile(reply: FastifyReply, file: ExportFile) {
  return reply
    .header('content-type', EXPORT_MEDIA_TYPES[file.format])
    .header('content-disposition', file.disposition)
    .header('cache-control', 'no-store')
    .send(file.body);
}

export const exportRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/admin/barriers/:id/users/export/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin: users'],
        security,
        summary: 'The barrier’s users with their phones, as a CSV (UTF-8 with BOM, `;`) or XLSX file',
        params: barrierParamsSchema,
        querystring: usersExportQuerySchema,
        response: failures(401, 403, 404),
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await exportBarrierUsers(deps, currentUser(request), request.params.id, request.query.format),
      ),
  );

  app.get(
    '/api/admin/barriers/:barrier_id/actions/export/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin: history'],
        security,
        summary:
          'The barrier’s history with the history list’s filters, as a CSV or XLSX file (at most 50,000 rows)',
        params: barrierActionsParamsSchema,
        querystring: actionsExportQuerySchema,
        response: failures(401, 403, 404),
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await exportBarrierHistory(deps, currentUser(request), request.params.barrier_id, request.query),
      ),
  );
};
