/**
 * Issue 28 part 1: an invitation reveals nothing. The attack of the review, performed: an administrator (a
 * dispatcher elsewhere is enough) creates a barrier of his own and invites ids 1, 2, 3… one by one; before the
 * fix every 201 carried the account's phone and name, and the invitation made the user "related" for good.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createBarrier, createOwnerWithBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

/** `+7 *** ***-45-67` of `+79001234567`. */
const masked = (phone: string) => `+7 *** ***-${phone.slice(-4, -2)}-${phone.slice(-2)}`;

describe('invitations reveal nothing (issue 28 part 1)', () => {
  const t = useTestApp();

  const invite = (admin: TestUser, userId: number, barrierId: number) =>
    t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: admin.token,
      payload: { user: userId, barrier: barrierId },
    });
  const profile = (admin: TestUser, userId: number) =>
    t.request({ method: 'GET', url: `/api/admin/users/${userId}/`, token: admin.token });

  it('the harvest loop over every account yields neither a phone nor a name', async () => {
    // Accounts of every kind: residents, a private one, other administrators (one of them a dispatcher).
    const victims = [
      await createUser(t, { fullName: 'Анна Смирнова' }),
      await createUser(t, { fullName: 'Пётр Скрытный' }),
      await createAdmin(t, { fullName: 'Другой Администратор' }),
      await createAdmin(t, { fullName: 'Диспетчер Соседнего' }),
      await createUser(t),
    ];
    await t.deps.db
      .update(users)
      .set({ phonePrivacy: 'private' })
      .where(eq(users.id, victims[1]?.id ?? 0));
    const harvester = await createAdmin(t, { fullName: 'Сборщик' });
    const own = await createBarrier(t, harvester);
    const everyone = await t.deps.db
      .select({ id: users.id, phone: users.phone, name: users.fullName })
      .from(users);
    expect(everyone.length).toBeGreaterThanOrEqual(victims.length + 1);

    let invited = 0;
    for (const account of everyone) {
      const response = await invite(harvester, account.id, own.id);
      if (account.id === harvester.id) {
        expect(response.statusCode).toBe(409); // he has access to his own barrier
        continue;
      }
      expect(response.statusCode, response.body).toBe(201);
      invited += 1;
      const body = response.json();
      // The ids stay ids and the flat fields are there, empty or masked.
      expect(body).toMatchObject({
        user: account.id,
        barrier: own.id,
        status: 'pending',
        user_full_name: null,
      });
      expect(body.user_phone).toBe(masked(account.phone));
      expect(response.body).not.toContain(account.phone);
      if (account.name) expect(response.body).not.toContain(account.name);
      // Nor does the profile, nor his list of invitations.
      expect((await profile(harvester, account.id)).statusCode).toBe(404);
    }
    expect(invited).toBe(everyone.length - 1);
    const list = await t.request({
      method: 'GET',
      url: '/api/admin/access_requests/my/?type=outgoing&page_size=100',
      token: harvester.token,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().access_requests).toHaveLength(invited);
    for (const account of everyone) {
      if (account.id === harvester.id) continue;
      expect(list.body).not.toContain(account.phone);
      if (account.name) expect(list.body).not.toContain(account.name);
    }
  });

  it('a cancelled or rejected invitation leaves nobody related: the profile read is 404', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const victim = await createUser(t, { fullName: 'Ирина Отказная' });
    const declining = await createUser(t, { fullName: 'Олег Отказ' });

    const created = await invite(owner, victim.id, barrier.id);
    expect(created.statusCode).toBe(201);
    const cancelled = await t.request({
      method: 'PATCH',
      url: `/api/admin/access_requests/${created.json().id}/`,
      token: owner.token,
      payload: { status: 'cancelled' },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ user_full_name: null, user_phone: masked(victim.phone) });
    expect((await profile(owner, victim.id)).statusCode).toBe(404);

    const second = await invite(owner, declining.id, barrier.id);
    const rejected = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${second.json().id}/`,
      token: declining.token,
      payload: { status: 'rejected' },
    });
    expect(rejected.statusCode).toBe(200);
    expect((await profile(owner, declining.id)).statusCode).toBe(404);
    const list = await t.request({
      method: 'GET',
      url: '/api/admin/access_requests/my/',
      token: owner.token,
    });
    expect(list.body).not.toContain(declining.phone);
    expect(list.body).not.toContain('Олег Отказ');
    // Nor can he block (and so list) the user he only invited.
    const block = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${victim.id}/block/`,
      token: owner.token,
      payload: { reason: 'Проверка' },
    });
    expect(block.statusCode).toBe(404);
  });

  it('an accepted invitation shares the name and number; the user’s own request does from the start', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const invitee = await createUser(t, { fullName: 'Мария Согласная' });
    const created = await invite(owner, invitee.id, barrier.id);
    expect(created.json()).toMatchObject({ user_full_name: null, user_phone: masked(invitee.phone) });
    // The user sees his own number and the barrier's owner in full.
    const mine = await t.request({ method: 'GET', url: '/api/access_requests/my/', token: invitee.token });
    expect(mine.json().access_requests[0]).toMatchObject({
      user_phone: invitee.phone,
      user_full_name: 'Мария Согласная',
    });
    const accepted = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${created.json().id}/`,
      token: invitee.token,
      payload: { status: 'accepted' },
    });
    expect(accepted.statusCode).toBe(200);
    const list = await t.request({
      method: 'GET',
      url: '/api/admin/access_requests/my/',
      token: owner.token,
    });
    expect(list.json().access_requests[0]).toMatchObject({
      user: invitee.id,
      status: 'accepted',
      user_full_name: 'Мария Согласная',
      user_phone: invitee.phone,
    });
    expect((await profile(owner, invitee.id)).json()).toMatchObject({ phone: invitee.phone });

    const asker = await createUser(t, { fullName: 'Сам Попросил' });
    const asked = await t.request({
      method: 'POST',
      url: '/api/access_requests/',
      token: asker.token,
      payload: { user: asker.id, barrier: barrier.id },
    });
    expect(asked.statusCode).toBe(201);
    const incoming = await t.request({
      method: 'GET',
      url: '/api/admin/access_requests/my/?type=incoming',
      token: owner.token,
    });
    expect(incoming.json().access_requests[0]).toMatchObject({
      user_phone: asker.phone,
      user_full_name: 'Сам Попросил',
    });
    expect((await profile(owner, asker.id)).statusCode).toBe(200);
  });
});
