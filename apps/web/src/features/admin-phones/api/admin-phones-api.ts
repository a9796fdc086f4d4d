/**
 * Phones of users on the administrator's barriers (spec.md section 7), and another try for a phone whose
 * device command failed (`POST /api/admin/phones/{id}/retry/`, DESIGN.md section 6).
 */
import type { retryPhoneResponseSchema } from '@propusk/contracts/devices';
import type {
  AdminAddPhoneBody,
  Phone,
  phoneListSchema,
  UpdatePhoneBody,
  WeeklyScheduleInput,
} from '@propusk/contracts/phones';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { Phone };
export type PhoneList = z.infer<typeof phoneListSchema>;

/** spec.md section 9: user phones 10 per page; a profile shows them all at once. */
export const USER_PHONES_PAGE_SIZE = 100;

export const adminPhonesKey = ['admin', 'phones'] as const;

export const userPhonesQueryKey = (barrierId: number, userId: number) =>
  [...adminPhonesKey, 'of-user', barrierId, userId] as const;

export function getUserPhones(barrierId: number, userId: number) {
  return api.get(`/api/admin/barriers/${barrierId}/phones/my/`, {
    query: { user: userId, page: 1, page_size: USER_PHONES_PAGE_SIZE },
  }) as Promise<PhoneList>;
}

export const adminPhoneQueryKey = (id: number) => [...adminPhonesKey, 'detail', id] as const;

export function getAdminPhone(id: number) {
  return api.get(`/api/admin/phones/${id}/`) as Promise<Phone>;
}

export const adminScheduleQueryKey = (id: number) => [...adminPhonesKey, 'schedule', id] as const;

export function getAdminSchedule(id: number) {
  return api.get(`/api/admin/phones/${id}/schedule/`) as Promise<WeeklyScheduleInput>;
}

export function addUserPhone(barrierId: number, body: AdminAddPhoneBody) {
  return api.post(`/api/admin/barriers/${barrierId}/phones/`, body) as Promise<Phone>;
}

export function updateAdminPhone(id: number, body: UpdatePhoneBody & { user?: number }) {
  return api.patch(`/api/admin/phones/${id}/`, body) as Promise<Phone>;
}

export function putAdminSchedule(id: number, schedule: WeeklyScheduleInput) {
  return api.put(`/api/admin/phones/${id}/schedule/`, schedule) as Promise<WeeklyScheduleInput>;
}

export function deleteAdminPhone(id: number) {
  return api.delete(`/api/admin/phones/${id}/`);
}

export function retryPhone(id: number) {
  return api.post(`/api/admin/phones/${id}/retry/`) as Promise<z.infer<typeof retryPhoneResponseSchema>>;
}
