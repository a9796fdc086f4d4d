/** Openings of a gate and the emergency hold-open (issue 16). Types from @propusk/contracts. */
import type { EmergencyHold, Opening, OpeningStatus } from '@propusk/contracts/relay';
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

export interface OpeningList {
  openings: Opening[];
  total_count: number;
  current_page: number;
  page_size: number;
}

export const openingsKey = ['relay', 'openings'] as const;
export const openingsQueryKey = (side: RelaySide, barrierId: number, filters: OpeningFilters, page: number) =>
  [...openingsKey, side, barrierId, filters, page] as const;

const base = (side: RelaySide, barrierId: number) =>
  side === 'user' ? `/api/barriers/${barrierId}` : `/api/admin/barriers/${barrierId}`;

/** `tappedAt`: when the person tapped, in the server's clock; the server refuses a tap that arrives late. */
export function openGate(side: RelaySide, barrierId: number, tappedAt: string) {
  return api.post(`${base(side, barrierId)}/open/`, { tapped_at: tappedAt }) as Promise<Opening>;
}

export function getOpenings(side: RelaySide, barrierId: number, filters: OpeningFilters, page: number) {
  return api.get(`${base(side, barrierId)}/openings/`, {
    query: { page, page_size: OPENINGS_PAGE_SIZE, ...filters },
  }) as Promise<OpeningList>;
}

export const holdsKey = ['relay', 'holds'] as const;
export const holdQueryKey = (id: number) => [...holdsKey, id] as const;

export function listHolds() {
  return api.get('/api/admin/emergency-holds/', { query: { page: 1, page_size: 10 } }) as Promise<{
    holds: EmergencyHold[];
    total_count: number;
  }>;
}

export function getHold(id: number) {
  return api.get(`/api/admin/emergency-holds/${id}/`) as Promise<EmergencyHold>;
}

export function startHold(body: { barrier_ids: 'all' | number[]; reason: string }) {
  return api.post('/api/admin/emergency-holds/', body) as Promise<EmergencyHold>;
}

export function endHold(id: number) {
  return api.post(`/api/admin/emergency-holds/${id}/end/`) as Promise<EmergencyHold>;
}

/** The administrator's barriers to choose from (one page of 100, the most the list gives). */
export async function getHoldableBarriers() {
  const list = (await api.get('/api/admin/barriers/my/', {
    query: { page: 1, page_size: 100, ordering: '-created_at' },
  })) as {
    barriers: { id: number; address: string }[];
  };
  return list.barriers;
}
