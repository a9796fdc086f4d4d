import {
  accessRequestListQuerySchema,
  accessRequestListSchema,
  accessRequestParamsSchema,
  accessRequestSchema,
  createAccessRequestBodySchema,
  invitationMuteListSchema,
  invitationMuteParamsSchema,
  invitePhoneBodySchema,
  invitePhoneResponseSchema,
  phoneInvitationListQuerySchema,
  phoneInvitationListSchema,
  phoneInvitationParamsSchema,
  updateAccessRequestBodySchema,
} from '@propusk/contracts/access-requests';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { createInvitationMuteService } from './invitation-mutes.ts';
import { cancelPhoneInvitation, inviteByPhone, listPhoneInvitations } from './phone-invitation-service.ts';
import { askForAccess, inviteToBarrier, listAccessRequests, updateAccessRequest } from './service.ts';

export const accessRequestRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  for (const side of ['user', 'admin'] as const) {
    const prefix = side === 'user' ? '/api/access_requests' : '/api/admin/access_requests';
    const preHandler = side === 'user' ? app.authenticate : app.requireAdmin;
    const tags = [side === 'user' ? 'access requests' : 'admin: access requests'];

    app.get(
      `${prefix}/my/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary:
            side === 'user'
              ? 'The caller’s requests: outgoing (asked by him) or incoming (invitations)'
              : 'Requests of the administrator’s barriers: incoming (asked by users) or outgoing (invitations)',
          querystring: accessRequestListQuerySchema,
          response: { 200: accessRequestListSchema, ...failures(401, 403) },
        },
      },
      async (request) => listAccessRequests(deps, side, currentUser(request), request.query),
    );

    app.post(
      `${prefix}/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: side === 'user' ? 'Ask for access to a public barrier' : 'Invite a user to a barrier',
          body: createAccessRequestBodySchema,
          response: { 201: accessRequestSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const caller = currentUser(request);
        const created =
          side === 'user'
            ? await askForAccess(deps, caller, request.body)
            : await inviteToBarrier(deps, caller, request.body);
        return reply.status(201).send(created);
      },
    );

    app.patch(
      `${prefix}/:id/`,
      {
        preHandler,
        schema: {
          tags,
          security,
          summary: 'Accept or reject (receiver), cancel (sender), and/or hide a request from this side',
          params: accessRequestParamsSchema,
          body: updateAccessRequestBodySchema,
          response: { 200: accessRequestSchema, ...failures(401, 403, 404, 409) },
        },
      },
      async (request) =>
        updateAccessRequest(deps, side, currentUser(request), request.params.id, request.body),
    );
  }

  const invitationTags = ['admin: access requests'];

  app.post(
    '/api/admin/phone_invitations/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: invitationTags,
        security,
        summary:
          'Invite by number: an account is invited as usual; a number without one gets a waiting invitation and one SMS',
        body: invitePhoneBodySchema,
        response: { 201: invitePhoneResponseSchema, ...failures(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await inviteByPhone(deps, currentUser(request), request.body)),
  );

  app.get(
    '/api/admin/phone_invitations/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: invitationTags,
        security,
        summary: 'Invitations waiting for a number to register, on the administrator’s barriers',
        querystring: phoneInvitationListQuerySchema,
        response: { 200: phoneInvitationListSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => listPhoneInvitations(deps, currentUser(request), request.query),
  );

  app.delete(
    '/api/admin/phone_invitations/:id/',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: invitationTags,
        security,
        summary: 'Cancel an invitation that waits for a number to register',
        params: phoneInvitationParamsSchema,
        response: { 204: z.null(), ...failures(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await cancelPhoneInvitation(deps, currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  const mutes = createInvitationMuteService(deps);
  const muteTags = ['access requests'];

  app.post(
    '/api/access_requests/:id/mute/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: muteTags,
        security,
        summary:
          'Mute the invitations of this invitation’s administrator: this and his later ones are not shown, no SMS (0030)',
        params: accessRequestParamsSchema,
        response: { 204: z.null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      await mutes.muteFromInvitation(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/invitation_mutes/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: muteTags,
        security,
        summary: 'The administrators whose invitations the caller muted',
        response: { 200: invitationMuteListSchema, ...failures(401) },
      },
    },
    async (request) => ({ mutes: await mutes.list(currentUser(request)) }),
  );

  app.delete(
    '/api/invitation_mutes/:id/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: muteTags,
        security,
        summary: 'Lift a mute: this administrator’s later invitations are shown again',
        params: invitationMuteParamsSchema,
        response: { 204: z.null(), ...failures(401, 404) },
      },
    },
    async (request, reply) => {
      await mutes.unmute(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
