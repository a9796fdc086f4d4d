import { errorSchema } from '@propusk/contracts/common';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { errorBody } from '../../plugins/error-handler.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/health/',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the database answers and migrations are applied',
        response: { 200: z.object({ status: z.literal('ok') }), 503: errorSchema },
      },
    },
    async (_request, reply) => {
      try {
        await deps.db.execute(sql`select 1`);
        return { status: 'ok' as const };
      } catch {
        return reply.status(503).send(errorBody('database_unavailable'));
      }
    },
  );
};
