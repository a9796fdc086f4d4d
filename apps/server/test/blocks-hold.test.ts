/**
 * Issue 29 item 1: an administrator's block holds for the number on all of his barriers. Each bypass the
 * review found is performed here: another resident adds the blocked number as his extra phone, the blocked man
 * redeems a friend's guest link with his own number, an import row carries it, an invitation names it (by
 * number, and by id after he made a new account with it). Each is refused with `phone_blocked_on_barrier`
 * and nothing with the number is queued for the device.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import {
  addPhone,
  createBarrier,
  createOwnerWithBarrier,
  createUserWithAccess,
  grantAccess,
  queuedCommands,
  type TestBarrier,
} from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { commitImport, csvFile, previewImport } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';

describe('a block holds for the number', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let blocked: TestUser;
  let neighbour: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
    blocked = await createUserWithAccess(t, barrier, 'Заблокированный');
    neighbour = await createUserWithAccess(t, barrier, 'Сосед');
    const response = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${blocked.id}/block/`,
      token: owner.token,
      payload: { reason: 'Нарушение правил' },
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  /** Whether any open device command of the barrier carries the number. */
  const queuedFor = async (number: string) =>
    JSON.stringify(await queuedCommands(t, barrier.id)).includes(number.slice(2));

  function expectRefused(response: { statusCode: number; json: () => { code?: string }; body: string }) {
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().code).toBe('phone_blocked_on_barrier');
  }

  it('refuses the blocked number as another resident’s extra phone', async () => {
    expectRefused(await addPhone(t, neighbour, barrier.id, { phone: blocked.phone, name: 'Брат' }));
    expect(await queuedFor(blocked.phone)).toBe(false);
    // The block is the owner's: another administrator's barrier takes him and his number.
    const other = await createBarrier(t, await createAdmin(t));
    await grantAccess(t, other, blocked);
  });

  it('refuses the blocked man redeeming a friend’s guest link with his own number', async () => {
    const created = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: neighbour.token,
      payload: {
        start: t.clock.now().toISOString(),
        end: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json().token as string;
    const ip = '10.29.1.1';
    const code = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${link}/code/`,
      payload: { phone: blocked.phone },
      remoteAddress: ip,
    });
    expect(code.statusCode, code.body).toBe(201);
    const redeemed = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${link}/redeem/`,
      payload: {
        phone: blocked.phone,
        code: t.lastCode(blocked.phone),
        verification_token: code.json().verification_token,
      },
      remoteAddress: ip,
    });
    expectRefused(redeemed);
    expect(await queuedFor(blocked.phone)).toBe(false);
    // The pass stays unused for a guest the owner did not block.
    const passes = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: neighbour.token,
    });
    expect(passes.json().guest_passes[0]).toMatchObject({ status: 'created', used_phone: null });
  });

  it('refuses an import row with the number, as a resident or as someone’s extra phone', async () => {
    const asResident = csvFile([[blocked.phone, 'Житель', 'кв. 1', 'Основной', '', '', '']]);
    const residentPreview = await previewImport(t, barrier.id, owner.token, asResident);
    expect(residentPreview.json().rows[0].problems.map((p: { code: string }) => p.code)).toContain(
      'user_blocked_by_admin',
    );
    const file = csvFile([
      [nextPhone(), 'Другой', 'кв. 2', 'Основной', '', '', ''],
      [blocked.phone.replace('+7', '8'), 'Брат', 'кв. 2', 'Постоянный', '', '', ''],
    ]);
    const preview = await previewImport(t, barrier.id, owner.token, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const codes = preview
      .json()
      .rows.map((row: { problems: { code: string }[] }) => row.problems.map((problem) => problem.code));
    expect(codes).toEqual([[], ['phone_blocked_on_barrier']]);
    const committed = await commitImport(t, barrier.id, owner.token, file, preview.json().digest);
    expect(committed.statusCode).toBe(409);
    expect(await queuedFor(blocked.phone)).toBe(false);
  });

  it('refuses an invitation by the number', async () => {
    const invited = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
      payload: { barrier: barrier.id, phone: blocked.phone },
    });
    expectRefused(invited);
  });

  it('holds after the account changes its number, and for a new account with the old number', async () => {
    const oldNumber = blocked.phone;
    const newNumber = nextPhone();
    await t.deps.db.update(users).set({ phone: newNumber }).where(eq(users.id, blocked.id));
    // Both his old number (kept with the block) and his new one (his account's) stay out.
    expectRefused(await addPhone(t, neighbour, barrier.id, { phone: oldNumber, name: 'Брат' }));
    expectRefused(await addPhone(t, neighbour, barrier.id, { phone: newNumber, name: 'Брат' }));

    // He deletes the account and registers the old number again: a new account, the same number.
    await t.deps.db.update(users).set({ deletedAt: t.clock.now() }).where(eq(users.id, blocked.id));
    const again = await createUser(t, { phone: oldNumber });
    const asked = await t.request({
      method: 'POST',
      url: '/api/access_requests/',
      token: again.token,
      payload: { user: again.id, barrier: barrier.id },
    });
    expect(asked.statusCode).toBe(403);
    expect(asked.json().code).toBe('blocked_on_barrier');
    const invitedById = await t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: owner.token,
      payload: { user: again.id, barrier: barrier.id },
    });
    expect(invitedById.statusCode).toBe(409);
    expect(await queuedFor(oldNumber)).toBe(false);
  });
});
