import { z } from 'zod';
import './zod-messages.ts';

/**
 * "Проверить устройство" (`/api/admin/barriers/{id}/device-check/`): the server reads the device's whitelist
 * back, shows where it differs from the database and what the repair costs, and repairs on confirmation.
 */
export const DEVICE_CHECK_STATUSES = ['reading', 'ready', 'failed', 'repaired', 'cancelled'] as const;
export type DeviceCheckStatus = (typeof DEVICE_CHECK_STATUSES)[number];

/** Why a check failed: a query got no reply, the device refused the password, or did not understand. */
export const DEVICE_CHECK_FAILURES = ['no_reply', 'refused', 'format_error'] as const;

export const startDeviceCheckBodySchema = z
  .object({
    /** Read every slot of the device, not only the area in use (costs more SMS). */
    full: z.boolean({ error: 'Must be true or false.' }).optional(),
  })
  .default({});

export const deviceCheckDifferenceSchema = z.object({
  /** The slot (null: a number found on a device without slots). */
  slot: z.number().int().nullable(),
  /** What the device holds there: '+7…', the raw text it answered, or null (empty). */
  device: z.string().nullable(),
  /** What the database wants there now (null: nothing). */
  expected: z.string().nullable(),
  /** remove: a number the database does not allow; write: a number the device lacks or holds wrongly. */
  action: z.enum(['remove', 'write']),
});
export type DeviceCheckDifference = z.infer<typeof deviceCheckDifferenceSchema>;

