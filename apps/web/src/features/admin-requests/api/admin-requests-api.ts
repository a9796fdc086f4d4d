/** The administrator's access requests (spec.md section 7): list by direction, accept/reject/cancel, invite. */
import type {
  AccessRequest,
  accessRequestListSchema,
  UpdateAccessRequestBody,
} from '@propusk/contracts/access-requests';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { AccessRequest };
export type AccessRequestList = z.infer<typeof accessRequestListSchema>;
export type RequestDirection = 'incoming' | 'outgoing';

/** spec.md section 9: admin requests 10 per page; the list stops at a shorter page. */
export const ADMIN_REQUEST_PAGE_SIZE = 10;

export const adminRequestsKey = ['admin', 'access-requests'] as const;
export const adminRequestsQueryKey = (type: RequestDirection) => [...adminRequestsKey, type] as const;

export function getAdminRequests(type: RequestDirection, page: number) {
  return api.get('/api/admin/access_requests/my/', {
    query: { type, page, page_size: ADMIN_REQUEST_PAGE_SIZE },
  }) as Promise<AccessRequestList>;
}

export function updateAdminRequest(id: number, body: UpdateAccessRequestBody) {
  return api.patch(`/api/admin/access_requests/${id}/`, body) as Promise<AccessRequest>;
}

/** Inviting a user to a barrier is an access request started by the administrator. */
export function inviteUser(body: { user: number; barrier: number }) {
  return api.post('/api/admin/access_requests/', body) as Promise<AccessRequest>;
}
