/** The login flow over HTTP, as the web client drives it (helpers for auth and profile tests). */
import type { VerificationMode } from '@propusk/contracts/auth';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

export type Mode = VerificationMode;

export function requestCode(
  t: TestApp,
  phone: string,
  mode: Mode,
  options: { token?: string; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url: '/api/auth/codes/',
    payload: { phone, mode },
    ...options,
  });
}

export function verifyCode(
  t: TestApp,
  phone: string,
  code: string,
  verificationToken: string,
  options: { remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'PATCH',
    url: '/api/auth/codes/verify/',
    payload: { phone, code, verification_token: verificationToken },
    ...options,
  });
}

export function login(t: TestApp, phone: string, verificationToken: string): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { phone, verification_token: verificationToken },
  });
}

export function verifyPassword(t: TestApp, phone: string, password: string): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url: '/api/auth/admin/password_verification/',
    payload: { phone, password },
  });
}

/** Requests a code, reads it from the SMS and verifies it; returns the verified token. */
export async function verifiedToken(t: TestApp, phone: string, mode: Mode, bearer?: string): Promise<string> {
  const sent = await requestCode(t, phone, mode, bearer ? { token: bearer } : {});
  expect(sent.statusCode, sent.body).toBe(201);
  const token = sent.json().verification_token as string;
  const verified = await verifyCode(t, phone, t.lastCode(phone), token);
  expect(verified.statusCode, verified.body).toBe(200);
  // The next code for this phone and mode may follow at once in a test.
  t.clock.advance(61_000);
  return token;
}

/** The whole login of an ordinary user (or a first login): code, verify, login. */
export async function loginWithCode(t: TestApp, phone: string): Promise<{ access: string; refresh: string }> {
  const token = await verifiedToken(t, phone, 'login');
  const response = await login(t, phone, token);
  expect(response.statusCode, response.body).toBe(200);
  return { access: response.json().access_token, refresh: response.json().refresh_token };
}

export function refresh(t: TestApp, refreshToken: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: '/api/auth/token/refresh/', payload: { refresh: refreshToken } });
}
