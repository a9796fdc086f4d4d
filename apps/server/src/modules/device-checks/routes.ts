import { idParamsSchema } from '@propusk/contracts/common';
import {
  alarmLayoutPlanSchema,
  applyAlarmLayoutBodySchema,
  applyAlarmLayoutResponseSchema,
  deviceAuditBodySchema,
  deviceAuditResponseSchema,
  deviceCheckResponseSchema,
  deviceProfileBodySchema,
  deviceProfileResponseSchema,
  factoryResetResponseSchema,
  repairDeviceResponseSchema,
  startDeviceCheckBodySchema,
} from '@propusk/contracts/device-checks';
import {
  deviceProfileFileSchema,
  importDeviceProfileBodySchema,
  importDeviceProfileResponseSchema,
} from '@propusk/contracts/device-profile-file';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { failures, security } from '../../plugins/route-helpers.ts';
import { applyAlarmLayout, getAlarmLayoutPlan } from './alarm-layout.ts';
import { declareFactoryReset } from './factory-reset.ts';
import { getDeviceProfile, setDeviceProfile } from './profile.ts';
import { exportDeviceProfile, importDeviceProfile } from './profile-file.ts';
import { getDeviceCheck, repairDevice, setDeviceAudit, startDeviceCheck } from './service.ts';

