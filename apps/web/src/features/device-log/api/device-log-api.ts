/**
 * The device conversation log and the device's health of one of the administrator's barriers (issue 10,
 * parts 3 and 5). Types from @propusk/contracts.
 */
import type {
  DeviceHealth,
  DeviceLog,
  DeviceMessageOutcome,
  deviceHealthSchema,
  deviceLogSchema,
} from '@propusk/contracts/devices';
import { api } from '../../../lib/api-client';

export type { DeviceHealth, DeviceLog, DeviceMessageOutcome };

export const DEVICE_LOG_PAGE_SIZE = 20;

export const deviceLogKey = ['admin', 'device-log'] as const;

export const deviceLogQueryKey = (
  barrierId: number,
  outcome: DeviceMessageOutcome | undefined,
  page: number,
) => [...deviceLogKey, 'messages', barrierId, outcome ?? 'all', page] as const;

export function getDeviceLog(barrierId: number, outcome: DeviceMessageOutcome | undefined, page: number) {
  return api.get<typeof deviceLogSchema>(`/api/admin/barriers/${barrierId}/device-log/`, {
    query: { page, page_size: DEVICE_LOG_PAGE_SIZE, outcome },
  });
}

export const deviceHealthQueryKey = (barrierId: number) => [...deviceLogKey, 'health', barrierId] as const;

export function getDeviceHealth(barrierId: number) {
  return api.get<typeof deviceHealthSchema>(`/api/admin/barriers/${barrierId}/device-health/`);
}
