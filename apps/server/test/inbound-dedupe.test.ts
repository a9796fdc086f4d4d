/**
 * A device reply delivered twice by the Android app (its webhook retry, or its double-webhook bug) is
 * handled once: the copy, a new signed delivery of the same `payload.messageId`, confirms nothing
 * (docs/decisions/0011, "Inbound replies delivered twice").
 */
import { signAndroidWebhook } from '@propusk/sms/android';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { inboundSms } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const TOKEN = 'test-inbound-token-0123456789';

describe('inbound SMS delivered twice by the gateway', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  /** The body the app sends for one received SMS; a retry sends the same body with a new signature. */
  const webhookBody = (from: string, messageId: string, message: string) =>
    JSON.stringify({
      deviceId: 'gateway-phone',
      event: 'sms:received',
      id: `event-${messageId}`,
      webhookId: 'propusk',
      payload: {
        messageId,
        message,
        phoneNumber: from.slice(1),
        simNumber: 1,
        receivedAt: '2026-11-23T17:00:00.000+03:00',
      },
    });

  /** One signed delivery, timestamped `secondsAgo` before the server's clock. */
  const deliver = (body: string, secondsAgo = 0) => {
    const timestamp = String(Math.floor(t.clock.now().getTime() / 1000) - secondsAgo);
    return t.request({
      method: 'POST',
      url: '/api/sms/inbound/android/',
      headers: {
        'content-type': 'application/json',
        'x-timestamp': timestamp,
        'x-signature': signAndroidWebhook(TOKEN, body, timestamp),
      },
      payload: body,
    });
  };

  const stored = async (from: string) =>
    t.deps.db.select().from(inboundSms).where(eq(inboundSms.fromPhone, from));

  /**
   * A Telemetrica unit answers "success" to an add and to a delete alike: its number is added (command 1,
   * in flight), then removed (command 2, queued behind it). Returns both commands' ids.
   */
  async function addThenRevoke() {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    await h.removePhone(barrier.id, phone.id);
    const [add, revoke] = await h.commands(barrier.id);
    expect(add).toMatchObject({ kind: 'add', status: 'sent' });
    expect(revoke).toMatchObject({ kind: 'delete', status: 'queued', attempts: 0 });
    return { barrier, phone, addId: add?.id ?? 0, revokeId: revoke?.id ?? 0 };
  }

  it('a retried webhook of one reply confirms the command it answered, never the next one in flight', async () => {
    const { barrier, addId, revokeId } = await addThenRevoke();
    const body = webhookBody(barrier.devicePhone, '7f3a2c1b', 'success');

    const first = await deliver(body);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'matched' });
    // The revocation leaves now and waits for the device's own answer.
    await h.run(barrier.id, { answer: false });
    expect((await h.commands(barrier.id)).map((c) => [c.id, c.status])).toEqual([
      [addId, 'confirmed'],
      [revokeId, 'sent'],
    ]);

    // The app did not see our 200 and sends the same SMS again 10 s later: a new signature, the same messageId.
    t.clock.advance(10_000);
    const retry = await deliver(body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ status: 'duplicate' });
    const [, revoke] = await h.commands(barrier.id);
    expect(revoke).toMatchObject({ id: revokeId, status: 'sent', finishedAt: null });
    const rows = await stored(barrier.devicePhone);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ gateway: 'android', gatewayMessageId: '7f3a2c1b', commandId: addId });

    // The device's real answer to the revocation has its own id and confirms it.
    const answer = await deliver(webhookBody(barrier.devicePhone, '0c9d4e5f', 'success'));
    expect(answer.json()).toEqual({ status: 'matched' });
    expect((await h.commands(barrier.id)).map((c) => c.status)).toEqual(['confirmed', 'confirmed']);
  });

  it('two deliveries of one reply at once: one is processed, the other changes nothing', async () => {
    const { barrier, addId, revokeId } = await addThenRevoke();
    const body = webhookBody(barrier.devicePhone, '5e6f7a8b', 'success');
    // The double-webhook bug: two deliveries of one SMS, signed a second apart, arriving together.
    const answers = await Promise.all([deliver(body), deliver(body, 1)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.json().status).sort()).toEqual(['duplicate', 'matched']);
    const rows = await stored(barrier.devicePhone);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ commandId: addId });
    const commands = await h.commands(barrier.id);
    expect(commands.map((c) => [c.id, c.status])).toEqual([
      [addId, 'confirmed'],
      [revokeId, 'queued'],
    ]);
    // Only the processed copy wakes the worker for the barrier.
    expect(h.notified.filter((id) => id === barrier.id)).toHaveLength(1);
  });

  it('keeps taking in replies without an id as before (the generic endpoint)', async () => {
    const from = '+79990000071';
    for (let i = 0; i < 2; i += 1) {
      const response = await t.request({
        method: 'POST',
        url: '/api/sms/inbound/',
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: { from, text: 'success' },
      });
      expect(response.json()).toEqual({ status: 'unmatched' });
    }
    const rows = await stored(from);
    expect(rows.map((row) => [row.gateway, row.gatewayMessageId])).toEqual([
      [null, null],
      [null, null],
    ]);
  });
});
