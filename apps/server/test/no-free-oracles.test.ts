/**
 * Issue 40 item 4: no free oracles. A resident at his phone limit (or with his SMS share used up) tested any
 * number for free: `phone_of_other_account` came before the limit. Answers that tell a number has an account
 * had no budget, and the code's resend pause was keyed by address and number (a new address skipped it).
 * docs/decisions/0030.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { loginWithCode, requestCode, verifiedToken } from './auth-helpers.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  type TestBarrier,
} from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const DAY_MS = 24 * 60 * 60_000;

describe('the limit comes before anything about the number', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
    resident = await createUserWithAccess(t, barrier, 'Житель');
  });

  it('at his phone limit, another account’s number and a free one get the same limit answer', async () => {
    const set = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: { user_phone_limit: 1 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const someone = await createUser(t, { fullName: 'Кто-то' });
    const probe = await addPhone(t, resident, barrier.id, { phone: someone.phone, name: 'Проба' });
    const free = await addPhone(t, resident, barrier.id, { phone: nextPhone(), name: 'Проба' });
    expect(probe.statusCode, probe.body).toBe(409);
    expect(probe.json().code).toBe('limit_user_phones');
    expect(free.json()).toEqual(probe.json());
  });
});

describe('with his SMS share used up, the share answer comes before anything about the number', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user: resident } = await createDeviceScene(t));
  });

  it('answers the share to another account’s number as to a free one', async () => {
    const before = await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now());
    const set = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: { sms_weekly_limit: before + 20, sms_owner_reserve: before + 5, sms_resident_share: 1 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const spent = await addPhone(t, resident, barrier.id);
    expect(spent.statusCode, spent.body).toBe(201);
    await h.run(barrier.id);

    const someone = await createUser(t, { fullName: 'Кто-то' });
    const probe = await addPhone(t, resident, barrier.id, { phone: someone.phone, name: 'Проба' });
    const free = await addPhone(t, resident, barrier.id, { phone: nextPhone(), name: 'Проба' });
    expect(probe.statusCode, probe.body).toBe(409);
    expect(probe.json()).toMatchObject({ code: 'sms_resident_share_used', left: 0 });
    expect(free.json()).toEqual(probe.json());
  });
});

describe('answers that tell a number has an account have a daily budget', () => {
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ barrier } = await createOwnerWithBarrier(t));
    resident = await createUserWithAccess(t, barrier, 'Житель');
  });

  it('counts a number change refused because the new number has an account', async () => {
    const other = await createUserWithAccess(t, barrier, 'Другой');
    for (let probe = 0; probe < t.deps.config.ACCOUNT_ANSWERS_PER_DAY; probe += 1) {
      const someone = await createUser(t);
      const code = await requestCode(t, someone.phone, 'change_phone_new', { token: other.token });
      expect(code.json().code).toBe('phone_in_use');
    }
    const free = await requestCode(t, nextPhone(), 'change_phone_new', { token: other.token });
    expect(free.statusCode, free.body).toBe(429);
    expect(free.json().code).toBe('account_answers_limit');
  });

  it('after ACCOUNT_ANSWERS_PER_DAY such answers, any add is refused with 429 until a day has passed', async () => {
    const budget = t.deps.config.ACCOUNT_ANSWERS_PER_DAY;
    expect(budget).toBe(10);
    for (let probe = 0; probe < budget; probe += 1) {
      const someone = await createUser(t);
      const answer = await addPhone(t, resident, barrier.id, { phone: someone.phone, name: 'Проба' });
      expect(answer.json().code).toBe('phone_of_other_account');
      t.clock.advance(1000);
    }
    // Spent: a number with an account and a free one get the same 429, and nothing is added.
    const someone = await createUser(t);
    const probe = await addPhone(t, resident, barrier.id, { phone: someone.phone, name: 'Проба' });
    const free = await addPhone(t, resident, barrier.id, { phone: nextPhone(), name: 'Проба' });
    expect(probe.statusCode, probe.body).toBe(429);
    expect(probe.json()).toMatchObject({ code: 'account_answers_limit' });
    expect(probe.json().retry_after).toBeGreaterThan(DAY_MS / 1000 - 60);
    expect(free.json()).toEqual(probe.json());

    // A number change's `phone_in_use` shares the budget: its code is refused alike.
    const code = await requestCode(t, someone.phone, 'change_phone_new', { token: resident.token });
    expect(code.statusCode, code.body).toBe(429);
    expect(code.json().code).toBe('account_answers_limit');

    t.clock.advance(DAY_MS);
    const { access } = await loginWithCode(t, resident.phone);
    const later = await addPhone(t, { ...resident, token: access }, barrier.id, {
      phone: nextPhone(),
      name: 'Няня',
    });
    expect(later.statusCode, later.body).toBe(201);
  });
});

describe('the resend pause of codes is the number’s, whatever the address', () => {
  const t = useTestApp();

  it('refuses a second code to the number within 60 s from another address, and sends it after', async () => {
    const phone = nextPhone();
    const first = await requestCode(t, phone, 'login', { remoteAddress: '198.51.100.1' });
    expect(first.statusCode, first.body).toBe(201);
    const other = await requestCode(t, phone, 'login', { remoteAddress: '198.51.100.2' });
    expect(other.statusCode, other.body).toBe(429);
    expect(other.json().code).toBe('code_already_sent');
    t.clock.advance(61_000);
    const later = await requestCode(t, phone, 'login', { remoteAddress: '198.51.100.2' });
    expect(later.statusCode, later.body).toBe(201);
    // A logged-in change of number still works end to end with the pause per number.
    expect(await verifiedToken(t, nextPhone(), 'login')).toBeTruthy();
  });
});
