import {
  actionDetailSchema,
  actionListQuerySchema,
  actionListSchema,
  actionParamsSchema,
  barrierActionsParamsSchema,
} from '@propusk/contracts/actions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser, sessionInRead } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { getAction, listActions } from './service.ts';

export const actionRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  for (const side of ['user', 'admin'] as const) {
    const prefix = side === 'user' ? '/api' : '/api/admin';
    const preHandler = side === 'user' ? app.authenticate : app.requireAdmin;
    // The history's page reads the caller's session in its own statement (db/session-guard.ts).
    const inRead = side === 'user' ? app.authenticateInRead : app.requireAdminInRead;
    const tags = [side === 'user' ? 'history' : 'admin: history'];

    app.get(
      `${prefix}/barriers/:barrier_id/actions/`,
      {
        preHandler: inRead,
        schema: {
          tags,
          security,
          summary:
            side === 'user'
              ? 'History of the caller’s own phones on a barrier'
              : 'History of everything on one of the administrator’s barriers',
          params: barrierActionsParamsSchema,
          querystring: actionListQuerySchema,
          response: { 200: actionListSchema, ...failures(401, 403, 404) },
        },
      },
      async (request) =>
        listActions(deps, side, sessionInRead(request), request.params.barrier_id, request.query),
    );

    app.get(
      `${prefix}/actions/:id/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'One action with its old and new values',
          params: actionParamsSchema,
          response: { 200: actionDetailSchema, ...failures(401, 403, 404) },
        },
      },
      async (request) => getAction(deps, side, currentUser(request), request.params.id),
    );
  }
};
