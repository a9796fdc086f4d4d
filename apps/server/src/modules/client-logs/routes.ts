/**
 * `POST /api/logs/`: the web client's log push (DESIGN.md section 7). No login needed (the add-phone page may
 * log while its session is being refreshed), so it is rate limited per IP and the body is validated; the entry
 * goes to the server log, tagged as coming from a client, and nothing is stored.
 */
import { clientLogBodySchema } from '@propusk/contracts/client-logs';
import { errorSchema, fieldErrorsSchema, rateLimitedSchema } from '@propusk/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { routeForLog, withoutSecrets } from '../../lib/log-privacy.ts';

export const clientLogRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.post(
    '/api/logs/',
    {
      schema: {
        tags: ['logs'],
        summary: 'Push one log line from the web client',
        body: clientLogBodySchema,
        response: { 204: z.null(), 400: fieldErrorsSchema.or(errorSchema), 429: rateLimitedSchema },
      },
    },
    async (request, reply) => {
      const wait = await deps.rateLimits.logs.hit(request.ip);
      if (wait > 0) throw tooManyRequests('too_many_log_entries', wait);
      const { level, app: clientApp, page, message } = request.body;
      // A page's path may hold a guest link's token, a message a number: neither reaches the log in clear.
      deps.logger[level](
        { source: 'client', app: clientApp, page: routeForLog({ url: page }), ip: request.ip },
        withoutSecrets(message),
      );
      return reply.status(204).send(null);
    },
  );
};
