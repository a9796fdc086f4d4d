import { z } from 'zod';
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
export const settingsResponseSchema = z.object({ settings: z.record(z.string(), settingSchema) });
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
