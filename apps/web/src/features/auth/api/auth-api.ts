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
  return api.post<typeof checkAdminResponseSchema>('/api/users/check_admin/', { phone }, { auth: false });
}

/** Codes for logged-in modes (change phone, delete account) send the token too. */
export function requestCode(phone: string, mode: VerificationMode) {
  const needsAuth = mode !== 'login' && mode !== 'reset_password';
  return api.post<typeof requestCodeResponseSchema>('/api/auth/codes/', { phone, mode }, { auth: needsAuth });
}

export function verifyCode(body: { phone: string; code: string; verification_token: string }) {
  return api.patch<typeof verifyCodeResponseSchema>('/api/auth/codes/verify/', body, { auth: false });
}

/**
 * The nonce of the administrator's last password step, for the login that follows (server decision 0012: it
 * binds the password step to this login). Kept in memory only: after a reload the server still accepts a step
 * made from the same address within 5 minutes.
 */
let passwordStep: { phone: string; nonce: string } | null = null;

/** `consent_version`: the privacy policy version the person has just accepted (first login, 0022). */
export async function login(body: { phone: string; verification_token: string; consent_version?: string }) {
  const nonce = passwordStep?.phone === body.phone ? passwordStep.nonce : undefined;
  const session = await api.post<typeof loginResponseSchema>(
    '/api/auth/login/',
    nonce === undefined ? body : { ...body, password_nonce: nonce },
    { auth: false },
  );
  // A nonce opens one login.
  if (nonce !== undefined) passwordStep = null;
  return session;
}

export async function verifyAdminPassword(body: { phone: string; password: string }) {
  const verified = await api.post<typeof passwordVerificationResponseSchema>(
    '/api/auth/admin/password_verification/',
    body,
    { auth: false },
  );
  if (typeof verified.password_nonce === 'string') {
    passwordStep = { phone: body.phone, nonce: verified.password_nonce };
  }
  return verified;
}

export function resetPassword(body: { phone: string; new_password: string; verification_token: string }) {
  return api.patch('/api/users/me/password/reset/', body, { auth: false });
}
