/**
 * The demo provider's simulated units, reachable only when they exist (SMS_PROVIDER=demo, DEVICE_SIM=on):
 * a demo or a browser journey makes a unit drift the way real ones do (a number written by hand, a wiped
 * slot, a reset) and reads what it lets in. Owner of the barrier only; 404 everywhere else.
 */
import { idParamsSchema } from '@propusk/contracts/common';
import { isDeviceModel } from '@propusk/devices/models';
import { NUMBER_FORMATS } from '@propusk/devices/numbers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { requireBarrierPermission } from '../barrier-policy/policy.ts';

const driftBodySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('manual_add'),
    slot: z.number().int().min(1).max(10_000),
    phone: z.string().regex(/^\+7\d{10}$/, 'Номер в формате +7XXXXXXXXXX.'),
  }),
  z.object({ kind: z.literal('wipe_slot'), slot: z.number().int().min(1).max(10_000) }),
  z.object({ kind: z.literal('factory_reset') }),
  // The reset button: the factory password again, the numbers kept (issue 30 item 4).
  z.object({ kind: z.literal('password_reset') }),
  // The unit differs from its sheet (issue 42): its own texts for some forms, silence on others.
  z.object({
    kind: z.literal('differ'),
    replies: z
      .object({
        add: z.string().min(1).max(160).optional(),
        addWindow: z.string().min(1).max(160).optional(),
        delete: z.string().min(1).max(160).optional(),
        setClock: z.string().min(1).max(160).optional(),
      })
      .optional(),
    silent: z
      .array(z.enum(['add', 'addWindow', 'delete', 'setClock']))
      .max(4)
      .optional(),
    // It reads its clock and windows in this digit order (issue 42 item 2).
    clockOrder: z.enum(['yyMMddHHmm', 'ddMMyyHHmm']).optional(),
    // It stores numbers, and shows them in its read-back, in this form.
    numberFormat: z.enum(NUMBER_FORMATS).optional(),
    // Its own power SMS (issue 42 item 3).
    alarms: z
      .object({
        power_failure: z.string().min(1).max(160).optional(),
        power_restored: z.string().min(1).max(160).optional(),
      })
      .optional(),
    // It holds fewer numbers than its sheet says: an add above is answered with an error or silence.
    capacity: z.number().int().min(1).max(10_000).optional(),
    overCapacity: z.enum(['error', 'silence']).optional(),
  }),
  // The unit's next answers are lost (a password change's, say): it still acts on what it hears.
  z.object({ kind: z.literal('lose_replies'), count: z.number().int().min(1).max(100) }),
]);

const relaySchema = z.object({
  /** The relay is closed (the gate held open) now. */
  on: z.boolean(),
  /** The relay time the unit has (seconds; null: never set). */
  seconds: z.number().int().nullable(),
  /** How many times a command switched it. */
  changes: z.number().int(),
});

const alarmBodySchema = z.object({
  /** `lost`: the unit's supply is cut; `restored`: it comes back; `alarm`: another alarm of the unit. */
  event: z.enum(['lost', 'restored', 'alarm']),
});

const alarmResultSchema = z.object({
  /** SMS the unit sent (one per recipient slot that holds a number: slot 1 for power, 1–6 for alarms). */
  sent: z.number().int(),
  /** Of them, those to the gateway's number: they reach the server, after DEVICE_SIM_DELAY_MS. */
  to_gateway: z.number().int(),
});

const callBodySchema = z.object({
  from: z
    .string()
    .max(20)
    .regex(/^\+7\d{10}$/, 'Номер в формате +7XXXXXXXXXX.'),
});

const callResultSchema = z.object({ opened: z.boolean() });

const whitelistSchema = z.object({
  entries: z.array(z.object({ slot: z.number().int(), number: z.string() })),
});

/** What the simulated unit answered; null (it has not heard from us yet) is 409 `simulator_empty`. */
function heard<T>(answer: T | null): T {
  if (answer === null) throw conflict('simulator_empty');
  return answer;
}

export const demoDeviceRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const common = { tags: ['demo'], security, params: idParamsSchema };
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
        summary: "Make the barrier's simulated unit drift (demo provider only)",
        ...common,
        body: driftBodySchema,
        response: { 200: whitelistSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      const body = request.body;
      if (body.kind === 'lose_replies') {
        devices.loseReplies(request.params.id, body.count);
        return { entries: devices.whitelist(request.params.id) ?? [] };
      }
      const change =
        body.kind === 'manual_add' ? { kind: body.kind, slot: body.slot, number: body.phone } : body;
      if (!devices.drift(request.params.id, change)) throw conflict('simulator_empty');
      return { entries: devices.whitelist(request.params.id) ?? [] };
    },
  );

  app.get(
    '/api/demo/devices/:id/',
    {
      schema: {
        summary: "What the barrier's simulated unit lets in now (demo provider only)",
        ...common,
        response: { 200: whitelistSchema, ...failures(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      return { entries: devices.whitelist(request.params.id) ?? [] };
    },
  );

  app.post(
    '/api/demo/devices/:id/power/',
    {
      schema: {
        summary: "The barrier's simulated unit loses or regains its supply (demo provider only)",
        description:
          'The unit sends its power SMS to the number in slot 1 (RTU5025 manual p. 10, note 3); the server hears it when slot 1 holds the gateway (DEVICE_GATEWAY_PHONE).',
        ...common,
        body: alarmBodySchema,
        response: { 200: alarmResultSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      const kind = ({ lost: 'power_failure', restored: 'power_restored', alarm: 'alarm' } as const)[
        request.body.event
      ];
      const result = heard(await devices.raiseAlarm(request.params.id, kind));
      return { sent: result.sent, to_gateway: result.toGateway };
    },
  );

  app.post(
    '/api/demo/devices/:id/call/',
    {
      schema: {
        summary: "Ring the barrier's simulated unit from a number: does the gate open? (demo provider only)",
        description:
          'As a call to a real unit: it opens for a number its table holds whose window (if any) is open by its own clock. Used by the conformance run’s call step in demos and journeys.',
        ...common,
        body: callBodySchema,
        response: { 200: callResultSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      return { opened: heard(devices.call(request.params.id, request.body.from)) };
    },
  );

  app.get(
    '/api/demo/devices/:id/relay/',
    {
      schema: {
        summary: "The barrier's simulated relay now (demo provider only)",
        ...common,
        response: { 200: relaySchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => {
      const devices = await owned(currentUser(request).id, request.params.id);
      return heard(devices.relay(request.params.id));
    },
  );
};
