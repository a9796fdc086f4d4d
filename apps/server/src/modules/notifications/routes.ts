import {
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
  pushSubscriptionBodySchema,
  pushUnsubscribeBodySchema,
  vapidKeySchema,
} from '@propusk/contracts/notifications';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { errorResponses } from '../../plugins/error-responses.ts';
import { getPreferences, subscribe, unsubscribe, updatePreferences, vapidPublicKey } from './service.ts';

const tags = ['notifications'];
const security = [{ bearer: [] }];

/** Web Push (issue 43, docs/decisions/0035): the VAPID key, a device's subscription, the person's choices. */
export const notificationRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/notifications/vapid-key/',
    {
      schema: {
        tags,
        summary: "The server's VAPID public key (applicationServerKey of pushManager.subscribe); public",
        response: { 200: vapidKeySchema },
      },
    },
    async () => vapidPublicKey(deps),
  );

  app.get(
    '/api/notifications/preferences/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The events the caller may be told of, his choices, quiet hours and subscribed devices',
        response: { 200: notificationPreferencesSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => getPreferences(deps, currentUser(request)),
  );

  app.patch(
    '/api/notifications/preferences/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Change the caller’s choices per event and his quiet hours (minutes after local midnight)',
        body: notificationPreferencesUpdateSchema,
        response: { 200: notificationPreferencesSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => updatePreferences(deps, currentUser(request), request.body),
  );

  app.post(
    '/api/notifications/subscriptions/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Subscribe this device (the browser's PushSubscription); the same endpoint again is updated",
        body: pushSubscriptionBodySchema,
        response: { 201: notificationPreferencesSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await subscribe(deps, currentUser(request), request.body)),
  );

  app.post(
    '/api/notifications/subscriptions/delete/',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Unsubscribe this device (its endpoint); an unknown endpoint is already gone',
        body: pushUnsubscribeBodySchema,
        response: { 204: z.null(), ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      await unsubscribe(deps, currentUser(request), request.body.endpoint);
      return reply.status(204).send(null);
    },
  );
};
