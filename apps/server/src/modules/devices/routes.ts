import { errorSchema, idParamsSchema } from '@propusk/contracts/common';
import { retryPhoneResponseSchema } from '@propusk/contracts/devices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { retryPhone } from './retry.ts';

export const deviceRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
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
