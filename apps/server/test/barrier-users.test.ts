import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import {
  addPhone,
  createBarrier,
  createOwnerWithBarrier,
  createUserWithAccess,
  grantAccess,
  makeKnownTo,
  projectedDevice,
} from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('barrier users and blocking', () => {
  const t = useTestApp();

  const get = (user: TestUser, url: string) => t.request({ method: 'GET', url, token: user.token });

  describe('list', () => {
    it('lists users with access (owner left out), with phone counts, ordering, search and paging', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const anna = await createUserWithAccess(t, barrier, 'Анна Иванова');
      const boris = await createUserWithAccess(t, barrier, 'Борис Петров');
      await createUserWithAccess(t, barrier, 'Вера Сидорова');
      await addPhone(t, anna, barrier.id);
      const url = `/api/admin/barriers/${barrier.id}/users/`;
      const all = (await get(owner, url)).json();
      expect(all).toMatchObject({ total_count: 3, current_page: 1, page_size: 10 });
      expect(all.users.map((user: { id: number }) => user.id)).not.toContain(owner.id);
      expect(all.users.find((user: { id: number }) => user.id === anna.id)).toMatchObject({
        full_name: 'Анна Иванова',
        phone: anna.phone,
        phones_count: 2,
        role: 'user',
        is_active: true,
        phone_privacy: 'public',
      });
      const descending = (await get(owner, `${url}?ordering=-full_name`)).json();
      expect(descending.users.map((user: { full_name: string }) => user.full_name)).toEqual([
        'Вера Сидорова',
        'Борис Петров',
        'Анна Иванова',
      ]);
      const search = (await get(owner, `${url}?search=${encodeURIComponent('петРОВ')}`)).json();
      expect(search.users.map((user: { id: number }) => user.id)).toEqual([boris.id]);
      const byPhone = (await get(owner, `${url}?search=${encodeURIComponent(anna.phone.slice(-6))}`)).json();
      expect(byPhone.users.map((user: { id: number }) => user.id)).toEqual([anna.id]);
      const page = (await get(owner, `${url}?ordering=full_name&page=2&page_size=2`)).json();
      expect(page.users.map((user: { full_name: string }) => user.full_name)).toEqual(['Вера Сидорова']);
      expect((await get(owner, `${url}?ordering=role`)).statusCode).toBe(400);
      const other = await createAdmin(t);
      expect((await get(other, url)).statusCode).toBe(404);
      expect((await get(anna, url)).statusCode).toBe(403);
    });
  });

  describe('removal', () => {
    it('removes a user and every phone of his from the device', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      await addPhone(t, member, barrier.id);
      const url = `/api/admin/barriers/${barrier.id}/users/${member.id}/`;
      expect((await t.request({ method: 'DELETE', url, token: owner.token })).statusCode).toBe(204);
      expect([...(await projectedDevice(t, barrier.id)).values()]).toEqual([owner.phone]);
      const check = await get(member, `/api/barriers/${barrier.id}/check_access/`);
      expect(check.json()).toEqual({ has_access: false });
      const history = (
        await get(owner, `/api/admin/barriers/${barrier.id}/actions/?action_type=delete_phone`)
      ).json();
      expect(history.actions).toHaveLength(2);
      expect(history.actions.every((action: { reason: string }) => action.reason === 'barrier_exit')).toBe(
        true,
      );
      expect((await t.request({ method: 'DELETE', url, token: owner.token })).statusCode).toBe(404);
      const self = `/api/admin/barriers/${barrier.id}/users/${owner.id}/`;
      expect((await t.request({ method: 'DELETE', url: self, token: owner.token })).statusCode).toBe(409);
      const other = await createAdmin(t);
      expect((await t.request({ method: 'DELETE', url, token: other.token })).statusCode).toBe(404);
    });
    it('gives each user as an administrator reads him: role, state as his block sees it, phone privacy', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const colleague = await createUserWithAccess(t, barrier, 'Коллега');
      const member = await createUserWithAccess(t, barrier, 'Жилец');
      await t.deps.db
        .update(users)
        .set({ role: 'admin', phonePrivacy: 'private' })
        .where(eq(users.id, colleague.id));
      // Blocked on the whole platform (the CLI's block) while still holding access.
      await t.deps.db.update(users).set({ isActive: false }).where(eq(users.id, member.id));
      const list = (await get(owner, `/api/admin/barriers/${barrier.id}/users/?ordering=full_name`)).json();
      expect(
        list.users.map((user: Record<string, unknown>) => [
          user.full_name,
          user.role,
          user.is_active,
          user.phone_privacy,
        ]),
      ).toEqual([
        ['Жилец', 'user', false, 'public'],
        ['Коллега', 'admin', true, 'private'],
      ]);
      expect((await get(owner, `/api/admin/users/${colleague.id}/`)).json()).toMatchObject({
        role: 'admin',
        is_active: true,
        phone_privacy: 'private',
      });
      expect((await get(owner, `/api/admin/users/${member.id}/`)).json()).toMatchObject({ is_active: false });
    });
  });

  describe('profile and search', () => {
    it('shows a user of the administrator’s barriers, and nobody else', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier, 'Участник');
      const profile = await get(owner, `/api/admin/users/${member.id}/`);
      expect(profile.json()).toEqual({
        id: member.id,
        full_name: 'Участник',
        phone: member.phone,
        role: 'user',
        is_active: true,
        phone_privacy: 'public',
        block_reason: null,
      });
      const stranger = await createUser(t);
      expect((await get(owner, `/api/admin/users/${stranger.id}/`)).statusCode).toBe(404);
      const other = await createAdmin(t);
      expect((await get(other, `/api/admin/users/${member.id}/`)).statusCode).toBe(404);
      expect((await get(owner, '/api/admin/users/999999/')).statusCode).toBe(404);
    });

    it('finds a user he knows by exact phone, with this administrator’s block state; a stranger is 404', async () => {
      const owner = await createAdmin(t);
      const barrier = await createBarrier(t, owner);
      const stranger = await createUser(t, { fullName: 'Найденный' });
      const search = (phone: string) =>
        t.request({
          method: 'POST',
          url: '/api/admin/users/search/',
          token: owner.token,
          payload: { phone },
        });
      // Issue 28 part 2: a stranger's number answers like a number with no account.
      expect((await search(stranger.phone)).json()).toEqual((await search('+79999999990')).json());
      // Once he asked for access (and even withdrew), the owner knows him.
      await makeKnownTo(t, barrier, stranger);
      const found = await search(stranger.phone);
      expect(found.json()).toEqual({
        id: stranger.id,
        full_name: 'Найденный',
        phone: stranger.phone,
        role: 'user',
        is_active: true,
        phone_privacy: 'public',
        block_reason: null,
      });
      expect((await search(stranger.phone.slice(1))).json().id).toBe(stranger.id);
      expect((await search(stranger.phone.slice(0, -1))).statusCode).toBe(400);
      expect((await search('+79999999990')).statusCode).toBe(404);
      const user = await createUser(t);
      const refused = await t.request({
        method: 'POST',
        url: '/api/admin/users/search/',
        token: user.token,
        payload: { phone: stranger.phone },
      });
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('blocking', () => {
    it('closes all of this administrator’s barriers to the user at once, and only his', async () => {
      const owner = await createAdmin(t);
      const first = await createBarrier(t, owner);
      const second = await createBarrier(t, owner);
      const { barrier: foreign } = await createOwnerWithBarrier(t);
      const member = await createUser(t, { fullName: 'Нарушитель' });
      await grantAccess(t, first, member);
      await grantAccess(t, second, member);
      await grantAccess(t, foreign, member);
      await addPhone(t, member, first.id);

      const block = (payload: object) =>
        t.request({
          method: 'PATCH',
          url: `/api/admin/users/${member.id}/block/`,
          token: owner.token,
          payload,
        });
      const noReason = await block({ reason: '  ' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json()).toHaveProperty('reason');
      expect((await block({})).statusCode).toBe(400);

      const blocked = await block({ reason: 'Нарушение правил' });
      expect(blocked.statusCode).toBe(200);
      expect(blocked.json()).toMatchObject({
        id: member.id,
        is_active: false,
        block_reason: 'Нарушение правил',
      });
      for (const barrier of [first, second]) {
        expect([...(await projectedDevice(t, barrier.id)).values()]).toEqual([owner.phone]);
        expect((await get(member, `/api/barriers/${barrier.id}/check_access/`)).json()).toEqual({
          has_access: false,
        });
      }
      // The barrier's card tells the user why: the reason of its owner's block.
      const card = await get(member, `/api/barriers/${first.id}/`);
      expect(card.statusCode).toBe(200);
      expect(card.json()).toMatchObject({ has_access: false, block_reason: 'Нарушение правил' });
      expect((await get(member, `/api/barriers/${foreign.id}/`)).json()).toMatchObject({
        has_access: true,
        block_reason: null,
      });
      // Another administrator's barrier is not affected.
      expect((await get(member, `/api/barriers/${foreign.id}/check_access/`)).json()).toEqual({
        has_access: true,
      });
      expect([...(await projectedDevice(t, foreign.id)).values()]).toContain(member.phone);
      // The user's login still works (an administrator's block is not platform-wide).
      expect((await get(member, '/api/barriers/my/')).json().total_count).toBe(1);

      const asked = await t.request({
        method: 'POST',
        url: '/api/access_requests/',
        token: member.token,
        payload: { user: member.id, barrier: first.id },
      });
      expect(asked.statusCode).toBe(403);
      const found = await t.request({
        method: 'POST',
        url: '/api/admin/users/search/',
        token: owner.token,
        payload: { phone: member.phone },
      });
      expect(found.json()).toMatchObject({ is_active: false });
      const foreignOwnerSearch = await t.request({
        method: 'POST',
        url: '/api/admin/users/search/',
        token: foreign.owner.token,
        payload: { phone: member.phone },
      });
      expect(foreignOwnerSearch.json()).toMatchObject({ is_active: true, block_reason: null });

      const unblocked = await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${member.id}/unblock/`,
        token: owner.token,
      });
      expect(unblocked.json()).toMatchObject({ is_active: true, block_reason: null });
      expect((await get(member, `/api/barriers/${first.id}/`)).json()).toMatchObject({ block_reason: null });
      // Unblocking restores nothing by itself.
      expect((await get(member, `/api/barriers/${first.id}/check_access/`)).json()).toEqual({
        has_access: false,
      });
      await grantAccess(t, first, member);
      expect((await get(member, `/api/barriers/${first.id}/check_access/`)).json()).toEqual({
        has_access: true,
      });
    });

    it('closes pending requests of the user, refuses strangers and oneself', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const asking = await createUser(t);
      await t.request({
        method: 'POST',
        url: '/api/access_requests/',
        token: asking.token,
        payload: { user: asking.id, barrier: barrier.id },
      });
      const blocked = await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${asking.id}/block/`,
        token: owner.token,
        payload: { reason: 'спам' },
      });
      expect(blocked.statusCode).toBe(200);
      const requests = (await get(asking, '/api/access_requests/my/')).json();
      expect(requests.access_requests[0]).toMatchObject({ status: 'rejected' });

      const stranger = await createUser(t);
      const strangerBlock = await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${stranger.id}/block/`,
        token: owner.token,
        payload: { reason: 'x' },
      });
      expect(strangerBlock.statusCode).toBe(404);
      expect(
        (
          await t.request({
            method: 'PATCH',
            url: `/api/admin/users/${stranger.id}/unblock/`,
            token: owner.token,
          })
        ).statusCode,
      ).toBe(404);
      const self = await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${owner.id}/block/`,
        token: owner.token,
        payload: { reason: 'x' },
      });
      expect(self.statusCode).toBe(400);
      const other = await createAdmin(t);
      const foreign = await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${asking.id}/unblock/`,
        token: other.token,
      });
      expect(foreign.statusCode).toBe(404);
    });
  });
});
