/**
 * Issue 15 part 3, through the server: on models with time windows (RTU5025, RTU5024) a schedule phone's
 * next window is written ahead, as soon as its slot is free, so no SMS leaves at the minute an occurrence
 * starts; the simulated device lets the number in exactly inside the schedule; an edit revokes at once.
 */
import { scheduleOccurrences } from '@propusk/devices/access';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, type WeeklySchedule } from '../src/db/schema.ts';
import { nextReconcileAt, reconcileBarrier } from '../src/engine/send/index.ts';
import { expireEndedPhones } from '../src/modules/phones/expiry.ts';
import { createDeviceHarness, createDeviceScene, type DeviceHarness } from './device-harness.ts';
import { addPhone } from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
// Saturday 2026-11-21, 12:00 in Moscow.
const START = new Date('2026-11-21T09:00:00.000Z');

const SCHEDULE: WeeklySchedule = {
  monday: [
    { start_time: '08:00', end_time: '12:00' },
    { start_time: '14:00', end_time: '18:00' },
  ],
  tuesday: [{ start_time: '22:00', end_time: '24:00' }],
  wednesday: [{ start_time: '00:00', end_time: '02:00' }],
  thursday: [
    { start_time: '09:30', end_time: '10:00' },
    { start_time: '10:00', end_time: '11:00' },
  ],
  friday: [{ start_time: '18:00', end_time: '18:01' }],
  saturday: [{ start_time: '15:00', end_time: '16:00' }],
  sunday: [{ start_time: '20:00', end_time: '21:00' }],
};

const admits = (schedule: WeeklySchedule, at: Date) =>
  scheduleOccurrences(schedule, at, 180).some((o) => o.start <= at && at < o.end);

describe.each([['RTU5025'], ['RTU5024']])('windows written ahead on %s over a simulated week', (model) => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('sends no SMS at any occurrence start and the device admits the number exactly inside the schedule', async () => {
    t.clock.set(START);
    const barrier = await h.createBarrier({ ownerId: admin.id, model, password: '1234' });
    const phone = await h.addPhone(barrier.id, { userId: admin.id, type: 'schedule', schedule: SCHEDULE });
    await h.run(barrier.id);
    const sentCommands = async () => (await h.commands(barrier.id)).filter((c) => c.status !== 'cancelled');
    const created = (await sentCommands()).length;
    // The window queued behind the clock stays queued when the clock's reply re-plans (not re-created).
    expect((await h.commands(barrier.id)).map((c) => c.status)).toEqual(['confirmed', 'confirmed']);
    expect(created).toBe(2); // the clock and the first window (Saturday 15:00–16:00), both now

    const end = new Date(START.getTime() + 8 * DAY_MS);
    let admittedMinutes = 0;
    let now = START;
    for (;;) {
      const next = await nextReconcileAt(t.deps, barrier.id);
      const until = !next || next > end ? end : next;
      // Between two changes the device is left alone: ask it, minute by minute, whom it would let in.
      const device = h.simulators.device(barrier.id);
      for (let ms = now.getTime(); ms < until.getTime(); ms += MINUTE_MS) {
        const at = new Date(ms);
        const inside = admits(SCHEDULE, at);
        expect(device?.wouldOpenFor(phone.number, at) ?? false, at.toISOString()).toBe(inside);
        if (inside) admittedMinutes += 1;
      }
      if (!next || next > end) break;
      t.clock.set(next);
      now = next;
      await expireEndedPhones(t.deps, { barrierId: barrier.id });
      await reconcileBarrier(t.deps, barrier.id);
      await h.run(barrier.id);
    }
    expect(admittedMinutes).toBeGreaterThan(13 * 60);

    const commands = await sentCommands();
    expect(commands.every((command) => command.status === 'confirmed')).toBe(true);
    const starts = new Set(
      scheduleOccurrences(SCHEDULE, new Date(START.getTime() + 4 * DAY_MS), 180).map((o) =>
        o.start.getTime(),
      ),
    );
    // Not one SMS at the minute an occurrence starts: each window left before it began.
    const atStarts = commands.filter((command) =>
      starts.has(Math.floor(command.createdAt.getTime() / MINUTE_MS) * MINUTE_MS),
    );
    expect(atStarts).toEqual([]);
    for (const command of commands.slice(created)) {
      expect(command.kind).toBe('add_window');
      const window = (command.payload as { window: { start: string } }).window;
      expect(new Date(window.start).getTime()).toBeGreaterThan(command.createdAt.getTime());
    }
    // One SMS per run of touching occurrences, none to close them, each written when the previous ended:
    // Sun, Mon 08–12, Mon 14–18, Tue 22:00–Wed 02:00, Thu 09:30–11:00, Fri, Sat and the next Sun.
    expect(commands.length - created).toBe(8);
  });
});

describe('a schedule edit revokes at once (RTU5025, through the API)', () => {
  const t = useTestApp();

  it('takes back a window written ahead, and one in force, with one SMS each', async () => {
    t.clock.set(START);
    const { h, barrier, user } = await createDeviceScene(t);
    const added = await addPhone(t, user, barrier.id, { type: 'schedule', schedule: SCHEDULE });
    expect(added.statusCode, added.body).toBe(201);
    const { id, phone: number } = added.json() as { id: number; phone: string };
    await h.run(barrier.id);
    const device = () => h.simulators.device(barrier.id)!;
    // Saturday 15:00–16:00 is written ahead at 12:00.
    const saturday = new Date('2026-11-21T12:30:00.000Z'); // 15:30 Moscow
    expect(device().wouldOpenFor(number, saturday)).toBe(true);

    const sent = () => h.smsTo(barrier.device_phone).length;
    const before = sent();
    const edited = await t.request({
      method: 'PUT',
      url: `/api/phones/${id}/schedule/`,
      token: user.token,
      payload: { saturday: [{ start_time: '12:05', end_time: '13:00' }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await h.run(barrier.id);
    expect(sent() - before).toBe(1);
    expect(device().wouldOpenFor(number, saturday)).toBe(false);
    const inside = new Date('2026-11-21T09:10:00.000Z'); // 12:10 Moscow
    expect(device().wouldOpenFor(number, START)).toBe(false);
    expect(device().wouldOpenFor(number, inside)).toBe(true);

    // Inside the new window the phone is deleted: the device stops letting it in at once.
    t.clock.set(inside);
    const removed = await t.request({ method: 'DELETE', url: `/api/phones/${id}/`, token: user.token });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await h.run(barrier.id);
    expect(device().wouldOpenFor(number, inside)).toBe(false);
    expect(device().wouldOpenFor(number, new Date(inside.getTime() + 10 * MINUTE_MS))).toBe(false);
    const commands = await t.deps.db
      .select({ kind: deviceCommands.kind, status: deviceCommands.status })
      .from(deviceCommands)
      .where(eq(deviceCommands.barrierId, barrier.id));
    expect(commands.at(-1)).toEqual({ kind: 'delete', status: 'confirmed' });
  });
});
