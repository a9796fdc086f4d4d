/** Openings from the app and the emergency hold-open (issue 16); the rules are in openings.ts and holds.ts. */
import { idParamsSchema } from '@propusk/contracts/common';
import {
  emergencyHoldCreateSchema,
  emergencyHoldListSchema,
  emergencyHoldSchema,
  holdListQuerySchema,
  openingListQuerySchema,
  openingListSchema,
  openingRequestSchema,
  openingSchema,
} from '@propusk/contracts/relay';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { errorResponses } from '../../plugins/error-responses.ts';
import { endHold, getHold, listHolds, listOpenings, openGate, startHold } from './service.ts';

const OPEN_DESCRIPTION =
  "Queues the model's documented open command (RTU502x: `{pwd}CC`, the relay closed for its relay time, then `{pwd}DD` a few seconds later unless the relay time is known to be timed). 201 with the opening, `status: sent`; poll the openings list until confirmed or failed. An opening not sent within 2 minutes is failed, never sent late; one whose `tapped_at` is more than 10 s old when it arrives is refused (410 opening_too_late) and logged as failed `late`. 409 relay_dialect_unknown / relay_not_supported / emergency_hold_active / sms_weekly_limit; 429 too_many_openings (1 per 30 s per barrier, 20 per hour).";

export const relayRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.post(
    '/api/barriers/:id/open/',
    {
      schema: {
        tags: ['relay'],
        summary: 'Open the gate once (a user with access)',
        description: OPEN_DESCRIPTION,
        security: [{ bearer: [] }],
        params: idParamsSchema,
        body: openingRequestSchema,
        response: { 201: openingSchema, ...errorResponses(401, 403, 404, 409, 410, 429) },
      },
      preHandler: app.authenticate,
    },
    async (request, reply) => {
      reply.code(201);
      return openGate(deps, currentUser(request).id, request.params.id, 'app', request.body?.tapped_at);
    },
  );

  app.get(
    '/api/barriers/:id/openings/',
    {
      schema: {
        tags: ['relay'],
        summary: "The caller's own openings of this gate, newest first",
        security: [{ bearer: [] }],
        params: idParamsSchema,
        querystring: openingListQuerySchema,
        response: { 200: openingListSchema, ...errorResponses(401, 403, 404) },
      },
      preHandler: app.authenticate,
    },
    async (request) => listOpenings(deps, currentUser(request).id, request.params.id, request.query, 'user'),
  );

  app.post(
    '/api/admin/barriers/:id/open/',
    {
      schema: {
        tags: ['relay'],
        summary: 'Open the gate once (administrator, permission relay.open)',
        description: OPEN_DESCRIPTION,
        security: [{ bearer: [] }],
        params: idParamsSchema,
        body: openingRequestSchema,
        response: { 201: openingSchema, ...errorResponses(401, 403, 404, 409, 410, 429) },
      },
      preHandler: app.requireAdmin,
    },
    async (request, reply) => {
      reply.code(201);
      return openGate(deps, currentUser(request).id, request.params.id, 'admin', request.body?.tapped_at);
    },
  );

  app.get(
    '/api/admin/barriers/:id/openings/',
    {
      schema: {
        tags: ['relay'],
        summary: 'Every opening of this gate, newest first, with filters (user, phone, dates, status)',
        security: [{ bearer: [] }],
        params: idParamsSchema,
        querystring: openingListQuerySchema,
        response: { 200: openingListSchema, ...errorResponses(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => listOpenings(deps, currentUser(request).id, request.params.id, request.query, 'admin'),
  );

  app.post(
    '/api/admin/emergency-holds/',
    {
      schema: {
        tags: ['relay'],
        summary: 'Emergency hold-open: hold the chosen barriers (or "all") open until ended',
        description:
          'п. 71 Правил противопожарного режима (ПП РФ № 1479). The hold commands go before anything else in each barrier queue and are retried until confirmed or ended; never refused by the weekly SMS limit. A barrier whose relay cannot be driven is recorded as refused; 409 with its code when no barrier can be held.',
        security: [{ bearer: [] }],
        body: emergencyHoldCreateSchema,
        response: { 201: emergencyHoldSchema, ...errorResponses(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request, reply) => {
      reply.code(201);
      return startHold(deps, currentUser(request).id, request.body);
    },
  );

  app.get(
    '/api/admin/emergency-holds/',
    {
      schema: {
        tags: ['relay'],
        summary: 'Emergency holds the administrator may see, newest first, with each barrier state',
        security: [{ bearer: [] }],
        querystring: holdListQuerySchema,
        response: { 200: emergencyHoldListSchema, ...errorResponses(401, 403) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => listHolds(deps, currentUser(request).id, request.query),
  );

  app.get(
    '/api/admin/emergency-holds/:id/',
    {
      schema: {
        tags: ['relay'],
        summary: 'One emergency hold with each barrier state (sent, confirmed, failed, refused)',
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: { 200: emergencyHoldSchema, ...errorResponses(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => getHold(deps, currentUser(request).id, request.params.id),
  );

  app.post(
    '/api/admin/emergency-holds/:id/end/',
    {
      schema: {
        tags: ['relay'],
        summary: 'End an emergency hold: relay off and the relay time restored on each barrier',
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: { 200: emergencyHoldSchema, ...errorResponses(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => endHold(deps, currentUser(request).id, request.params.id),
  );
};
