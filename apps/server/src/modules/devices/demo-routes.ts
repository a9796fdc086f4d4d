/**
 * The demo provider's simulated units, reachable only when they exist (SMS_PROVIDER=demo, DEVICE_SIM=on):
 * a demo or a browser journey makes a unit drift the way real ones do (a number written by hand, a wiped
 * slot, a reset) and reads what it lets in. Owner of the barrier only; 404 everywhere else.
 */
import { errorSchema, idParamsSchema } from '@propusk/contracts/common';
import { isDeviceModel } from '@propusk/devices/models';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';

const driftBodySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('manual_add'),
    slot: z.number().int().min(1).max(10_000),
    phone: z.string().regex(/^\+7\d{10}$/, 'Номер в формате +7XXXXXXXXXX.'),
  }),
  z.object({ kind: z.literal('wipe_slot'), slot: z.number().int().min(1).max(10_000) }),
  z.object({ kind: z.literal('factory_reset') }),
]);

const relaySchema = z.object({
  /** The relay is closed (the gate held open) now. */
  on: z.boolean(),
  /** The relay time the unit has (seconds; null: never set). */
  seconds: z.number().int().nullable(),
  /** How many times a command switched it. */
  changes: z.number().int(),
});

const whitelistSchema = z.object({
  entries: z.array(z.object({ slot: z.number().int(), number: z.string() })),
});

export const demoDeviceRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const owned = async (userId: number, barrierId: number) => {
    if (!deps.demoDevices) throw notFound();
    const barrier = await requireBarrierPermission(deps.db, userId, barrierId, 'settings.manage');
    if (!isDeviceModel(barrier.deviceModel)) throw notFound();
    return deps.demoDevices;
  };

  app.post(
    '/api/demo/devices/:id/drift/',
    {
      schema: {
        tags: ['demo'],
        summary: "Make the barrier's simulated unit drift (demo provider only)",
        security: [{ bearer: [] }],
        params: idParamsSchema,
        body: driftBodySchema,
        response: {
          200: whitelistSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      const body = request.body;
      const change =
        body.kind === 'manual_add' ? { kind: body.kind, slot: body.slot, number: body.phone } : body;
      if (!devices.drift(request.params.id, change)) {
        throw conflict('simulator_empty');
      }
      return { entries: devices.whitelist(request.params.id) ?? [] };
    },
  );

  app.get(
    '/api/demo/devices/:id/',
    {
      schema: {
        tags: ['demo'],
        summary: "What the barrier's simulated unit lets in now (demo provider only)",
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: { 200: whitelistSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      return { entries: devices.whitelist(request.params.id) ?? [] };
    },
  );

  app.get(
    '/api/demo/devices/:id/relay/',
    {
      schema: {
        tags: ['demo'],
        summary: "The barrier's simulated relay now (demo provider only)",
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: {
          200: relaySchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
          409: errorSchema,
        },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      const relay = devices.relay(request.params.id);
      if (!relay) throw conflict('simulator_empty');
      return relay;
    },
  );
};
