import { describe, expect, it } from 'vitest';
import { desiredWhitelist, type PhoneSpec, WEEKDAYS, type WeeklySchedule } from './access.ts';
import { DAY_MS } from './device-time.ts';
import {
  applyConfirmed,
  type BelievedState,
  commandFromJson,
  commandToJson,
  markSent,
  type PlannedCommand,
  planCommands,
} from './planner.ts';
import { countSmsBetween, countWeeklySms } from './weekly-sms.ts';

const moscow = (wall: string) => new Date(`${wall}+03:00`);
const MONDAY = '2025-03-03';
const now = moscow(`${MONDAY}T06:00`);
const clockFresh: BelievedState = { entries: [], clockSetAt: moscow(`${MONDAY}T00:00`) };

const temporary: PhoneSpec = {
  slot: 3,
  number: '+79160000003',
  kind: 'temporary',
  start: moscow(`${MONDAY}T10:00`),
  end: moscow(`${MONDAY}T18:00`),
};

function applyAll(believed: BelievedState, commands: PlannedCommand[], at: Date): BelievedState {
  return commands.reduce((state, command) => applyConfirmed(state, command, at), believed);
}

describe('planCommands', () => {
  it('sends nothing when the device already holds the desired whitelist', () => {
    const desired = [{ slot: 1, number: '+79160000001' }];
    expect(planCommands({ model: 'RTU5025', desired, believed: { entries: desired }, now })).toEqual([]);
  });

  it('adds a missing entry and deletes one no longer desired', () => {
    const believed = { entries: [{ slot: 2, number: '+79160000002' }] };
    expect(
      planCommands({ model: 'RTU5025', desired: [{ slot: 1, number: '+79160000001' }], believed, now }),
    ).toEqual([
      { kind: 'delete', slot: 2 },
      { kind: 'add', slot: 1, number: '+79160000001' },
    ]);
    // A number-addressed device (Telemetrica) is told which number to delete.
    expect(
      planCommands({ model: 'Telemetrica', desired: [{ slot: 1, number: '+79160000001' }], believed, now }),
    ).toEqual([
      { kind: 'delete', slot: 2, number: '+79160000002' },
      { kind: 'add', slot: 1, number: '+79160000001' },
    ]);
  });

  it('on a number-addressed device deletes the old number of a changed slot: an add removes nothing', () => {
    const believed = { entries: [{ slot: 3, number: '+79160000003' }] };
    expect(
      planCommands({ model: 'Telemetrica', desired: [{ slot: 3, number: '+79160000009' }], believed, now }),
    ).toEqual([
      { kind: 'delete', slot: 3, number: '+79160000003' },
      { kind: 'add', slot: 3, number: '+79160000009' },
    ]);
    // The add is confirmed before the delete: the old number is still on the device, so it stays planned.
    const afterAdd = applyConfirmed(
      believed,
      { kind: 'add', slot: 3, number: '+79160000009' },
      now,
      'number',
    );
    expect(
      planCommands({
        model: 'Telemetrica',
        desired: [{ slot: 3, number: '+79160000009' }],
        believed: afterAdd,
        now,
      }),
    ).toEqual([{ kind: 'delete', slot: 3, number: '+79160000003' }]);
  });

  it('overwrites a changed slot with one add, never delete + add', () => {
    const believed = { entries: [{ slot: 1, number: '+79160000001' }] };
    expect(
      planCommands({ model: 'RTU5025', desired: [{ slot: 1, number: '+79169999999' }], believed, now }),
    ).toEqual([{ kind: 'add', slot: 1, number: '+79169999999' }]);
  });

  it('costs a temporary phone on RTU5025 exactly one SMS over its whole life', () => {
    const plan = planCommands({
      model: 'RTU5025',
      desired: desiredWhitelist('RTU5025', [temporary], now),
      believed: clockFresh,
      now,
    });
    expect(plan).toEqual([
      {
        kind: 'add_window',
        slot: 3,
        number: '+79160000003',
        window: { start: moscow(`${MONDAY}T10:00`), end: moscow(`${MONDAY}T18:00`) },
      },
    ]);
    const life = countSmsBetween(
      'RTU5025',
      [temporary],
      now,
      new Date(now.getTime() + 3 * DAY_MS),
      180,
      clockFresh,
    );
    expect(life.initial + life.total).toBe(1);
    // After the end the device keeps the expired slot, which lets nobody in: no delete is sent.
    expect(life.believed.entries).toHaveLength(1);
  });

  it('costs a temporary phone on Telemetrica an add at its start and a delete at its end', () => {
    const life = countSmsBetween('Telemetrica', [temporary], now, new Date(now.getTime() + 3 * DAY_MS));
    expect(life.initial).toBe(0);
    expect(life.byKind).toEqual({ add: 1, add_window: 0, delete: 1, set_clock: 0 });
  });

  it('orders adds by deadline: access due now first, then the window that opens soonest, ties by slot', () => {
    const window = (startHours: number) => ({
      start: new Date(now.getTime() + startHours * 3_600_000),
      end: new Date(now.getTime() + (startHours + 1) * 3_600_000),
    });
    const plan = planCommands({
      model: 'RTU5025',
      desired: [
        { slot: 1, number: '+79160000001', window: window(5) },
        { slot: 2, number: '+79160000002', window: window(1) },
        { slot: 3, number: '+79160000003' },
        { slot: 4, number: '+79160000004', window: window(1) },
      ],
      believed: { entries: [{ slot: 9, number: '+79160000009' }], clockSetAt: now },
      now,
    });
    expect(plan.map((command) => [command.kind, command.slot])).toEqual([
      ['delete', 9],
      ['add', 3],
      ['add_window', 2],
      ['add_window', 4],
      ['add_window', 1],
    ]);
  });

  it('sets the clock before window adds when it was never set, after deletes', () => {
    const believed = { entries: [{ slot: 9, number: '+79160000009' }], clockSetAt: null };
    const plan = planCommands({
      model: 'RTU5025',
      desired: desiredWhitelist('RTU5025', [temporary], now),
      believed,
      now,
    });
    expect(plan.map((command) => command.kind)).toEqual(['delete', 'set_clock', 'add_window']);
  });

  it('sets the clock again only when it is more than 30 days old, and never without windows', () => {
    const desired = desiredWhitelist('RTU5025', [temporary], now);
    const entries = desired;
    const kinds = (clockSetAt: Date | null) =>
      planCommands({ model: 'RTU5025', desired, believed: { entries, clockSetAt }, now }).map((c) => c.kind);
    expect(kinds(new Date(now.getTime() - 30 * DAY_MS))).toEqual([]);
    expect(kinds(new Date(now.getTime() - 31 * DAY_MS))).toEqual(['set_clock']);
    expect(kinds(null)).toEqual(['set_clock']);
    const permanentOnly = [{ slot: 1, number: '+79160000001' }];
    expect(
      planCommands({ model: 'RTU5025', desired: permanentOnly, believed: { entries: [] }, now }),
    ).toEqual([{ kind: 'add', slot: 1, number: '+79160000001' }]);
  });

  it('reuses the slot of an expired window with a single add', () => {
    const expired = {
      entries: [
        {
          slot: 3,
          number: '+79160000003',
          window: { start: moscow('2025-03-01T10:00'), end: moscow('2025-03-01T18:00') },
        },
      ],
      clockSetAt: now,
    };
    expect(planCommands({ model: 'RTU5025', desired: [], believed: expired, now })).toEqual([]);
    expect(
      planCommands({
        model: 'RTU5025',
        desired: [{ slot: 3, number: '+79161111111' }],
        believed: expired,
        now,
      }),
    ).toEqual([{ kind: 'add', slot: 3, number: '+79161111111' }]);
  });

  it('deletes a window that has not started yet when the phone is gone', () => {
    const believed = applyAll(
      clockFresh,
      planCommands({
        model: 'RTU5025',
        desired: desiredWhitelist('RTU5025', [temporary], now),
        believed: clockFresh,
        now,
      }),
      now,
    );
    expect(planCommands({ model: 'RTU5025', desired: [], believed, now })).toEqual([
      { kind: 'delete', slot: 3 },
    ]);
  });

  it('refuses what the model cannot hold', () => {
    expect(() =>
      planCommands({
        model: 'RTU5025',
        desired: [{ slot: 1000, number: '+79160000001' }],
        believed: { entries: [] },
        now,
      }),
    ).toThrow();
    const window = { start: now, end: new Date(now.getTime() + DAY_MS) };
    expect(() =>
      planCommands({
        model: 'Telemetrica',
        desired: [{ slot: 1, number: '+79160000001', window }],
        believed: { entries: [] },
        now,
      }),
    ).toThrow();
  });
});

