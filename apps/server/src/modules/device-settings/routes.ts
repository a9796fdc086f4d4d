import { badRequestSchema, errorSchema, idParamsSchema } from '@propusk/contracts/common';
import {
  sendSettingBodySchema,
  sendSettingResponseSchema,
  settingsResponseSchema,
} from '@propusk/contracts/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { listBarrierSettings, sendBarrierSetting } from './service.ts';

export const deviceSettingsRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/admin/barriers/:id/settings/',
    {
      schema: {
        tags: ['settings'],
        summary: "The settings of the barrier's device model, keyed by setting id",
        description: 'The device password placeholder `{pwd}` is filled by the server and is not a param.',
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: { 200: settingsResponseSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => listBarrierSettings(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/barriers/:id/settings/',
    {
      schema: {
        tags: ['settings'],
        summary: 'Send a setting to the barrier device',
        description:
          'Missing params: 400 naming them. On success the command is queued (a `barrier_setting` history entry is written) and sent by the device worker; a confirmed password change updates the stored device password.',
        security: [{ bearer: [] }],
        params: idParamsSchema,
        body: sendSettingBodySchema,
        response: {
          200: sendSettingResponseSchema,
          // Field errors (`{"params": [...]}`) as well as `{detail}`: with `errorSchema` a field error could
          // not be serialised and became a 500.
          400: badRequestSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
      preHandler: app.requireAdmin,
    },
    async (request) =>
      sendBarrierSetting(deps, currentUser(request), request.params.id, {
        setting: request.body.setting,
        params: request.body.params,
      }),
  );
};
