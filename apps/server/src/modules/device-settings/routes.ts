import { idParamsSchema } from '@propusk/contracts/common';
import {
  sendSettingBodySchema,
  sendSettingResponseSchema,
  settingCommandParamsSchema,
  settingCommandResponseSchema,
  settingsResponseSchema,
} from '@propusk/contracts/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { getSettingCommand, listBarrierSettings, sendBarrierSetting } from './service.ts';

export const deviceSettingsRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  app.get(
    '/api/admin/barriers/:id/settings/',
    {
      schema: {
        tags: ['settings'],
        summary: "The settings of the barrier's device model, keyed by setting id",
        description: 'The device password placeholder `{pwd}` is filled by the server and is not a param.',
        security,
        params: idParamsSchema,
        response: { 200: settingsResponseSchema, ...failures(401, 403, 404) },
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
        security,
        params: idParamsSchema,
        body: sendSettingBodySchema,
        response: { 200: sendSettingResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) =>
      sendBarrierSetting(deps, currentUser(request), request.params.id, {
        setting: request.body.setting,
        params: request.body.params,
      }),
  );

  app.get(
    '/api/admin/barriers/:id/settings/commands/:commandId/',
    {
      schema: {
        tags: ['settings'],
        summary: 'Where a sent setting is: sent, confirmed by the device, or failed',
        description:
          '`sent` covers queued and handed to the SMS gateway; the settings screen polls it until the device answers.',
        security,
        params: settingCommandParamsSchema,
        response: { 200: settingCommandResponseSchema, ...failures(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) =>
      getSettingCommand(deps, currentUser(request), request.params.id, request.params.commandId),
  );
};
