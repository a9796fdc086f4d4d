/**
 * The administrator's barriers (spec.md section 7 "Administrator side"): list, card, create, edit, delete,
 * limits, and the address suggestions of the create form. Types from @propusk/contracts.
 */
import type { addressSuggestResponseSchema } from '@propusk/contracts/addresses';
import type {
  AdminBarrier,
  adminBarrierListSchema,
  adminBarrierSchema,
  BarrierOrdering,
  CreateBarrierBody,
  UpdateBarrierBody,
} from '@propusk/contracts/barriers';
import type { Limits, limitsSchema, UpdateLimitsBody } from '@propusk/contracts/limits';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { AdminBarrier, Limits };
export type AdminBarrierList = z.infer<typeof adminBarrierListSchema>;

/** spec.md section 9: the barrier list shows 5 per page. */
export const ADMIN_BARRIER_PAGE_SIZE = 5;
/** spec.md section 9: address suggestions default to 10 results. */
export const ADDRESS_SUGGESTION_COUNT = 10;

export interface AdminBarrierListParams {
  page: number;
  ordering?: BarrierOrdering | undefined;
  /** Words of the address (the desk's search; the server matches each as a prefix of a word). */
  address?: string | undefined;
}

export const adminBarriersKey = ['admin', 'barriers'] as const;
export const adminBarrierListQueryKey = (params: AdminBarrierListParams) =>
  [...adminBarriersKey, 'list', params] as const;

export function getAdminBarriers({ page, ordering, address }: AdminBarrierListParams) {
  return api.get<typeof adminBarrierListSchema>('/api/admin/barriers/my/', {
    query: { page, page_size: ADMIN_BARRIER_PAGE_SIZE, ordering, address },
  });
}

export const adminBarrierQueryKey = (id: number) => [...adminBarriersKey, 'detail', id] as const;

export function getAdminBarrier(id: number) {
  return api.get<typeof adminBarrierSchema>(`/api/admin/barriers/${id}/`);
}

export function createBarrier(body: CreateBarrierBody) {
  return api.post<typeof adminBarrierSchema>('/api/admin/barriers/', body);
}

export function updateBarrier(id: number, body: UpdateBarrierBody) {
  return api.patch<typeof adminBarrierSchema>(`/api/admin/barriers/${id}/`, body);
}

export function deleteBarrier(id: number) {
  return api.delete(`/api/admin/barriers/${id}/`);
}

export const adminLimitsQueryKey = (id: number) => [...adminBarriersKey, 'limits', id] as const;

export function getAdminLimits(id: number) {
  return api.get<typeof limitsSchema>(`/api/admin/barriers/${id}/limits/`);
}

export function updateAdminLimits(id: number, body: UpdateLimitsBody) {
  return api.patch<typeof limitsSchema>(`/api/admin/barriers/${id}/limits/`, body);
}

export const addressSuggestionsQueryKey = (query: string) => ['addresses', 'suggest', query] as const;

export function getAddressSuggestions(query: string) {
  return api.get<typeof addressSuggestResponseSchema>('/api/addresses/suggest/', {
    query: { query, count: ADDRESS_SUGGESTION_COUNT },
  });
}
