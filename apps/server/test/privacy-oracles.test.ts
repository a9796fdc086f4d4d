/**
 * Issue 28 part 2: no account oracle. Each look-up by number is performed for a number with an account (a
 * stranger's: no request, no invitation accepted, no access) and for a fresh number, and must answer byte for
 * byte alike once the values the caller typed and the time-dependent fields are set aside. Before the fix the
 * search answered 200 with the account, the invitation by number an access request instead of a waiting one,
 * and staff by phone 201 with the administrator's name.
 */
import { describe, expect, it } from 'vitest';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { createBarrier, createOwnerWithBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { createTestApp, useTestApp } from './test-app.ts';

/** The answer with what differs by construction set aside: ids, times, and the number the caller typed. */
function shapeOf(response: { statusCode: number; body: string }, typed: string) {
  const text = response.body
    .replaceAll(typed, '<typed>')
    .replace(/"(id|created_at|updated_at)":("[^"]*"|\d+)/g, '"$1":"<x>"');
  return { status: response.statusCode, body: text };
}

describe('look-ups by number tell nothing of an account (issue 28 part 2)', () => {
  const t = useTestApp({
    env: { ADMIN_LOOKUPS_PER_HOUR: '40', PHONE_INVITES_PER_ADMIN_PER_HOUR: '40' },
  });

  it('the exact-phone search answers a stranger’s number and a new one alike', async () => {
    const { owner } = await createOwnerWithBarrier(t);
    const stranger = await createUser(t, { fullName: 'Чужой Житель' });
    const strangerAdmin = await createAdmin(t, { fullName: 'Чужой Администратор' });
    const search = (phone: string) =>
      t.request({ method: 'POST', url: '/api/admin/users/search/', token: owner.token, payload: { phone } });
    const fresh = nextPhone();
    const answers = [
      shapeOf(await search(stranger.phone), stranger.phone),
      shapeOf(await search(strangerAdmin.phone), strangerAdmin.phone),
      shapeOf(await search(fresh), fresh),
    ];
    expect(answers[0]?.status).toBe(404);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('the invitation by number answers a stranger’s number and a new one alike, and both get the invitation', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const stranger = await createUser(t, { fullName: 'Чужой Второй' });
    const fresh = nextPhone();
    const invite = (phone: string) =>
      t.request({
        method: 'POST',
        url: '/api/admin/phone_invitations/',
        token: owner.token,
        payload: { barrier: barrier.id, phone },
      });
    const withAccount = await invite(stranger.phone);
    const withoutAccount = await invite(fresh);
    expect(withAccount.statusCode, withAccount.body).toBe(201);
    expect(shapeOf(withAccount, stranger.phone)).toEqual(shapeOf(withoutAccount, fresh));
    expect(withAccount.body).not.toContain('Чужой Второй');
    // The same SMS for both numbers.
    const textTo = (phone: string) =>
      t
        .sentSms()
        .filter((line) => line.to === phone)
        .map((line) => line.text);
    expect(textTo(stranger.phone)).toEqual(textTo(fresh));
    expect(textTo(fresh)).toHaveLength(1);
    // The list of waiting invitations shows both alike.
    const list = await t.request({
      method: 'GET',
      url: `/api/admin/phone_invitations/?barrier=${barrier.id}`,
      token: owner.token,
    });
    const rows = list.json().phone_invitations as { phone: string; status: string }[];
    expect(rows.map((row) => [row.phone, row.status]).sort()).toEqual(
      [
        [stranger.phone, 'waiting'],
        [fresh, 'waiting'],
      ].sort(),
    );
    // A second invitation of either: the same 409.
    const again = [
      shapeOf(await invite(stranger.phone), stranger.phone),
      shapeOf(await invite(fresh), fresh),
    ];
    expect(again[0]?.status).toBe(409);
    expect(again[1]).toEqual(again[0]);

    // The account finds it when it reads its requests: an ordinary invitation, still masked for the owner.
    const mine = await t.request({
      method: 'GET',
      url: '/api/access_requests/my/?type=incoming',
      token: stranger.token,
    });
    expect(mine.json().access_requests).toMatchObject([{ barrier: barrier.id, status: 'pending' }]);
    const outgoing = await t.request({
      method: 'GET',
      url: '/api/admin/access_requests/my/?type=outgoing',
      token: owner.token,
    });
    expect(outgoing.json().access_requests).toMatchObject([{ user: stranger.id, user_full_name: null }]);
    expect(outgoing.body).not.toContain(stranger.phone);
  });

  it('staff by phone answers a stranger administrator, a resident and a new number alike', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const strangerAdmin = await createAdmin(t, { fullName: 'Незнакомый Диспетчер' });
    const resident = await createUser(t, { fullName: 'Просто Житель' });
    const fresh = nextPhone();
    const add = (phone: string) =>
      t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/staff/`,
        token: owner.token,
        payload: { phone, role: 'dispatcher' },
      });
    const answers = [
      shapeOf(await add(strangerAdmin.phone), strangerAdmin.phone),
      shapeOf(await add(resident.phone), resident.phone),
      shapeOf(await add(fresh), fresh),
    ];
    expect(answers[0]?.status).toBe(404);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);

    // Once he asked for access to one of the owner's barriers, the owner knows him and adds him.
    const other = await createBarrier(t, owner);
    const asked = await t.request({
      method: 'POST',
      url: '/api/access_requests/',
      token: strangerAdmin.token,
      payload: { user: strangerAdmin.id, barrier: other.id },
    });
    expect(asked.statusCode).toBe(201);
    const added = await add(strangerAdmin.phone);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ full_name: 'Незнакомый Диспетчер', role: 'dispatcher' });
  });

  it('limits the look-ups per administrator: 429 lookup_limit with retry_after, across the three', async () => {
    const limited = await createTestApp({ env: { ADMIN_LOOKUPS_PER_HOUR: '3' } });
    try {
      const { owner, barrier } = await createOwnerWithBarrier(limited);
      const search = (admin: TestUser) =>
        limited.request({
          method: 'POST',
          url: '/api/admin/users/search/',
          token: admin.token,
          payload: { phone: nextPhone() },
        });
      expect((await search(owner)).statusCode).toBe(404);
      expect(
        (
          await limited.request({
            method: 'POST',
            url: '/api/admin/phone_invitations/',
            token: owner.token,
            payload: { barrier: barrier.id, phone: nextPhone() },
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (
          await limited.request({
            method: 'POST',
            url: `/api/admin/barriers/${barrier.id}/staff/`,
            token: owner.token,
            payload: { phone: nextPhone(), role: 'operator' },
          })
        ).statusCode,
      ).toBe(404);
      const refused = await search(owner);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('lookup_limit');
      expect(refused.json().retry_after).toBeGreaterThan(0);
      expect(refused.json().retry_after).toBeLessThanOrEqual(3600);
      // Another administrator has his own budget.
      const other = await createAdmin(limited);
      expect((await search(other)).statusCode).toBe(404);
      // An hour later the budget is back.
      limited.clock.advance(60 * 60_000 + 1000);
      const session = await issueSession(limited.deps, limited.deps.db, owner.id);
      expect((await search({ ...owner, token: session.access_token })).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
