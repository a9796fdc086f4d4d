/** Own profile calls (spec.md section 7 "Own profile"); types from @propusk/contracts/users. */

import type { checkAdminResponseSchema } from '@propusk/contracts/auth';
import type {
  changePhoneResponseSchema,
  Profile,
  profileSchema,
  UpdateProfileBody,
} from '@propusk/contracts/users';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type { Profile };

export const profileQueryKey = ['users', 'me'] as const;

export function getProfile() {
  return api.get<typeof profileSchema>('/api/users/me/');
}

export const profileQueryOptions = queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function updateProfile(body: UpdateProfileBody) {
  return api.patch<typeof profileSchema>('/api/users/me/', body);
}

export function deleteAccount(verificationToken: string) {
  return api.delete('/api/users/me/', { verification_token: verificationToken });
}

export function changePhone(body: {
  new_phone: string;
  old_verification_token: string;
  new_verification_token: string;
}) {
  return api.patch<typeof changePhoneResponseSchema>('/api/users/me/phone/', body);
}

export function changePassword(body: {
  old_password: string;
  new_password: string;
  verification_token: string;
}) {
  return api.patch('/api/users/me/password/', body);
}

/** Whether this phone belongs to an administrator (spec.md section 4: sets the admin flag after load). */
export const isAdminQueryKey = (phone: string) => ['users', 'check-admin', phone] as const;

export function getIsAdmin(phone: string) {
  return api
    .post<typeof checkAdminResponseSchema>('/api/users/check_admin/', { phone }, { auth: false })
    .then((response) => response.is_admin);
}
