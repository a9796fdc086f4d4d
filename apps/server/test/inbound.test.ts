/**
 * POST /api/sms/inbound/ (token, storage, matching a device reply) and the Android app's webhook adapter.
 */
import { signAndroidWebhook } from '@propusk/sms/android';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inboundSms, inboundWebhookSignatures } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, useTestApp } from './test-app.ts';

const TOKEN = 'test-inbound-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

describe('inbound SMS', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('needs the bearer token', async () => {
    const payload = { from: '+79990000001', text: 'hello' };
    const none = await t.request({ method: 'POST', url: '/api/sms/inbound/', payload });
    expect(none.statusCode).toBe(401);
    const wrong = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/',
      payload,
      headers: { authorization: 'Bearer not-the-token-at-all-000' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await t.deps.db.select().from(inboundSms).where(eq(inboundSms.fromPhone, '+79990000001'))).toEqual(
      [],
    );
  });

  it('stores an SMS that answers nothing, and refuses a malformed one', async () => {
    const stored = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/',
      headers: auth,
      payload: { from: '+79990000002', text: '001:Empty' },
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual({ status: 'unmatched' });
    const [row] = await t.deps.db.select().from(inboundSms).where(eq(inboundSms.fromPhone, '+79990000002'));
    expect(row).toMatchObject({ text: '001:Empty', commandId: null });
    const bad = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/',
      headers: auth,
      payload: { from: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("matches the device's reply to the command in flight and confirms it", async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    // A reply to another command does not confirm this one.
    const other = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/',
      headers: auth,
      payload: { from: barrier.devicePhone, text: '002:Empty' },
    });
    expect(other.json()).toEqual({ status: 'unmatched' });
    expect((await h.phone(phone.id)).status).toBe('pending');

    const reply = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/',
      headers: auth,
      payload: { from: barrier.devicePhone, text: `001:0007${phone.number.slice(2)}` },
    });
    expect(reply.json()).toEqual({ status: 'matched' });
    expect((await h.phone(phone.id)).status).toBe('ok');
    // Nothing is left in its queue: the worker is not woken only to find that out.
    expect(h.notified).not.toContain(barrier.id);
  });

  it('wakes the worker after a reply while the barrier has more to send, and not once its queue is empty', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    const second = await h.addPhone(barrier.id, { userId: admin.id });
    const answer = (slot: number, number: string) =>
      t.request({
        method: 'POST',
        url: '/api/sms/inbound/',
        headers: auth,
        payload: { from: barrier.devicePhone, text: `00${slot}:0007${number.slice(2)}` },
      });
    await h.run(barrier.id, { answer: false });
    h.notified.length = 0;
    expect((await answer(first.slot, first.number)).json()).toEqual({ status: 'matched' });
    expect(h.notified).toEqual([barrier.id]);
    await h.run(barrier.id, { answer: false });
    h.notified.length = 0;
    expect((await answer(second.slot, second.number)).json()).toEqual({ status: 'matched' });
    expect(h.notified).toEqual([]);
    expect((await h.phone(first.id)).status).toBe('ok');
    expect((await h.phone(second.id)).status).toBe('ok');
    expect((await h.commands(barrier.id)).map((command) => command.status)).toEqual([
      'confirmed',
      'confirmed',
    ]);
  });

  it('takes replies from the Android app webhook, signed with the inbound token', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    const body = JSON.stringify({
      deviceId: 'abc',
      event: 'sms:received',
      id: 'w1',
      payload: {
        messageId: 'm1',
        message: `001:0007${phone.number.slice(2)}`,
        phoneNumber: barrier.devicePhone.slice(1),
        receivedAt: '2026-11-21T12:00:00.000+03:00',
      },
    });
    const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
    const unsigned = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/android/',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(401);
    const forged = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/android/',
      headers: {
        'content-type': 'application/json',
        'x-timestamp': timestamp,
        'x-signature': signAndroidWebhook('another-key-0123456789', body, timestamp),
      },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
    const signed = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/android/',
      headers: {
        'content-type': 'application/json',
        'x-timestamp': timestamp,
        'x-signature': signAndroidWebhook(TOKEN, body, timestamp),
      },
      payload: body,
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toEqual({ status: 'matched' });
    expect((await h.phone(phone.id)).status).toBe('ok');

    const otherEvent = await t.request({
      method: 'POST',
      url: '/api/sms/inbound/android/',
      headers: auth,
      payload: { event: 'sms:sent', payload: {} },
    });
    expect(otherEvent.json()).toEqual({ status: 'ignored' });
  });

  it('accepts a signed webhook once: a replay within the window is refused (decision 0012)', async () => {
    const signedRequest = (body: string, timestamp: string) =>
      t.request({
        method: 'POST',
        url: '/api/sms/inbound/android/',
        headers: {
          'content-type': 'application/json',
          'x-timestamp': timestamp,
          'x-signature': signAndroidWebhook(TOKEN, body, timestamp),
        },
        payload: body,
      });
    const webhook = (from: string, id: string) =>
      JSON.stringify({
        deviceId: 'abc',
        event: 'sms:received',
        id,
        payload: {
          messageId: id,
          message: 'ok',
          phoneNumber: from.slice(1),
          receivedAt: '2026-11-21T12:00:00Z',
        },
      });
    const stored = async (from: string) =>
      (await t.deps.db.select().from(inboundSms).where(eq(inboundSms.fromPhone, from))).length;

    // The same captured request, sent again 4 minutes later (still inside its ±300 s window).
    const body = webhook('+79990000041', 'replay-1');
    const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
    const first = await signedRequest(body, timestamp);
    expect(first.statusCode).toBe(200);
    t.clock.advance(4 * 60_000);
    const replay = await signedRequest(body, timestamp);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({
      detail: 'This signed request was already accepted.',
      code: 'webhook_replayed',
    });
    expect(await stored('+79990000041')).toBe(1);

    // Two copies at once: one is processed, the other refused.
    const parallelBody = webhook('+79990000042', 'replay-2');
    const now = String(Math.floor(t.clock.now().getTime() / 1000));
    const answers = await Promise.all([signedRequest(parallelBody, now), signedRequest(parallelBody, now)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    expect(await stored('+79990000042')).toBe(1);

    // Once outside the window the remembered signature is forgotten; the request is refused by its timestamp.
    t.clock.advance(10 * 60_000);
    expect((await signedRequest(parallelBody, now)).statusCode).toBe(401);
    const fresh = await signedRequest(
      webhook('+79990000043', 'fresh'),
      String(Math.floor(t.clock.now().getTime() / 1000)),
    );
    expect(fresh.statusCode).toBe(200);
    expect(await t.deps.db.select().from(inboundWebhookSignatures)).toHaveLength(1);
  });

  it('refuses everything when no inbound token is configured', async () => {
    const bare = await createTestApp({ env: { INBOUND_SMS_TOKEN: '' } });
    try {
      const response = await bare.request({
        method: 'POST',
        url: '/api/sms/inbound/',
        headers: auth,
        payload: { from: '+79990000003', text: 'x' },
      });
      expect(response.statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });
});