describe('unconfirmed commands', () => {
  it('clear a slot whose add may have reached the device when the phone is gone meanwhile', () => {
    const add: PlannedCommand = { kind: 'add', slot: 4, number: '+79160000004' };
    const sent = markSent({ entries: [] }, add);
    expect(sent.unconfirmedSlots).toEqual([4]);
    expect(planCommands({ model: 'RTU5025', desired: [], believed: sent, now })).toEqual([
      { kind: 'delete', slot: 4 },
    ]);
    expect(planCommands({ model: 'Telemetrica', desired: [], believed: sent, now })).toEqual([
      { kind: 'delete', slot: 4, number: '+79160000004' },
    ]);
    expect(
      planCommands({
        model: 'Telemetrica',
        desired: [{ slot: 4, number: '+79160000004' }],
        believed: sent,
        now,
      }),
    ).toEqual([add]);
    expect(applyConfirmed(sent, add, now)).toEqual({
      entries: [{ slot: 4, number: '+79160000004' }],
      clockSetAt: null,
      unconfirmedSlots: [],
      uncertain: [],
    });
  });

  it('rewrite a slot whose delete went unanswered, even if the entry is still believed', () => {
    const entry = { slot: 2, number: '+79160000002' };
    const sent = markSent({ entries: [entry] }, { kind: 'delete', slot: 2 });
    expect(planCommands({ model: 'RTU5025', desired: [entry], believed: sent, now })).toEqual([
      { kind: 'add', ...entry },
    ]);
  });
});

