/**
 * Replies as units send them in the field (issue 30 parts 1 and 2, docs/decisions/0025): an answer
 * delivered twice, an answer that arrives after its command timed out, an answer split into several SMS
 * out of order. Each test lets the simulated unit behave so and ends with the unit's whitelist equal to the
 * database and the device's health telling the truth.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceMessages, phones } from '../src/db/schema.ts';
import { REPLY_WINDOW_MS } from '../src/engine/reply/index.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { createDeviceHarness, type DeviceHarness, settleQueue, waitOutReply } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp, useTestApp } from './test-app.ts';

describe('replies as units send them in the field', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  // One attempt per command: a timed-out command fails at once, and the next one goes in flight.
  const t = useTestApp({ env: { DEVICE_MAX_ATTEMPTS: '1' } });
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  /** The numbers the unit lets in, and the numbers the database gives access. */
  const unitAndDatabase = async (barrierId: number) => {
    const unit = (h.simulators.whitelist(barrierId) ?? []).map((entry) => entry.number).sort();
    const rows = await t.deps.db
      .select({ phone: phones.phone })
      .from(phones)
      .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true)));
    return { unit, database: rows.map((row) => row.phone).sort() };
  };
  const health = async (barrierId: number) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrierId}/device-health/`,
      token: admin.token,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { state: string };
  };
  const settle = (barrierId: number) => settleQueue(t, h, barrierId);
  /** «Повторить» on every phone of the barrier in «ошибка», as the administrator presses it. */
  const retryFailed = async (barrierId: number) => {
    const failed = await t.deps.db
      .select({ id: phones.id })
      .from(phones)
      .where(and(eq(phones.barrierId, barrierId), eq(phones.status, 'error')));
    expect(failed.length).toBeGreaterThan(0);
    for (const phone of failed) {
      const response = await t.request({
        method: 'POST',
        url: `/api/admin/phones/${phone.id}/retry/`,
        token: admin.token,
      });
      expect(response.statusCode).toBe(200);
    }
  };
  const log = (barrierId: number) =>
    t.deps.db
      .select()
      .from(deviceMessages)
      .where(and(eq(deviceMessages.barrierId, barrierId), eq(deviceMessages.direction, 'in')))
      .orderBy(asc(deviceMessages.id));
  const sendSetting = async (barrierId: number, setting: string, params: Record<string, string>) => {
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrierId}/settings/`,
      token: admin.token,
      payload: { setting, params },
    });
    expect(response.statusCode).toBe(200);
    return response.json().command_id as number;
  };

  it("does not let an add's answer delivered twice confirm the relay time sent after it (the outside check)", async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    h.simulators.deliverAs(barrier.id, { kind: 'duplicate' });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
    expect(await h.deliverReplies(1)).toBe(1);
    const [add] = await h.commands(barrier.id);
    expect(add).toMatchObject({ kind: 'add', status: 'confirmed' });

    // The relay time leaves while the add's second delivery is still on its way.
    h.simulators.deliverAs(barrier.id, null);
    const settingId = await sendSetting(barrier.id, 'relay_time', { seconds: '30' });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent', commandId: settingId });
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe('1234GOT030#');

    // The add's answer `001:0007…` arrives again: it names the add, which is finished — logged as late.
    expect(await h.deliverReplies(1)).toBe(1);
    const setting = (await h.commands(barrier.id)).find((command) => command.id === settingId);
    expect(setting).toMatchObject({ status: 'sent', reply: null });
    const late = (await log(barrier.id)).at(-1);
    expect(late).toMatchObject({
      outcome: 'late',
      commandId: add?.id,
      text: `001:0007${phone.number.slice(2)}`,
    });

    // The unit's own answer to GOT030# confirms it.
    await h.deliverReplies();
    expect((await h.commands(barrier.id)).find((command) => command.id === settingId)).toMatchObject({
      status: 'confirmed',
      reply: 'Set Success!',
    });
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect((await health(barrier.id)).state).toBe('ok');
  });

  it('does not let a late answer to a timed-out add confirm the delete sent after it', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const leaving = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);

    // The unit goes out of coverage: it gets the add, but its answer comes late.
    h.simulators.deliverAs(barrier.id, { kind: 'late', delayMs: 10 * 60_000 });
    const newcomer = await h.addPhone(barrier.id, { userId: admin.id });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
    t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await processBarrier(t.deps, barrier.id);
    const add = (await h.commands(barrier.id)).find((command) => command.phoneId === newcomer.id);
    expect(add).toMatchObject({ status: 'failed' });

    // The unit is back; a resident leaves: the delete goes in flight.
    h.simulators.deliverAs(barrier.id, null);
    expect(await h.removePhone(barrier.id, leaving.id)).toBe(1);
    const result = await processBarrier(t.deps, barrier.id);
    expect(result).toMatchObject({ state: 'sent' });
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe('1234A001##');

    // The add's answer arrives now: it names slot 2 and the newcomer's number, not the delete.
    expect(await h.deliverLateReplies()).toBe(1);
    const remove = (await h.commands(barrier.id)).find((command) => command.kind === 'delete');
    expect(remove).toMatchObject({ status: 'sent' });
    expect((await log(barrier.id)).at(-1)).toMatchObject({ outcome: 'late', commandId: add?.id });

    // The delete's own answer confirms it; the unit lets in exactly whom the database does.
    await h.deliverReplies();
    expect((await h.commands(barrier.id)).find((command) => command.kind === 'delete')).toMatchObject({
      status: 'confirmed',
    });
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect((await health(barrier.id)).state).toBe('ok');
  });

  it('confirms a timed-out add waiting for its retry when its answer names it, and saves the SMS', async () => {
    const t2 = await createTestApp({ env: { DEVICE_MAX_ATTEMPTS: '3' } });
    try {
      const h2 = createDeviceHarness(t2);
      const admin2 = await createAdmin(t2);
      const own = await h2.createBarrier({ ownerId: admin2.id });
      const phone = await h2.addPhone(own.id, { userId: admin2.id });
      h2.simulators.deliverAs(own.id, { kind: 'late', delayMs: 5 * 60_000 });
      await processBarrier(t2.deps, own.id);
      t2.clock.advance(t2.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
      expect(await processBarrier(t2.deps, own.id)).toMatchObject({ state: 'waiting' });
      expect(await h2.deliverLateReplies()).toBe(1);
      expect(await h2.commands(own.id)).toMatchObject([{ status: 'confirmed', attempts: 1 }]);
      expect((await h2.phone(phone.id)).status).toBe('ok');
      expect(h2.smsTo(own.devicePhone)).toHaveLength(1);
    } finally {
      await t2.close();
    }
  });

  it('takes a generic answer ("Set Success!") only for the command in flight, never for one that finished', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const first = await sendSetting(barrier.id, 'access_authorized', {});
    await h.run(barrier.id);
    expect((await h.commands(barrier.id)).find((command) => command.id === first)).toMatchObject({
      status: 'confirmed',
    });
    // "Set Success!" again with nothing in flight: it names nothing, so it answers nothing.
    const { receiveInboundSms } = await import('../src/modules/sms-inbound/service.ts');
    const result = await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: 'Set Success!' });
    expect(result.matched).toBeNull();
    expect((await log(barrier.id)).at(-1)).toMatchObject({ outcome: 'unrecognised', commandId: null });
  });

  it('never confirms a setting without a documented reply by any text', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const settingId = await sendSetting(barrier.id, 'relay_time', { seconds: '10' });
    await h.run(barrier.id, { answer: false });
    const { receiveInboundSms } = await import('../src/modules/sms-inbound/service.ts');
    for (const text of ['Relay ON', '005:Empty', 'OK', 'Set Time OK!']) {
      await receiveInboundSms(t.deps, { from: barrier.devicePhone, text });
    }
    expect((await h.commands(barrier.id)).find((command) => command.id === settingId)).toMatchObject({
      status: 'sent',
    });
    expect(REPLY_WINDOW_MS).toBeGreaterThan(t.deps.config.DEVICE_REPLY_TIMEOUT_MS);
  });

  const startCheck = async (barrierId: number) => {
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrierId}/device-check/`,
      token: admin.token,
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  const check = async (barrierId: number) =>
    (
      await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrierId}/device-check/`,
        token: admin.token,
      })
    ).json().check;

  it('joins a range answer split into parts that arrive out of order, and reads no slot as empty by mistake', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    for (let index = 0; index < 6; index += 1) await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    await startCheck(barrier.id);
    // 1234AL001#010#: ten lines, delivered as three SMS — slots 9–10 first, then 5–8, then 1–4.
    h.simulators.deliverAs(barrier.id, { kind: 'split', linesPerPart: 4 });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe('1234AL001#010#');
    expect(await h.deliverReplies(2)).toBe(2);
    const read = (await h.commands(barrier.id)).at(-1);
    expect(read).toMatchObject({ kind: 'read', status: 'sent' });
    expect((await check(barrier.id)).status).toBe('reading');
    await h.deliverReplies();
    expect((await h.commands(barrier.id)).at(-1)).toMatchObject({ kind: 'read', status: 'confirmed' });
    const ready = await check(barrier.id);
    expect(ready).toMatchObject({ status: 'ready', slots_read: 10, queries_answered: 1 });
    expect(ready.differences).toEqual([]);
    h.simulators.deliverAs(barrier.id, null);
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect((await health(barrier.id)).state).toBe('ok');
  });

  it('asks again for the missing slots only when a part of a range answer never arrives', async () => {
    const t2 = await createTestApp({ env: { DEVICE_MAX_ATTEMPTS: '3' } });
    try {
      const h2 = createDeviceHarness(t2);
      const owner = await createAdmin(t2);
      const barrier = await h2.createBarrier({ ownerId: owner.id });
      for (let index = 0; index < 3; index += 1) await h2.addPhone(barrier.id, { userId: owner.id });
      await h2.run(barrier.id);
      const started = await t2.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/device-check/`,
        token: owner.token,
        payload: {},
      });
      expect(started.statusCode).toBe(201);
      h2.simulators.deliverAs(barrier.id, { kind: 'split', linesPerPart: 4 });
      await processBarrier(t2.deps, barrier.id);
      // Slots 9–10 and 5–8 arrive; the part with slots 1–4 is lost.
      expect(await h2.deliverReplies(2)).toBe(2);
      expect(await h2.dropReplies()).toBe(1);
      t2.clock.advance(t2.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
      await processBarrier(t2.deps, barrier.id);
      t2.clock.advance(60_000);
      h2.simulators.deliverAs(barrier.id, null);
      await h2.run(barrier.id);
      expect(h2.smsTo(barrier.devicePhone).slice(-2)).toEqual(['1234AL001#010#', '1234AL001#004#']);
      const ready = (
        await t2.request({
          method: 'GET',
          url: `/api/admin/barriers/${barrier.id}/device-check/`,
          token: owner.token,
        })
      ).json().check;
      expect(ready).toMatchObject({ status: 'ready', slots_read: 10 });
      expect(ready.differences).toEqual([]);
    } finally {
      await t2.close();
    }
  });

  it('says «не отвечает» while the unit is silent, and «неверный пароль?» once the unit proves it is on the air', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect((await health(barrier.id)).state).toBe('ok');

    // Someone changed the unit's password by hand: commands with the stored one get no answer at all
    // (King Pigeon RTU5023–5029 manual v2.5, p. 8, note 7), played here as silence.
    h.simulators.device(barrier.id)?.receive('1234P9999', t.clock.now());
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await processBarrier(t.deps, barrier.id);
    expect((await health(barrier.id)).state).toBe('not_responding');

    // The unit sends something (an SMS of its own): it is on the air, yet the commands go unanswered.
    const { receiveInboundSms } = await import('../src/modules/sms-inbound/service.ts');
    t.clock.advance(1000);
    await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: 'Relay ON' });
    expect((await health(barrier.id)).state).toBe('password_suspected');

    // The administrator enters the unit's password (no SMS) and presses «Повторить» on the phone that
    // went to «ошибка»: it goes with that password, and the unit ends as the database, «в порядке».
    const corrected = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/`,
      token: admin.token,
      payload: { device_password: '9999' },
    });
    expect(corrected.statusCode).toBe(200);
    await retryFailed(barrier.id);
    await settle(barrier.id);
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect(unit).toHaveLength(2);
    expect((await health(barrier.id)).state).toBe('ok');
  });

  it('never says «неверный пароль?» of a model without a password (Telemetrica): its silence is «не отвечает»', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await processBarrier(t.deps, barrier.id);
    expect((await health(barrier.id)).state).toBe('not_responding');
    // An SMS from the unit proves it on the air, but no password can be wrong: still «не отвечает», and no
    // probe is sent (there is no other password to try).
    const { receiveInboundSms } = await import('../src/modules/sms-inbound/service.ts');
    t.clock.advance(1000);
    await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: 'Relay ON' });
    expect((await health(barrier.id)).state).toBe('not_responding');
    expect((await h.commands(barrier.id)).map((command) => command.kind)).not.toContain('password_probe');

    // Back in coverage: «Повторить» on the phone in «ошибка» is answered, the unit ends as the database.
    await retryFailed(barrier.id);
    await settle(barrier.id);
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect(unit).toHaveLength(1);
    expect((await health(barrier.id)).state).toBe('ok');
  });

  describe('a model whose answers name nothing (Telemetrica: "success")', () => {
    let t2: TestApp;
    let h2: DeviceHarness;
    let owner: TestUser;
    beforeAll(async () => {
      // Two attempts: a timed-out command is sent once more before it fails.
      t2 = await createTestApp({ env: { DEVICE_MAX_ATTEMPTS: '2' } });
      h2 = createDeviceHarness(t2);
      owner = await createAdmin(t2);
    });
    afterAll(() => t2.close());

    const unitNumbersOf = (barrierId: number) =>
      (h2.simulators.whitelist(barrierId) ?? []).map((entry) => entry.number).sort();
    const databaseNumbersOf = async (barrierId: number) =>
      (
        await t2.deps.db
          .select({ phone: phones.phone })
          .from(phones)
          .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true)))
      )
        .map((row) => row.phone)
        .sort();
    const commandById = async (barrierId: number, id: number) =>
      (await h2.commands(barrierId)).find((command) => command.id === id);
    /** The SMS heard from the unit, oldest first. */
    const heardFrom = (barrierId: number) =>
      t2.deps.db
        .select()
        .from(deviceMessages)
        .where(and(eq(deviceMessages.barrierId, barrierId), eq(deviceMessages.direction, 'in')))
        .orderBy(asc(deviceMessages.id));
    /** No answer to either attempt of the command in flight: it fails. */
    const failsUnanswered = async (barrierId: number, id: number) => {
      await waitOutReply(t2, h2, barrierId, { answer: false });
      t2.clock.advance(t2.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
      expect(await processBarrier(t2.deps, barrierId)).toMatchObject({ state: 'idle' });
      expect(await commandById(barrierId, id)).toMatchObject({ status: 'failed', attempts: 2 });
    };
    /** The next command goes in flight, but the unit never hears its SMS (lost on the way). */
    const sendLost = async (barrierId: number) => {
      h2.simulators.missNext(barrierId, 1);
      expect(await processBarrier(t2.deps, barrierId)).toMatchObject({ state: 'sent' });
    };
    /** The delete's reply is overdue: it is sent again, heard and confirmed; the unit lets in whom the database does. */
    const retriedToEmpty = async (barrierId: number, deleteId: number) => {
      await settleQueue(t2, h2, barrierId);
      expect(await commandById(barrierId, deleteId)).toMatchObject({ status: 'confirmed', attempts: 2 });
      expect(unitNumbersOf(barrierId)).toEqual(await databaseNumbersOf(barrierId));
      expect(unitNumbersOf(barrierId)).toEqual([]);
    };
    /** `sms`: 2 on TELL (the delete and the list read that confirms it, 0025), 1 on Telemetrica. */
    const removePhone = async (barrierId: number, phoneId: number, sms = 1) => {
      expect(await h2.removePhone(barrierId, phoneId)).toBe(sms);
      return (await h2.commands(barrierId)).at(-1)!;
    };

    it("does not take a late answer to a timed-out delete for the next delete's, which the unit never heard", async () => {
      const barrier = await h2.createBarrier({ ownerId: owner.id, model: 'Telemetrica', password: null });
      const first = await h2.addPhone(barrier.id, { userId: owner.id });
      const second = await h2.addPhone(barrier.id, { userId: owner.id });
      await settleQueue(t2, h2, barrier.id);
      expect(unitNumbersOf(barrier.id)).toEqual([first.number, second.number].sort());

      // The unit goes out of coverage: it hears the first delete (sent twice), its answers come late.
      h2.simulators.deliverAs(barrier.id, { kind: 'late', delayMs: 20 * 60_000 });
      const firstDelete = await removePhone(barrier.id, first.id);
      expect(await processBarrier(t2.deps, barrier.id)).toMatchObject({ state: 'sent' });
      await failsUnanswered(barrier.id, firstDelete.id);

      // Back in coverage; the second resident's access is revoked: the delete goes in flight, but the unit
      // never hears it (its SMS lost on the way).
      h2.simulators.deliverAs(barrier.id, null);
      const secondDelete = await removePhone(barrier.id, second.id);
      await sendLost(barrier.id);
      expect(h2.smsTo(barrier.devicePhone).at(-1)).toBe(`#15#${second.number}#`);

      // The two held answers to the first delete arrive now: "success", "success". They are the first
      // delete's (late); the second delete is not believed done while the unit still lets the number in.
      expect(await h2.deliverLateReplies()).toBe(2);
      const late = (await heardFrom(barrier.id)).slice(-2);
      expect(late).toMatchObject([
        { outcome: 'late', commandId: firstDelete.id, text: 'success' },
        { outcome: 'late', commandId: firstDelete.id, text: 'success' },
      ]);
      expect(await commandById(barrier.id, secondDelete.id)).toMatchObject({ status: 'sent' });
      expect(unitNumbersOf(barrier.id)).toEqual([second.number]);

      // Its reply is overdue: it is sent again, heard and answered.
      await retriedToEmpty(barrier.id, secondDelete.id);
    });

    it('TELL: a late «User removed» does not confirm a delete the unit never heard; the list read sent with it decides', async () => {
      const barrier = await h2.createBarrier({ ownerId: owner.id, model: 'TELL-GC20', password: '1111' });
      const first = await h2.addPhone(barrier.id, { userId: owner.id });
      const second = await h2.addPhone(barrier.id, { userId: owner.id });
      await settleQueue(t2, h2, barrier.id);
      expect(unitNumbersOf(barrier.id)).toEqual([first.number, second.number].sort());

      // Out of coverage: the unit hears the first delete (sent twice, each with its list read); its answers
      // come late.
      h2.simulators.deliverAs(barrier.id, { kind: 'late', delayMs: 20 * 60_000 });
      const firstDelete = await removePhone(barrier.id, first.id, 2);
      expect(await processBarrier(t2.deps, barrier.id)).toMatchObject({ state: 'sent' });
      expect(h2.smsTo(barrier.devicePhone).slice(-2)).toEqual([
        `PWD=1111#DEL=${first.number}#`,
        'PWD=1111#TEL?#',
      ]);
      await failsUnanswered(barrier.id, firstDelete.id);

      // Back in coverage, the second resident's access is revoked: the delete is lost on the way, its list
      // read is heard and answered (the number is still there), and the held answers arrive.
      h2.simulators.deliverAs(barrier.id, null);
      const secondDelete = await removePhone(barrier.id, second.id, 2);
      await sendLost(barrier.id);
      expect(await h2.deliverLateReplies()).toBe(4);
      const heard = (await heardFrom(barrier.id)).slice(-4);
      // «User removed» is only heard: it confirms nothing; every list naming the number answers no delete of it.
      const removed = heard.filter((message) => message.text === 'User removed');
      expect(removed.length).toBeGreaterThan(0);
      expect(removed.every((message) => message.outcome === 'acknowledged')).toBe(true);
      expect(heard.some((message) => message.outcome === 'confirmed')).toBe(false);
      expect(await commandById(barrier.id, secondDelete.id)).toMatchObject({ status: 'sent' });
      expect(unitNumbersOf(barrier.id)).toEqual([second.number]);

      // Its reply is overdue: it is sent again and heard; the list read says "Empty phonebook", which confirms it.
      await retriedToEmpty(barrier.id, secondDelete.id);
    });

    it('costs no SMS more when every answer comes in time', async () => {
      const barrier = await h2.createBarrier({ ownerId: owner.id, model: 'Telemetrica', password: null });
      const added = [];
      for (let index = 0; index < 3; index += 1) {
        added.push(await h2.addPhone(barrier.id, { userId: owner.id }));
        await settleQueue(t2, h2, barrier.id);
      }
      await removePhone(barrier.id, added[0]!.id);
      await settleQueue(t2, h2, barrier.id);
      await removePhone(barrier.id, added[1]!.id);
      await settleQueue(t2, h2, barrier.id);
      await h2.addPhone(barrier.id, { userId: owner.id });
      await settleQueue(t2, h2, barrier.id);

      const commands = await h2.commands(barrier.id);
      expect(commands).toHaveLength(6);
      expect(commands.every((command) => command.status === 'confirmed' && command.attempts === 1)).toBe(
        true,
      );
      expect(h2.smsTo(barrier.devicePhone)).toHaveLength(6);
      expect(unitNumbersOf(barrier.id)).toEqual(await databaseNumbersOf(barrier.id));
    });
  });
});
