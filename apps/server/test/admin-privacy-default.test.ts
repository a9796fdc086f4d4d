/**
 * Issue 41: a new administrator's number is shown to the residents of his barriers only («protected»), not to
 * any logged-in person; a resident made an administrator likewise; an administrator set up again keeps his
 * own choice; a resident's card shows the number, a stranger's does not.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { createOrPromoteAdmin } from '../src/modules/users/service.ts';
import { createBarrier, grantAccess } from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('a new administrator’s phone privacy', () => {
  const t = useTestApp();

  const privacyOf = async (id: number) =>
    (await t.deps.db.select({ value: users.phonePrivacy }).from(users).where(eq(users.id, id)))[0]?.value;

  it('is «protected» for a created or promoted administrator; a set-up again keeps his choice', async () => {
    const created = await createOrPromoteAdmin(t.deps, { phone: nextPhone(), password: 'juniper-meadow-41' });
    expect(created.created).toBe(true);
    expect(await privacyOf(created.id)).toBe('protected');

    const resident = await createUser(t);
    expect(await privacyOf(resident.id)).toBe('public');
    await createOrPromoteAdmin(t.deps, { phone: resident.phone, password: 'juniper-meadow-41' });
    expect(await privacyOf(resident.id)).toBe('protected');

    await t.deps.db.update(users).set({ phonePrivacy: 'public' }).where(eq(users.id, resident.id));
    await createOrPromoteAdmin(t.deps, { phone: resident.phone, password: 'juniper-meadow-42' });
    expect(await privacyOf(resident.id)).toBe('public');
  });

  it('shows his number on a card to his residents, not to a stranger', async () => {
    const phone = nextPhone();
    const { id } = await createOrPromoteAdmin(t.deps, { phone, password: 'juniper-meadow-41' });
    const tokens = await issueSession(t.deps, t.deps.db, id);
    const owner: TestUser = { id, phone, token: tokens.access_token, refreshToken: tokens.refresh_token };
    const barrier = await createBarrier(t, owner);
    const resident = await createUser(t);
    await grantAccess(t, barrier, resident);
    const stranger = await createUser(t);
    const card = async (user: TestUser) =>
      (await t.request({ method: 'GET', url: `/api/barriers/${barrier.id}/`, token: user.token })).json();
    expect((await card(resident)).owner.phone).toBe(phone);
    expect((await card(stranger)).owner.phone).toBeNull();
  });
});
