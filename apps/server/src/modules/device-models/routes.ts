/**
 * «Свои модели устройств» (issue 42 item 4): an administrator's own models for units no built-in sheet
 * covers. Every route acts on the caller's own models only (another's is 404); the barrier route tells the
 * screens of a barrier whether its model is a defined one not yet verified on the unit.
 */
import { errorSchema, idParamsSchema } from '@propusk/contracts/common';
import {
  barrierDefinedModelSchema,
  deviceModelFileResponseSchema,
  deviceModelListSchema,
  deviceModelSchema,
  saveDeviceModelBodySchema,
} from '@propusk/contracts/device-model-definition';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import {
  barrierDefinedModelStatus,
  changeDeviceModel,
  defineModel,
  deleteDeviceModel,
  exportDeviceModel,
  listDeviceModels,
} from './service.ts';

export const deviceModelRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const tags = ['admin: device models'];
  const admin = { preHandler: app.requireAdmin };
  const saveDescription =
    'Body: `definition` (the editor) or `file` (the profile file version 2, 64 KB at most). Checked: the shape (lengths, control characters), each form’s parameters (unknown, missing), capacity, each command within one SMS once filled. 400 `device_model_invalid` with `problems` (Russian).';

  app.get(
    '/api/admin/device-models/',
    {
      ...admin,
      schema: {
        tags,
        security,
        summary: 'The caller’s own device models',
        response: { 200: deviceModelListSchema, ...failures(401, 403) },
      },
    },
    async (request) => listDeviceModels(deps, currentUser(request)),
  );

  app.post(
    '/api/admin/device-models/',
    {
      ...admin,
      schema: {
        tags,
        security,
        summary: 'Define a model',
        description: `${saveDescription} 409 \`device_models_limit\` past 20, \`device_model_name_taken\`.`,
        body: saveDeviceModelBodySchema,
        response: { 200: deviceModelSchema, ...failures(401, 403, 409) },
      },
    },
    async (request) => defineModel(deps, currentUser(request).id, request.body),
  );

  app.put(
    '/api/admin/device-models/:id/',
    {
      ...admin,
      schema: {
        tags,
        security,
        summary: 'Change a model (a barrier on it is unverified again until a conformance run)',
        description: saveDescription,
        params: idParamsSchema,
        body: saveDeviceModelBodySchema,
        response: { 200: deviceModelSchema, ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => changeDeviceModel(deps, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/admin/device-models/:id/',
    {
      ...admin,
      schema: {
        tags,
        security,
        summary: 'Delete a model (409 `device_model_in_use` while a barrier uses it)',
        params: idParamsSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      await deleteDeviceModel(deps, currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/device-models/:id/export/',
    {
      ...admin,
      schema: {
        tags,
        security,
        summary: 'A model as its file (the profile file version 2)',
        params: idParamsSchema,
        response: { 200: deviceModelFileResponseSchema, ...failures(401, 403, 404) },
      },
    },
    async (request) => exportDeviceModel(deps, currentUser(request).id, request.params.id),
  );

  app.get(
    '/api/admin/barriers/:id/device-model/',
    {
      ...admin,
      schema: {
        tags,
        security,
        summary:
          'Whether the barrier’s model is a defined one, and verified on its unit by a conformance run',
        params: idParamsSchema,
        response: { 200: barrierDefinedModelSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => barrierDefinedModelStatus(deps, currentUser(request), request.params.id),
  );
};
