/** Barrier calls of the user side (spec.md section 7 "User side"); types from @propusk/contracts. */
import type {
  BarrierDetail,
  BarrierOrdering,
  BarrierSummary,
  barrierDetailSchema,
  barrierListSchema,
  ClosedBarrier,
  checkAccessSchema,
  myBarrierListSchema,
} from '@propusk/contracts/barriers';
import type { Limits, limitsSchema } from '@propusk/contracts/limits';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { rememberBarriers } from '../../../lib/offline-snapshot';

export type { BarrierDetail, BarrierSummary, Limits };
/** `closed_by_admin`: only «Мои шлагбаумы» (GET /api/barriers/my/) carries it. */
export type BarrierList = z.infer<typeof barrierListSchema> & { closed_by_admin?: ClosedBarrier[] };

/** spec.md section 9: the barrier list shows 5 per page. */
export const BARRIER_PAGE_SIZE = 5;

export interface BarrierListParams {
  /** 'my': barriers the user has access to; 'all': the public search. */
  scope: 'my' | 'all';
  page: number;
  ordering?: BarrierOrdering | undefined;
  address?: string | undefined;
}

export const barriersQueryKey = (params: BarrierListParams) => ['barriers', 'list', params] as const;

export async function getBarriers({ scope, page, ordering, address }: BarrierListParams) {
  const query = { page, page_size: BARRIER_PAGE_SIZE, ordering, address };
  const list: BarrierList = await (scope === 'my'
    ? api.get<typeof myBarrierListSchema>('/api/barriers/my/', { query })
    : api.get<typeof barrierListSchema>('/api/barriers/', { query }));
  // His barriers' gates for the app opened offline (issue 43): the first page of his own list.
  if (scope === 'my' && page === 1 && !address) rememberBarriers(list.barriers);
  return list;
}

export const barrierQueryKey = (id: number) => ['barriers', 'detail', id] as const;

/**
 * A barrier's row of the resident's list as /start read it: his barrier screen draws its card from it while the
 * card's own read is on its way (issue 32 item 8). Put in the cache by /start, never fetched.
 */
export const barrierRowQueryKey = (id: number) => ['barriers', 'row', id] as const;

export function getBarrier(id: number) {
  return api.get<typeof barrierDetailSchema>(`/api/barriers/${id}/`);
}

export function checkBarrierAccess(id: number) {
  return api.get<typeof checkAccessSchema>(`/api/barriers/${id}/check_access/`);
}

export const limitsQueryKey = (id: number) => ['barriers', 'limits', id] as const;

export function getLimits(id: number) {
  return api.get<typeof limitsSchema>(`/api/barriers/${id}/limits/`);
}

export function leaveBarrier(id: number) {
  return api.delete(`/api/barriers/${id}/leave/`);
}
