/**
 * Issue 28 part 3: a role without `phones.manage` (the dispatcher) reads numbers masked. Before the fix the
 * dispatcher's device log showed `****A002#0007999…#` with the resident's whole number and his openings list
 * the opener's `user_phone`, a private number included; the owner keeps reading both in full (the device
 * password stays masked).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createBarrier, createUserWithAccess, makeKnownTo, type TestBarrier } from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const tenDigits = (phone: string) => phone.slice(2);

describe('roles without phones.manage read numbers masked (issue 28 part 3)', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let dispatcher: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    // Numbers of their own: the factory's hold the worker's pid, which can spell the password (device-log.test.ts).
    owner = await createAdmin(t, { fullName: 'Владелец Маски', phone: '+79005550111' });
    barrier = await createBarrier(t, owner, { device_password: '2580' });
    dispatcher = await createAdmin(t, { fullName: 'Диспетчер Маски', phone: '+79005550112' });
    await makeKnownTo(t, barrier, dispatcher);
    const added = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/staff/`,
      token: owner.token,
      payload: { phone: dispatcher.phone, role: 'dispatcher' },
    });
    expect(added.statusCode, added.body).toBe(201);
    resident = await createUserWithAccess(t, barrier, 'Скрытный Жилец');
    await t.deps.db.update(users).set({ phonePrivacy: 'private' }).where(eq(users.id, resident.id));
    await h.run(barrier.id);
    const opened = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/open/`,
      token: resident.token,
    });
    expect(opened.statusCode, opened.body).toBe(201);
    await h.run(barrier.id);
  });

  const read = (user: TestUser, url: string) => t.request({ method: 'GET', url, token: user.token });

  it('the dispatcher’s device log masks every number; the owner’s shows it, with the password masked', async () => {
    const url = `/api/admin/barriers/${barrier.id}/device-log/?page_size=100`;
    const asOwner = await read(owner, url);
    expect(asOwner.statusCode).toBe(200);
    const ownerMessages = asOwner.json().messages as { text: string; direction: string }[];
    const ownerTexts = ownerMessages.map((message) => message.text);
    const addition = ownerMessages.find(
      (message) => message.direction === 'out' && message.text.includes(tenDigits(resident.phone)),
    )?.text;
    expect(addition).toMatch(/^\*\*\*\*A/);
    expect(ownerTexts.join('\n')).not.toContain('2580');

    const asDispatcher = await read(dispatcher, url);
    expect(asDispatcher.statusCode).toBe(200);
    const texts = (asDispatcher.json().messages as { text: string }[]).map((message) => message.text);
    expect(texts).toHaveLength(ownerTexts.length);
    expect(asDispatcher.body).not.toContain(tenDigits(resident.phone));
    expect(asDispatcher.body).not.toContain(tenDigits(owner.phone));
    expect(asDispatcher.body).not.toContain('2580');
    // The same message, its number reduced to the last four digits.
    const index = ownerTexts.indexOf(addition ?? '');
    expect(texts[index]).toContain(resident.phone.slice(-4));
    expect(texts[index]).toMatch(/^\*\*\*\*A/);
  });

  it('the dispatcher’s openings show the opener’s number masked, and his filter matches only the last digits', async () => {
    const asOwner = await read(owner, `/api/admin/barriers/${barrier.id}/openings/`);
    expect(asOwner.json().openings[0]).toMatchObject({ user: resident.id, user_phone: resident.phone });

    const asDispatcher = await read(dispatcher, `/api/admin/barriers/${barrier.id}/openings/`);
    expect(asDispatcher.statusCode).toBe(200);
    const masked = `+7 *** ***-${resident.phone.slice(-4, -2)}-${resident.phone.slice(-2)}`;
    expect(asDispatcher.json().openings[0]).toMatchObject({ user: resident.id, user_phone: masked });
    expect(asDispatcher.body).not.toContain(resident.phone);

    // A substring of the hidden digits finds nothing for him (it would spell the number); the visible ones do.
    const hidden = tenDigits(resident.phone).slice(0, 5);
    const byHidden = await read(dispatcher, `/api/admin/barriers/${barrier.id}/openings/?phone=${hidden}`);
    expect(byHidden.json().total_count).toBe(0);
    const byVisible = await read(
      dispatcher,
      `/api/admin/barriers/${barrier.id}/openings/?phone=${resident.phone.slice(-4)}`,
    );
    expect(byVisible.json().total_count).toBe(1);
    // The owner's filter is a substring, as before.
    const ownerFilter = await read(owner, `/api/admin/barriers/${barrier.id}/openings/?phone=${hidden}`);
    expect(ownerFilter.json().total_count).toBe(1);
  });

  it('the dispatcher’s health and holds carry no number', async () => {
    const health = await read(dispatcher, `/api/admin/barriers/${barrier.id}/device-health/`);
    expect(health.statusCode).toBe(200);
    expect(health.body).not.toContain(tenDigits(resident.phone));
    const holds = await read(dispatcher, '/api/admin/emergency-holds/');
    expect(holds.statusCode).toBe(200);
    expect(holds.body).not.toContain(tenDigits(resident.phone));
  });
});
