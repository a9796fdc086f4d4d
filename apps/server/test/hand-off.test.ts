/**
 * The idempotent hand-over of a device command to the SMS gateway (issue 13, part 5). The process "dies"
 * right after the gateway accepted the SMS and before that was recorded (an exception from the queue's
 * fault hook that nothing catches); a restarted process (a new gateway on the same SMS_FILE or the same
 * Android server, the same database) must not make the SMS leave a second time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoSmsGateway } from '@propusk/sms/demo';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands } from '../src/db/schema.ts';
import { attachDeviceSimulators } from '../src/demo/simulator-registry.ts';
import { handOffKey, processBarrier } from '../src/engine/send/index.ts';
import { createSmsGateway } from '../src/lib/sms-gateway.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp, useTestApp } from './test-app.ts';

const killed = () => {
  throw new Error('killed after the gateway call');
};

/** The RTU sheet's number form (`0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;

describe('hand-over to the demo gateway when the process dies after the gateway call', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  let original: TestApp['deps']['sms'];
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
    original = t.deps.sms;
  });
  afterEach(() => {
    t.deps.sms = original;
  });

  /** A new process on the same database and SMS_FILE: a new demo gateway and new simulated devices. */
  function restart() {
    const gateway = new DemoSmsGateway({ file: t.config.smsFile, now: () => t.clock.now() });
    const replies: (() => Promise<void>)[] = [];
    const simulators = attachDeviceSimulators(gateway, t.deps, (reply) => receiveInboundSms(t.deps, reply), {
      delayMs: 0,
      schedule: (run) => replies.push(run),
    });
    t.deps.sms = gateway;
    return { gateway, simulators, replies };
  }

  async function command(barrierId: number) {
    const [row] = await t.deps.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.barrierId, barrierId));
    if (!row) throw new Error('no command');
    return row;
  }

  it('lets the restarted devices answer what was in flight, so nothing is sent again', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    const second = await h.addPhone(barrier.id, { userId: admin.id });
    await expect(processBarrier(t.deps, barrier.id, { afterGatewayCall: killed })).rejects.toThrow('killed');
    await h.dropReplies();

    const restarted = restart();
    // What startDeviceProcessing does before the worker starts.
    expect(await restarted.simulators.answerInFlight()).toBe(1);
    expect((await h.phone(first.id)).status).toBe('ok');
    for (;;) {
      const step = await processBarrier(t.deps, barrier.id);
      if (step.state !== 'sent') break;
      await restarted.simulators.settled();
      while (restarted.replies.length > 0) await restarted.replies.shift()?.();
    }
    expect(h.smsTo(barrier.devicePhone)).toEqual([
      `1234A001#${digits(first.number)}#`,
      `1234A002#${digits(second.number)}#`,
    ]);
    expect((await h.phone(second.id)).status).toBe('ok');
    expect(
      restarted.simulators
        .device(barrier.id)
        ?.slots()
        .map((slot) => slot.number),
    ).toEqual([first.number, second.number]);
  });

  it('re-sends the attempt under the same key, and the gateway writes nothing new to SMS_FILE', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    const text = `1234A001#${digits(phone.number)}#`;

    await expect(processBarrier(t.deps, barrier.id, { afterGatewayCall: killed })).rejects.toThrow('killed');
    // The device's answer died with the process.
    expect(await h.dropReplies()).toBe(1);
    const recorded = await command(barrier.id);
    expect([recorded.status, recorded.attempts, recorded.handedOverAt]).toEqual(['sent', 1, null]);
    const key = handOffKey(recorded, 1);
    expect(t.sentSms().filter((line) => line.to === barrier.devicePhone)).toEqual([
      expect.objectContaining({ text, key }),
    ]);

    const restarted = restart();
    // Before the reply is overdue the command still counts as in flight.
    expect((await processBarrier(t.deps, barrier.id)).state).toBe('waiting');
    t.clock.advance(t.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    const again = await processBarrier(t.deps, barrier.id);
    expect(again.state).toBe('sent');
    // One SMS in SMS_FILE, the same attempt, its acceptance now recorded; the device heard nothing new.
    expect(h.smsTo(barrier.devicePhone)).toEqual([text]);
    await restarted.simulators.settled();
    expect(restarted.replies).toHaveLength(0);
    const after = await command(barrier.id);
    expect([after.status, after.attempts]).toEqual(['sent', 1]);
    expect(after.handedOverAt).not.toBeNull();
  });

  it('gives an attempt whose hand-over was accepted and never answered a new key', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    t.clock.advance(t.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await h.run(barrier.id);
    t.clock.advance(60_000);
    await h.run(barrier.id);
    const row = await command(barrier.id);
    const text = `1234A001#${digits(phone.number)}#`;
    expect(t.sentSms().filter((line) => line.to === barrier.devicePhone)).toEqual([
      expect.objectContaining({ text, key: handOffKey(row, 1) }),
      expect.objectContaining({ text, key: handOffKey(row, 2) }),
    ]);
    expect([row.status, row.attempts]).toEqual(['confirmed', 2]);
  });
});

