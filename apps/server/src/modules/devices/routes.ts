import { errorSchema, idParamsSchema } from '@propusk/contracts/common';
import {
  deviceHealthSchema,
  deviceLogParamsSchema,
  deviceLogQuerySchema,
  deviceLogSchema,
  retryPhoneResponseSchema,
} from '@propusk/contracts/devices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { createDeviceLogService } from './device-log.ts';
import { retryPhone } from './retry.ts';

export const deviceRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const deviceLog = createDeviceLogService(deps);

  app.get(
    '/api/admin/barriers/:id/device-log/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin: barriers'],
        security,
        summary: 'The conversation with the barrier device: every SMS sent to it and received from it',
        description:
          'Newest first; `outcome` filters. Texts carry the device password masked as `****`. `unrecognised_count` counts the replies that matched nothing, over the whole log. Owner of the barrier only (404 otherwise).',
        params: deviceLogParamsSchema,
        querystring: deviceLogQuerySchema,
        response: { 200: deviceLogSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => deviceLog.list(currentUser(request), request.params.id, request.query),
  );

  app.get(
    '/api/admin/barriers/:id/device-health/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin: barriers'],
        security,
        summary: 'The health of the barrier device: last reply, commands waiting, failures in a row, state',
        params: deviceLogParamsSchema,
        response: { 200: deviceHealthSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => deviceLog.health(currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/phones/:id/retry/',
    {
      schema: {
        tags: ['phones'],
        summary: 'Try again to bring a phone in `error` onto the barrier device',
        description:
          "A phone's `status` is `pending` while its device command is on its way, `ok` once the device confirmed it, `error` when it failed after every retry. This queues the phone's command again (owner of the barrier only; 409 unless the phone is in `error`, or when the barrier's weekly SMS limit would be exceeded).",
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: {
          200: retryPhoneResponseSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => retryPhone(deps, currentUser(request), request.params.id),
  );
};
