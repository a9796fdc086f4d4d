/** Guest passes (issue 14 part 5): the resident's calls and the guest's public ones (no login). */

import { GUEST_PASS_HOLDER_HEADER } from '@propusk/contracts/guest-pass-header';
import type {
  AdminCreateGuestPassBody,
  CreatedGuestPass,
  CreateGuestPassBody,
  createdGuestPassSchema,
  GuestPass,
  guestPassCodeResponseSchema,
  guestPassListSchema,
  guestPassSchema,
  PublicGuestPass,
  publicGuestPassSchema,
  RedeemGuestPassBody,
  redeemedGuestPassSchema,
} from '@propusk/contracts/guest-passes';
import { api } from '../../../lib/api-client';

export type { CreatedGuestPass, GuestPass, PublicGuestPass };

export const guestPassesQueryKey = (barrierId: number) => ['guest-passes', barrierId] as const;

export function getGuestPasses(barrierId: number) {
  return api.get<typeof guestPassListSchema>(`/api/barriers/${barrierId}/guest-passes/`, {
    query: { page_size: 100 },
  });
}

export function createGuestPass(barrierId: number, body: CreateGuestPassBody) {
  return api.post<typeof createdGuestPassSchema>(`/api/barriers/${barrierId}/guest-passes/`, body);
}

export function revokeGuestPass(barrierId: number, passId: number) {
  return api.delete<typeof guestPassSchema>(`/api/barriers/${barrierId}/guest-passes/${passId}/`);
}

/** The link as the guest opens it: this site's origin and the pass's path. */
export const guestPassLink = (pass: CreatedGuestPass) => `${window.location.origin}${pass.url}`;

export const publicGuestPassQueryKey = (token: string) => ['guest-pass', token] as const;

const holderStorageKey = (token: string) => `propusk.guest-pass-holder.${token}`;

/** The key a used pass answered, kept by this browser so that the guest's page shows the gate's number again. */
export function rememberGuestPassHolder(token: string, holderKey: string): void {
  try {
    window.localStorage.setItem(holderStorageKey(token), holderKey);
  } catch {
    // Storage refused (private mode): the number is shown now, not when the link is reopened.
  }
}

function storedGuestPassHolder(token: string): string | null {
  try {
    return window.localStorage.getItem(holderStorageKey(token));
  } catch {
    return null;
  }
}

/** The pass of a link; a guest who used it sends his key and reads the gate's number again. */
export function getPublicGuestPass(token: string) {
  const holder = storedGuestPassHolder(token);
  return api.get<typeof publicGuestPassSchema>(`/api/guest-passes/${encodeURIComponent(token)}/`, {
    auth: false,
    ...(holder ? { headers: { [GUEST_PASS_HOLDER_HEADER]: holder } } : {}),
  });
}

export function requestGuestPassCode(token: string, phone: string) {
  return api.post<typeof guestPassCodeResponseSchema>(
    `/api/guest-passes/${encodeURIComponent(token)}/code/`,
    { phone },
    { auth: false },
  );
}

export function redeemGuestPass(token: string, body: RedeemGuestPassBody) {
  return api.post<typeof redeemedGuestPassSchema>(
    `/api/guest-passes/${encodeURIComponent(token)}/redeem/`,
    body,
    {
      auth: false,
    },
  );
}

/** The administrator's side (permission 'phones.manage'): every pass of the barrier. */
export const adminGuestPassesQueryKey = (barrierId: number) => ['admin', 'guest-passes', barrierId] as const;

export function getAdminGuestPasses(barrierId: number) {
  return api.get<typeof guestPassListSchema>(`/api/admin/barriers/${barrierId}/guest-passes/`, {
    query: { page_size: 100 },
  });
}

export function createAdminGuestPass(barrierId: number, body: AdminCreateGuestPassBody) {
  return api.post<typeof createdGuestPassSchema>(`/api/admin/barriers/${barrierId}/guest-passes/`, body);
}

export function revokeAdminGuestPass(barrierId: number, passId: number) {
  return api.delete<typeof guestPassSchema>(`/api/admin/barriers/${barrierId}/guest-passes/${passId}/`);
}
