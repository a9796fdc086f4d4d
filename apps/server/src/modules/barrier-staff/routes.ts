import {
  addStaffBodySchema,
  staffListSchema,
  staffMemberSchema,
  staffParamsSchema,
  updateStaffBodySchema,
} from '@propusk/contracts/barrier-staff';
import { barrierParamsSchema } from '@propusk/contracts/barriers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { addStaff, changeStaffRole, listStaff, removeStaff } from './service.ts';

export const barrierStaffRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const tags = ['admin: barriers'];
  const preHandler = app.requireAdmin;

  app.get(
    '/api/admin/barriers/:id/staff/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Co-administrators and dispatchers of the barrier, with their roles (owner only)',
        params: barrierParamsSchema,
        response: { 200: staffListSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => listStaff(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/barriers/:id/staff/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Add an administrator account, by its phone, to the barrier with a role (owner only)',
        description:
          'Roles: manager (everything but deleting the barrier and its staff), operator (users, phones, requests, history, device health), dispatcher (open, hold open, device health). A phone without an administrator account: 404 `staff_not_admin`; the owner: 409 `staff_is_owner`; already on it: 409 `staff_already_added`.',
        params: barrierParamsSchema,
        body: addStaffBodySchema,
        response: { 201: staffMemberSchema, ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addStaff(deps, currentUser(request), request.params.id, request.body)),
  );

  app.patch(
    '/api/admin/barriers/:id/staff/:userId/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Change a staff member’s role (owner only; effective on his next request)',
        params: staffParamsSchema,
        body: updateStaffBodySchema,
        response: { 200: staffMemberSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) =>
      changeStaffRole(
        deps,
        currentUser(request),
        request.params.id,
        request.params.userId,
        request.body.role,
      ),
  );

  app.delete(
    '/api/admin/barriers/:id/staff/:userId/',
    {
      preHandler,
      schema: {
        tags,
        security,
        summary: 'Remove a staff member from the barrier (owner only; effective on his next request)',
        params: staffParamsSchema,
        response: { 204: z.null(), ...failures(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await removeStaff(deps, currentUser(request), request.params.id, request.params.userId);
      return reply.status(204).send(null);
    },
  );
};
