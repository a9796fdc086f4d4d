/**
 * Priorities in the device queue (issue 15, part 2): a command that takes access away reaches the gateway
 * before any that gives access, then the soonest deadline; a barrier's own commands keep their order.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  barriersNeedingAttention,
  barriersWithOpenCommands,
  firstBarriersWithOpenCommands,
  processBarrier,
} from '../src/engine/send/index.ts';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';
import { waitFor } from './wait-for.ts';

/** A number as the RTU sheet writes it (`0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;

describe('device queue priorities', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp({
    env: { DEVICE_SIM_DELAY_MS: '0' },
    configure: (deps) => {
      deps.clock = systemClock;
    },
  });
  beforeAll(async () => {
    // Manual: commands are stored and wait; nothing is sent until the test drives the queue or the worker.
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  /**
   * Adds waiting on `barriers` barriers (`phonesEach` each), stored first (lower barrier and command ids);
   * then one more barrier whose number is on its device and is taken away: its revocation waits.
   */
  async function addsThenARevocation(barriers: number, phonesEach: number) {
    const adding: { id: number; devicePhone: string }[] = [];
    for (let index = 0; index < barriers; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id });
      for (let phone = 0; phone < phonesEach; phone++) await h.addPhone(barrier.id, { userId: admin.id });
      adding.push(barrier);
    }
    const revoking = await h.createBarrier({ ownerId: admin.id });
    const leaving = await h.addPhone(revoking.id, { userId: admin.id });
    expect(await h.run(revoking.id)).toEqual({ state: 'idle' });
    expect(await h.removePhone(revoking.id, leaving.id)).toBe(1);
    return { adding, revoking };
  }

  it('hands a revocation to the gateway before the adds of many other barriers', async () => {
    // Adds waiting on six barriers, stored first (lower barrier and command ids).
    const { adding, revoking } = await addsThenARevocation(6, 2);
    const before = t.sentSms().length;

    expect((await barriersNeedingAttention(t.deps.db))[0]).toBe(revoking.id);

    // The worker starts (as after a restart): its sweep drives the barriers one after the other.
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
    try {
      await waitFor(
        async () => t.sentSms().length - before,
        (count) => count >= 13,
      );
    } finally {
      await processing.stop();
    }
    const sent = t.sentSms().slice(before);
    expect(sent[0]).toMatchObject({ to: revoking.devicePhone, text: '1234A001##' });
    // Every add still left, each once.
    for (const barrier of adding)
      expect(sent.filter((line) => line.to === barrier.devicePhone)).toHaveLength(2);
  });

  it('ranks the adds of different barriers by deadline: access due now, then the window that opens soonest', async () => {
    const hour = 60 * 60_000;
    const later = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(later.id, {
      userId: admin.id,
      type: 'temporary',
      start: new Date(Date.now() + 3 * hour),
      end: new Date(Date.now() + 5 * hour),
    });
    const sooner = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(sooner.id, {
      userId: admin.id,
      type: 'temporary',
      start: new Date(Date.now() + hour),
      end: new Date(Date.now() + 2 * hour),
    });
    const now = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(now.id, { userId: admin.id });
    expect((await h.commands(later.id)).map((row) => row.kind)).toContain('add_window');
    const order = (await barriersNeedingAttention(t.deps.db)).filter((id) =>
      [later.id, sooner.id, now.id].includes(id),
    );
    expect(order).toEqual([now.id, sooner.id, later.id]);
    for (const barrier of [later, sooner, now])
      expect(await h.run(barrier.id)).toMatchObject({ state: 'idle' });
  });

  it('keeps a barrier’s dependent commands in order: the old number leaves before the new one is written', async () => {
    // Telemetrica holds numbers, not slots: giving slot 1 to a new number is a delete, then an add.
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });

    // Adds queued for slots 3 and 4, then slot 1 freed and at once given to a new number.
    const third = await h.addPhone(barrier.id, { userId: admin.id });
    const fourth = await h.addPhone(barrier.id, { userId: admin.id });
    await h.removePhone(barrier.id, first.id);
    const replacing = await h.addPhone(barrier.id, { userId: admin.id });
    expect(replacing.slot).toBe(1);
    const before = h.smsTo(barrier.devicePhone).length;
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual([
      `#15#${first.number}#`,
      `#06#${replacing.number}#`,
      `#06#${third.number}#`,
      `#06#${fourth.number}#`,
    ]);
    expect(h.simulators.device(barrier.id)?.whitelist(new Date())).not.toContain(first.number);
  });

  it('sends the revocation of a slot before the adds queued ahead of it on the same barrier', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const leaving = await h.addPhone(barrier.id, { userId: admin.id });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    const second = await h.addPhone(barrier.id, { userId: admin.id });
    const third = await h.addPhone(barrier.id, { userId: admin.id });
    await h.removePhone(barrier.id, leaving.id);
    const before = h.smsTo(barrier.devicePhone).length;
    expect((await processBarrier(t.deps, barrier.id)).state).toBe('sent');
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual(['1234A001##']);
    await h.deliverReplies();
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual([
      '1234A001##',
      `1234A002#${digits(second.number)}#`,
      `1234A003#${digits(third.number)}#`,
    ]);
  });

  it('reads the head of the order a page at a time, as the whole order has it, among the barriers asked', async () => {
    const hour = 60 * 60_000;
    const ids: number[] = [];
    // Windows that open at different times (several commands on some barriers), plain adds, a revocation.
    for (const startsIn of [5, 2, 4, 1, 3]) {
      const barrier = await h.createBarrier({ ownerId: admin.id });
      for (let index = 0; index < (startsIn % 2) + 1; index++)
        await h.addPhone(barrier.id, {
          userId: admin.id,
          type: 'temporary',
          start: new Date(Date.now() + (startsIn + index) * hour),
          end: new Date(Date.now() + (startsIn + index + 1) * hour),
        });
      ids.push(barrier.id);
    }
    for (let index = 0; index < 2; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id });
      await h.addPhone(barrier.id, { userId: admin.id });
      ids.push(barrier.id);
    }
    const revoking = await h.createBarrier({ ownerId: admin.id });
    const leaving = await h.addPhone(revoking.id, { userId: admin.id });
    expect(await h.run(revoking.id)).toEqual({ state: 'idle' });
    await h.addPhone(revoking.id, { userId: admin.id });
    // The revocation of slot 1, and the add of slot 2 planned again behind it.
    expect(await h.removePhone(revoking.id, leaving.id)).toBe(2);
    ids.push(revoking.id);

    const whole = (await barriersWithOpenCommands(t.deps.db)).filter((id) => ids.includes(id));
    // The revocation, the adds due now (stored first, lower id first), then the windows by their start.
    expect(whole).toEqual([revoking.id, ids[5], ids[6], ids[3], ids[1], ids[4], ids[2], ids[0]]);

    const first = await firstBarriersWithOpenCommands(t.deps.db, { limit: 3, among: ids });
    expect(first).toMatchObject({ barrierIds: whole.slice(0, 3), done: false });
    // On from where it stopped: each barrier once, though some have two commands.
    const rest = await firstBarriersWithOpenCommands(t.deps.db, {
      limit: 10,
      among: ids,
      skip: new Set(first.barrierIds),
      after: first.cursor ?? undefined,
    });
    expect(rest).toMatchObject({ barrierIds: whole.slice(3), done: true });
    // Only the barriers asked for.
    const some = [ids[0], ids[3], revoking.id] as number[];
    expect((await firstBarriersWithOpenCommands(t.deps.db, { limit: 10, among: some })).barrierIds).toEqual(
      whole.filter((id) => some.includes(id)),
    );
    for (const id of ids) expect(await h.run(id)).toMatchObject({ state: 'idle' });
    expect((await firstBarriersWithOpenCommands(t.deps.db, { limit: 10, among: ids })).barrierIds).toEqual(
      [],
    );
  });

  it('drives the barriers held for a token from its timer, most urgent first, one token at a time', async () => {
    // One SMS a second with no burst: after the first send every barrier waits for the worker's token timer. (At
    // one every 250 ms a start-up sweep slowed by a busy machine reached the last barrier after the next token
    // had come, and that barrier took it ahead of the ones held: the sweep drives in the queue's order, but
    // only the timer drives the held ones, so a token arriving mid-sweep goes to the barrier the sweep is at.)
    t.deps.smsGateways = [{ name: 'slow', gateway: t.deps.sms, ratePerMinute: 60, burst: 1 }];
    try {
      const { adding, revoking } = await addsThenARevocation(4, 1);
      const watched = new Set([...adding, revoking].map((barrier) => barrier.devicePhone));
      const before = t.sentSms().length;
      const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
      try {
        await waitFor(
          async () =>
            t
              .sentSms()
              .slice(before)
              .filter((line) => watched.has(line.to)).length,
          (count) => count >= 5,
        );
      } finally {
        await processing.stop();
      }
      const order = t
        .sentSms()
        .slice(before)
        .map((line) => line.to)
        .filter((to) => watched.has(to));
      // The revocation first, then the adds in the queue's order (stored first, first), each once.
      expect(order).toEqual([revoking.devicePhone, ...adding.map((barrier) => barrier.devicePhone)]);
    } finally {
      t.deps.smsGateways = undefined;
    }
  });
});
