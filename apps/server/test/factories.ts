/**
 * Test data made straight in the database, for tests whose subject is not the login flow itself.
 * (The login flow has its own tests over HTTP in auth.test.ts.)
 */
import { hash } from '@node-rs/argon2';
import { users } from '../src/db/schema.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import type { TestApp } from './test-app.ts';

let phoneCounter = 0;
/** A fresh, unique +7 number per call within a test file. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `+7900${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(4, '0')}`;
}

export interface TestUser {
  id: number;
  phone: string;
  token: string;
  refreshToken: string;
}

export async function createUser(
  t: TestApp,
  options: { phone?: string; fullName?: string; role?: 'user' | 'admin'; password?: string } = {},
): Promise<TestUser> {
  const phone = options.phone ?? nextPhone();
  const [row] = await t.deps.db
    .insert(users)
    .values({
      phone,
      fullName: options.fullName ?? null,
      role: options.role ?? 'user',
      passwordHash: options.password ? await hash(options.password) : null,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('user not created');
  const tokens = await issueSession(t.deps, t.deps.db, row.id);
  return { id: row.id, phone, token: tokens.access_token, refreshToken: tokens.refresh_token };
}

export const createAdmin = (
  t: TestApp,
  options: { phone?: string; fullName?: string; password?: string } = {},
) => createUser(t, { ...options, role: 'admin', password: options.password ?? 'admin-password' });
