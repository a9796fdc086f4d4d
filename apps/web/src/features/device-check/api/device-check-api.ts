/**
 * "Проверить устройство" and the device profile of one of the administrator's barriers (issue 10, parts 2
 * and 4). Types from @propusk/contracts.
 */
import type {
  AlarmLayoutPlan,
  alarmLayoutPlanSchema,
  applyAlarmLayoutResponseSchema,
  DeviceCheck,
  DeviceProfileResponse,
  deviceAuditResponseSchema,
  deviceCheckResponseSchema,
  deviceProfileResponseSchema,
  factoryResetResponseSchema,
  repairDeviceResponseSchema,
} from '@propusk/contracts/device-checks';
import type {
  deviceProfileFileSchema,
  importDeviceProfileResponseSchema,
} from '@propusk/contracts/device-profile-file';
import { api } from '../../../lib/api-client';

export type { AlarmLayoutPlan, DeviceCheck, DeviceProfileResponse };

export const deviceCheckKey = ['admin', 'device-check'] as const;
export const deviceCheckQueryKey = (barrierId: number) => [...deviceCheckKey, 'check', barrierId] as const;
export const deviceProfileQueryKey = (barrierId: number) =>
  [...deviceCheckKey, 'profile', barrierId] as const;

export function getDeviceCheck(barrierId: number) {
  return api.get<typeof deviceCheckResponseSchema>(`/api/admin/barriers/${barrierId}/device-check/`);
}

export function startDeviceCheck(barrierId: number, full: boolean) {
  return api.post<typeof deviceCheckResponseSchema>(`/api/admin/barriers/${barrierId}/device-check/`, {
    full,
  });
}

export function repairDevice(barrierId: number) {
  return api.post<typeof repairDeviceResponseSchema>(`/api/admin/barriers/${barrierId}/device-check/repair/`);
}

/** «Устройство сброшено к заводским настройкам» (issue 30 item 4). */
export function declareFactoryReset(barrierId: number) {
  return api.post<typeof factoryResetResponseSchema>(
    `/api/admin/barriers/${barrierId}/device-check/factory-reset/`,
  );
}

export function setDeviceAudit(barrierId: number, everyDays: number | null) {
  return api.put<typeof deviceAuditResponseSchema>(`/api/admin/barriers/${barrierId}/device-check/audit/`, {
    every_days: everyDays,
  });
}

export function getDeviceProfile(barrierId: number) {
  return api.get<typeof deviceProfileResponseSchema>(`/api/admin/barriers/${barrierId}/device-profile/`);
}

export function saveDeviceProfile(
  barrierId: number,
  body: { number_format?: string; replies?: Record<string, string[]> },
) {
  return api.put<typeof deviceProfileResponseSchema>(
    `/api/admin/barriers/${barrierId}/device-profile/`,
    body,
  );
}

export const alarmLayoutQueryKey = (barrierId: number) =>
  [...deviceCheckKey, 'alarm-layout', barrierId] as const;

/** The move to the alarm layout: the gateway's number into slot 1 (issue 30 item 5). Nothing is written. */
export function getAlarmLayoutPlan(barrierId: number) {
  return api.get<typeof alarmLayoutPlanSchema>(`/api/admin/barriers/${barrierId}/device-check/alarm-layout/`);
}

export function applyAlarmLayout(barrierId: number, expectedSms: number) {
  return api.post<typeof applyAlarmLayoutResponseSchema>(
    `/api/admin/barriers/${barrierId}/device-check/alarm-layout/`,
    { expected_sms: expectedSms },
  );
}

/** The barrier's device profile as a file (issue 42 item 5, docs/devices/PROFILE-FORMAT.md). */
export async function exportDeviceProfile(barrierId: number): Promise<{ text: string; filename: string }> {
  const file = await api.get<typeof deviceProfileFileSchema>(
    `/api/admin/barriers/${barrierId}/device-profile/export/`,
  );
  return {
    text: `${JSON.stringify(file, null, 2)}\n`,
    filename: `propusk-profile-${file.model}-${barrierId}.json`,
  };
}

export function importDeviceProfile(barrierId: number, text: string) {
  return api.post<typeof importDeviceProfileResponseSchema>(
    `/api/admin/barriers/${barrierId}/device-profile/import/`,
    {
      file: text,
    },
  );
}
