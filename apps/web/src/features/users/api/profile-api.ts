/** Own profile calls (spec.md section 7 "Own profile"); types from @propusk/contracts/users. */
import type { changePhoneResponseSchema, Profile, UpdateProfileBody } from '@propusk/contracts/users';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type { Profile };

export const profileQueryKey = ['users', 'me'] as const;

export function getProfile() {
  return api.get('/api/users/me/') as Promise<Profile>;
}

export const profileQueryOptions = queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function updateProfile(body: UpdateProfileBody) {
  return api.patch('/api/users/me/', body) as Promise<Profile>;
}

export function deleteAccount(verificationToken: string) {
  return api.delete('/api/users/me/', { verification_token: verificationToken });
}

export function changePhone(body: {
  new_phone: string;
  old_verification_token: string;
  new_verification_token: string;
}) {
  return api.patch('/api/users/me/phone/', body) as Promise<z.infer<typeof changePhoneResponseSchema>>;
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
  return (
    api.post('/api/users/check_admin/', { phone }, { auth: false }) as Promise<{ is_admin: boolean }>
  ).then((response) => response.is_admin);
}
