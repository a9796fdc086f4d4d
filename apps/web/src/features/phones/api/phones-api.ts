/** Extra phones of the user side (spec.md section 7); types from @propusk/contracts/phones. */
import type {
  AddPhoneBody,
  Phone,
  phoneListSchema,
  UpdatePhoneBody,
  WeeklyScheduleInput,
} from '@propusk/contracts/phones';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { Phone, WeeklyScheduleInput };
export type PhoneList = z.infer<typeof phoneListSchema>;

export const myPhonesQueryKey = (barrierId: number) => ['phones', 'my', barrierId] as const;

export function getMyPhones(barrierId: number) {
  return api.get(`/api/barriers/${barrierId}/phones/my/`, {
    query: { page_size: 100 },
  }) as Promise<PhoneList>;
}

export const phoneQueryKey = (id: number) => ['phones', 'detail', id] as const;

export function getPhone(id: number) {
  return api.get(`/api/phones/${id}/`) as Promise<Phone>;
}

export const scheduleQueryKey = (id: number) => ['phones', 'schedule', id] as const;

export function getSchedule(id: number) {
  return api.get(`/api/phones/${id}/schedule/`) as Promise<WeeklyScheduleInput>;
}

export function addPhone(barrierId: number, body: AddPhoneBody) {
  return api.post(`/api/barriers/${barrierId}/phones/`, body) as Promise<Phone>;
}

export function updatePhone(id: number, body: UpdatePhoneBody) {
  return api.patch(`/api/phones/${id}/`, body) as Promise<Phone>;
}

export function putSchedule(id: number, schedule: WeeklyScheduleInput) {
  return api.put(`/api/phones/${id}/schedule/`, schedule) as Promise<WeeklyScheduleInput>;
}

export function deletePhone(id: number) {
  return api.delete(`/api/phones/${id}/`);
}