export const deviceCheckSchema = z.object({
  id: z.number().int(),
  status: z.enum(DEVICE_CHECK_STATUSES),
  full: z.boolean(),
  /** A periodic audit started by the server (repaired by itself once read). */
  automatic: z.boolean(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Query SMS of this check, and how many were answered. */
  queries_total: z.number().int(),
  queries_answered: z.number().int(),
  failure: z.enum(DEVICE_CHECK_FAILURES).nullable(),
  /** Slots read (empty for a device without slots). */
  slots_read: z.number().int(),
  /**
   * The last slot the check read (it reads slots 1 to this one), and the unit's slots in all (issue 41: a
   * number past the read range is not seen, so «совпадают» must name the range). Null for a device read as a
   * list (all of it at once).
   */
  slots_read_to: z.number().int().nullable(),
  slot_count: z.number().int().nullable(),
  differences: z.array(deviceCheckDifferenceSchema),
  /** SMS the repair would send now (deletes first): the sum of the two below. */
  repair_sms: z.number().int(),
  /** Of them, SMS that write or delete numbers (issue 32 item 5). */
  repair_numbers_sms: z.number().int(),
  /** Of them, SMS that set the unit's clock and settings (a time window needs the clock). */
  repair_clock_sms: z.number().int(),
});
export type DeviceCheck = z.infer<typeof deviceCheckSchema>;

export const deviceCheckResponseSchema = z.object({
  check: deviceCheckSchema.nullable(),
  /** The server reads the device back by itself every this many days (null: only on request). */
  audit_every_days: z.number().int().nullable(),
});

/** `PUT /api/admin/barriers/{id}/device-check/audit/`. */
export const DEVICE_AUDIT_DAYS = { min: 1, max: 90 } as const;
export const deviceAuditBodySchema = z.object({
  every_days: z
    .number({ error: 'Must be a whole number of days from 1 to 90, or null.' })
    .int({ error: 'Must be a whole number of days from 1 to 90, or null.' })
    .min(DEVICE_AUDIT_DAYS.min, { error: 'Must be a whole number of days from 1 to 90, or null.' })
    .max(DEVICE_AUDIT_DAYS.max, { error: 'Must be a whole number of days from 1 to 90, or null.' })
    .nullable(),
});
export const deviceAuditResponseSchema = z.object({ audit_every_days: z.number().int().nullable() });
export type DeviceCheckResponse = z.infer<typeof deviceCheckResponseSchema>;

export const repairDeviceResponseSchema = z.object({
  check: deviceCheckSchema,
  /** Commands queued by the repair. */
  queued: z.number().int(),
});
export type RepairDeviceResponse = z.infer<typeof repairDeviceResponseSchema>;

/**
 * `POST /api/admin/barriers/{id}/device-check/factory-reset/` (issue 30 item 4): the administrator declares
 * «устройство сброшено к заводским настройкам». The server speaks the model's factory password, sets the
 * stored one again (`password_command_id`, null when the stored one is the factory one) and reads the whitelist
 * back, repairing it by itself (`check`).
 */
export const factoryResetResponseSchema = z.object({
  password_command_id: z.number().int().nullable(),
  check: deviceCheckSchema,
});
export type FactoryResetResponse = z.infer<typeof factoryResetResponseSchema>;

export const DEVICE_CHECK_RUNNING_DETAIL = 'A check of this device is already reading it.';
export const DEVICE_CHECK_NOT_READY_DETAIL = 'There is no finished check to repair from.';

/** A barrier's device profile (`/api/admin/barriers/{id}/device-profile/`). */
export const OVERRIDE_REPLY_KINDS = ['add', 'add_window', 'delete', 'set_clock', 'refused'] as const;

export const deviceProfileSchema = z.object({
  number_format: z.string().optional(),
  /** The clock command's digit order (issue 30): one of the model's documented clock forms. */
  clock_order: z.string().optional(),
  replies: z.partialRecord(z.enum(OVERRIDE_REPLY_KINDS), z.array(z.string())).optional(),
  /** The unit's own power texts, learnt by a conformance run (issue 42 item 3): recognised exactly. */
  alarms: z.partialRecord(z.enum(['power_failure', 'power_restored']), z.array(z.string())).optional(),
});

export const deviceProfileBodySchema = z.object({
  number_format: z.unknown().optional(),
  clock_order: z.unknown().optional(),
  replies: z.unknown().optional(),
  alarms: z.unknown().optional(),
});

export const sourcedFormSchema = z.object({ template: z.string(), source: z.string() });

export const deviceProfileResponseSchema = z.object({
  model: z.string(),
  /** The override stored for this barrier (null: the model's sheet as it is). */
  profile: deviceProfileSchema.nullable(),
  /** The number form commands use now, and the forms to choose from. */
  number_format: z.string(),
  number_formats: z.array(z.object({ value: z.string(), label: z.string() })),
  /** The documented reply forms of the model, with their sources. */
  documented: z.object({
    number_format: z.string(),
    number_format_source: z.string(),
    replies: z.record(z.string(), z.array(sourcedFormSchema)),
  }),
});
export type DeviceProfileResponse = z.infer<typeof deviceProfileResponseSchema>;

/**
 * The move of an existing barrier to the alarm layout (issue 30 item 5), offered in «Проверить устройство»:
 * the gateway's number into slot 1 (the unit sends its power-failure SMS there), residents out of slots 1–6
 * where the unit has room. `GET …/device-check/alarm-layout/` shows the plan and its exact SMS count;
 * `POST` with that count carries it out (409 `alarm_layout_cost_changed` when the count moved meanwhile).
 */
export const alarmLayoutPlanSchema = z.object({
  /** The move can be made: the model sends alarms, a gateway number is configured, slot 1 can be freed. */
  available: z.boolean(),
  /** Why not (`alarm_layout_unsupported` | `alarm_layout_no_gateway` | `alarm_layout_no_room` | `alarm_layout_done`). */
  reason: z.string().nullable(),
  /** The number that goes into slot 1 (the gateway's, as configured now). */
  gateway_number: z.string().nullable(),
  /** The gateway number slot 1 holds now (null: the move was never made). */
  current_gateway_number: z.string().nullable(),
  /**
   * The configured gateway number differs from the one in slot 1: the offer rewrites slot 1, nothing moves
   * (with `gateway_number` null: the deployment has none any more, and slot 1 is cleared).
   */
  rewrite: z.boolean(),
  /** Residents moved: from slot → to slot. */
  moves: z.array(z.object({ from: z.number().int(), to: z.number().int() })),
  /** Slots among 2–6 that keep a resident (the unit has no room above): they keep getting its alarms. */
  staying: z.array(z.number().int()),
  /** Where residents live afterwards. */
  first_resident_slot: z.number().int(),
  /** SMS the move sends, exactly as the outbox will plan them. */
  sms: z.number().int(),
});
export type AlarmLayoutPlan = z.infer<typeof alarmLayoutPlanSchema>;

export const applyAlarmLayoutBodySchema = z.object({
  /** The SMS count the administrator was shown and confirmed. */
  expected_sms: z.number({ error: 'Must be a number.' }).int().min(0).max(100_000),
});

/** The answer of the move: the commands it queued. */
export const applyAlarmLayoutResponseSchema = z.object({ queued: z.number().int() });
