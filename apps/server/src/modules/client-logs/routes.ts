/**
 * `POST /api/logs/`: the web client's log push (DESIGN.md section 7). No login needed (the add-phone page may
 * log while its session is being refreshed), so it is rate limited per IP and the body is validated; the entry
 * goes to the server log, tagged as coming from a client, and nothing is stored. Issue 40 item 7: `app` is one
 * of the known clients, numbers and codes are masked by their digits, and a line without a valid login is at
 * most a warning.
 */
import { clientLogBodySchema } from '@propusk/contracts/client-logs';
import { errorSchema, fieldErrorsSchema, rateLimitedSchema } from '@propusk/contracts/common';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { routeForLog, withoutSecrets } from '../../lib/log-privacy.ts';

export const clientLogRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  /** The user of a valid bearer token sent along, or null (no token, or one that is not valid: anonymous). */
  const signedInUser = async (request: FastifyRequest): Promise<number | null> => {
    if (!request.headers.authorization) return null;
    try {
      await app.authenticate(request);
      return request.user?.id ?? null;
    } catch {
      return null;
    }
  };

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
      const userId = await signedInUser(request);
      // Anyone may push a line: without a login it is at most a warning, so nobody can fill the error log.
      const logged = userId === null && level === 'error' ? 'warn' : level;
      // A page's path may hold a guest link's token, a message a number: neither reaches the log in clear.
      deps.logger[logged](
        {
          source: 'client',
          app: clientApp,
          page: routeForLog({ url: page }),
          ip: request.ip,
          ...(userId === null ? { anonymous: true } : { userId }),
          ...(logged === level ? {} : { sentLevel: level }),
        },
        withoutSecrets(message),
      );
      return reply.status(204).send(null);
    },
  );
};
