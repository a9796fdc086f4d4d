/**
 * Issue 40 item 4: an administrator's imports made invitations without a bound (no SMS, but a person's
 * requests filled with them, and a file of 5,000 account numbers a day). They are capped per administrator
 * per 24 hours (IMPORT_INVITATIONS_PER_ADMIN_PER_DAY): a commit that would go over is refused whole, with
 * what is left, and nothing of it is written (docs/decisions/0030).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createOwnerWithBarrier, type TestBarrier } from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { commitImport, csvFile, previewImport } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';

describe('import invitations are capped per administrator per day', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  const t = useTestApp({ env: { IMPORT_INVITATIONS_PER_ADMIN_PER_DAY: '3' } });
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
  });

  async function importAccounts(count: number, extra: string[][] = []) {
    const people = [];
    for (let index = 0; index < count; index += 1) people.push(await createUser(t));
    const file = csvFile([
      ...people.map((person, index) => [person.phone, `Житель ${index}`, '', 'Основной', '', '', '']),
      ...extra,
    ]);
    const preview = await previewImport(t, barrier.id, owner.token, file);
    expect(preview.statusCode, preview.body).toBe(200);
    return { people, commit: await commitImport(t, barrier.id, owner.token, file, preview.json().digest) };
  }

  it('invites up to the cap, and refuses whole the commit that would go over it', async () => {
    const first = await importAccounts(2);
    expect(first.commit.statusCode, first.commit.body).toBe(201);
    expect(first.commit.json()).toMatchObject({ invitations: 2 });

    const newcomer = nextPhone();
    const second = await importAccounts(2, [[newcomer, 'Новичок', '', 'Основной', '', '', '']]);
    expect(second.commit.statusCode, second.commit.body).toBe(409);
    expect(second.commit.json()).toMatchObject({ code: 'import_invitations_limit', left: 1 });
    // Nothing of the refused file was written: the newcomer has no account, no access.
    const users = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/users/?page_size=100`,
      token: owner.token,
    });
    expect(users.body).not.toContain(newcomer);

    // Within what is left, a file still goes through.
    const third = await importAccounts(1);
    expect(third.commit.statusCode, third.commit.body).toBe(201);
  });
});
