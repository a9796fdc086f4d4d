import { beforeAll, describe, expect, it } from 'vitest';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  type TestBarrier,
} from './domain-factories.ts';
import type { TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

/** The history of one user on his profile inside a barrier (the administrator's `?user=` filter). */
describe('history of one user, administrator side', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let member: TestUser;
  let neighbour: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
    member = await createUserWithAccess(t, barrier);
    neighbour = await createUserWithAccess(t, barrier);
    await addPhone(t, member, barrier.id, { name: 'Жена', phone: '+79161110001' });
    await addPhone(t, neighbour, barrier.id, { name: 'Сын', phone: '+79161110002' });
  });

  const list = (token: string, query: string, side: 'user' | 'admin') =>
    t.request({
      method: 'GET',
      url: `${side === 'admin' ? '/api/admin' : '/api'}/barriers/${barrier.id}/actions/${query}`,
      token,
    });

  it('lists only the actions on that user’s phones', async () => {
    const all = (await list(owner.token, '?page_size=100', 'admin')).json();
    const ofMember = (await list(owner.token, `?page_size=100&user=${member.id}`, 'admin')).json();
    // member: primary on access + one extra phone
    expect(ofMember.total_count).toBe(2);
    expect(all.total_count).toBeGreaterThan(ofMember.total_count);
    const phones = await Promise.all(
      ofMember.actions.map(
        async (action: { phone: number }) =>
          (
            await t.request({ method: 'GET', url: `/api/admin/phones/${action.phone}/`, token: owner.token })
          ).json().user,
      ),
    );
    expect(new Set(phones)).toEqual(new Set([member.id]));
  });

  it('is ignored on the user side: a user still sees only his own phones', async () => {
    const own = (await list(member.token, `?page_size=100&user=${neighbour.id}`, 'user')).json();
    expect(own.total_count).toBe(2);
  });

  it('lets a blocked user still read why his numbers left the barrier', async () => {
    const blocked = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${member.id}/block/`,
      token: owner.token,
      payload: { reason: 'Долг' },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    const response = await list(member.token, '?page_size=100', 'user');
    expect(response.statusCode).toBe(200);
    const deletions = response
      .json()
      .actions.filter((action: { action_type: string }) => action.action_type === 'delete_phone');
    expect(deletions).toHaveLength(2);
    expect(new Set(deletions.map((action: { reason: string }) => action.reason))).toEqual(
      new Set(['barrier_exit']),
    );
  });
});
