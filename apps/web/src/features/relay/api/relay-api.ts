/** Openings of a gate and the emergency hold-open (issue 16). Types from @propusk/contracts. */

import type { adminBarrierListSchema } from '@propusk/contracts/barriers';
import type {
  EmergencyHold,
  emergencyHoldListSchema,
  emergencyHoldSchema,
  Opening,
  OpeningStatus,
  openingListSchema,
  openingSchema,
} from '@propusk/contracts/relay';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { EmergencyHold, Opening, OpeningStatus };

export type RelaySide = 'user' | 'admin';
export const OPENINGS_PAGE_SIZE = 10;

export interface OpeningFilters {
  status?: OpeningStatus | undefined;
  phone?: string | undefined;
  requested_from?: string | undefined;
  requested_to?: string | undefined;
}

export type OpeningList = z.infer<typeof openingListSchema>;

export const openingsKey = ['relay', 'openings'] as const;
export const openingsQueryKey = (side: RelaySide, barrierId: number, filters: OpeningFilters, page: number) =>
  [...openingsKey, side, barrierId, filters, page] as const;

const base = (side: RelaySide, barrierId: number) =>
  side === 'user' ? `/api/barriers/${barrierId}` : `/api/admin/barriers/${barrierId}`;

/** `tappedAt`: when the person tapped, in the server's clock; the server refuses a tap that arrives late. */
export function openGate(side: RelaySide, barrierId: number, tappedAt: string) {
  return api.post<typeof openingSchema>(`${base(side, barrierId)}/open/`, { tapped_at: tappedAt });
}

export function getOpenings(side: RelaySide, barrierId: number, filters: OpeningFilters, page: number) {
  return api.get<typeof openingListSchema>(`${base(side, barrierId)}/openings/`, {
    query: { page, page_size: OPENINGS_PAGE_SIZE, ...filters },
  });
}

export const holdsKey = ['relay', 'holds'] as const;
export const holdQueryKey = (id: number) => [...holdsKey, id] as const;

export function listHolds() {
  return api.get<typeof emergencyHoldListSchema>('/api/admin/emergency-holds/', {
    query: { page: 1, page_size: 10 },
  });
}

export function getHold(id: number) {
  return api.get<typeof emergencyHoldSchema>(`/api/admin/emergency-holds/${id}/`);
}

export function startHold(body: { barrier_ids: 'all' | number[]; reason: string }) {
  return api.post<typeof emergencyHoldSchema>('/api/admin/emergency-holds/', body);
}

export function endHold(id: number) {
  return api.post<typeof emergencyHoldSchema>(`/api/admin/emergency-holds/${id}/end/`);
}

/** The administrator's barriers to choose from (one page of 100, the most the list gives). */
export async function getHoldableBarriers() {
  const list = await api.get<typeof adminBarrierListSchema>('/api/admin/barriers/my/', {
    query: { page: 1, page_size: 100, ordering: '-created_at' },
  });
  return list.barriers;
}
