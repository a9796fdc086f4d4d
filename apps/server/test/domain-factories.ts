/**
 * Barrier-domain test data, made through the API so that each helper also exercises the real path
 * (a barrier created by POST gives its owner access and a primary phone, exactly as in production).
 */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { deviceCommands } from '../src/db/schema.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

let addressCounter = 0;

export interface TestBarrier {
  id: number;
  address: string;
  device_phone: string;
  owner: TestUser;
}

export async function createBarrier(
  t: TestApp,
  owner: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<TestBarrier> {
  addressCounter += 1;
  const body = {
    address: `г. Москва, ул. Тестовая, д. ${addressCounter}`,
    device_phone: nextPhone(),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 100,
    additional_info: '',
    is_public: true,
    ...overrides,
  };
  const response = await t.request({
    method: 'POST',
    url: '/api/admin/barriers/',
    token: owner.token,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json();
  return { id: created.id, address: created.address, device_phone: created.device_phone, owner };
}

/** An administrator with one barrier. */
export async function createOwnerWithBarrier(t: TestApp, overrides: Record<string, unknown> = {}) {
  const owner = await createAdmin(t, { fullName: 'Владелец' });
  const barrier = await createBarrier(t, owner, overrides);
  return { owner, barrier };
}

/** Gives `user` access the way the product does: he asks, the owner accepts. */
export async function grantAccess(t: TestApp, barrier: TestBarrier, user: TestUser): Promise<void> {
  const asked = await t.request({
    method: 'POST',
    url: '/api/access_requests/',
    token: user.token,
    payload: { user: user.id, barrier: barrier.id },
  });
  let requestId: number;
  if (asked.statusCode === 201) requestId = asked.json().id;
  else {
    // Private barrier: the owner invites and the user accepts.
    const invited = await t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: barrier.owner.token,
      payload: { user: user.id, barrier: barrier.id },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${invited.json().id}/`,
      token: user.token,
      payload: { status: 'accepted' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return;
  }
  const accepted = await t.request({
    method: 'PATCH',
    url: `/api/admin/access_requests/${requestId}/`,
    token: barrier.owner.token,
    payload: { status: 'accepted' },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
}

export async function createUserWithAccess(t: TestApp, barrier: TestBarrier, fullName = 'Пользователь') {
  const user = await createUser(t, { fullName });
  await grantAccess(t, barrier, user);
  return user;
}

export async function addPhone(
  t: TestApp,
  user: TestUser,
  barrierId: number,
  overrides: Record<string, unknown> = {},
) {
  return t.request({
    method: 'POST',
    url: `/api/barriers/${barrierId}/phones/`,
    token: user.token,
    payload: { phone: nextPhone(), name: 'Гость', type: 'permanent', ...overrides },
  });
}

/** The device commands queued for a barrier, oldest first (what the device worker will send). */
export async function queuedCommands(t: TestApp, barrierId: number) {
  const rows = await t.deps.db
    .select({ kind: deviceCommands.kind, payload: deviceCommands.payload, status: deviceCommands.status })
    .from(deviceCommands)
    .where(eq(deviceCommands.barrierId, barrierId))
    .orderBy(deviceCommands.id);
  return rows.filter((row) => row.status === 'queued' || row.status === 'sent');
}

/** The numbers the device will hold once every queued command is confirmed (slot → number). */
export async function projectedDevice(t: TestApp, barrierId: number): Promise<Map<number, string>> {
  const { loadProjectedState } = await import('../src/engine/plan/index.ts');
  const state = await loadProjectedState(t.deps.db, barrierId, t.clock.now());
  return new Map(state.entries.map((entry) => [entry.slot, entry.number]));
}

export const auth = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

// Issue 28 (privacy): staff by phone finds only an administrator the owner already knows (docs/decisions/0021).
/**
 * `admin` asks for access to the owner's barrier and withdraws: the owner knows him from then on. A barrier
 * that takes no requests (not public): the owner invites him and he accepts.
 */
export async function makeKnownTo(
  t: TestApp,
  barrier: { id: number; owner?: TestUser },
  admin: TestUser,
): Promise<void> {
  const asked = await t.request({
    method: 'POST',
    url: '/api/access_requests/',
    token: admin.token,
    payload: { user: admin.id, barrier: barrier.id },
  });
  if (asked.statusCode !== 201 && barrier.owner) {
    const invited = await t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: barrier.owner.token,
      payload: { user: admin.id, barrier: barrier.id },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${invited.json().id}/`,
      token: admin.token,
      payload: { status: 'accepted' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return;
  }
  expect(asked.statusCode, asked.body).toBe(201);
  const withdrawn = await t.request({
    method: 'PATCH',
    url: `/api/access_requests/${asked.json().id}/`,
    token: admin.token,
    payload: { status: 'cancelled' },
  });
  expect(withdrawn.statusCode, withdrawn.body).toBe(200);
}
