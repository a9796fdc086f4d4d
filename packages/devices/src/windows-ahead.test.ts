/**
 * Issue 15 part 3: on models with time windows a schedule phone's next window is written ahead, as soon as
 * its slot is free, so the minute an occurrence starts costs no SMS; the device (simulated from its sheet)
 * lets the number in exactly inside the schedule's occurrences, and an edit revokes at once.
 */
import { describe, expect, it } from 'vitest';
import {
  desiredWhitelist,
  nextChangeAt,
  type PhoneSpec,
  scheduleOccurrences,
  type WeeklySchedule,
} from './access.ts';
import { renderCommand } from './commands.ts';
import { DAY_MS, MINUTE_MS } from './device-time.ts';
import type { DeviceModel } from './models.ts';
import { applyConfirmed, type BelievedState, type PlannedCommand, planCommands } from './planner.ts';
import { createDeviceSimulator, type DeviceSimulator } from './simulator.ts';

const moscow = (wall: string) => new Date(`${wall}+03:00`);
// 2025-03-03 is a Monday.
const WEEK_START = moscow('2025-03-03T00:00');
const NUMBER = '+79160000042';

const schedule: WeeklySchedule = {
  monday: [
    { start_time: '08:00', end_time: '12:00' },
    { start_time: '14:00', end_time: '18:00' },
  ],
  tuesday: [
    { start_time: '00:00', end_time: '01:00' },
    { start_time: '22:00', end_time: '24:00' },
  ],
  wednesday: [{ start_time: '00:00', end_time: '02:00' }],
  thursday: [
    { start_time: '09:30', end_time: '10:15' },
    { start_time: '10:00', end_time: '11:00' },
  ],
  friday: [{ start_time: '18:00', end_time: '18:01' }],
  saturday: [
    { start_time: '10:00', end_time: '11:00' },
    { start_time: '11:01', end_time: '12:00' },
  ],
  sunday: [{ start_time: '20:00', end_time: '21:00' }],
};

/** Whether the schedule itself lets the number in at `at` (the database's truth). */
function scheduleAdmits(spec: WeeklySchedule, at: Date): boolean {
  return scheduleOccurrences(spec, at).some((occurrence) => occurrence.start <= at && at < occurrence.end);
}

/** A reconciler like the server's, every command sent to the simulated device and confirmed at once. */
function makeServer(model: DeviceModel, device: DeviceSimulator) {
  let believed: BelievedState = { entries: [], clockSetAt: null };
  const sent: { at: Date; command: PlannedCommand }[] = [];
  return {
    sent,
    reconcile(phones: PhoneSpec[], now: Date) {
      const commands = planCommands({ model, desired: desiredWhitelist(model, phones, now), believed, now });
      for (const command of commands) {
        const reply = device.receive(renderCommand(model, command, '1234', { now }), now);
        expect(reply, JSON.stringify(command)).not.toBeNull();
        believed = applyConfirmed(believed, command, now);
        sent.push({ at: now, command });
      }
    },
  };
}

