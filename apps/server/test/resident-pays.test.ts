/**
 * Issue 40 item 3: residents pay for what they cause. A resident's own number change, his leaving a barrier
 * and his revocation of a guest pass used to be queued without their spender, so that they spent the owner's
 * reserve (six number changes took a reserve of 6 to 0 while the resident's share stayed whole). Now the number
 * change spends his share (refused with the share message when it is used up, and nothing changes); leaving
 * and revocations are never refused but are counted to him (docs/decisions/0030).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { verifiedToken } from './auth-helpers.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import type { TestBarrier } from './domain-factories.ts';
import { nextPhone, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

interface Budget {
  share: number;
  share_left: number;
  reserve_left: number;
  residents_left: number;
}

async function setShares(
  t: TestApp,
  owner: TestUser,
  barrierId: number,
  above: { limit: number; reserve: number; share: number },
): Promise<void> {
  const before = await countCommandsThisWeek(t.deps.db, barrierId, t.clock.now());
  const set = await t.request({
    method: 'PATCH',
    url: `/api/admin/barriers/${barrierId}/limits/`,
    token: owner.token,
    payload: {
      sms_weekly_limit: before + above.limit,
      sms_owner_reserve: before + above.reserve,
      sms_resident_share: above.share,
    },
  });
  expect(set.statusCode, set.body).toBe(200);
}

async function adminBudget(t: TestApp, owner: TestUser, barrierId: number): Promise<Budget> {
  const response = await t.request({
    method: 'GET',
    url: `/api/admin/barriers/${barrierId}/limits/`,
    token: owner.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().sms_budget as Budget;
}

async function residentBudget(t: TestApp, resident: TestUser, barrierId: number): Promise<Budget> {
  const response = await t.request({
    method: 'GET',
    url: `/api/barriers/${barrierId}/limits/`,
    token: resident.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().sms_budget as Budget;
}

async function changeNumber(t: TestApp, user: TestUser, from: string, to: string) {
  const oldToken = await verifiedToken(t, from, 'change_phone_old', user.token);
  const newToken = await verifiedToken(t, to, 'change_phone_new', user.token);
  return t.request({
    method: 'PATCH',
    url: '/api/users/me/phone/',
    token: user.token,
    payload: { new_phone: to, old_verification_token: oldToken, new_verification_token: newToken },
  });
}

describe('a resident’s own number change spends his share, not the owner’s reserve', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user: resident } = await createDeviceScene(t));
  });

  it('six changes leave the reserve whole; the seventh is refused with the share message and changes nothing', async () => {
    await setShares(t, owner, barrier.id, { limit: 30, reserve: 6, share: 6 });
    const start = await adminBudget(t, owner, barrier.id);
    expect(start.reserve_left).toBe(6);

    let phone = resident.phone;
    for (let change = 1; change <= 6; change += 1) {
      const next = nextPhone();
      const changed = await changeNumber(t, resident, phone, next);
      expect(changed.statusCode, `change ${change}: ${changed.body}`).toBe(200);
      phone = next;
      await h.run(barrier.id);
      expect((await residentBudget(t, resident, barrier.id)).share_left).toBe(6 - change);
    }
    expect((await adminBudget(t, owner, barrier.id)).reserve_left).toBe(6);

    const refused = await changeNumber(t, resident, phone, nextPhone());
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'sms_resident_share_used', share: 6, left: 0 });
    const me = await t.request({ method: 'GET', url: '/api/users/me/', token: resident.token });
    expect(me.json().phone).toBe(phone);
    expect((await adminBudget(t, owner, barrier.id)).reserve_left).toBe(6);
  });
});

describe('leaving a barrier and revoking a guest pass are never refused, and counted to the resident', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user: resident } = await createDeviceScene(t));
  });

  it('a revocation of his used pass spends his share, even past it, and never the reserve', async () => {
    await setShares(t, owner, barrier.id, { limit: 30, reserve: 6, share: 2 });
    const start = new Date(t.clock.now().getTime() - 60_000);
    const end = new Date(start.getTime() + 3 * 3_600_000);
    const made = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: resident.token,
      payload: { start: start.toISOString(), end: end.toISOString() },
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = made.json().token as string;
    const guest = nextPhone();
    const code = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${token}/code/`,
      payload: { phone: guest },
      remoteAddress: '10.40.3.1',
    });
    expect(code.statusCode, code.body).toBe(201);
    const used = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${token}/redeem/`,
      payload: { phone: guest, code: t.lastCode(guest), verification_token: code.json().verification_token },
      remoteAddress: '10.40.3.1',
    });
    expect(used.statusCode, used.body).toBe(200);
    await h.run(barrier.id);
    // The redeem took his whole share: the revocation goes past it and is not refused.
    expect((await residentBudget(t, resident, barrier.id)).share_left).toBe(0);
    const before = await adminBudget(t, owner, barrier.id);

    const revoked = await t.request({
      method: 'DELETE',
      url: `/api/barriers/${barrier.id}/guest-passes/${made.json().id}/`,
      token: resident.token,
    });
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    await h.run(barrier.id);
    const after = await adminBudget(t, owner, barrier.id);
    expect(after.reserve_left).toBe(before.reserve_left);
    expect(after.residents_left).toBe(before.residents_left - 1);
  });

  it('his leaving is counted to him: the residents’ part shrinks, the reserve does not', async () => {
    const before = await adminBudget(t, owner, barrier.id);
    const left = await t.request({
      method: 'DELETE',
      url: `/api/barriers/${barrier.id}/leave/`,
      token: resident.token,
    });
    expect(left.statusCode, left.body).toBeLessThan(300);
    await h.run(barrier.id);
    const after = await adminBudget(t, owner, barrier.id);
    expect(after.reserve_left).toBe(before.reserve_left);
    expect(after.residents_left).toBeLessThan(before.residents_left);
  });
});
