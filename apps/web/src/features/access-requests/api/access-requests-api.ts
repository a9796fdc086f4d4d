/** Access requests of the user side (spec.md section 7); types from @propusk/contracts/access-requests. */
import type {
  AccessRequest,
  accessRequestListSchema,
  UpdateAccessRequestBody,
} from '@propusk/contracts/access-requests';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { AccessRequest };
export type AccessRequestList = z.infer<typeof accessRequestListSchema>;
export type AccessRequestDirection = 'incoming' | 'outgoing';

/** Infinite lists load 10 per page and stop at a shorter page (spec.md section 4). */
export const ACCESS_REQUEST_PAGE_SIZE = 10;

export const accessRequestsQueryKey = (type: AccessRequestDirection) =>
  ['access-requests', 'my', type] as const;

export function getAccessRequests(type: AccessRequestDirection, page: number) {
  return api.get('/api/access_requests/my/', {
    query: { type, page, page_size: ACCESS_REQUEST_PAGE_SIZE },
  }) as Promise<AccessRequestList>;
}

export function updateAccessRequest(id: number, body: UpdateAccessRequestBody) {
  return api.patch(`/api/access_requests/${id}/`, body) as Promise<AccessRequest>;
}

export function createAccessRequest(body: { user: number; barrier: number }) {
  return api.post('/api/access_requests/', body) as Promise<AccessRequest>;
}
