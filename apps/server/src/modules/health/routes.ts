/**
 * Health (DESIGN.md section 1, issue 31 part 5):
 * - `GET /api/health/`: `{"status":"ok"}` once migrations are applied and the database answers (as before);
 * - `GET /api/health/live`: the process answers (never touches the database): restart it when this fails;
 * - `GET /api/health/ready`: the database answers and the device worker's job queue runs: send it traffic.
 */
import { errorSchema } from '@propusk/contracts/common';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../../lib/database-outage.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { errorBody } from '../../plugins/error-handler.ts';

const checkSchema = z.enum(['ok', 'unavailable']);
const checksSchema = z.object({ database: checkSchema, job_queue: checkSchema });

export const healthRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const databaseAnswers = async () => {
    try {
      await deps.db.execute(sql`select 1`);
      return true;
    } catch (error) {
      deps.databaseOutage?.noteFailure(error);
      return false;
    }
  };

  app.get(
    '/api/health/',
    {
      schema: {
        tags: ['health'],
        summary: 'The database answers and migrations are applied',
        response: { 200: z.object({ status: z.literal('ok') }), 503: errorSchema },
      },
    },
    async (_request, reply) => {
      if (await databaseAnswers()) return { status: 'ok' as const };
      return reply.status(503).send(errorBody('database_unavailable'));
    },
  );

  app.get(
    '/api/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process answers (the database is not asked)',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/health/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers and the job queue runs',
        response: {
          200: z.object({ status: z.literal('ok'), checks: checksSchema }),
          503: errorSchema.extend({ checks: checksSchema }),
        },
      },
    },
    async (_request, reply) => {
      const checks = {
        database: (await databaseAnswers()) ? ('ok' as const) : ('unavailable' as const),
        job_queue: deps.jobQueue?.running() ? ('ok' as const) : ('unavailable' as const),
      };
      if (checks.database === 'ok' && checks.job_queue === 'ok') return { status: 'ok' as const, checks };
      return reply
        .status(503)
        .header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS))
        .send({ ...errorBody('service_unavailable'), checks });
    },
  );
};
