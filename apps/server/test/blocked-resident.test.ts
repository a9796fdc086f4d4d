/**
 * Issue 41 majors 2 and 3: a resident whose administrator blocked him is told so where he looks (his barrier
 * list names the closed barrier with the reason and the administrator's contact as the administrator's phone
 * privacy allows; «Заявки» marks the accepted request as closed), and the administrator finds the people he
 * blocked on any of his barriers («Заблокированные») to unblock them.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createBarrier, grantAccess } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('a blocked resident and «Заблокированные»', () => {
  const t = useTestApp();

  const get = (user: TestUser, url: string) => t.request({ method: 'GET', url, token: user.token });
  const patch = (user: TestUser, url: string, payload?: object) =>
    t.request({ method: 'PATCH', url, token: user.token, ...(payload ? { payload } : {}) });

  it('tells him which barrier was closed, why and whom to ask; lists him as blocked until unblocked', async () => {
    const owner = await createAdmin(t, { fullName: 'Ольга Владелец' });
    await t.deps.db.update(users).set({ phonePrivacy: 'protected' }).where(eq(users.id, owner.id));
    const closed = await createBarrier(t, owner);
    const untouched = await createBarrier(t, owner);
    const resident = await createUser(t, { fullName: 'Пётр Жилец' });
    await grantAccess(t, closed, resident);

    // Before the block: his barrier, nothing closed.
    const before = (await get(resident, '/api/barriers/my/')).json();
    expect(before.barriers.map((barrier: { id: number }) => barrier.id)).toEqual([closed.id]);
    expect(before.closed_by_admin).toEqual([]);
    const blockedUrl = `/api/admin/barriers/${untouched.id}/blocked/`;
    expect((await get(owner, blockedUrl)).json()).toMatchObject({ users: [], total_count: 0 });

    expect(
      (await patch(owner, `/api/admin/users/${resident.id}/block/`, { reason: 'Долг' })).statusCode,
    ).toBe(200);

    const after = (await get(resident, '/api/barriers/my/')).json();
    expect(after.barriers).toEqual([]);
    expect(after.total_count).toBe(0);
    // Only the barrier he had (not the owner's other one), with the reason and his administrator's number:
    // `protected` shows it to his residents, and a former resident counts as one.
    expect(after.closed_by_admin).toEqual([
      {
        id: closed.id,
        address: closed.address,
        block_reason: 'Долг',
        blocked_at: expect.any(String),
        owner: { id: owner.id, full_name: 'Ольга Владелец', phone: owner.phone },
      },
    ]);
    // A later page or an address search is the spec's list alone.
    expect((await get(resident, '/api/barriers/my/?page=2')).json().closed_by_admin).toEqual([]);

    // `private`: nobody sees the number, the name stays.
    await t.deps.db.update(users).set({ phonePrivacy: 'private' }).where(eq(users.id, owner.id));
    const hidden = (await get(resident, '/api/barriers/my/')).json();
    expect(hidden.closed_by_admin[0].owner).toEqual({
      id: owner.id,
      full_name: 'Ольга Владелец',
      phone: null,
    });

    // «Заявки»: the accepted request says the access was closed.
    const requests = (await get(resident, '/api/access_requests/my/?type=outgoing')).json();
    expect(requests.access_requests).toMatchObject([
      { barrier: closed.id, status: 'accepted', closed_by_admin: true },
    ]);

    // «Заблокированные» on any of the owner's barriers.
    const listed = (await get(owner, blockedUrl)).json();
    expect(listed).toMatchObject({ total_count: 1, current_page: 1 });
    expect(listed.users).toEqual([
      {
        id: resident.id,
        full_name: 'Пётр Жилец',
        phone: resident.phone,
        reason: 'Долг',
        blocked_at: expect.any(String),
      },
    ]);
    // Another administrator neither sees the list nor learns of the block.
    const stranger = await createAdmin(t);
    expect((await get(stranger, blockedUrl)).statusCode).toBe(404);
    expect((await get(resident, blockedUrl)).statusCode).toBe(403);
    expect((await get(owner, `${blockedUrl}?page_size=1000`)).statusCode).toBe(400);

    // Unblocked: gone from the list and from his screen; the request is no longer marked closed.
    expect((await patch(owner, `/api/admin/users/${resident.id}/unblock/`)).statusCode).toBe(200);
    expect((await get(owner, blockedUrl)).json()).toMatchObject({ users: [], total_count: 0 });
    expect((await get(resident, '/api/barriers/my/')).json().closed_by_admin).toEqual([]);
    const reopened = (await get(resident, '/api/access_requests/my/?type=outgoing')).json();
    expect(reopened.access_requests[0].closed_by_admin).toBe(false);
  });

  it('names the closed barrier beside the barriers he keeps, on the first page only', async () => {
    const owner = await createAdmin(t, { fullName: 'Ольга Владелец' });
    await t.deps.db.update(users).set({ phonePrivacy: 'protected' }).where(eq(users.id, owner.id));
    const other = await createAdmin(t);
    const closed = await createBarrier(t, owner);
    const kept = await createBarrier(t, other);
    const resident = await createUser(t);
    await grantAccess(t, closed, resident);
    await grantAccess(t, kept, resident);
    expect((await patch(owner, `/api/admin/users/${resident.id}/block/`, { reason: 'Шум' })).statusCode).toBe(
      200,
    );
    const [blocked] = (await get(owner, `/api/admin/barriers/${closed.id}/blocked/`)).json().users;

    const first = (await get(resident, '/api/barriers/my/?page=1&page_size=1')).json();
    expect(first.barriers.map((barrier: { id: number }) => barrier.id)).toEqual([kept.id]);
    expect(first.total_count).toBe(1);
    expect(first.closed_by_admin).toEqual([
      {
        id: closed.id,
        address: closed.address,
        block_reason: 'Шум',
        blocked_at: blocked.blocked_at,
        owner: { id: owner.id, full_name: 'Ольга Владелец', phone: owner.phone },
      },
    ]);
    // A later page or an address search is the spec's list alone.
    const later = (await get(resident, '/api/barriers/my/?page=2&page_size=1')).json();
    expect(later).toMatchObject({ barriers: [], total_count: 1, closed_by_admin: [] });
    const searched = await get(resident, `/api/barriers/my/?address=${encodeURIComponent(kept.address)}`);
    expect(searched.json()).toMatchObject({ total_count: 1, closed_by_admin: [] });
  });

  it('an accepted request of a resident who is not blocked is not closed', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const resident = await createUser(t);
    await grantAccess(t, barrier, resident);
    const list = (await get(owner, '/api/admin/access_requests/my/?type=incoming')).json();
    expect(list.access_requests).toMatchObject([{ status: 'accepted', closed_by_admin: false }]);
  });
});
