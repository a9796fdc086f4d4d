import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBarrier,
  createOwnerWithBarrier,
  projectedDevice,
  type TestBarrier,
} from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('access requests', () => {
  const t = useTestApp();

  const ask = (user: TestUser, barrierId: number, userId = user.id) =>
    t.request({
      method: 'POST',
      url: '/api/access_requests/',
      token: user.token,
      payload: { user: userId, barrier: barrierId },
    });
  const invite = (admin: TestUser, userId: number, barrierId: number) =>
    t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: admin.token,
      payload: { user: userId, barrier: barrierId },
    });
  const patchAsUser = (user: TestUser, id: number, payload: object) =>
    t.request({ method: 'PATCH', url: `/api/access_requests/${id}/`, token: user.token, payload });
  const patchAsAdmin = (admin: TestUser, id: number, payload: object) =>
    t.request({ method: 'PATCH', url: `/api/admin/access_requests/${id}/`, token: admin.token, payload });
  const listAsUser = (user: TestUser, query = '') =>
    t.request({ method: 'GET', url: `/api/access_requests/my/${query}`, token: user.token });
  const listAsAdmin = (admin: TestUser, query = '') =>
    t.request({ method: 'GET', url: `/api/admin/access_requests/my/${query}`, token: admin.token });
  const hasAccess = async (user: TestUser, barrierId: number) =>
    (
      await t.request({ method: 'GET', url: `/api/barriers/${barrierId}/check_access/`, token: user.token })
    ).json().has_access;

  let owner: TestUser;
  let barrier: TestBarrier;
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t, { address: 'Заявочная, 1' }));
  });

  describe('a user asks, the owner answers', () => {
    it('gives the user and the barrier as ids, with the name, phone and address beside them, on both sides', async () => {
      const user = await createUser(t, { fullName: 'Анна Смирнова' });
      const created = await ask(user, barrier.id);
      expect(created.statusCode).toBe(201);
      const expected = {
        user: user.id,
        barrier: barrier.id,
        user_full_name: 'Анна Смирнова',
        user_phone: user.phone,
        barrier_address: 'Заявочная, 1',
        status: 'pending',
        initiator: 'user',
        hidden_for_user: false,
      };
      expect(created.json()).toMatchObject({ ...expected, type: 'outgoing' });
      const outgoing = await listAsUser(user, '?type=outgoing');
      expect(outgoing.json()).toMatchObject({ total_count: 1, current_page: 1, page_size: 10 });
      expect(outgoing.json().access_requests[0]).toMatchObject(expected);
      expect((await listAsUser(user, '?type=incoming')).json().total_count).toBe(0);
      const incoming = await listAsAdmin(owner, '?type=incoming');
      expect(incoming.json().access_requests).toEqual(
        expect.arrayContaining([expect.objectContaining({ ...expected, type: 'incoming' })]),
      );
      expect((await listAsAdmin(owner, '?type=outgoing')).json().access_requests).not.toEqual(
        expect.arrayContaining([expect.objectContaining({ id: created.json().id })]),
      );
    });

    it('accepting grants access and the primary phone, sent to the device', async () => {
      const user = await createUser(t);
      const created = (await ask(user, barrier.id)).json();
      const accepted = await patchAsAdmin(owner, created.id, { status: 'accepted' });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toMatchObject({ status: 'accepted' });
      expect(await hasAccess(user, barrier.id)).toBe(true);
      const phones = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/phones/my/`,
        token: user.token,
      });
      expect(phones.json().phones).toEqual([expect.objectContaining({ type: 'primary', phone: user.phone })]);
      expect([...(await projectedDevice(t, barrier.id)).values()]).toContain(user.phone);
    });

    it('rejecting changes nothing else; final states stay final', async () => {
      const user = await createUser(t);
      const created = (await ask(user, barrier.id)).json();
      expect((await patchAsAdmin(owner, created.id, { status: 'rejected' })).json()).toMatchObject({
        status: 'rejected',
      });
      expect(await hasAccess(user, barrier.id)).toBe(false);
      for (const status of ['accepted', 'rejected', 'cancelled']) {
        const again = await patchAsAdmin(owner, created.id, { status });
        expect(again.statusCode).toBe(status === 'cancelled' ? 409 : 409);
      }
      expect((await patchAsUser(user, created.id, { status: 'cancelled' })).statusCode).toBe(409);
      // A new request is possible after a final one.
      expect((await ask(user, barrier.id)).statusCode).toBe(201);
    });

    it('only the receiver accepts or rejects, only the sender cancels', async () => {
      const user = await createUser(t);
      const created = (await ask(user, barrier.id)).json();
      expect((await patchAsUser(user, created.id, { status: 'accepted' })).statusCode).toBe(403);
      expect((await patchAsUser(user, created.id, { status: 'rejected' })).statusCode).toBe(403);
      expect((await patchAsAdmin(owner, created.id, { status: 'cancelled' })).statusCode).toBe(403);
      const cancelled = await patchAsUser(user, created.id, { status: 'cancelled', hidden_for_user: true });
      expect(cancelled.json()).toMatchObject({ status: 'cancelled', hidden_for_user: true });
      expect(await hasAccess(user, barrier.id)).toBe(false);
      // Hidden for the user, still visible to the administrator.
      expect((await listAsUser(user)).json().total_count).toBe(0);
      const adminList = (await listAsAdmin(owner, '?status=cancelled')).json();
      expect(adminList.access_requests).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: created.id, hidden_for_user: false })]),
      );
    });

    it('refuses a second pending request, a request for someone else, and one with access', async () => {
      const user = await createUser(t);
      expect((await ask(user, barrier.id)).statusCode).toBe(201);
      const twice = await ask(user, barrier.id);
      expect(twice.statusCode).toBe(409);
      const other = await createUser(t);
      expect((await ask(user, barrier.id, other.id)).statusCode).toBe(403);
      const withAccess = await ask(owner, barrier.id);
      expect(withAccess.statusCode).toBe(409);
      expect(withAccess.json().detail).toBe('This user already has access to the barrier.');
    });

    it('refuses a private barrier (404), an unknown one (404), and bad bodies (400)', async () => {
      const { barrier: hidden } = await createOwnerWithBarrier(t, { is_public: false });
      const user = await createUser(t);
      expect((await ask(user, hidden.id)).statusCode).toBe(404);
      expect((await ask(user, 999999)).statusCode).toBe(404);
      const bad = await t.request({
        method: 'POST',
        url: '/api/access_requests/',
        token: user.token,
        payload: { barrier: 'x' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('barrier');
      expect(bad.json()).toHaveProperty('user');
    });

    it('checks limits before granting: a refusal leaves the request pending and nothing granted', async () => {
      const { owner: admin, barrier: limited } = await createOwnerWithBarrier(t);
      await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${limited.id}/limits/`,
        token: admin.token,
        payload: { user_phone_limit: 0 },
      });
      const user = await createUser(t);
      const created = (await ask(user, limited.id)).json();
      const refused = await patchAsAdmin(admin, created.id, { status: 'accepted' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe('The limit of phones per user on this barrier has been reached.');
      expect(await hasAccess(user, limited.id)).toBe(false);
      const still = (await listAsAdmin(admin, '?type=incoming')).json().access_requests;
      expect(still).toEqual([expect.objectContaining({ id: created.id, status: 'pending' })]);
      expect([...(await projectedDevice(t, limited.id)).values()]).not.toContain(user.phone);
    });

    it('refuses to grant when the device has no free slot, or the weekly SMS budget is spent', async () => {
      const { owner: admin, barrier: small } = await createOwnerWithBarrier(t, { device_phones_amount: 1 });
      const user = await createUser(t);
      const created = (await ask(user, small.id)).json();
      const full = await patchAsAdmin(admin, created.id, { status: 'accepted' });
      expect(full.statusCode).toBe(409);
      expect(full.json().detail).toBe('The device of this barrier has no free slot.');

      const { owner: admin2, barrier: budget } = await createOwnerWithBarrier(t);
      await t.request({
        method: 'PATCH',
        url: `/api/admin/barriers/${budget.id}/limits/`,
        token: admin2.token,
        payload: { sms_weekly_limit: 1 },
      });
      const second = (await ask(user, budget.id)).json();
      const overBudget = await patchAsAdmin(admin2, second.id, { status: 'accepted' });
      expect(overBudget.statusCode).toBe(409);
      expect(overBudget.json().detail).toBe('The weekly SMS limit of this barrier would be exceeded.');
      expect(await hasAccess(user, budget.id)).toBe(false);
    });
  });

  describe('the owner invites, the user answers', () => {
    it('invitation is incoming for the user; accepting grants access', async () => {
      const { owner: admin, barrier: privateBarrier } = await createOwnerWithBarrier(t, { is_public: false });
      const user = await createUser(t, { fullName: 'Приглашённый' });
      const invited = await invite(admin, user.id, privateBarrier.id);
      expect(invited.statusCode).toBe(201);
      expect(invited.json()).toMatchObject({ initiator: 'admin', type: 'outgoing', status: 'pending' });
      const incoming = (await listAsUser(user, '?type=incoming')).json();
      expect(incoming.access_requests).toEqual([
        expect.objectContaining({
          id: invited.json().id,
          type: 'incoming',
          barrier: privateBarrier.id,
          barrier_address: privateBarrier.address,
        }),
      ]);
      expect((await patchAsAdmin(admin, invited.json().id, { status: 'accepted' })).statusCode).toBe(403);
      const accepted = await patchAsUser(user, invited.json().id, { status: 'accepted' });
      expect(accepted.statusCode).toBe(200);
      expect(await hasAccess(user, privateBarrier.id)).toBe(true);
    });

    it('the owner can cancel his invitation; the user can reject one', async () => {
      const user = await createUser(t);
      const first = (await invite(owner, user.id, barrier.id)).json();
      expect((await patchAsUser(user, first.id, { status: 'cancelled' })).statusCode).toBe(403);
      expect((await patchAsAdmin(owner, first.id, { status: 'cancelled' })).json()).toMatchObject({
        status: 'cancelled',
      });
      const second = (await invite(owner, user.id, barrier.id)).json();
      expect((await patchAsUser(user, second.id, { status: 'rejected' })).json()).toMatchObject({
        status: 'rejected',
      });
      expect(await hasAccess(user, barrier.id)).toBe(false);
    });

    it('refuses to invite to another owner’s barrier, an unknown user, a user with access or a blocked one', async () => {
      const other = await createAdmin(t);
      const user = await createUser(t);
      expect((await invite(other, user.id, barrier.id)).statusCode).toBe(404);
      expect((await invite(owner, 999999, barrier.id)).statusCode).toBe(404);
      const already = await invite(owner, owner.id, barrier.id);
      expect(already.statusCode).toBe(409);
      expect(already.json().detail).toBe('This user already has access to the barrier.');
      await ask(user, barrier.id);
      await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${user.id}/block/`,
        token: owner.token,
        payload: { reason: 'спам' },
      });
      expect((await invite(owner, user.id, barrier.id)).statusCode).toBe(409);
      const blockedAsk = await ask(user, barrier.id);
      expect(blockedAsk.statusCode).toBe(403);
    });

    it('is for administrators only', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      expect((await invite(user, other.id, barrier.id)).statusCode).toBe(403);
      expect((await listAsAdmin(user)).statusCode).toBe(403);
    });
  });

  describe('hiding', () => {
    it('hides a final request from one side only, without any other change', async () => {
      const user = await createUser(t);
      const created = (await ask(user, barrier.id)).json();
      await patchAsAdmin(owner, created.id, { status: 'accepted' });
      const hidden = await patchAsUser(user, created.id, { hidden_for_user: true });
      expect(hidden.json()).toMatchObject({ status: 'accepted', hidden_for_user: true });
      expect((await listAsUser(user)).json().total_count).toBe(0);
      expect(await hasAccess(user, barrier.id)).toBe(true);
      const adminSide = (await listAsAdmin(owner, '?status=accepted&page_size=100')).json().access_requests;
      expect(adminSide).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: created.id, hidden_for_user: false })]),
      );
      const adminHides = await patchAsAdmin(owner, created.id, { hidden_for_user: true });
      expect(adminHides.json()).toMatchObject({ hidden_for_user: true, status: 'accepted' });
      const after = (await listAsAdmin(owner, '?status=accepted&page_size=100')).json().access_requests;
      expect(after).not.toEqual(expect.arrayContaining([expect.objectContaining({ id: created.id })]));
    });

    it('needs status or hidden_for_user, and a known status', async () => {
      const user = await createUser(t);
      const created = (await ask(user, barrier.id)).json();
      expect((await patchAsUser(user, created.id, {})).statusCode).toBe(400);
      expect((await patchAsUser(user, created.id, { status: 'pending' })).statusCode).toBe(400);
      expect((await patchAsUser(user, created.id, { status: 'done' })).statusCode).toBe(400);
      expect((await patchAsUser(user, created.id, { hidden_for_user: 'yes' })).statusCode).toBe(400);
    });
  });

  describe('who sees what', () => {
    it('answers 404 for another user’s request and another administrator’s', async () => {
      const user = await createUser(t);
      const created = (await ask(user, barrier.id)).json();
      const stranger = await createUser(t);
      expect((await patchAsUser(stranger, created.id, { hidden_for_user: true })).statusCode).toBe(404);
      const otherAdmin = await createAdmin(t);
      expect((await patchAsAdmin(otherAdmin, created.id, { status: 'accepted' })).statusCode).toBe(404);
      expect((await listAsAdmin(otherAdmin)).json().total_count).toBe(0);
      expect((await listAsUser(stranger)).json().total_count).toBe(0);
      expect((await patchAsUser(user, 999999, { hidden_for_user: true })).statusCode).toBe(404);
    });

    it('pages the lists, newest first', async () => {
      const admin = await createAdmin(t);
      const user = await createUser(t);
      const created: number[] = [];
      for (let index = 0; index < 12; index += 1) {
        const own = await createBarrier(t, admin);
        t.clock.advance(1000);
        created.push((await ask(user, own.id)).json().id);
      }
      const first = (await listAsUser(user, '?type=outgoing&page=1&page_size=10')).json();
      expect(first).toMatchObject({ total_count: 12, current_page: 1, page_size: 10 });
      expect(first.access_requests).toHaveLength(10);
      expect(first.access_requests[0].id).toBe(created.at(-1));
      const second = (await listAsAdmin(admin, '?type=incoming&page=2&page_size=10')).json();
      expect(second.access_requests.map((item: { id: number }) => item.id)).toEqual([created[1], created[0]]);
      expect((await listAsUser(user, '?type=sideways')).statusCode).toBe(400);
    });
  });
});