describe('hand-over to the Android SMS Gateway when the process dies after the gateway call', () => {
  /** Messages the fake gateway accepted, by id: a repeated id is refused as the real one refuses it. */
  const messages = new Map<string, { message: string; phoneNumbers: string[] }>();
  const calls: { id?: string }[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const parsed = JSON.parse(body) as { id?: string; message: string; phoneNumbers: string[] };
        calls.push({ id: parsed.id });
        response.setHeader('content-type', 'application/json');
        if (parsed.id && messages.has(parsed.id)) {
          response.writeHead(409);
          response.end(JSON.stringify({ message: 'Message with the same ID already exists' }));
          return;
        }
        const id = parsed.id ?? `generated-${messages.size + 1}`;
        messages.set(id, { message: parsed.message, phoneNumbers: parsed.phoneNumbers });
        response.writeHead(202);
        response.end(JSON.stringify({ id, state: 'Pending' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the SMS once: the second hand-over carries the same id and the gateway refuses it as known', async () => {
    const env = {
      SMS_PROVIDER: 'android',
      ANDROID_SMS_URL: url,
      ANDROID_SMS_LOGIN: 'sms',
      ANDROID_SMS_PASSWORD: 'pw',
    };
    const t = await createTestApp({
      env,
      configure: (deps) => {
        deps.sms = createSmsGateway(deps.config, () => {});
      },
    });
    try {
      const h = createDeviceHarness(t, { manual: false });
      const admin = await createAdmin(t);
      const barrier = await h.createBarrier({ ownerId: admin.id, password: '4321' });
      const phone = await h.addPhone(barrier.id, { userId: admin.id });
      await expect(processBarrier(t.deps, barrier.id, { afterGatewayCall: killed })).rejects.toThrow(
        'killed',
      );
      // The restarted process: a new adapter, the same Android server and database.
      t.deps.sms = createSmsGateway(t.config, () => {});
      t.clock.advance(t.config.DEVICE_REPLY_TIMEOUT_MS + 1);
      expect((await processBarrier(t.deps, barrier.id)).state).toBe('sent');

      const [row] = await t.deps.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.barrierId, barrier.id));
      if (!row) throw new Error('no command');
      const key = handOffKey(row, 1);
      expect(calls).toEqual([{ id: key }, { id: key }]);
      expect([...messages.entries()]).toEqual([
        [key, { message: `4321A001#0007${phone.number.slice(2)}#`, phoneNumbers: [barrier.devicePhone] }],
      ]);
      expect([row.status, row.attempts]).toEqual(['sent', 1]);
      expect(row.handedOverAt).not.toBeNull();
    } finally {
      await t.close();
    }
  });
});
