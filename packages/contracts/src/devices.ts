import { z } from 'zod';
import { idSchema, pageQuerySchema, paginated } from './common.ts';

/**
 * A phone's device status: `pending` while its command is on its way to the device, `ok` once the device
 * confirmed it, `error` when it failed after every retry (an administrator may ask for another try).
 */
export const PHONE_STATUSES = ['pending', 'ok', 'error'] as const;
export type PhoneStatus = (typeof PHONE_STATUSES)[number];
export const phoneStatusSchema = z.enum(PHONE_STATUSES);

/** `POST /api/admin/phones/{id}/retry/`: the phone's status once its commands are queued again. */
export const retryPhoneResponseSchema = z.object({
  id: z.number().int(),
  status: phoneStatusSchema,
});

export const PHONE_NOT_IN_ERROR_DETAIL = 'Only a phone in error can be retried.';

/** The conversation with a device (`GET /api/admin/barriers/{id}/device-log/`): every SMS to and from it. */
/** `notice`: an SMS about the unit to an administrator (its power lost), sent or not, and why. */
export const DEVICE_MESSAGE_DIRECTIONS = ['out', 'in', 'notice'] as const;
export type DeviceMessageDirection = (typeof DEVICE_MESSAGE_DIRECTIONS)[number];
/**
 * `sent`: the gateway accepted the SMS; `gateway_failed`: it did not (sent again later). `confirmed` /
 * `refused` / `format_error`: the reply to the command in flight (refused: the device rejected the password;
 * format_error: it did not understand the command);
 * `unrecognised`: a reply from the device's number that matched nothing; `late`: a reply naming a command that
 * had already finished (a repeated delivery, or an answer after the command failed), kept and ignored
 * (docs/decisions/0025); `acknowledged`: a change's own answer where the list read sent after it confirms it
 * (a delete on TELL, whose answer names nothing), kept and confirming nothing. `power_failure` / `power_restored` / `alarm`: an SMS the unit sent by itself (its
 * supply was cut, came back, or another alarm; recognised by the model's alarm forms, issue 30 item 5).
 * `notice_sent` / `notice_over_limit` / `notice_daily_limit`: an administrator's SMS on power loss was sent,
 * or not (the weekly SMS limit spent; the day's notices used: docs/decisions/0035).
 */
export const DEVICE_MESSAGE_OUTCOMES = [
  'sent',
  'gateway_failed',
  'confirmed',
  'refused',
  'format_error',
  'unrecognised',
  'late',
  'acknowledged',
  'power_failure',
  'power_restored',
  'alarm',
  'notice_sent',
  'notice_over_limit',
  'notice_daily_limit',
] as const;
export type DeviceMessageOutcome = (typeof DEVICE_MESSAGE_OUTCOMES)[number];

export const DEVICE_LOG_PAGE_SIZE = 20;

export const deviceLogParamsSchema = z.object({ id: idSchema });

export const deviceLogQuerySchema = pageQuerySchema.extend({
  page_size: pageQuerySchema.shape.page_size.unwrap().default(DEVICE_LOG_PAGE_SIZE),
  outcome: z
    .enum(DEVICE_MESSAGE_OUTCOMES, {
      error: `Outcome must be one of: ${DEVICE_MESSAGE_OUTCOMES.join(', ')}.`,
    })
    .optional(),
});
export type DeviceLogQuery = z.infer<typeof deviceLogQuerySchema>;

export const deviceMessageSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  direction: z.enum(DEVICE_MESSAGE_DIRECTIONS),
  /** The SMS text with the device password masked as `****`. */
  text: z.string(),
  outcome: z.enum(DEVICE_MESSAGE_OUTCOMES),
  /** The command this SMS carried or answered (null for an unrecognised reply). */
  command_id: z.number().int().nullable(),
  /** add | add_window | delete | set_clock | setting, when the command is known. */
  command_kind: z.string().nullable(),
  /** The gateway's id of an outgoing SMS, when it gave one. */
  provider_id: z.string().nullable(),
});
export type DeviceMessage = z.infer<typeof deviceMessageSchema>;

export const deviceLogSchema = paginated('messages', deviceMessageSchema).extend({
  /** Replies from the device's number that matched nothing, over the whole log (not only this filter). */
  unrecognised_count: z.number().int(),
});
export type DeviceLog = z.infer<typeof deviceLogSchema>;

/**
 * A device's health: `ok`; `waiting` (commands on their way, nothing wrong yet); `not_responding` (a command
 * failed since the last confirmed one, the one in flight had to be sent again, or the oldest waits too
 * long); `wrong_password` (the device refused the last command's password). docs/decisions/0007.
 * `password_suspected`: commands with the password go unanswered while the unit is proven on the air (it sent
 * an SMS since the silence began): a wrong password gets no answer at all on King Pigeon units (0025).
 * `phone_elsewhere`: a unit with this number confirmed a command of another barrier first; nothing is sent
 * from this one (issue 40 item 4, decision 0030).
 */
export const DEVICE_STATES = [
  'ok',
  'waiting',
  'not_responding',
  'wrong_password',
  'password_suspected',
  'phone_elsewhere',
] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];
export const deviceStateSchema = z.enum(DEVICE_STATES);

/**
 * The unit's supply as its own SMS tell it (issue 30 item 5): `lost` from its power-failure SMS until its
 * restoration SMS; `restored` for a day after that. RTU-family units send them to slot 1 only.
 */
export const DEVICE_POWER_STATES = ['lost', 'restored'] as const;
export type DevicePower = (typeof DEVICE_POWER_STATES)[number];
export const devicePowerSchema = z.enum(DEVICE_POWER_STATES);

export const deviceHealthSchema = z.object({
  state: deviceStateSchema,
  /** The last SMS received from the device, or null. */
  last_reply_at: z.string().nullable(),
  /** Commands not yet confirmed or failed (queued or in flight). */
  open_commands: z.number().int(),
  oldest_open_at: z.string().nullable(),
  oldest_open_age_seconds: z.number().int().nullable(),
  /** Commands failed since the last confirmed one. */
  consecutive_failures: z.number().int(),
  unrecognised_count: z.number().int(),
  /** The unit's supply by its own SMS (DEVICE_POWER_STATES), and when it said so; null: nothing to tell. */
  power: devicePowerSchema.nullable(),
  power_since: z.string().nullable(),
  /** Alarm SMS (other than power) the unit sent in the last 24 hours. */
  alarms_today: z.number().int(),
});
export type DeviceHealth = z.infer<typeof deviceHealthSchema>;