export const deviceCheckRoutes: FastifyPluginAsyncZod<{ deps: Dependencies }> = async (app, { deps }) => {
  const common = { tags: ['device checks'], security, params: idParamsSchema };

  app.get(
    '/api/admin/barriers/:id/device-check/alarm-layout/',
    {
      schema: {
        ...common,
        summary: "The move to the alarm layout: the gateway's number into slot 1 (nothing is written)",
        description:
          "RTU-family units send their power-failure SMS to slot 1 and their alarms to slots 1–6 (RTU5025 manual p. 10, note 3). The plan puts the gateway's number (DEVICE_GATEWAY_PHONE) into slot 1 and moves residents out of 1–6 where the unit has room; `sms` is the outbox's exact count. `available: false` says why (`reason`, an error code).",
        response: { 200: alarmLayoutPlanSchema, ...failures(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => getAlarmLayoutPlan(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/barriers/:id/device-check/alarm-layout/',
    {
      schema: {
        ...common,
        summary: 'Carry out the move to the alarm layout',
        description:
          "`expected_sms`: the count the administrator was shown; 409 `alarm_layout_cost_changed` when the move costs something else now (nothing is written), 409 with the plan's `reason` when it is not available, 409 when the weekly SMS limit would be exceeded.",
        body: applyAlarmLayoutBodySchema,
        response: { 200: applyAlarmLayoutResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) =>
      applyAlarmLayout(deps, currentUser(request), request.params.id, request.body.expected_sms),
  );

  app.get(
    '/api/admin/barriers/:id/device-check/',
    {
      schema: {
        ...common,
        summary: "The barrier's latest device check (null: never checked)",
        description:
          '"Проверить устройство": while `reading`, the read-back queries are on their way; `ready` lists where the device differs from the database and the SMS the repair would send; `failed` says why (`no_reply`, `refused`, `format_error`).',
        response: { 200: deviceCheckResponseSchema, ...failures(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => getDeviceCheck(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/barriers/:id/device-check/',
    {
      schema: {
        ...common,
        summary: "Read the device's whitelist back",
        description:
          'Queues the fewest read-back SMS of the model (ranges of 10 slots on RTU units, covering the slots in use and the next; `full: true` reads every slot; the whole list on Telemetrica). 409 while another check is reading, or when the weekly SMS limit would be exceeded.',
        body: startDeviceCheckBodySchema,
        response: { 201: deviceCheckResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request, reply) => {
      const result = await startDeviceCheck(
        deps,
        currentUser(request),
        request.params.id,
        request.body ?? {},
      );
      return reply.code(201).send(result);
    },
  );

  app.post(
    '/api/admin/barriers/:id/device-check/repair/',
    {
      schema: {
        ...common,
        summary: 'Repair the device from the latest finished check',
        description:
          'Trusts the reading (the slots read hold what the device said; the clock is set again when windows are in use) and queues the fewest commands that bring the device to the database, deletes first. 409 unless the latest check is `ready`, or over the weekly SMS limit.',
        response: { 200: repairDeviceResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => repairDevice(deps, currentUser(request), request.params.id),
  );

  app.post(
    '/api/admin/barriers/:id/device-check/factory-reset/',
    {
      schema: {
        ...common,
        summary: 'Declare that the unit was reset to its factory settings',
        description:
          "The model's factory password (its sheet, cited) becomes the stored one; a password change sets the unit back to the password the server had; the whitelist is read back and repaired by itself. 400 `device_factory_password_unknown` when no source gives the model's factory password. Written to the barrier history.",
        response: { 200: factoryResetResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => declareFactoryReset(deps, currentUser(request), request.params.id),
  );

  app.put(
    '/api/admin/barriers/:id/device-check/audit/',
    {
      schema: {
        ...common,
        summary: 'Read the device back by itself every N days (1–90), or never (null)',
        description:
          'The device worker starts a due audit when the weekly SMS limit has room for the read; an audit that finds the device out of step repairs it at once (withdrawals never wait for a budget). Written to the barrier history.',
        body: deviceAuditBodySchema,
        response: { 200: deviceAuditResponseSchema, ...failures(401, 403, 404) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => setDeviceAudit(deps, currentUser(request), request.params.id, request.body.every_days),
  );

  app.get(
    '/api/admin/barriers/:id/device-profile/',
    {
      schema: {
        ...common,
        summary: "The barrier's device profile and its model's documented forms",
        response: { 200: deviceProfileResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => getDeviceProfile(deps, currentUser(request), request.params.id),
  );

  app.put(
    '/api/admin/barriers/:id/device-profile/',
    {
      schema: {
        ...common,
        summary: "Override the number form or add reply forms for the barrier's unit",
        description:
          '`number_format`: one of 0007, 007, +7, 7, 8, 10. `replies`: per command kind (add, add_window, delete, set_clock, refused) up to 5 forms with the placeholders of that command ({slot}, {number}, {start}, {end}, {time}); they are tried before the documented ones. An empty body restores the sheet. Written to the barrier history.',
        body: deviceProfileBodySchema,
        response: { 200: deviceProfileResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => setDeviceProfile(deps, currentUser(request), request.params.id, request.body ?? {}),
  );

  app.get(
    '/api/admin/barriers/:id/device-profile/export/',
    {
      schema: {
        ...common,
        summary: "The barrier's device profile as a file (docs/devices/PROFILE-FORMAT.md)",
        description:
          "Format `propusk-device-profile`, version 1: the model's commands and replies as the unit answers them (learnt forms marked `learnt`), the number form, the clock order, and the barrier's finished conformance runs (`verified`). Never the device password (commands carry `{pwd}`).",
        response: { 200: deviceProfileFileSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request, reply) => {
      const file = await exportDeviceProfile(deps, currentUser(request), request.params.id);
      reply.header(
        'content-disposition',
        `attachment; filename="propusk-profile-${file.model}-${request.params.id}.json"`,
      );
      return file;
    },
  );

  app.post(
    '/api/admin/barriers/:id/device-profile/import/',
    {
      schema: {
        ...common,
        summary: "Replace the barrier's device profile with a profile file's",
        description:
          "`file`: the file's text. Checked length first (64 KB), then format and version, shape, the barrier's model, each form's parameters; 400 `device_profile_file_invalid` with `problems` (Russian) changes nothing. One transaction, written to the barrier history.",
        body: importDeviceProfileBodySchema,
        response: { 200: importDeviceProfileResponseSchema, ...failures(401, 403, 404, 409) },
      },
      preHandler: app.requireAdmin,
    },
    async (request) => importDeviceProfile(deps, currentUser(request), request.params.id, request.body.file),
  );
};