describe('applyConfirmed', () => {
  it('records adds, overwrites, deletes and the clock', () => {
    let state: BelievedState = { entries: [] };
    state = applyConfirmed(state, { kind: 'add', slot: 2, number: '+79160000002' }, now);
    state = applyConfirmed(state, { kind: 'add', slot: 1, number: '+79160000001' }, now);
    state = applyConfirmed(state, { kind: 'add', slot: 2, number: '+79160000022' }, now);
    expect(state.entries).toEqual([
      { slot: 1, number: '+79160000001' },
      { slot: 2, number: '+79160000022' },
    ]);
    state = applyConfirmed(state, { kind: 'delete', slot: 1 }, now);
    state = applyConfirmed(state, { kind: 'set_clock' }, now);
    expect(state).toMatchObject({ entries: [{ slot: 2, number: '+79160000022' }], clockSetAt: now });
  });

  it('survives a round trip through JSON (the outbox)', () => {
    const command: PlannedCommand = {
      kind: 'add_window',
      slot: 3,
      number: '+79160000003',
      window: { start: moscow(`${MONDAY}T10:00`), end: moscow(`${MONDAY}T18:00`) },
    };
    expect(commandFromJson(JSON.parse(JSON.stringify(commandToJson(command))))).toEqual(command);
  });
});

describe('countWeeklySms', () => {
  const weekStart = moscow(`${MONDAY}T00:00`);
  // k = 9 intervals a week, one of them touching midnight.
  const schedule: WeeklySchedule = {
    monday: [
      { start_time: '08:00', end_time: '12:00' },
      { start_time: '14:00', end_time: '18:00' },
    ],
    tuesday: [{ start_time: '08:00', end_time: '12:00' }],
    wednesday: [{ start_time: '00:00', end_time: '01:00' }],
    thursday: [{ start_time: '09:30', end_time: '10:15' }],
    friday: [{ start_time: '18:00', end_time: '23:59' }],
    saturday: [
      { start_time: '10:00', end_time: '11:00' },
      { start_time: '11:00', end_time: '12:00' },
    ],
    sunday: [{ start_time: '20:00', end_time: '21:00' }],
  };
  const intervals = WEEKDAYS.reduce((sum, day) => sum + (schedule[day]?.length ?? 0), 0);
  const phone: PhoneSpec = { slot: 1, number: '+79160000001', kind: 'schedule', schedule };

  it('costs a schedule phone one SMS per run of touching occurrences on RTU5025, none at a start', () => {
    const week = countWeeklySms('RTU5025', [phone], weekStart);
    expect(intervals).toBe(9);
    expect(week.initial).toBe(2); // the clock and the first window
    // Saturday 10–11 and 11–12 touch: one window 10–12, written ahead like every other.
    expect(week.total).toBe(intervals - 1);
    expect(week.byKind.add_window).toBe(intervals - 1);
    expect(week.byKind.delete).toBe(0);
    expect(week.atAccessStart).toBe(0);
  });

  it('costs it an add and a delete per occurrence without windows, merging touching intervals', () => {
    const week = countWeeklySms('Telemetrica', [phone], weekStart);
    // Saturday 10–11 and 11–12 touch, so the number stays in from 10 to 12.
    expect(week.total).toBe(2 * (intervals - 1));
    expect(week.byKind.add).toBe(week.byKind.delete);
    // Without windows every opening is an add at its start.
    expect(week.atAccessStart).toBe(intervals - 1);
  });

  it('costs permanent phones nothing per week', () => {
    const week = countWeeklySms(
      'RTU5025',
      [{ slot: 1, number: '+79160000001', kind: 'permanent' }],
      weekStart,
    );
    expect(week).toMatchObject({ initial: 1, total: 0 });
  });
});
