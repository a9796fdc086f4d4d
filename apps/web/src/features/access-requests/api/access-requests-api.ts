/**
 * Access requests (spec.md section 7). `scope` picks the user calls or the administrator's (`/api/admin/…`):
 * both sides list by direction, accept/reject/cancel and start a request (the administrator's is an
 * invitation) with the same bodies. Types from @propusk/contracts/access-requests.
 */
import type {
  AccessRequest,
  accessRequestListSchema,
  accessRequestSchema,
  InvitePhoneResponse,
  invitationMuteListSchema,
  invitePhoneResponseSchema,
  PhoneInvitation,
  phoneInvitationListSchema,
  UpdateAccessRequestBody,
} from '@propusk/contracts/access-requests';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { AccessRequest };
export type AccessRequestList = z.infer<typeof accessRequestListSchema>;
export type PhoneInvitationList = z.infer<typeof phoneInvitationListSchema>;
export type { InvitePhoneResponse, PhoneInvitation };
export type AccessRequestDirection = 'incoming' | 'outgoing';
export type AccessRequestScope = 'user' | 'admin';

/** Infinite lists load 10 per page and stop at a shorter page (spec.md sections 4 and 9). */
export const ACCESS_REQUEST_PAGE_SIZE = 10;

const prefix = (scope: AccessRequestScope) => (scope === 'admin' ? '/api/admin' : '/api');

/** Every list of one side, for invalidation. */
export const accessRequestsKey = (scope: AccessRequestScope) => ['access-requests', scope] as const;

export const accessRequestsQueryKey = (scope: AccessRequestScope, type: AccessRequestDirection) =>
  [...accessRequestsKey(scope), type] as const;

export function getAccessRequests(scope: AccessRequestScope, type: AccessRequestDirection, page: number) {
  return api.get<typeof accessRequestListSchema>(`${prefix(scope)}/access_requests/my/`, {
    query: { type, page, page_size: ACCESS_REQUEST_PAGE_SIZE },
  });
}

export function updateAccessRequest(scope: AccessRequestScope, id: number, body: UpdateAccessRequestBody) {
  return api.patch<typeof accessRequestSchema>(`${prefix(scope)}/access_requests/${id}/`, body);
}

/** How many requests wait for this side's decision (the counter on "Заявки"); under accessRequestsKey. */
export const pendingIncomingCountKey = (scope: AccessRequestScope) =>
  [...accessRequestsKey(scope), 'pending-count'] as const;

export async function getPendingIncomingCount(scope: AccessRequestScope): Promise<number> {
  const list = await api.get<typeof accessRequestListSchema>(`${prefix(scope)}/access_requests/my/`, {
    query: { type: 'incoming', status: 'pending', page: 1, page_size: 1 },
  });
  return list.total_count;
}

/** A user asks for access; an administrator invites a user (an access request started from his side). */
export function createAccessRequest(scope: AccessRequestScope, body: { user: number; barrier: number }) {
  return api.post<typeof accessRequestSchema>(`${prefix(scope)}/access_requests/`, body);
}

/**
 * Invitation by number (issue 14 part 2): a number with an account is invited as usual; one without gets an
 * invitation that waits for it to register (and one SMS, when the budgets allow).
 */
export function invitePhone(body: { barrier: number; phone: string }) {
  return api.post<typeof invitePhoneResponseSchema>('/api/admin/phone_invitations/', body);
}

/** Invitations waiting for a number to register; under accessRequestsKey('admin'). */
export const phoneInvitationsKey = [...accessRequestsKey('admin'), 'phone-invitations'] as const;

export function getPhoneInvitations() {
  return api.get<typeof phoneInvitationListSchema>('/api/admin/phone_invitations/', {
    query: { page: 1, page_size: 100 },
  });
}

export function cancelPhoneInvitation(id: number) {
  return api.delete(`/api/admin/phone_invitations/${id}/`);
}

/**
 * A person mutes the invitations of an invitation's administrator (issue 40 item 4): this one and his later
 * ones are not shown, no SMS; listed and lifted above «Входящие». Under accessRequestsKey('user').
 */
export function muteInvitationsOf(requestId: number) {
  return api.post(`/api/access_requests/${requestId}/mute/`);
}

export const invitationMutesKey = [...accessRequestsKey('user'), 'mutes'] as const;

export function getInvitationMutes() {
  return api.get<typeof invitationMuteListSchema>('/api/invitation_mutes/');
}

export function unmuteInvitations(muteId: number) {
  return api.delete(`/api/invitation_mutes/${muteId}/`);
}
