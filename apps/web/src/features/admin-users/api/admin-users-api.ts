/**
 * Users of the administrator's barriers (spec.md section 7): the list of one barrier with search, removal,
 * search by exact phone, one user, and the administrator's own block and unblock.
 */
import type {
  AdminUser,
  adminUserSchema,
  BarrierUserListQuery,
  BlockedUserList,
  barrierUserListSchema,
  blockedUserListSchema,
} from '@propusk/contracts/barrier-users';
import type { z } from 'zod';
import { api, apiDownload } from '../../../lib/api-client';

export type { AdminUser, BlockedUserList };
export type BarrierUserList = z.infer<typeof barrierUserListSchema>;
export type BarrierUser = BarrierUserList['users'][number];

/** spec.md section 9: barrier users 10 per page. */
export const BARRIER_USER_PAGE_SIZE = 10;

export const adminUsersKey = ['admin', 'users'] as const;

export interface BarrierUsersParams {
  barrierId: number;
  page: number;
  search?: string | undefined;
  /** Default: spec.md's 10; a choice of a resident asks for up to 100. */
  pageSize?: number | undefined;
  /** The desk table's column order (BARRIER_USER_ORDERINGS); default: by the date of access. */
  ordering?: BarrierUserListQuery['ordering'];
}

export const barrierUsersQueryKey = (params: BarrierUsersParams) =>
  [...adminUsersKey, 'barrier', params] as const;

export function getBarrierUsers({ barrierId, page, search, pageSize, ordering }: BarrierUsersParams) {
  return api.get<typeof barrierUserListSchema>(`/api/admin/barriers/${barrierId}/users/`, {
    query: { page, page_size: pageSize ?? BARRIER_USER_PAGE_SIZE, search, ordering },
  });
}

export function removeBarrierUser(barrierId: number, userId: number) {
  return api.delete(`/api/admin/barriers/${barrierId}/users/${userId}/`);
}

export function searchUser(phone: string) {
  return api.post<typeof adminUserSchema>('/api/admin/users/search/', { phone });
}

export const adminUserQueryKey = (id: number) => [...adminUsersKey, 'detail', id] as const;

export function getAdminUser(id: number) {
  return api.get<typeof adminUserSchema>(`/api/admin/users/${id}/`);
}

export function blockUser(id: number, reason: string) {
  return api.patch<typeof adminUserSchema>(`/api/admin/users/${id}/block/`, { reason });
}

export function unblockUser(id: number) {
  return api.patch<typeof adminUserSchema>(`/api/admin/users/${id}/unblock/`);
}

/** The barrier's users with their phones, as a file. */
export function downloadUsersExport(barrierId: number, format: 'csv' | 'xlsx') {
  return apiDownload(`/api/admin/barriers/${barrierId}/users/export/`, { format }, `users.${format}`);
}

export const blockedUsersQueryKey = (barrierId: number, page: number) =>
  [...adminUsersKey, 'blocked', barrierId, page] as const;

/** «Заблокированные»: the people the barrier's owner blocked, 10 per page. */
export function getBlockedUsers(barrierId: number, page: number) {
  return api.get<typeof blockedUserListSchema>(`/api/admin/barriers/${barrierId}/blocked/`, {
    query: { page, page_size: BARRIER_USER_PAGE_SIZE },
  });
}
