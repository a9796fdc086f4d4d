/**
 * The device conversation log and the device's health (issue 10, parts 3 and 5): every SMS to and from a
 * device as the owner reads it (password masked, the gateway's id, the command it answered, the outcome),
 * paging and the outcome filter, unrecognised replies counted; the health states with the manual clock, and
 * the device state on the administrator's barrier list and card.
 */

import { formatDateTimeOutput } from '@propusk/contracts/phones';
import type { DemoSmsGateway } from '@propusk/sms/demo';
import type { OutgoingSms, SentSms, SmsGateway } from '@propusk/sms/gateway';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barriers, deviceMessages } from '../src/db/schema.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { createDeviceHarness, type DeviceHarness, SwitchableGateway } from './device-harness.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** A number as the RTU sheet writes it (the production form `0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;

/** The demo gateway, answering with an id of its own for each message (as SMS.ru and the Android app do). */
class NumberingGateway implements SmsGateway {
  readonly name = 'numbering';
  sent = 0;
  constructor(readonly inner: SmsGateway) {}
  async send(message: OutgoingSms): Promise<SentSms> {
    await this.inner.send(message);
    this.sent += 1;
    return { providerId: `gw-${this.sent}` };
  }
  balance() {
    return this.inner.balance();
  }
}

describe('device conversation log and health', () => {
  let t: TestApp;
  let h: DeviceHarness;
  let admin: TestUser;
  let gateway: SwitchableGateway;
  let numbering: NumberingGateway;
  beforeAll(async () => {
    t = await createTestApp();
    h = createDeviceHarness(t, { gateway: t.deps.sms as DemoSmsGateway });
    numbering = new NumberingGateway(t.deps.sms);
    gateway = new SwitchableGateway(numbering);
    t.deps.sms = gateway;
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());

  /** A fresh session each time: the manual clock runs past an access token's life in the health tests. */
  const tokenOf = async (user: TestUser) => (await issueSession(t.deps, t.deps.db, user.id)).access_token;
  const log = async (barrierId: number, query = '', user = admin) => {
    const token = await tokenOf(user);
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrierId}/device-log/${query}`,
      token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const health = async (barrierId: number, user = admin) => {
    const token = await tokenOf(user);
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrierId}/device-health/`,
      token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('logs each SMS sent and each reply, newest first, with the password masked and the gateway id', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '8642' });
    // A number of its own: the factory's numbers hold the worker's pid, and one (…864 2…) once held the password.
    const phone = await h.addPhone(barrier.id, { userId: admin.id, number: '+79005551370' });
    const before = numbering.sent;
    await h.run(barrier.id);

    const body = await log(barrier.id);
    expect(body).toMatchObject({ total_count: 2, current_page: 1, page_size: 20, unrecognised_count: 0 });
    const [reply, sent] = body.messages;
    expect(sent).toEqual({
      id: expect.any(Number),
      created_at: formatDateTimeOutput(t.clock.now(), 180),
      direction: 'out',
      text: `****A001#${digits(phone.number)}#`,
      outcome: 'sent',
      command_id: expect.any(Number),
      command_kind: 'add',
      provider_id: `gw-${before + 1}`,
    });
    expect(reply).toMatchObject({
      direction: 'in',
      outcome: 'confirmed',
      command_id: sent.command_id,
      command_kind: 'add',
      provider_id: null,
    });
    expect(reply.text).toContain(digits(phone.number));
    expect(reply.id).toBeGreaterThan(sent.id);
    // The device received the real password; neither the log nor its rows hold it.
    expect(h.smsTo(barrier.devicePhone)).toEqual([`8642A001#${digits(phone.number)}#`]);
    expect(JSON.stringify(body)).not.toContain('8642');
    const rows = await t.deps.db
      .select()
      .from(deviceMessages)
      .where(eq(deviceMessages.barrierId, barrier.id));
    expect(rows.map((row) => row.text).join('\n')).not.toContain('8642');
  });

  it('masks the old and the new password of a password change, in the command and in its reply', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '8642' });
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: admin.token,
      payload: { setting: 'change_password', params: { new_password: '9753' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual(['8642P9753']);

    const { messages } = await log(barrier.id);
    expect(messages.map((message: { outcome: string }) => message.outcome)).toEqual(['confirmed', 'sent']);
    expect(messages[1]).toMatchObject({ text: '****P****', command_kind: 'setting' });
    expect(messages[0].text).toContain('****');
    const everything = JSON.stringify(messages);
    expect(everything).not.toContain('8642');
    expect(everything).not.toContain('9753');
  });

  it('logs an SMS the gateway refused as such, then the one that left', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    gateway.isDown = true;
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'gateway_failed' });
    gateway.isDown = false;
    t.clock.advance(30_000);
    await h.run(barrier.id);

    const { messages } = await log(barrier.id);
    expect(messages.map((message: { outcome: string }) => message.outcome)).toEqual([
      'confirmed',
      'sent',
      'gateway_failed',
    ]);
    expect(messages[2]).toMatchObject({ direction: 'out', provider_id: null, command_kind: 'add' });
    expect(messages[2].command_id).toBe(messages[1].command_id);
    expect(messages[2].text).toBe(messages[1].text);
  });

  it('keeps a reply that matches nothing as unrecognised, counts it, and filters by outcome', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '8642' });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: 'Hello 8642 from the keypad' });
    await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: 'GSM signal: 17' });
    // A number that is no barrier's device stays out of every log.
    await receiveInboundSms(t.deps, { from: '+79990000999', text: 'spam' });

    const all = await log(barrier.id);
    expect(all).toMatchObject({ total_count: 4, unrecognised_count: 2 });
    expect(all.messages[0]).toMatchObject({
      direction: 'in',
      text: 'GSM signal: 17',
      outcome: 'unrecognised',
      command_id: null,
      command_kind: null,
    });
    expect(all.messages[1].text).toBe('Hello **** from the keypad');

    const unrecognised = await log(barrier.id, '?outcome=unrecognised');
    expect(unrecognised).toMatchObject({ total_count: 2, unrecognised_count: 2 });
    expect(unrecognised.messages.map((message: { text: string }) => message.text)).toEqual([
      'GSM signal: 17',
      'Hello **** from the keypad',
    ]);
    const sent = await log(barrier.id, '?outcome=sent');
    expect(sent.messages).toHaveLength(1);
    expect((await health(barrier.id)).unrecognised_count).toBe(2);
    expect(await t.deps.db.select().from(deviceMessages).where(eq(deviceMessages.text, 'spam'))).toEqual([]);

    const bad = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/device-log/?outcome=lost`,
      token: admin.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      outcome: [
        'Outcome must be one of: sent, gateway_failed, confirmed, refused, format_error, unrecognised, late, acknowledged, power_failure, power_restored, alarm, notice_sent, notice_over_limit, notice_daily_limit, captured.',
      ],
    });
  });

  it('pages newest first', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    for (let index = 0; index < 3; index += 1) await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const all = await log(barrier.id);
    expect(all.total_count).toBe(6);
    const ids = all.messages.map((message: { id: number }) => message.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const first = await log(barrier.id, '?page=1&page_size=4');
    const second = await log(barrier.id, '?page=2&page_size=4');
    expect(first).toMatchObject({ total_count: 6, current_page: 1, page_size: 4 });
    expect(second).toMatchObject({ total_count: 6, current_page: 2, page_size: 4 });
    expect([...first.messages, ...second.messages].map((message: { id: number }) => message.id)).toEqual(ids);
    expect((await log(barrier.id, '?page=3&page_size=4')).messages).toEqual([]);
  });

  it('is for the owner of the barrier only', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const other = await createAdmin(t);
    const user = await createUser(t);
    for (const path of ['device-log', 'device-health']) {
      const url = `/api/admin/barriers/${barrier.id}/${path}/`;
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url, token: user.token })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url, token: other.token })).statusCode).toBe(404);
    }
    await t.deps.db.update(barriers).set({ deletedAt: t.clock.now() }).where(eq(barriers.id, barrier.id));
    const gone = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/device-log/`,
      token: admin.token,
    });
    expect(gone.statusCode).toBe(404);
  });

  describe('health', () => {
    const timeout = () => t.config.DEVICE_REPLY_TIMEOUT_MS;
    const stateInList = async (owner: TestUser, barrierId: number) => {
      const response = await t.request({
        method: 'GET',
        url: '/api/admin/barriers/my/',
        token: await tokenOf(owner),
      });
      expect(response.statusCode).toBe(200);
      return response.json().barriers.find((barrier: { id: number }) => barrier.id === barrierId)
        ?.device_state;
    };
    const stateOnCard = async (owner: TestUser, barrierId: number) => {
      const response = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrierId}/`,
        token: await tokenOf(owner),
      });
      return response.json().device_state;
    };

    it('goes waiting → not responding while the device is silent, and back to ok once it answers', async () => {
      const owner = await createAdmin(t);
      const barrier = await h.createBarrier({ ownerId: owner.id });
      expect(await health(barrier.id, owner)).toEqual({
        state: 'ok',
        last_reply_at: null,
        open_commands: 0,
        oldest_open_at: null,
        oldest_open_age_seconds: null,
        consecutive_failures: 0,
        unrecognised_count: 0,
        power: null,
        power_since: null,
        alarms_today: 0,
      });
      const phone = await h.addPhone(barrier.id, { userId: owner.id });
      const queuedAt = t.clock.now();
      await h.run(barrier.id, { answer: false });
      t.clock.advance(10_000);
      expect(await health(barrier.id, owner)).toMatchObject({
        state: 'waiting',
        open_commands: 1,
        oldest_open_at: formatDateTimeOutput(queuedAt, 180),
        oldest_open_age_seconds: 10,
        consecutive_failures: 0,
      });
      expect(await stateInList(owner, barrier.id)).toBe('waiting');

      // No reply: the command is sent again; the device now counts as not answering.
      t.clock.advance(timeout());
      await processBarrier(t.deps, barrier.id);
      expect((await health(barrier.id, owner)).state).toBe('waiting');
      t.clock.advance(60_000);
      await h.run(barrier.id, { answer: false });
      expect((await h.commands(barrier.id)).at(-1)?.attempts).toBe(2);
      expect((await health(barrier.id, owner)).state).toBe('not_responding');
      expect(await stateInList(owner, barrier.id)).toBe('not_responding');
      expect(await stateOnCard(owner, barrier.id)).toBe('not_responding');

      // Every attempt spent: failed, the phone in error, one failure in a row.
      for (let step = 0; step < 5; step += 1) {
        t.clock.advance(15 * 60_000);
        await h.run(barrier.id, { answer: false });
      }
      expect((await h.phone(phone.id)).status).toBe('error');
      expect(await health(barrier.id, owner)).toMatchObject({
        state: 'not_responding',
        open_commands: 0,
        consecutive_failures: 1,
        last_reply_at: null,
      });

      // The administrator tries again and the device answers.
      const retried = await t.request({
        method: 'POST',
        url: `/api/admin/phones/${phone.id}/retry/`,
        token: await tokenOf(owner),
      });
      expect(retried.statusCode, retried.body).toBe(200);
      await h.run(barrier.id);
      expect((await h.phone(phone.id)).status).toBe('ok');
      expect(await health(barrier.id, owner)).toMatchObject({
        state: 'ok',
        open_commands: 0,
        consecutive_failures: 0,
        last_reply_at: formatDateTimeOutput(t.clock.now(), 180),
      });
      expect(await stateInList(owner, barrier.id)).toBe('ok');
    });

    it('is not responding when the oldest command waits longer than three reply timeouts', async () => {
      const barrier = await h.createBarrier({ ownerId: admin.id });
      await h.addPhone(barrier.id, { userId: admin.id });
      gateway.isDown = true;
      await processBarrier(t.deps, barrier.id);
      t.clock.advance(3 * timeout());
      expect((await health(barrier.id)).state).toBe('waiting');
      t.clock.advance(1000);
      expect((await health(barrier.id)).state).toBe('not_responding');
      gateway.isDown = false;
      await h.run(barrier.id);
      expect((await health(barrier.id)).state).toBe('ok');
    });

    it('says wrong password when the device refused the password', async () => {
      const barrier = await h.createBarrier({ ownerId: admin.id, password: '1111' });
      await h.addPhone(barrier.id, { userId: admin.id });
      await h.run(barrier.id);
      await t.deps.db
        .update(barriers)
        .set({ devicePasswordEncrypted: t.deps.secrets.encrypt('2222') })
        .where(eq(barriers.id, barrier.id));
      await h.addPhone(barrier.id, { userId: admin.id });
      await h.run(barrier.id);

      expect(await health(barrier.id)).toMatchObject({ state: 'wrong_password', consecutive_failures: 1 });
      expect(await stateInList(admin, barrier.id)).toBe('wrong_password');
      expect(await stateOnCard(admin, barrier.id)).toBe('wrong_password');
      const { messages } = await log(barrier.id, '?outcome=refused');
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ direction: 'in', command_kind: 'add' });
      const sent = await log(barrier.id, '?outcome=sent');
      expect(sent.messages[0].text).toMatch(/^\*\*\*\*A002#/);
    });
  });
});
