/**
 * Issue 15 part 6: the barrier-user search reads copies of each user's name and phone kept in barrier_access
 * by the database (migration 0013). What the administrator sees must follow every change of the user.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createOwnerWithBarrier, createUserWithAccess, grantAccess } from './domain-factories.ts';
import { nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('barrier-user search follows the users', () => {
  const t = useTestApp();

  const found = async (owner: TestUser, barrierId: number, search: string) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrierId}/users/?search=${encodeURIComponent(search)}`,
      token: owner.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as {
      total_count: number;
      users: { id: number; full_name: string | null }[];
    };
    expect(body.total_count).toBe(body.users.length);
    return body.users.map((user) => user.id);
  };

  it('finds a user by the name and phone he has now, in any case, on every barrier he has access to', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const anna = await createUserWithAccess(t, barrier, 'Анна Иванова');
    const boris = await createUserWithAccess(t, barrier, 'Борис Петров');
    expect(await found(owner, barrier.id, 'иванова')).toEqual([anna.id]);
    expect(await found(owner, barrier.id, 'Петров')).toEqual([boris.id]);
    expect(await found(owner, barrier.id, boris.phone.slice(-7))).toEqual([boris.id]);
    expect(await found(owner, barrier.id, 'Сидоров')).toEqual([]);

    // Anna renames herself: the old name finds nothing, the new one finds her.
    const renamed = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: anna.token,
      payload: { full_name: 'Анна Сидорова' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await found(owner, barrier.id, 'иванова')).toEqual([]);
    expect(await found(owner, barrier.id, 'сидорова')).toEqual([anna.id]);

    // Boris's number changes (support does it in the database): the search follows it.
    const newPhone = nextPhone();
    await t.deps.db.update(users).set({ phone: newPhone }).where(eq(users.id, boris.id));
    expect(await found(owner, barrier.id, boris.phone.slice(-7))).toEqual([]);
    expect(await found(owner, barrier.id, newPhone.slice(-7))).toEqual([boris.id]);

    // Access granted after the rename, on another barrier, carries the current name.
    const second = await createOwnerWithBarrier(t);
    await grantAccess(t, second.barrier, anna);
    expect(await found(second.owner, second.barrier.id, 'сидорова')).toEqual([anna.id]);
    expect(await found(second.owner, second.barrier.id, 'иванова')).toEqual([]);
  });

  it('treats % and _ in a search as the characters themselves', async () => {
    const { owner, barrier } = await createOwnerWithBarrier(t);
    await createUserWithAccess(t, barrier, 'Анна Иванова');
    expect(await found(owner, barrier.id, '%')).toEqual([]);
    expect(await found(owner, barrier.id, '_')).toEqual([]);
  });
});
