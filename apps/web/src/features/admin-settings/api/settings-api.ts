/** Device settings of a barrier (spec.md section 7): the model's settings, and sending one to the device. */
import type {
  SendSettingBody,
  Setting,
  SettingsResponse,
  sendSettingResponseSchema,
} from '@propusk/contracts/settings';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { Setting, SettingsResponse };

export const barrierSettingsQueryKey = (barrierId: number) => ['admin', 'settings', barrierId] as const;

export function getBarrierSettings(barrierId: number) {
  return api.get(`/api/admin/barriers/${barrierId}/settings/`) as Promise<SettingsResponse>;
}

export function sendBarrierSetting(barrierId: number, body: SendSettingBody) {
  return api.post(`/api/admin/barriers/${barrierId}/settings/`, body) as Promise<
    z.infer<typeof sendSettingResponseSchema>
  >;
}
