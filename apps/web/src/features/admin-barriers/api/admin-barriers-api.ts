/**
 * The administrator's barriers (spec.md section 7 "Administrator side"): list, card, create, edit, delete,
 * limits, and the address suggestions of the create form. Types from @propusk/contracts.
 */
import type { AddressSuggestResponse } from '@propusk/contracts/addresses';
import type {
  AdminBarrier,
  adminBarrierListSchema,
  BarrierOrdering,
  CreateBarrierBody,
  UpdateBarrierBody,
} from '@propusk/contracts/barriers';
import type { Limits, UpdateLimitsBody } from '@propusk/contracts/limits';
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
  return api.get('/api/admin/barriers/my/', {
    query: { page, page_size: ADMIN_BARRIER_PAGE_SIZE, ordering, address },
  }) as Promise<AdminBarrierList>;
}

export const adminBarrierQueryKey = (id: number) => [...adminBarriersKey, 'detail', id] as const;

export function getAdminBarrier(id: number) {
  return api.get(`/api/admin/barriers/${id}/`) as Promise<AdminBarrier>;
}

export function createBarrier(body: CreateBarrierBody) {
  return api.post('/api/admin/barriers/', body) as Promise<AdminBarrier>;
}

export function updateBarrier(id: number, body: UpdateBarrierBody) {
  return api.patch(`/api/admin/barriers/${id}/`, body) as Promise<AdminBarrier>;
}

export function deleteBarrier(id: number) {
  return api.delete(`/api/admin/barriers/${id}/`);
}

export const adminLimitsQueryKey = (id: number) => [...adminBarriersKey, 'limits', id] as const;

export function getAdminLimits(id: number) {
  return api.get(`/api/admin/barriers/${id}/limits/`) as Promise<Limits>;
}

export function updateAdminLimits(id: number, body: UpdateLimitsBody) {
  return api.patch(`/api/admin/barriers/${id}/limits/`, body) as Promise<Limits>;
}

export const addressSuggestionsQueryKey = (query: string) => ['addresses', 'suggest', query] as const;

export function getAddressSuggestions(query: string) {
  return api.get('/api/addresses/suggest/', {
    query: { query, count: ADDRESS_SUGGESTION_COUNT },
  }) as Promise<AddressSuggestResponse>;
}