describe.each(['RTU5025', 'RTU5024'] as const)('windows written ahead on %s', (model) => {
  const phone: PhoneSpec = { slot: 7, number: NUMBER, kind: 'schedule', schedule };

  it('sends nothing at any occurrence start or end over a week; the device admits exactly inside the schedule', () => {
    const device = createDeviceSimulator({ model, password: '1234' });
    const server = makeServer(model, device);
    // The phone is added on Sunday evening; then the server reconciles at every change it asks for, and
    // minute by minute the device, by its own clock, lets the number in exactly when the schedule does.
    let next: Date | null = moscow('2025-03-02T19:00');
    const end = new Date(WEEK_START.getTime() + 8 * DAY_MS);
    let checked = 0;
    for (let t = next.getTime(); t <= end.getTime(); t += MINUTE_MS) {
      const at = new Date(t);
      while (next && next <= at) {
        server.reconcile([phone], next);
        next = nextChangeAt(model, [phone], next);
      }
      expect(device.wouldOpenFor(NUMBER, at), at.toISOString()).toBe(scheduleAdmits(schedule, at));
      if (scheduleAdmits(schedule, at)) checked += 1;
    }
    expect(checked).toBeGreaterThan(7 * 60);
    const starts = new Set(
      scheduleOccurrences(schedule, new Date(WEEK_START.getTime() + 3 * DAY_MS)).map((o) =>
        o.start.getTime(),
      ),
    );
    const atStarts = server.sent.filter(({ at }) => starts.has(at.getTime()));
    expect(atStarts).toEqual([]);
    // Every window was written before it began, and never a delete.
    for (const { at, command } of server.sent) {
      expect(command.kind).not.toBe('delete');
      if (command.kind === 'add_window')
        expect(command.window!.start.getTime()).toBeGreaterThan(at.getTime());
    }
    // Runs of touching/overlapping occurrences (Tue 22:00–Wed 02:00, Thu 09:30–11:00) are one SMS each.
    const windows = server.sent.filter(({ command }) => command.kind === 'add_window');
    expect(windows.map(({ command }) => command.window!.start)).toContainEqual(moscow('2025-03-04T22:00'));
    expect(
      windows.find(({ command }) => command.window!.start.getTime() === moscow('2025-03-04T22:00').getTime())
        ?.command.window?.end,
    ).toEqual(moscow('2025-03-05T02:00'));
  });

  it('revokes at once when the schedule is edited, inside a window or with the next one written ahead', () => {
    const device = createDeviceSimulator({ model, password: '1234' });
    const server = makeServer(model, device);
    const before = moscow('2025-03-03T07:00');
    server.reconcile([phone], before);
    // Monday 08:00–12:00 was written ahead at 07:00.
    expect(device.wouldOpenFor(NUMBER, moscow('2025-03-03T09:00'))).toBe(true);

    // At 07:30 the schedule loses Monday mornings: one SMS, and the written window is gone.
    const edited: WeeklySchedule = { ...schedule, monday: [{ start_time: '14:00', end_time: '18:00' }] };
    const sentBefore = server.sent.length;
    server.reconcile([{ ...phone, schedule: edited }], moscow('2025-03-03T07:30'));
    expect(server.sent.length - sentBefore).toBe(1);
    expect(device.wouldOpenFor(NUMBER, moscow('2025-03-03T09:00'))).toBe(false);
    expect(device.wouldOpenFor(NUMBER, moscow('2025-03-03T15:00'))).toBe(true);

    // Inside 14:00–18:00 the phone's schedule is emptied: it is taken off at once.
    server.reconcile([{ ...phone, schedule: {} }], moscow('2025-03-03T15:00'));
    expect(device.wouldOpenFor(NUMBER, moscow('2025-03-03T15:00'))).toBe(false);
    expect(device.wouldOpenFor(NUMBER, moscow('2025-03-03T17:59'))).toBe(false);
    // And removed altogether (no phone): nothing is admitted later either.
    server.reconcile([], moscow('2025-03-03T15:01'));
    for (
      let t = moscow('2025-03-03T15:01').getTime();
      t < moscow('2025-03-10T15:01').getTime();
      t += 15 * MINUTE_MS
    )
      expect(device.wouldOpenFor(NUMBER, new Date(t))).toBe(false);
  });
});

describe('models without windows keep adding at the start and deleting at the end', () => {
  it('Telemetrica: every opening is an add at its start', () => {
    const phone: PhoneSpec = { slot: 7, number: NUMBER, kind: 'schedule', schedule };
    const model = 'Telemetrica' as const;
    const plans: { at: Date; commands: PlannedCommand[] }[] = [];
    let believed: BelievedState = { entries: [], clockSetAt: null };
    let now: Date | null = WEEK_START;
    while (now && now < new Date(WEEK_START.getTime() + 7 * DAY_MS)) {
      const commands = planCommands({ model, desired: desiredWhitelist(model, [phone], now), believed, now });
      for (const command of commands) believed = applyConfirmed(believed, command, now, 'number');
      plans.push({ at: now, commands });
      now = nextChangeAt(model, [phone], now);
    }
    const adds = plans.filter(({ commands }) => commands.some((command) => command.kind === 'add'));
    expect(adds.length).toBeGreaterThan(0);
    for (const { at } of adds) expect(scheduleAdmits(schedule, at)).toBe(true);
  });
});
