import { z } from 'zod';
import { idSchema } from './common.ts';
import './zod-messages.ts';

/** One parameter of a device setting; the device password `{pwd}` is filled by the server and is never one. */
export const settingParamSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  example: z.string(),
});

export const settingSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The SMS template with `{key}` placeholders (the client previews it filled with the entered values). */
  template: z.string(),
  params: z.array(settingParamSchema),
});
export type Setting = z.infer<typeof settingSchema>;

/** `GET /api/admin/barriers/{id}/settings/`: the settings of the barrier's device model, keyed by id. */
export const settingsResponseSchema = z.object({
  settings: z.record(z.string(), settingSchema),
  /**
   * Settings that may not be sent now, by id, with the error code the server would answer (relay settings
   * of a barrier whose command dialect is not known: `relay_dialect_unknown`).
   */
  unavailable: z.record(z.string(), z.object({ code: z.string() })).optional(),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

/** `POST /api/admin/barriers/{id}/settings/` */
export const sendSettingBodySchema = z.object({
  setting: z.string({ error: 'Setting must be a string.' }).min(1, { error: 'Setting is required.' }),
  params: z
    .record(z.string(), z.union([z.string(), z.number()]).transform(String).nullable())
    .optional()
    .default({}),
});
export type SendSettingBody = z.input<typeof sendSettingBodySchema>;

export const sendSettingResponseSchema = z.object({
  detail: z.string(),
  /** The device command carrying the setting; its reply is awaited in the background. */
  command_id: z.number().int(),
});

/** `GET /api/admin/barriers/{id}/settings/commands/{commandId}/`: where a sent setting is. */
export const settingCommandParamsSchema = z.object({ id: idSchema, commandId: idSchema });

/**
 * `sent`: queued or handed to the SMS gateway, no answer yet; `confirmed`: the device answered it;
 * `failed`: it will not be done (see `failure`).
 */
export const SETTING_COMMAND_STATES = ['sent', 'confirmed', 'failed'] as const;
export type SettingCommandState = (typeof SETTING_COMMAND_STATES)[number];

/** Why a setting failed: no answer after every retry, the password refused, the command not understood, or cancelled. */
export const SETTING_COMMAND_FAILURES = ['no_reply', 'wrong_password', 'not_understood', 'not_sent'] as const;
export type SettingCommandFailure = (typeof SETTING_COMMAND_FAILURES)[number];

export const settingCommandResponseSchema = z.object({
  command_id: z.number().int(),
  setting: z.string(),
  state: z.enum(SETTING_COMMAND_STATES),
  failure: z.enum(SETTING_COMMAND_FAILURES).nullable(),
});
export type SettingCommand = z.infer<typeof settingCommandResponseSchema>;
