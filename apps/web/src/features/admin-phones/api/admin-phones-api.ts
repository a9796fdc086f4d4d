/**
 * Phones of users on the administrator's barriers (spec.md section 7), and another try for a phone whose
 * device command failed (`POST /api/admin/phones/{id}/retry/`, DESIGN.md section 6).
 */
import type { retryPhoneResponseSchema } from '@propusk/contracts/devices';
import type {
  AdminAddPhoneBody,
  Phone,
  phoneListSchema,
  phoneSchema,
  UpdatePhoneBody,
  WeeklyScheduleInput,
  weeklyScheduleSchema,
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
  return api.get<typeof phoneListSchema>(`/api/admin/barriers/${barrierId}/phones/my/`, {
    query: { user: userId, page: 1, page_size: USER_PHONES_PAGE_SIZE },
  });
}

export const adminPhoneQueryKey = (id: number) => [...adminPhonesKey, 'detail', id] as const;

export function getAdminPhone(id: number) {
  return api.get<typeof phoneSchema>(`/api/admin/phones/${id}/`);
}

export const adminScheduleQueryKey = (id: number) => [...adminPhonesKey, 'schedule', id] as const;

export function getAdminSchedule(id: number) {
  return api.get<typeof weeklyScheduleSchema>(`/api/admin/phones/${id}/schedule/`);
}

export function addUserPhone(barrierId: number, body: AdminAddPhoneBody) {
  return api.post<typeof phoneSchema>(`/api/admin/barriers/${barrierId}/phones/`, body);
}

export function updateAdminPhone(id: number, body: UpdatePhoneBody & { user?: number }) {
  return api.patch<typeof phoneSchema>(`/api/admin/phones/${id}/`, body);
}

export function putAdminSchedule(id: number, schedule: WeeklyScheduleInput) {
  return api.put<typeof weeklyScheduleSchema>(`/api/admin/phones/${id}/schedule/`, schedule);
}

export function deleteAdminPhone(id: number) {
  return api.delete(`/api/admin/phones/${id}/`);
}

export function retryPhone(id: number) {
  return api.post<typeof retryPhoneResponseSchema>(`/api/admin/phones/${id}/retry/`);
}
