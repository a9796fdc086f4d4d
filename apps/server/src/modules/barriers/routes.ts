import {
  adminBarrierListSchema,
  adminBarrierSchema,
  barrierDetailSchema,
  barrierListQuerySchema,
  barrierListSchema,
  barrierParamsSchema,
  checkAccessSchema,
  createBarrierBodySchema,
  myBarrierListSchema,
  updateBarrierBodySchema,
} from '@propusk/contracts/barriers';
import { limitsSchema, updateLimitsBodySchema } from '@propusk/contracts/limits';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser, sessionInRead } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import {
  createBarrier,
  deleteBarrier,
  getOwnedBarrier,
  getOwnedLimits,
  listOwnedBarriers,
  updateBarrier,
  updateLimits,
} from './admin-service.ts';
import { listPublicBarriers, PublicBarrierSearch } from './public-search.ts';
import {
  checkBarrierAccess,
  getBarrierCard,
  getBarrierLimits,
  leaveBarrier,
  listMyBarriers,
} from './service.ts';

export const barrierRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const search = new PublicBarrierSearch(deps);
  const tags = ['barriers'];
  const adminTags = ['admin: barriers'];
  const user = { preHandler: app.authenticate };
  const admin = { preHandler: app.requireAdmin };

  app.get(
    '/api/barriers/',
    {
      preHandler: app.authenticateInRead,
      schema: {
        tags,
        security,
        summary: 'Public barriers, with address search',
        querystring: barrierListQuerySchema,
        response: { 200: barrierListSchema, ...failures(401) },
      },
    },
    async (request) => listPublicBarriers(deps, search, sessionInRead(request), request.query),
  );

  app.get(
    '/api/barriers/my/',
    {
      preHandler: app.authenticateInRead,
      schema: {
        tags,
        security,
        summary: 'Barriers the caller has access to (and those his administrator closed to him by a block)',
        querystring: barrierListQuerySchema,
        response: { 200: myBarrierListSchema, ...failures(401) },
      },
    },
    async (request) => listMyBarriers(deps, sessionInRead(request), request.query),
  );

  app.get(
    '/api/barriers/:id/',
    {
      ...user,
      schema: {
        tags,
        security,
        summary: 'A barrier card (public, or one the caller has access to)',
        params: barrierParamsSchema,
        response: { 200: barrierDetailSchema, ...failures(401, 404) },
      },
    },
    async (request) => getBarrierCard(deps, currentUser(request), request.params.id),
  );

  app.get(
    '/api/barriers/:id/check_access/',
    {
      ...user,
      schema: {
        tags,
        security,
        summary: 'Whether the caller has access to the barrier',
        params: barrierParamsSchema,
        response: { 200: checkAccessSchema, ...failures(401, 404) },
      },
    },
    async (request) => checkBarrierAccess(deps, currentUser(request), request.params.id),
  );

  app.get(
    '/api/barriers/:id/limits/',
    {
      ...user,
      schema: {
        tags,
        security,
        summary: 'Limits of a barrier the caller has access to',
        params: barrierParamsSchema,
        response: { 200: limitsSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => getBarrierLimits(deps, currentUser(request), request.params.id),
  );

  app.delete(
    '/api/barriers/:id/leave/',
    {
      ...user,
      schema: {
        tags,
        security,
        summary: 'Leave a barrier: access and every phone of the caller on it are removed',
        params: barrierParamsSchema,
        response: { 204: z.null(), ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await leaveBarrier(deps, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/barriers/',
    {
      ...admin,
      schema: {
        tags: adminTags,
        security,
        summary: 'Create a barrier; the owner gets access and his primary phone on it',
        body: createBarrierBodySchema,
        response: { 201: adminBarrierSchema, ...failures(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const barrier = await createBarrier(deps, search, currentUser(request), request.body);
      return reply.status(201).send(barrier);
    },
  );

  app.get(
    '/api/admin/barriers/my/',
    {
      preHandler: app.requireAdminInRead,
      schema: {
        tags: adminTags,
        security,
        summary: "The administrator's barriers",
        querystring: barrierListQuerySchema,
        response: { 200: adminBarrierListSchema, ...failures(401, 403) },
      },
    },
    async (request) => listOwnedBarriers(deps, sessionInRead(request), request.query),
  );

  app.get(
    '/api/admin/barriers/:id/',
    {
      ...admin,
      schema: {
        tags: adminTags,
        security,
        summary: 'One of the administrator’s barriers (the device password is never returned)',
        params: barrierParamsSchema,
        response: { 200: adminBarrierSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => getOwnedBarrier(deps, currentUser(request), request.params.id),
  );

  app.patch(
    '/api/admin/barriers/:id/',
    {
      ...admin,
      schema: {
        tags: adminTags,
        security,
        summary: 'Change additional info, the public flag, or correct the stored device password (no SMS)',
        params: barrierParamsSchema,
        body: updateBarrierBodySchema,
        response: { 200: adminBarrierSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => updateBarrier(deps, search, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/barriers/:id/',
    {
      ...admin,
      schema: {
        tags: adminTags,
        security,
        summary: 'Delete a barrier: every number is taken off its device',
        params: barrierParamsSchema,
        response: { 204: z.null(), ...failures(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteBarrier(deps, search, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/admin/barriers/:id/limits/',
    {
      ...admin,
      schema: {
        tags: adminTags,
        security,
        summary: 'Limits of one of the administrator’s barriers',
        params: barrierParamsSchema,
        response: { 200: limitsSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => getOwnedLimits(deps, currentUser(request), request.params.id),
  );

  app.patch(
    '/api/admin/barriers/:id/limits/',
    {
      ...admin,
      schema: {
        tags: adminTags,
        security,
        summary: 'Set limits: whole numbers ≥ 0, or null for none',
        params: barrierParamsSchema,
        body: updateLimitsBodySchema,
        response: { 200: limitsSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => updateLimits(deps, currentUser(request), request.params.id, request.body),
  );
};
