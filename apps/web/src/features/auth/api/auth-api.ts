/**
 * Login and recovery calls (spec.md section 7 "Authentication"). Types come from @propusk/contracts/auth;
 * only types are imported so that zod stays out of the login chunk.
 */
import type {
  checkAdminResponseSchema,
  loginResponseSchema,
  passwordVerificationResponseSchema,
  requestCodeResponseSchema,
  VerificationMode,
  verifyCodeResponseSchema,
} from '@propusk/contracts/auth';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type RequestCodeResponse = z.infer<typeof requestCodeResponseSchema>;
export type VerifyCodeResponse = z.infer<typeof verifyCodeResponseSchema>;
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** The success value of the verify call (spec.md section 3). */
export const CODE_VERIFIED_MESSAGE = 'Code verified successfully.';
export const PASSWORD_VERIFIED_MESSAGE = 'Password verified successfully.';

export function checkAdmin(phone: string) {
  return api.post('/api/users/check_admin/', { phone }, { auth: false }) as Promise<
    z.infer<typeof checkAdminResponseSchema>
  >;
}

/** Codes for logged-in modes (change phone, delete account) send the token too. */
export function requestCode(phone: string, mode: VerificationMode) {
  const needsAuth = mode !== 'login' && mode !== 'reset_password';
  return api.post('/api/auth/codes/', { phone, mode }, { auth: needsAuth }) as Promise<RequestCodeResponse>;
}

export function verifyCode(body: { phone: string; code: string; verification_token: string }) {
  return api.patch('/api/auth/codes/verify/', body, { auth: false }) as Promise<VerifyCodeResponse>;
}

export function login(body: { phone: string; verification_token: string }) {
  return api.post('/api/auth/login/', body, { auth: false }) as Promise<LoginResponse>;
}

export function verifyAdminPassword(body: { phone: string; password: string }) {
  return api.post('/api/auth/admin/password_verification/', body, { auth: false }) as Promise<
    z.infer<typeof passwordVerificationResponseSchema>
  >;
}

export function resetPassword(body: { phone: string; new_password: string; verification_token: string }) {
  return api.patch('/api/users/me/password/reset/', body, { auth: false });
}
