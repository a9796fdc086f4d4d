import {
  adminUserSchema,
  barrierUserListQuerySchema,
  barrierUserListSchema,
  barrierUserParamsSchema,
  blockedUserListSchema,
  blockUserBodySchema,
  searchUserBodySchema,
} from '@propusk/contracts/barrier-users';
import { barrierParamsSchema } from '@propusk/contracts/barriers';
import { idParamsSchema, pageQuerySchema } from '@propusk/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser, sessionInRead } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import {
  blockUser,
  findUserByPhone,
  getAdminUser,
  listBarrierUsers,
  listBlockedUsers,
  removeUserFromBarrier,
  unblockUser,
} from './service.ts';

export const barrierUserRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const tags = ['admin: users'];
  const preHandler = app.requireAdmin;

  app.get(
    '/api/admin/barriers/:id/users/',
    {
      // The page reads the administrator's session in its own statement (db/session-guard.ts).
      preHandler: app.requireAdminInRead,
      schema: {
        tags,
        security,
        summary: 'Users with access to one of the administrator’s barriers (search by name or phone)',
        params: barrierParamsSchema,
        querystring: barrierUserListQuerySchema,
        response: { 200: barrierUserListSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => listBarrierUsers(deps, sessionInRead(request), request.params.id, request.query),
  );

  app.get(
    '/api/admin/barriers/:id/blocked/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'People the barrier’s owner blocked (his block closes all of his barriers), newest first',
        params: barrierParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: blockedUserListSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => listBlockedUsers(deps, currentUser(request), request.params.id, request.query),
  );

  app.delete(
    '/api/admin/barriers/:id/users/:userId/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Remove a user from a barrier: his access and every phone of his on it',
        params: barrierUserParamsSchema,
        response: { 204: z.null(), ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeUserFromBarrier(deps, currentUser(request), request.params.id, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/users/search/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Find any active account by its exact phone (to invite it)',
        body: searchUserBodySchema,
        response: { 200: adminUserSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => findUserByPhone(deps, currentUser(request), request.body.phone),
  );

  app.get(
    '/api/admin/users/:id/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'A user of the administrator’s barriers',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => getAdminUser(deps, currentUser(request), request.params.id),
  );

  app.patch(
    '/api/admin/users/:id/block/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Block a user on all of this administrator’s barriers (his phones leave their devices)',
        params: idParamsSchema,
        body: blockUserBodySchema,
        response: { 200: adminUserSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => blockUser(deps, currentUser(request), request.params.id, request.body.reason),
  );

  app.patch(
    '/api/admin/users/:id/unblock/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Lift this administrator’s block (access is not restored; the user can be invited again)',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => unblockUser(deps, currentUser(request), request.params.id),
  );
};
