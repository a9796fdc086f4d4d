/**
 * «Проверка устройства по модели» (issue 42): the plan and the latest run (polled by the screen), start and
 * stop. The owner or a manager of the barrier (`settings.manage`).
 */
import { idParamsSchema } from '@propusk/contracts/common';
import {
  answerConformanceBodySchema,
  conformanceResponseSchema,
  startConformanceBodySchema,
} from '@propusk/contracts/conformance';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { answerConformance, getConformance, startConformance, stopConformance } from './service.ts';

export const conformanceRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const common = { tags: ['device checks'], security, params: idParamsSchema };

  app.get(
    '/api/admin/barriers/:id/conformance/',
    {
      schema: {
        ...common,
        summary: 'The conformance run: what it would do, and the latest run with its steps',
        description:
          '`plan`: the SMS a run sends (one per form of the model), the free slot and the test number (the caller’s own), how long at most, the forms it does not send and why; `available: false` with `reason` (an error code) when it cannot start. `run`: the latest run, each step with what was sent, the unit’s answer and its verdict (`as_sheet`, `different`: learnt into the profile, `no_answer`, `refused`, `format_error`).',
        response: { 200: conformanceResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => getConformance(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/barriers/:id/conformance/',
    {
      schema: {
        ...common,
        summary: 'Start a conformance run (its first step is queued; the worker sends it)',
        description:
          '400 with the plan’s `reason` when it cannot start; 409 `conformance_running` when one is under way, or when the weekly SMS limit would be exceeded.',
        body: startConformanceBodySchema,
        response: { 200: conformanceResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => startConformance(deps, currentUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/barriers/:id/conformance/answer/',
    {
      schema: {
        ...common,
        summary:
          'Answer the step that asks the person: «Открылось?» after a call, or the power cut done/skipped',
        description:
          '`opened` / `not_opened` to a call step (the clock’s digit order is settled in the profile, or the other order is tried); `power_done` once the supply is back (the unit’s own texts captured meanwhile become the profile’s power forms), `skip` to skip the power cut. 400 `conformance_not_asking` when the run waits for no such answer.',
        body: answerConformanceBodySchema,
        response: { 200: conformanceResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => answerConformance(deps, currentUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/barriers/:id/conformance/stop/',
    {
      schema: {
        ...common,
        summary: 'Stop the running conformance run (the test number is still deleted)',
        response: { 200: conformanceResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => stopConformance(deps, currentUser(request), request.params.id),
  );
};
