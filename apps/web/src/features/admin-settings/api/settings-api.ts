/** Device settings of a barrier (spec.md section 7): the model's settings, sending one, and following it. */
import type {
  SendSettingBody,
  Setting,
  SettingCommand,
  SettingsResponse,
  sendSettingResponseSchema,
  settingCommandResponseSchema,
  settingsResponseSchema,
} from '@propusk/contracts/settings';
import { api } from '../../../lib/api-client';

export type { Setting, SettingCommand, SettingsResponse };

export const barrierSettingsQueryKey = (barrierId: number) => ['admin', 'settings', barrierId] as const;

export function getBarrierSettings(barrierId: number) {
  return api.get<typeof settingsResponseSchema>(`/api/admin/barriers/${barrierId}/settings/`);
}

export function sendBarrierSetting(barrierId: number, body: SendSettingBody) {
  return api.post<typeof sendSettingResponseSchema>(`/api/admin/barriers/${barrierId}/settings/`, body);
}

export const settingCommandQueryKey = (barrierId: number, commandId: number) =>
  ['admin', 'settings', barrierId, 'command', commandId] as const;

/** Where a sent setting is: `sent` until the device answers, then `confirmed` or `failed`. */
export function getSettingCommand(barrierId: number, commandId: number) {
  return api.get<typeof settingCommandResponseSchema>(
    `/api/admin/barriers/${barrierId}/settings/commands/${commandId}/`,
  );
}
