import { barrierParamsSchema } from '@propusk/contracts/barriers';
import {
  adminCreateGuestPassBodySchema,
  createdGuestPassSchema,
  createGuestPassBodySchema,
  GUEST_PASS_HOLDER_HEADER,
  guestPassCodeBodySchema,
  guestPassCodeResponseSchema,
  guestPassListQuerySchema,
  guestPassListSchema,
  guestPassParamsSchema,
  guestPassSchema,
  guestPassTokenParamsSchema,
  publicGuestPassSchema,
  redeemedGuestPassSchema,
  redeemGuestPassBodySchema,
} from '@propusk/contracts/guest-passes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { errorResponses } from '../../plugins/error-responses.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { guestLinkLimits, redeemGuestPass, requestGuestPassCode, viewGuestPass } from './link-service.ts';
import { createGuestPass, listGuestPasses, revokeGuestPass } from './service.ts';

export const guestPassRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const limits = guestLinkLimits(deps);

  for (const side of ['user', 'admin'] as const) {
    const prefix = side === 'user' ? '/api/barriers' : '/api/admin/barriers';
    const preHandler = side === 'user' ? app.authenticate : app.requireAdmin;
    const tags = [side === 'user' ? 'phones' : 'admin: phones'];

    app.post(
      `${prefix}/:id/guest-passes/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary:
            side === 'user'
              ? 'Create a guest pass (a single-use link, window of at most 24 h); the link is answered only here'
              : 'Create a guest pass for a resident of the barrier (`user`, default: oneself)',
          params: barrierParamsSchema,
          body: side === 'user' ? createGuestPassBodySchema : adminCreateGuestPassBodySchema,
          response: { 201: createdGuestPassSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createGuestPass(deps, side, currentUser(request), request.params.id, request.body)),
    );

    app.get(
      `${prefix}/:id/guest-passes/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary:
            side === 'user'
              ? 'The caller’s guest passes on a barrier, newest first'
              : 'Every guest pass of the barrier, newest first',
          params: barrierParamsSchema,
          querystring: guestPassListQuerySchema,
          response: { 200: guestPassListSchema, ...failures(401, 403, 404) },
        },
      },
      async (request) => listGuestPasses(deps, side, currentUser(request), request.params.id, request.query),
    );

    app.delete(
      `${prefix}/:id/guest-passes/:passId/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'Revoke a guest pass: the link stops working, a number it added is taken off the device',
          params: guestPassParamsSchema,
          response: { 200: guestPassSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request) =>
        revokeGuestPass(deps, side, currentUser(request), request.params.id, request.params.passId),
    );
  }

  const tags = ['guest passes'];

  app.get(
    '/api/guest-passes/:token/',
    {
      schema: {
        tags,
        summary:
          'What a guest pass link opens (no login): the barrier’s address and the window; once used, the gate’s number to the guest who used it (his key in the x-guest-pass-holder header)',
        params: guestPassTokenParamsSchema,
        response: { 200: publicGuestPassSchema, ...errorResponses(410, 429) },
      },
    },
    async (request) => {
      const holder = request.headers[GUEST_PASS_HOLDER_HEADER];
      return viewGuestPass(
        deps,
        limits,
        request.params.token,
        request.ip,
        typeof holder === 'string' ? holder : undefined,
      );
    },
  );

  app.post(
    '/api/guest-passes/:token/code/',
    {
      schema: {
        tags,
        summary: 'Text a code to the guest’s number (the budgets of every code apply)',
        params: guestPassTokenParamsSchema,
        body: guestPassCodeBodySchema,
        response: { 201: guestPassCodeResponseSchema, ...errorResponses(410, 429, 503) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await requestGuestPassCode(deps, limits, request.params.token, request.body.phone, request.ip)),
  );

  app.post(
    '/api/guest-passes/:token/redeem/',
    {
      schema: {
        tags,
        summary: 'Use the pass: the proven number goes on the device with the pass’s window (once)',
        params: guestPassTokenParamsSchema,
        body: redeemGuestPassBodySchema,
        response: { 200: redeemedGuestPassSchema, ...errorResponses(403, 409, 410, 429) },
      },
    },
    async (request) => redeemGuestPass(deps, limits, request.params.token, request.body, request.ip),
  );
};
