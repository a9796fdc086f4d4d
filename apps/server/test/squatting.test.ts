/**
 * Issue 29 item 2: no squatting. A resident adds a neighbour's number as his extra phone before the neighbour
 * has an account; the owner's acceptance of the neighbour then replaces the extra phone (it failed with
 * `phone_duplicate`), and the resident sees why in his history. The number of an existing account is not
 * added as anyone's extra phone (docs/decisions/0023).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  grantAccess,
  projectedDevice,
  type TestBarrier,
} from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('no squatting', () => {
  let barrier: TestBarrier;
  let squatter: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ barrier } = await createOwnerWithBarrier(t));
    squatter = await createUserWithAccess(t, barrier, 'Сосед');
  });

  it('replaces an extra phone holding the number when its owner is accepted, and tells the resident', async () => {
    const number = nextPhone();
    const squatted = await addPhone(t, squatter, barrier.id, { phone: number, name: 'Сосед снизу' });
    expect(squatted.statusCode, squatted.body).toBe(201);

    const neighbour = await createUser(t, { phone: number, fullName: 'Сосед снизу' });
    await grantAccess(t, barrier, neighbour); // asked, and the owner accepted: 200, no phone_duplicate

    const mine = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: neighbour.token,
    });
    expect(mine.json().phones).toEqual([expect.objectContaining({ phone: number, type: 'primary' })]);
    const device = await projectedDevice(t, barrier.id);
    expect([...device.values()].filter((held) => held === number)).toHaveLength(1);

    // The resident who squatted sees his number gone, and why.
    const history = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/actions/`,
      token: squatter.token,
    });
    expect(history.statusCode, history.body).toBe(200);
    const entries = history.json().actions as { action_type: string; reason: string }[];
    expect(entries).toContainEqual(
      expect.objectContaining({ action_type: 'delete_phone', reason: 'primary_taken' }),
    );
    const his = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: squatter.token,
    });
    expect(his.json().phones.map((phone: { phone: string }) => phone.phone)).not.toContain(number);
  });

  it('refuses another account’s number as an extra phone', async () => {
    const other = await createUser(t, { fullName: 'Чужой' });
    const added = await addPhone(t, squatter, barrier.id, { phone: other.phone, name: 'Чужой' });
    expect(added.statusCode).toBe(409);
    expect(added.json().code).toBe('phone_of_other_account');
    const device = await projectedDevice(t, barrier.id);
    expect([...device.values()]).not.toContain(other.phone);
  });
});
