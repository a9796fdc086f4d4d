/**
 * Issue 32 item 7: a guest-pass list names for whom a pass was made and by whom — the person's name, or his
 * number masked when he gave no name — never an internal id, and each role reads only the passes it may: the
 * barrier's administrator every pass of his barrier, a resident his own.
 */
import { maskPhone } from '@propusk/contracts/phone-mask';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const HOUR = 3_600_000;

describe('guest-pass lists name the resident and the maker', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let anna: TestUser;
  let nameless: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    owner = await createAdmin(t, { fullName: 'Ольга Владелец' });
    barrier = await createBarrier(t, owner);
    anna = await createUserWithAccess(t, barrier, 'Анна Жилец');
    nameless = await createUserWithAccess(t, barrier, '');
  });

  const window = () => ({
    start: new Date(t.clock.now().getTime() + HOUR).toISOString(),
    end: new Date(t.clock.now().getTime() + 3 * HOUR).toISOString(),
  });
  const list = (who: TestUser, side: 'user' | 'admin') =>
    t.request({
      method: 'GET',
      url: `/api${side === 'admin' ? '/admin' : ''}/barriers/${barrier.id}/guest-passes/`,
      token: who.token,
    });

  it('answers names (or masked numbers) per role, and never a whole number', async () => {
    const own = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: anna.token,
      payload: window(),
    });
    expect(own.statusCode, own.body).toBe(201);
    // The created pass already reads as the list will.
    expect(own.json()).toMatchObject({
      user: anna.id,
      user_full_name: 'Анна Жилец',
      user_phone: maskPhone(anna.phone),
      created_by: anna.id,
      created_by_full_name: 'Анна Жилец',
    });
    const forNameless = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/guest-passes/`,
      token: owner.token,
      payload: { ...window(), user: nameless.id },
    });
    expect(forNameless.statusCode, forNameless.body).toBe(201);

    // The administrator of the barrier: every pass, the residents named, the nameless one by his masked number.
    const admin = await list(owner, 'admin');
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().guest_passes).toEqual([
      expect.objectContaining({
        id: forNameless.json().id,
        user_full_name: null,
        user_phone: maskPhone(nameless.phone),
        created_by: owner.id,
        created_by_full_name: 'Ольга Владелец',
        created_by_phone: maskPhone(owner.phone),
      }),
      expect.objectContaining({ id: own.json().id, user_full_name: 'Анна Жилец' }),
    ]);
    expect(maskPhone(nameless.phone)).toMatch(/^\+7 \*\*\* \*\*\*-\d\d-\d\d$/);
    for (const person of [anna, nameless, owner]) expect(admin.body).not.toContain(person.phone);

    // A resident: his own passes only, with who made each.
    const annaList = (await list(anna, 'user')).json().guest_passes;
    expect(annaList.map((pass: { id: number }) => pass.id)).toEqual([own.json().id]);
    const namelessList = (await list(nameless, 'user')).json().guest_passes;
    expect(namelessList).toEqual([
      expect.objectContaining({
        id: forNameless.json().id,
        user_full_name: null,
        created_by_full_name: 'Ольга Владелец',
      }),
    ]);
    expect(JSON.stringify(namelessList)).not.toContain('Анна');

    // Another administrator reads nothing of this barrier's passes.
    const stranger = await createAdmin(t, { fullName: 'Чужой' });
    await createBarrier(t, stranger);
    const foreign = await list(stranger, 'admin');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Анна');
  });

  it('revoking answers the pass named too', async () => {
    const made = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: nameless.token,
      payload: window(),
    });
    expect(made.statusCode, made.body).toBe(201);
    const revoked = await t.request({
      method: 'DELETE',
      url: `/api/barriers/${barrier.id}/guest-passes/${made.json().id}/`,
      token: nameless.token,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({
      status: 'revoked',
      user_full_name: null,
      user_phone: maskPhone(nameless.phone),
      created_by_full_name: null,
      created_by_phone: maskPhone(nameless.phone),
    });
  });
});
