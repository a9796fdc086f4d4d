/**
 * The demo's simulated devices live in memory. After a restart (new gateway, new simulators, same database)
 * a simulator is seeded from what the server believes its device holds (confirmed slots, windows, the clock),
 * so the demo stays consistent: numbers already on the gate still open it, and the next change lands on top.
 */
import { DemoSmsGateway } from '@propusk/sms/demo';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachDeviceSimulators } from '../src/demo/simulator-registry.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import { addPhone, type TestBarrier } from './domain-factories.ts';
import type { TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('simulated devices after a demo restart', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let user: TestUser;
  let guest: string;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user } = await createDeviceScene(t));
    const added = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: '2026-11-22T07:00:00.000Z',
      end_time: '2026-11-22T15:00:00.000Z',
    });
    expect(added.statusCode, added.body).toBe(201);
    guest = added.json().phone;
    await h.run(barrier.id);
  });

  it('seeds a simulator from the believed slots and clock when it is first created', async () => {
    const before = h.simulators.device(barrier.id);
    if (!before) throw new Error('the device has not heard from the server');
    expect(before.slots().map((slot) => slot.number)).toEqual([owner.phone, user.phone, guest]);

    // The process restarts: a new demo gateway with new (empty) simulators on the same database.
    const gateway = new DemoSmsGateway({ file: t.config.smsFile, now: () => t.clock.now() });
    const replies: (() => Promise<void>)[] = [];
    const restarted = attachDeviceSimulators(gateway, t.deps, (reply) => receiveInboundSms(t.deps, reply), {
      delayMs: 0,
      schedule: (run) => replies.push(run),
    });
    t.deps.sms = gateway;
    t.clock.advance(5 * 60_000);
    expect(restarted.device(barrier.id)).toBeUndefined();

    // The next change is the first SMS the restarted device hears.
    const added = await addPhone(t, user, barrier.id, { type: 'permanent' });
    expect(added.statusCode, added.body).toBe(201);
    for (;;) {
      const step = await processBarrier(t.deps, barrier.id);
      if (step.state !== 'sent') break;
      await restarted.settled();
      if (replies.length === 0) break;
      while (replies.length > 0) await replies.shift()?.();
    }
    const device = restarted.device(barrier.id);
    if (!device) throw new Error('the restarted device has not heard from the server');
    const now = t.clock.now();

    // The device holds what it held before the restart, windows included, plus the new number.
    expect(device.slots()).toEqual([...before.slots(), { slot: 4, number: added.json().phone }]);
    expect(device.clockReading(now)).toBe(before.clockReading(now));
    expect(device.wouldOpenFor(owner.phone, now)).toBe(true);
    expect(device.wouldOpenFor(user.phone, now)).toBe(true);
    expect(device.wouldOpenFor(added.json().phone, now)).toBe(true);
    expect(device.wouldOpenFor(guest, now)).toBe(false);
    expect(device.wouldOpenFor(guest, new Date('2026-11-22T08:00:00.000Z'))).toBe(true);
    expect(device.wouldOpenFor(guest, new Date('2026-11-22T15:00:00.000Z'))).toBe(false);
    // It answered the command, so the phone is in step.
    const mine = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: user.token,
    });
    const shown = mine.json().phones.find((phone: { id: number }) => phone.id === added.json().id);
    expect(shown?.status).toBe('ok');
  });
});
