import { barrierParamsSchema } from '@propusk/contracts/barriers';
import {
  addPhoneBodySchema,
  adminAddPhoneBodySchema,
  adminPhoneListQuerySchema,
  phoneListQuerySchema,
  phoneListSchema,
  phoneParamsSchema,
  phoneSchema,
  putScheduleBodySchema,
  scheduleResponseSchema,
  updatePhoneBodySchema,
} from '@propusk/contracts/phones';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser, sessionInRead } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { putPhoneSchedule, removePhone, updatePhone } from './change-service.ts';
import { createPhoneAdds } from './phone-adds.ts';
import {
  addMyPhone,
  addPhoneForUser,
  getPhone,
  getPhoneSchedule,
  listBarrierPhones,
  listMyPhones,
} from './service.ts';

export const phoneRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const adds = createPhoneAdds(deps);

  app.get(
    '/api/barriers/:id/phones/my/',
    {
      // The page reads the caller's session in its own statement (db/session-guard.ts).
      preHandler: app.authenticateInRead,
      schema: {
        tags: ['phones'],
        security,
        summary: 'The caller’s active phones on a barrier (primary included)',
        params: barrierParamsSchema,
        querystring: phoneListQuerySchema,
        response: { 200: phoneListSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => listMyPhones(deps, sessionInRead(request), request.params.id, request.query),
  );

  app.post(
    '/api/barriers/:id/phones/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['phones'],
        security,
        summary: 'Add an extra phone for oneself (permanent, temporary or schedule)',
        params: barrierParamsSchema,
        body: addPhoneBodySchema,
        response: { 201: phoneSchema, ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addMyPhone(deps, adds, currentUser(request), request.params.id, request.body)),
  );

  app.get(
    '/api/admin/barriers/:id/phones/my/',
    {
      preHandler: app.requireAdminInRead,
      schema: {
        tags: ['admin: phones'],
        security,
        summary: 'Active phones on one of the administrator’s barriers, optionally of one user',
        params: barrierParamsSchema,
        querystring: adminPhoneListQuerySchema,
        response: { 200: phoneListSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => listBarrierPhones(deps, sessionInRead(request), request.params.id, request.query),
  );

  app.post(
    '/api/admin/barriers/:id/phones/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin: phones'],
        security,
        summary: 'Add a phone for a user of the barrier',
        params: barrierParamsSchema,
        body: adminAddPhoneBodySchema,
        response: { 201: phoneSchema, ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addPhoneForUser(deps, adds, currentUser(request), request.params.id, request.body)),
  );

  for (const side of ['user', 'admin'] as const) {
    const prefix = side === 'user' ? '/api/phones' : '/api/admin/phones';
    const preHandler = side === 'user' ? app.authenticate : app.requireAdmin;
    const tags = [side === 'user' ? 'phones' : 'admin: phones'];

    app.get(
      `${prefix}/:id/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'A phone, also after it was deleted (history points to it)',
          params: phoneParamsSchema,
          response: { 200: phoneSchema, ...failures(401, 403, 404) },
        },
      },
      async (request) => getPhone(deps, side, currentUser(request), request.params.id),
    );

    app.patch(
      `${prefix}/:id/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'Rename a phone, or move the start and end of a temporary one',
          params: phoneParamsSchema,
          body: updatePhoneBodySchema,
          response: { 200: phoneSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request) => updatePhone(deps, side, currentUser(request), request.params.id, request.body),
    );

    app.delete(
      `${prefix}/:id/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'Delete an extra phone (it is taken off the device; the primary phone cannot be deleted)',
          params: phoneParamsSchema,
          response: { 204: z.null(), ...failures(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        await removePhone(deps, side, currentUser(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      `${prefix}/:id/schedule/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'The weekly schedule of a schedule phone',
          params: phoneParamsSchema,
          response: { 200: scheduleResponseSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request) => getPhoneSchedule(deps, side, currentUser(request), request.params.id),
    );

    app.put(
      `${prefix}/:id/schedule/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'Replace the weekly schedule (body: monday..sunday → [{start_time, end_time}])',
          params: phoneParamsSchema,
          body: putScheduleBodySchema,
          response: { 200: scheduleResponseSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request) => putPhoneSchedule(deps, side, currentUser(request), request.params.id, request.body),
    );
  }
};
