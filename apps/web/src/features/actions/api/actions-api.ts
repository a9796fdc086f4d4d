/**
 * Change history (spec.md section 7). `scope` picks the user calls or the administrator's (`/api/admin/…`),
 * so both history screens share this code.
 */
import type {
  ActionDetail,
  ActionType,
  actionDetailSchema,
  actionListSchema,
} from '@propusk/contracts/actions';
import type { Phone, phoneSchema } from '@propusk/contracts/phones';
import type { z } from 'zod';
import { api, apiDownload } from '../../../lib/api-client';

export type { ActionDetail, ActionType };
export type ActionList = z.infer<typeof actionListSchema>;
export type HistoryScope = 'user' | 'admin';

export const HISTORY_PAGE_SIZE = 10;

const prefix = (scope: HistoryScope) => (scope === 'admin' ? '/api/admin' : '/api');

export interface ActionFilters {
  action_type?: ActionType | undefined;
  /** ISO date-times; empty filters are left out of the query. */
  created_from?: string | undefined;
  created_to?: string | undefined;
  /** Administrator side only: the actions on this user's phones. */
  user?: number | undefined;
}

export const actionsQueryKey = (
  scope: HistoryScope,
  barrierId: number,
  filters: ActionFilters,
  page: number,
) => ['actions', scope, barrierId, filters, page] as const;

export function getActions(scope: HistoryScope, barrierId: number, filters: ActionFilters, page: number) {
  return api.get<typeof actionListSchema>(`${prefix(scope)}/barriers/${barrierId}/actions/`, {
    query: { page, page_size: HISTORY_PAGE_SIZE, ...filters },
  });
}

export const actionDetailQueryKey = (scope: HistoryScope, id: number) =>
  ['actions', scope, 'detail', id] as const;

/** The action, then its phone when it names one (spec.md section 7). */
export async function getActionDetail(
  scope: HistoryScope,
  id: number,
): Promise<{ action: ActionDetail; phone: Pick<Phone, 'phone' | 'type'> | null }> {
  const action = await api.get<typeof actionDetailSchema>(`${prefix(scope)}/actions/${id}/`);
  const phone = action.phone
    ? await api.get<typeof phoneSchema>(`${prefix(scope)}/phones/${action.phone}/`)
    : null;
  return { action, phone };
}

/** The administrator's history with these filters, as a file (the list's filters, without its page). */
export function downloadActionsExport(barrierId: number, filters: ActionFilters, format: 'csv' | 'xlsx') {
  return apiDownload(
    `/api/admin/barriers/${barrierId}/actions/export/`,
    { format, ...filters },
    `history.${format}`,
  );
}
