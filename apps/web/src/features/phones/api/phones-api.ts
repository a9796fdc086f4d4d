/** Extra phones of the user side (spec.md section 7); types from @propusk/contracts/phones. */
import type {
  AddPhoneBody,
  Phone,
  phoneListSchema,
  phoneSchema,
  UpdatePhoneBody,
  WeeklyScheduleInput,
  weeklyScheduleSchema,
} from '@propusk/contracts/phones';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { Phone, WeeklyScheduleInput };
export type PhoneList = z.infer<typeof phoneListSchema>;

export const myPhonesQueryKey = (barrierId: number) => ['phones', 'my', barrierId] as const;

export function getMyPhones(barrierId: number) {
  return api.get<typeof phoneListSchema>(`/api/barriers/${barrierId}/phones/my/`, {
    query: { page_size: 100 },
  });
}

export const phoneQueryKey = (id: number) => ['phones', 'detail', id] as const;

export function getPhone(id: number) {
  return api.get<typeof phoneSchema>(`/api/phones/${id}/`);
}

export const scheduleQueryKey = (id: number) => ['phones', 'schedule', id] as const;

export function getSchedule(id: number) {
  return api.get<typeof weeklyScheduleSchema>(`/api/phones/${id}/schedule/`);
}

export function addPhone(barrierId: number, body: AddPhoneBody) {
  return api.post<typeof phoneSchema>(`/api/barriers/${barrierId}/phones/`, body);
}

export function updatePhone(id: number, body: UpdatePhoneBody) {
  return api.patch<typeof phoneSchema>(`/api/phones/${id}/`, body);
}

export function putSchedule(id: number, schedule: WeeklyScheduleInput) {
  return api.put<typeof weeklyScheduleSchema>(`/api/phones/${id}/schedule/`, schedule);
}

export function deletePhone(id: number) {
  return api.delete(`/api/phones/${id}/`);
}
