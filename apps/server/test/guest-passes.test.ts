/**
 * Guest passes by link (issue 14 part 5): a resident makes a single-use link for a window of at most 24 h,
 * counted against his temporary-phone limits; the guest opens it without a login, proves his number by an SMS
 * code and the number goes on the simulated device with the window in one SMS; the resident sees the pass
 * used and revokes it, which takes the number off the device at once.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { guestPasses, phones } from '../src/db/schema.ts';
import { sha256 } from '../src/lib/secrets.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { GUEST_IP_LIMIT, GUEST_TOKEN_LIMIT } from '../src/modules/guest-passes/link-service.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import { addPhone, createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const HOUR = 3600_000;
let ipCounter = 0;
/** A fresh address per scene, so that the per-address budgets of one test do not spill into another. */
const nextIp = () => `10.14.5.${++ipCounter}`;

/** The device's time format of the RTU5025 (yyMMddhhmm), in the barrier's local time (Moscow, +3). */
function deviceTime(date: Date): string {
  const local = new Date(date.getTime() + 180 * 60_000).toISOString();
  return (
    local.slice(2, 4) + local.slice(5, 7) + local.slice(8, 10) + local.slice(11, 13) + local.slice(14, 16)
  );
}

describe('guest passes', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let user: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user } = await createDeviceScene(t));
  });

  const at = (ms: number) => new Date(t.clock.now().getTime() + ms);
  const device = () => {
    const simulated = h.simulators.device(barrier.id);
    if (!simulated) throw new Error('the device has not heard from the server');
    return simulated;
  };
  async function refreshTokens() {
    for (const person of [owner, user]) {
      person.token = (await issueSession(t.deps, t.deps.db, person.id)).access_token;
    }
  }
  const createPass = (
    who: TestUser,
    body: Record<string, unknown> = { start: at(0).toISOString(), end: at(3 * HOUR).toISOString() },
    side: 'user' | 'admin' = 'user',
  ) =>
    t.request({
      method: 'POST',
      url: `/api${side === 'admin' ? '/admin' : ''}/barriers/${barrier.id}/guest-passes/`,
      token: who.token,
      payload: body,
    });
  const listPasses = async (who: TestUser = user) =>
    (
      await t.request({ method: 'GET', url: `/api/barriers/${barrier.id}/guest-passes/`, token: who.token })
    ).json().guest_passes as {
      id: number;
      status: string;
      used_phone: string | null;
      phone: number | null;
    }[];
  const revoke = (passId: number, who: TestUser = user) =>
    t.request({
      method: 'DELETE',
      url: `/api/barriers/${barrier.id}/guest-passes/${passId}/`,
      token: who.token,
    });
  const guestView = (token: string, ip: string, holderKey?: string) =>
    t.request({
      method: 'GET',
      url: `/api/guest-passes/${token}/`,
      remoteAddress: ip,
      ...(holderKey === undefined ? {} : { headers: { 'x-guest-pass-holder': holderKey } }),
    });
  async function guestCode(token: string, phone: string, ip: string) {
    const response = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${token}/code/`,
      payload: { phone },
      remoteAddress: ip,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().verification_token as string;
  }
  const redeem = (
    token: string,
    body: { phone: string; code: string; verification_token: string },
    ip: string,
  ) =>
    t.request({
      method: 'POST',
      url: `/api/guest-passes/${token}/redeem/`,
      payload: body,
      remoteAddress: ip,
    });
  /** The guest's whole path: code by SMS, then redeem. */
  async function useAsGuest(token: string, phone: string, ip = nextIp()) {
    const verification = await guestCode(token, phone, ip);
    return redeem(token, { phone, code: t.lastCode(phone), verification_token: verification }, ip);
  }
  async function setLimits(values: Record<string, number | null>) {
    const response = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: values,
    });
    expect(response.statusCode, response.body).toBe(200);
  }
  async function revokeOpenPasses() {
    for (const pass of await listPasses()) if (pass.status !== 'revoked') await revoke(pass.id);
    await h.run(barrier.id);
  }

  it('gives a link of 32 random bytes once and stores only its SHA-256', async () => {
    const created = await createPass(user, {
      start: at(0).toISOString(),
      end: at(3 * HOUR).toISOString(),
      note: 'Сантехник',
    });
    expect(created.statusCode, created.body).toBe(201);
    const pass = created.json();
    expect(pass.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(pass.token, 'base64url')).toHaveLength(32);
    expect(pass.url).toBe(`/guest/${pass.token}`);
    expect(pass.status).toBe('created');

    const [row] = await t.deps.db.select().from(guestPasses).where(eq(guestPasses.id, pass.id));
    expect(row?.tokenHash).toBe(sha256(pass.token));
    expect(JSON.stringify(row)).not.toContain(pass.token);
    // The list never shows the link again.
    const listed = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: user.token,
    });
    expect(listed.body).not.toContain(pass.token);
    expect(listed.json().guest_passes[0]).toMatchObject({
      id: pass.id,
      status: 'created',
      note: 'Сантехник',
    });

    // Two links never repeat.
    const second = (await createPass(user)).json();
    expect(second.token).not.toBe(pass.token);
    await revokeOpenPasses();
  });

  it('refuses a window longer than 24 hours, in the past or reversed, and stores nothing', async () => {
    const before = (await listPasses()).length;
    const tooLong = await createPass(user, {
      start: at(0).toISOString(),
      end: at(24 * HOUR + 60_000).toISOString(),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().end).toEqual(['A guest pass lasts at most 24 hours.']);
    const past = await createPass(user, { start: at(-3 * HOUR).toISOString(), end: at(-HOUR).toISOString() });
    expect(past.statusCode).toBe(400);
    const reversed = await createPass(user, {
      start: at(2 * HOUR).toISOString(),
      end: at(HOUR).toISOString(),
    });
    expect(reversed.statusCode).toBe(400);
    const exactlyADay = await createPass(user, {
      start: at(0).toISOString(),
      end: at(24 * HOUR).toISOString(),
    });
    expect(exactlyADay.statusCode, exactlyADay.body).toBe(201);
    expect((await listPasses()).length).toBe(before + 1);
    await revokeOpenPasses();
  });

  it('counts an unused pass against the temporary-phone limit until it is revoked', async () => {
    await setLimits({ user_temp_phone_limit: 1 });
    const first = await createPass(user);
    expect(first.statusCode, first.body).toBe(201);
    const second = await createPass(user);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('limit_user_temporary');
    // Nor can he add a temporary number directly while the pass holds the place.
    const direct = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: at(0).toISOString(),
      end_time: at(HOUR).toISOString(),
    });
    expect(direct.statusCode).toBe(409);
    expect((await revoke(first.json().id)).json().status).toBe('revoked');
    const again = await createPass(user);
    expect(again.statusCode, again.body).toBe(201);
    await revokeOpenPasses();
    await setLimits({ user_temp_phone_limit: null });
  });

  it('lets the guest in by his proven number: one SMS with the window, shown as used to the resident', async () => {
    const start = at(0);
    const end = at(3 * HOUR);
    const created = (await createPass(user, { start: start.toISOString(), end: end.toISOString() })).json();
    const ip = nextIp();
    const view = await guestView(created.token, ip);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toEqual({
      address: barrier.address,
      start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      used: false,
      device_phone: null,
    });
    expect(view.body).not.toContain(user.phone);
    expect(view.body).not.toContain(barrier.device_phone);

    const guest = nextPhone();
    const smsBefore = h.smsTo(barrier.device_phone).length;
    const verification = await guestCode(created.token, guest, ip);
    expect(t.sentSms().at(-1)).toMatchObject({ to: guest });
    expect(t.sentSms().at(-1)?.text).toContain('гостевого пропуска');
    const wrong = await redeem(
      created.token,
      { phone: guest, code: '000000', verification_token: verification },
      ip,
    );
    expect(wrong.statusCode).toBe(400);
    const used = await redeem(
      created.token,
      { phone: guest, code: t.lastCode(guest), verification_token: verification },
      ip,
    );
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().phone).toBe(guest);
    // The guest is told the gate's number to call (issue 32 item 4).
    expect(used.json()).toMatchObject({ used: true, device_phone: barrier.device_phone });
    const holderKey = used.json().holder_key as string;
    expect(holderKey).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [phone] = await t.deps.db.select().from(phones).where(eq(phones.phone, guest));
    expect(phone).toMatchObject({ userId: user.id, type: 'temporary', isActive: true });
    expect(phone?.startTime?.getTime()).toBe(start.getTime());
    expect(phone?.endTime?.getTime()).toBe(end.getTime());

    await h.run(barrier.id);
    const sent = h.smsTo(barrier.device_phone).slice(smsBefore);
    // One SMS writes the number with its window (the device's clock is set once, before its first window).
    const slot = String(phone?.slot).padStart(3, '0');
    expect(sent.filter((text) => !/^2580T\d{10}#$/.test(text))).toEqual([
      `2580A${slot}#000${guest.slice(1)}#${deviceTime(start)}#${deviceTime(end)}#`,
    ]);
    expect(device().wouldOpenFor(guest, at(HOUR))).toBe(true);
    expect(device().wouldOpenFor(guest, at(4 * HOUR))).toBe(false);

    const [listed] = await listPasses();
    expect(listed).toMatchObject({ id: created.id, status: 'used', used_phone: guest, phone: phone?.id });

    // Single use: the same link answers like any dead one.
    const secondGuest = nextPhone();
    const again = await redeem(
      created.token,
      { phone: guest, code: t.lastCode(guest), verification_token: verification },
      ip,
    );
    expect(again.statusCode).toBe(410);
    const codeAgain = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${created.token}/code/`,
      payload: { phone: secondGuest },
      remoteAddress: nextIp(),
    });
    expect(codeAgain.statusCode).toBe(410);
    expect(t.sentSms().filter((line) => line.to === secondGuest)).toEqual([]);
    expect(again.json().code).toBe('guest_pass_unavailable');
    // Reopened later, the link still opens while the window lasts: the gate's number to the guest who used it
    // (his holder key), the address and the window alone to anyone else who has the link.
    const reopened = await guestView(created.token, nextIp(), holderKey);
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json()).toMatchObject({ used: true, device_phone: barrier.device_phone });
    const withoutKey = await guestView(created.token, nextIp());
    expect(withoutKey.statusCode).toBe(200);
    expect(withoutKey.json()).toMatchObject({ used: true, device_phone: null });
    expect(withoutKey.body).not.toContain(barrier.device_phone);
    const forgedKey = await guestView(
      created.token,
      nextIp(),
      `${holderKey.slice(0, -1)}${holderKey.endsWith('A') ? 'B' : 'A'}`,
    );
    expect(forgedKey.json().device_phone).toBeNull();

    // Revoking takes the number off the device at once.
    const revoked = await revoke(created.id);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().status).toBe('revoked');
    // A revoked pass tells nobody the gate's number any more.
    expect((await guestView(created.token, nextIp(), holderKey)).statusCode).toBe(410);
    const [after] = await t.deps.db
      .select()
      .from(phones)
      .where(eq(phones.id, phone?.id ?? 0));
    expect(after?.isActive).toBe(false);
    await h.run(barrier.id);
    expect(device().wouldOpenFor(guest, at(HOUR))).toBe(false);
    expect(h.smsTo(barrier.device_phone).slice(smsBefore + sent.length)).toHaveLength(1);
  });

  it('lets only one of two simultaneous redeems through', async () => {
    const created = (await createPass(user)).json();
    const guests = [nextPhone(), nextPhone()];
    const ips = [nextIp(), nextIp()];
    const tokens = [
      await guestCode(created.token, guests[0] as string, ips[0] as string),
      await guestCode(created.token, guests[1] as string, ips[1] as string),
    ];
    const results = await Promise.all(
      [0, 1].map((index) =>
        redeem(
          created.token,
          {
            phone: guests[index] as string,
            code: t.lastCode(guests[index] as string),
            verification_token: tokens[index] as string,
          },
          ips[index] as string,
        ),
      ),
    );
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 410]);
    const added = await t.deps.db.select().from(phones).where(eq(phones.userId, user.id));
    expect(added.filter((row) => row.isActive && guests.includes(row.phone))).toHaveLength(1);
    await revokeOpenPasses();
  });

  it('answers every dead link alike: unknown, malformed, revoked and expired', async () => {
    const revokedPass = (await createPass(user)).json();
    await revoke(revokedPass.id);
    const expiring = (
      await createPass(user, { start: at(0).toISOString(), end: at(HOUR).toISOString() })
    ).json();
    const ip = nextIp();
    expect((await guestView(expiring.token, ip)).statusCode).toBe(200);
    t.clock.set(at(HOUR + 60_000));
    await refreshTokens();
    const bodies = [];
    for (const token of [revokedPass.token, expiring.token, 'A'.repeat(43), 'not-a-token']) {
      const response = await guestView(token, ip);
      expect(response.statusCode, token).toBe(410);
      bodies.push(response.body);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] as string).code).toBe('guest_pass_unavailable');
    const codeForExpired = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${expiring.token}/code/`,
      payload: { phone: nextPhone() },
      remoteAddress: ip,
    });
    expect(codeForExpired.statusCode).toBe(410);
    expect((await listPasses()).find((pass) => pass.id === expiring.id)?.status).toBe('expired');
    // An expired pass no longer holds a place in the limits.
    await setLimits({ user_temp_phone_limit: 1 });
    expect((await createPass(user)).statusCode).toBe(201);
    await revokeOpenPasses();
    await setLimits({ user_temp_phone_limit: null });
  });

  it('limits the public calls per link and per address', async () => {
    const pass = (await createPass(user)).json();
    const ips = Array.from({ length: GUEST_TOKEN_LIMIT + 1 }, () => nextIp());
    const statuses = [];
    for (const ip of ips) statuses.push((await guestView(pass.token, ip)).statusCode);
    expect(statuses.slice(0, GUEST_TOKEN_LIMIT).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    const ip = nextIp();
    const other = (await createPass(user)).json();
    let last = 0;
    for (let call = 0; call <= GUEST_IP_LIMIT; call += 1) {
      last = (await guestView(call % 2 === 0 ? 'x'.repeat(43) : other.token, ip)).statusCode;
    }
    expect(last).toBe(429);
    await revokeOpenPasses();
  });

  it('lets an administrator make a pass for a resident, counted against that resident', async () => {
    const resident = await createUserWithAccess(t, barrier, 'Житель');
    await setLimits({ user_temp_phone_limit: 1 });
    const made = await createPass(
      owner,
      { user: resident.id, start: at(0).toISOString(), end: at(2 * HOUR).toISOString() },
      'admin',
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().user).toBe(resident.id);
    const refused = await addPhone(t, resident, barrier.id, {
      type: 'temporary',
      start_time: at(0).toISOString(),
      end_time: at(HOUR).toISOString(),
    });
    expect(refused.json().code).toBe('limit_user_temporary');
    // The resident sees it among his own passes and another administrator cannot touch it.
    expect((await listPasses(resident)).map((pass) => pass.id)).toContain(made.json().id);
    const stranger = await createAdmin(t);
    await createBarrier(t, stranger);
    const foreign = await t.request({
      method: 'DELETE',
      url: `/api/admin/barriers/${barrier.id}/guest-passes/${made.json().id}/`,
      token: stranger.token,
    });
    expect(foreign.statusCode).toBe(404);
    const guest = nextPhone();
    const used = await useAsGuest(made.json().token, guest);
    expect(used.statusCode, used.body).toBe(200);
    const [phone] = await t.deps.db.select().from(phones).where(eq(phones.phone, guest));
    expect(phone?.userId).toBe(resident.id);
    const byAdmin = await t.request({
      method: 'DELETE',
      url: `/api/admin/barriers/${barrier.id}/guest-passes/${made.json().id}/`,
      token: owner.token,
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    await setLimits({ user_temp_phone_limit: null });
  });

  it('frees the places of a resident who leaves, and his links stop working', async () => {
    const leaver = await createUserWithAccess(t, barrier, 'Уезжающий');
    const pass = (await createPass(leaver)).json();
    await setLimits({ global_temp_phone_limit: 1 });
    const temporary = {
      type: 'temporary',
      start_time: at(0).toISOString(),
      end_time: at(HOUR).toISOString(),
    };
    expect((await addPhone(t, user, barrier.id, temporary)).json().code).toBe('limit_barrier_temporary');
    const left = await t.request({
      method: 'DELETE',
      url: `/api/barriers/${barrier.id}/leave/`,
      token: leaver.token,
    });
    expect(left.statusCode, left.body).toBe(204);
    const added = await addPhone(t, user, barrier.id, temporary);
    expect(added.statusCode, added.body).toBe(201);
    const guest = nextPhone();
    expect((await guestView(pass.token, nextIp())).statusCode).toBe(410);
    const code = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${pass.token}/code/`,
      payload: { phone: guest },
      remoteAddress: nextIp(),
    });
    expect(code.statusCode).toBe(410);
    expect(t.sentSms().filter((line) => line.to === guest)).toEqual([]);
    await t.request({ method: 'DELETE', url: `/api/phones/${added.json().id}/`, token: user.token });
    await setLimits({ global_temp_phone_limit: null });
  });
});
