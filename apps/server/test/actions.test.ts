import { beforeAll, describe, expect, it } from 'vitest';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  type TestBarrier,
} from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('history', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let member: TestUser;
  let neighbour: TestUser;
  let startedAt: Date;
  let middle: Date;
  const t = useTestApp();
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
    startedAt = t.clock.now();
    member = await createUserWithAccess(t, barrier); // add_phone (primary, access_granted)
    neighbour = await createUserWithAccess(t, barrier);
    t.clock.advance(60_000);
    for (let index = 0; index < 11; index += 1) {
      t.clock.advance(1000);
      await addPhone(t, member, barrier.id, { name: `Номер ${index}` });
    }
    t.clock.advance(60_000);
    middle = t.clock.now();
    t.clock.advance(60_000);
    const list = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/?page_size=100`,
      token: member.token,
    });
    const extra = list.json().phones.find((phone: { type: string }) => phone.type === 'permanent');
    await t.request({
      method: 'PATCH',
      url: `/api/phones/${extra.id}/`,
      token: member.token,
      payload: { name: 'Новое' },
    });
    await t.request({ method: 'DELETE', url: `/api/admin/phones/${extra.id}/`, token: owner.token });
    await addPhone(t, neighbour, barrier.id);
  });

  const list = (user: TestUser, query = '', side: 'user' | 'admin' = 'user') =>
    t.request({
      method: 'GET',
      url: `${side === 'admin' ? '/api/admin' : '/api'}/barriers/${barrier.id}/actions/${query}`,
      token: user.token,
    });

  it('shows a user only the actions on his own phones, 10 per page, newest first', async () => {
    const first = (await list(member)).json();
    // primary + 11 adds + update + delete
    expect(first).toMatchObject({ total_count: 14, current_page: 1, page_size: 10 });
    expect(first.actions).toHaveLength(10);
    expect(first.actions[0]).toMatchObject({
      action_type: 'delete_phone',
      author: 'admin',
      reason: 'manual',
    });
    expect(first.actions[1]).toMatchObject({ action_type: 'update_phone', author: 'user', reason: 'manual' });
    const second = (await list(member, '?page=2')).json();
    expect(second.actions).toHaveLength(4);
    expect(second.actions.at(-1)).toMatchObject({ action_type: 'add_phone', reason: 'access_granted' });
    const all = [...first.actions, ...second.actions];
    expect(new Set(all.map((action: { id: number }) => action.id)).size).toBe(14);
  });

  it('shows the owner everything on his barrier', async () => {
    const response = (await list(owner, '?page_size=100', 'admin')).json();
    // owner primary + member (14) + neighbour primary and one add
    expect(response.total_count).toBe(17);
  });

  it('filters by action type and by creation time', async () => {
    expect((await list(member, '?action_type=add_phone')).json().total_count).toBe(12);
    expect((await list(member, '?action_type=barrier_setting')).json().total_count).toBe(0);
    const after = (await list(member, `?created_from=${encodeURIComponent(middle.toISOString())}`)).json();
    expect(after.actions.map((action: { action_type: string }) => action.action_type)).toEqual([
      'delete_phone',
      'update_phone',
    ]);
    const before = (
      await list(member, `?created_to=${encodeURIComponent(middle.toISOString())}&action_type=add_phone`)
    ).json();
    expect(before.total_count).toBe(12);
    const window = (
      await list(
        owner,
        `?created_from=${encodeURIComponent(startedAt.toISOString())}&created_to=${encodeURIComponent(middle.toISOString())}`,
        'admin',
      )
    ).json();
    // Both primaries, the owner’s (made at `startedAt`: the bounds are inclusive) and 11 adds.
    expect(window.total_count).toBe(14);
    expect((await list(member, '?action_type=nothing')).statusCode).toBe(400);
    expect((await list(member, '?created_from=yesterday')).statusCode).toBe(400);
  });

  it('details an action with its old and new values, and then its phone', async () => {
    const update = (await list(member, '?action_type=update_phone')).json().actions[0];
    const detail = await t.request({ method: 'GET', url: `/api/actions/${update.id}/`, token: member.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id: update.id,
      action_type: 'update_phone',
      barrier: barrier.id,
      old_value: { name: 'Номер 0', type: 'permanent' },
      new_value: { name: 'Новое', type: 'permanent' },
    });
    const phone = await t.request({
      method: 'GET',
      url: `/api/phones/${update.phone}/`,
      token: member.token,
    });
    expect(phone.json()).toMatchObject({ id: update.phone, type: 'permanent', is_active: false });
    const adminDetail = await t.request({
      method: 'GET',
      url: `/api/admin/actions/${update.id}/`,
      token: owner.token,
    });
    expect(adminDetail.json().id).toBe(update.id);
    const adminPhone = await t.request({
      method: 'GET',
      url: `/api/admin/phones/${update.phone}/`,
      token: owner.token,
    });
    expect(adminPhone.json()).toMatchObject({ id: update.phone, phone: phone.json().phone });
  });

  it('never shows another user’s actions or another owner’s barrier', async () => {
    const update = (await list(member, '?action_type=update_phone')).json().actions[0];
    expect(
      (await t.request({ method: 'GET', url: `/api/actions/${update.id}/`, token: neighbour.token }))
        .statusCode,
    ).toBe(404);
    const neighbourList = (await list(neighbour)).json();
    expect(neighbourList.total_count).toBe(2);
    const stranger = await createUser(t);
    expect((await list(stranger)).statusCode).toBe(403);
    const otherAdmin = await createAdmin(t);
    expect((await list(otherAdmin, '', 'admin')).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/api/admin/actions/${update.id}/`, token: otherAdmin.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: '/api/actions/999999/', token: member.token })).statusCode,
    ).toBe(404);
    expect((await list(member, '', 'admin')).statusCode).toBe(403);
  });
});
