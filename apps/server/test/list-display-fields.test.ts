/**
 * What the lists show without a tap (issue 12): a history card names its phone number, its author and its
 * setting; a reversed date range is refused in Russian; a barrier card shows the caller's pending request;
 * an invitation names the administrator who sent it.
 */
import { fieldMessageText } from '@propusk/contracts/error-texts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPhone, createBarrier, grantAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('display fields of the lists', () => {
  let admin: TestUser;
  let barrier: TestBarrier;
  let member: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t, { fullName: 'Ольга Администратор' });
    barrier = await createBarrier(t, admin, { address: 'Списочная, 1' });
    member = await createUser(t, { fullName: 'Пётр Жильцов' });
    await grantAccess(t, barrier, member);
  });

  const get = (url: string, user: TestUser) => t.request({ method: 'GET', url, token: user.token });

  describe('history cards', () => {
    it('carry the phone number and the author’s name beside the ids', async () => {
      await addPhone(t, member, barrier.id, { phone: '+79990001122', name: 'Дача' });
      const own = (await get(`/api/barriers/${barrier.id}/actions/`, member)).json();
      expect(own.actions[0]).toMatchObject({
        action_type: 'add_phone',
        author: 'user',
        author_name: 'Пётр Жильцов',
        phone_number: '+79990001122',
        setting_name: null,
      });
      const detail = (await get(`/api/actions/${own.actions[0].id}/`, member)).json();
      expect(detail).toMatchObject({ phone_number: '+79990001122', author_name: 'Пётр Жильцов' });
    });

    it('name the setting in Russian, and its administrator', async () => {
      const sent = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/settings/`,
        token: admin.token,
        payload: { setting: 'open', params: {} },
      });
      expect(sent.statusCode, sent.body).toBeLessThan(300);
      const history = (
        await get(`/api/admin/barriers/${barrier.id}/actions/?action_type=barrier_setting`, admin)
      ).json();
      expect(history.actions[0]).toMatchObject({
        action_type: 'barrier_setting',
        author: 'admin',
        author_name: 'Ольга Администратор',
        phone_number: null,
        setting_name: 'Открыть',
      });
    });

    it('refuse a range that starts after it ends, in Russian, on both sides', async () => {
      const range = '?created_from=2026-05-02T10:00&created_to=2026-05-01T10:00';
      for (const url of [
        `/api/barriers/${barrier.id}/actions/`,
        `/api/admin/barriers/${barrier.id}/actions/`,
      ]) {
        const response = await get(`${url}${range}`, url.startsWith('/api/admin') ? admin : member);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ created_to: ['The start date is after the end date.'] });
        expect(fieldMessageText('The start date is after the end date.')).toBe(
          'Дата начала позже даты конца.',
        );
      }
      const sameMinute = await get(
        `/api/barriers/${barrier.id}/actions/?created_from=2026-05-01T10:00&created_to=2026-05-01T10:00`,
        member,
      );
      expect(sameMinute.statusCode).toBe(200);
    });
  });

  describe('requests', () => {
    it('a barrier card and the list show the caller’s pending request, and none once decided', async () => {
      const asker = await createUser(t);
      const target = await createBarrier(t, admin, { address: 'Заявочная аллея, 5' });
      const card = async () => (await get(`/api/barriers/${target.id}/`, asker)).json().pending_request;
      const listed = async () =>
        (await get(`/api/barriers/?address=${encodeURIComponent('Заявочная аллея 5')}`, asker)).json()
          .barriers[0].pending_request;
      expect(await card()).toBeNull();
      expect(await listed()).toBeNull();
      const asked = await t.request({
        method: 'POST',
        url: '/api/access_requests/',
        token: asker.token,
        payload: { user: asker.id, barrier: target.id },
      });
      expect(asked.statusCode).toBe(201);
      expect(await card()).toBe('outgoing');
      expect(await listed()).toBe('outgoing');
      // Another user does not see it as his.
      expect((await get(`/api/barriers/${target.id}/`, member)).json().pending_request).toBeNull();
      const rejected = await t.request({
        method: 'PATCH',
        url: `/api/admin/access_requests/${asked.json().id}/`,
        token: admin.token,
        payload: { status: 'rejected' },
      });
      expect(rejected.statusCode).toBe(200);
      expect(await card()).toBeNull();
    });

    it('an invitation names the administrator who sent it, and shows on the card as incoming', async () => {
      const invited = await createUser(t);
      const target = await createBarrier(t, admin, { address: 'Пригласительная, 2' });
      const sent = await t.request({
        method: 'POST',
        url: '/api/admin/access_requests/',
        token: admin.token,
        payload: { user: invited.id, barrier: target.id },
      });
      expect(sent.statusCode).toBe(201);
      expect(sent.json()).toMatchObject({ barrier_owner_name: 'Ольга Администратор' });
      const incoming = (await get('/api/access_requests/my/?type=incoming&status=pending', invited)).json();
      expect(incoming).toMatchObject({ total_count: 1 });
      expect(incoming.access_requests[0]).toMatchObject({
        barrier_address: 'Пригласительная, 2',
        barrier_owner_name: 'Ольга Администратор',
        initiator: 'admin',
      });
      expect((await get(`/api/barriers/${target.id}/`, invited)).json().pending_request).toBe('incoming');
    });
  });
});
