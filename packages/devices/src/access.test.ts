import { describe, expect, it } from 'vitest';
import { desiredWhitelist, nextChangeAt, openNumbersAt, type PhoneSpec } from './access.ts';

const moscow = (wall: string) => new Date(`${wall}+03:00`);
// 2025-03-03 is a Monday.
const MONDAY = '2025-03-03';

const permanent: PhoneSpec = { slot: 1, number: '+79160000001', kind: 'permanent' };
const primary: PhoneSpec = { slot: 2, number: '+79160000002', kind: 'primary' };
const temporary: PhoneSpec = {
  slot: 3,
  number: '+79160000003',
  kind: 'temporary',
  start: moscow(`${MONDAY}T10:00:30`),
  end: moscow(`${MONDAY}T18:00:45`),
};
const mondayMornings: PhoneSpec = {
  slot: 4,
  number: '+79160000004',
  kind: 'schedule',
  schedule: { monday: [{ start_time: '08:00', end_time: '12:00' }] },
};
const aroundMidnight: PhoneSpec = {
  slot: 5,
  number: '+79160000005',
  kind: 'schedule',
  schedule: {
    sunday: [{ start_time: '22:00', end_time: '24:00' }],
    monday: [{ start_time: '00:00', end_time: '02:00' }],
  },
};

describe('desiredWhitelist on a model with time windows (RTU5025)', () => {
  it('always holds primary and permanent phones, without a window', () => {
    expect(desiredWhitelist('RTU5025', [primary, permanent], moscow(`${MONDAY}T03:00`))).toEqual([
      { slot: 1, number: '+79160000001' },
      { slot: 2, number: '+79160000002' },
    ]);
  });

  it('holds a temporary phone with its window (to the minute) from now until its end, then drops it', () => {
    const window = { start: moscow(`${MONDAY}T10:00`), end: moscow(`${MONDAY}T18:00`) };
    expect(desiredWhitelist('RTU5025', [temporary], moscow(`${MONDAY}T06:00`))).toEqual([
      { slot: 3, number: '+79160000003', window },
    ]);
    expect(desiredWhitelist('RTU5025', [temporary], moscow(`${MONDAY}T17:59`))).toEqual([
      { slot: 3, number: '+79160000003', window },
    ]);
    expect(desiredWhitelist('RTU5025', [temporary], moscow(`${MONDAY}T18:00`))).toEqual([]);
  });

  it('holds a schedule phone with its current or next occurrence', () => {
    const thisMonday = { start: moscow(`${MONDAY}T08:00`), end: moscow(`${MONDAY}T12:00`) };
    const nextMonday = { start: moscow('2025-03-10T08:00'), end: moscow('2025-03-10T12:00') };
    const at = (wall: string) => desiredWhitelist('RTU5025', [mondayMornings], moscow(wall))[0]?.window;
    expect(at(`${MONDAY}T07:00`)).toEqual(thisMonday);
    expect(at(`${MONDAY}T11:59`)).toEqual(thisMonday);
    expect(at(`${MONDAY}T12:00`)).toEqual(nextMonday);
    expect(at('2025-03-06T15:00')).toEqual(nextMonday);
  });

  it('reads schedules in the local time of the barrier, writing touching occurrences as one window', () => {
    // Sunday 22:00–24:00 and Monday 00:00–02:00 touch at midnight: one window, so nothing is sent at 00:00.
    const night = { start: moscow('2025-03-02T22:00'), end: moscow(`${MONDAY}T02:00`) };
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow('2025-03-02T12:00'))[0]?.window).toEqual(
      night,
    );
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow('2025-03-02T23:30'))[0]?.window).toEqual(
      night,
    );
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow(`${MONDAY}T00:00`))[0]?.window).toEqual(
      night,
    );
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow(`${MONDAY}T01:59`))[0]?.window).toEqual(
      night,
    );
    // From its end the next Sunday night is written ahead.
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow(`${MONDAY}T02:00`))[0]?.window).toEqual({
      start: moscow('2025-03-09T22:00'),
      end: moscow('2025-03-10T02:00'),
    });
    // Sunday 23:30 in Moscow is still Sunday in UTC; Monday 01:00 in Moscow is Sunday 22:00 UTC.
    const utc = desiredWhitelist('RTU5025', [aroundMidnight], new Date('2025-03-02T23:30:00Z'), 0);
    expect(utc[0]?.window).toEqual({
      start: new Date('2025-03-02T22:00:00Z'),
      end: new Date('2025-03-03T02:00:00Z'),
    });
  });

  it('never widens access: the window is exactly the union of touching or overlapping occurrences', () => {
    const phone: PhoneSpec = {
      slot: 7,
      number: '+79160000007',
      kind: 'schedule',
      schedule: {
        tuesday: [
          { start_time: '08:00', end_time: '10:00' },
          { start_time: '09:00', end_time: '11:00' },
          { start_time: '11:01', end_time: '12:00' },
        ],
      },
    };
    const at = (wall: string) => desiredWhitelist('RTU5025', [phone], moscow(wall))[0]?.window;
    // 08–10 and 09–11 overlap: 08–11. A minute's gap before 11:01 keeps that occurrence its own window.
    expect(at(`${MONDAY}T12:00`)).toEqual({
      start: moscow('2025-03-04T08:00'),
      end: moscow('2025-03-04T11:00'),
    });
    expect(at('2025-03-04T10:59')).toEqual({
      start: moscow('2025-03-04T08:00'),
      end: moscow('2025-03-04T11:00'),
    });
    expect(at('2025-03-04T11:00')).toEqual({
      start: moscow('2025-03-04T11:01'),
      end: moscow('2025-03-04T12:00'),
    });
  });

  it('holds a schedule that leaves no gap in the week without a window (always in)', () => {
    const allDay = [{ start_time: '00:00', end_time: '24:00' }];
    const phone: PhoneSpec = {
      slot: 8,
      number: '+79160000008',
      kind: 'schedule',
      schedule: {
        monday: allDay,
        tuesday: allDay,
        wednesday: allDay,
        thursday: allDay,
        friday: allDay,
        saturday: allDay,
        sunday: allDay,
      },
    };
    expect(desiredWhitelist('RTU5025', [phone], moscow('2025-03-05T13:00'))).toEqual([
      { slot: 8, number: '+79160000008' },
    ]);
    expect(nextChangeAt('RTU5025', [phone], moscow('2025-03-05T13:00'))).toBeNull();
  });

  it('leaves out a schedule phone without intervals and a temporary phone already over', () => {
    const empty: PhoneSpec = { slot: 6, number: '+79160000006', kind: 'schedule', schedule: {} };
    expect(desiredWhitelist('RTU5025', [empty, temporary], moscow('2025-03-04T00:00'))).toEqual([]);
  });

  it('refuses two phones in one slot', () => {
    expect(() => desiredWhitelist('RTU5025', [permanent, { ...primary, slot: 1 }], new Date())).toThrow();
  });
});

describe('desiredWhitelist on a model without windows (Telemetrica)', () => {
  it('holds a temporary phone only inside its interval', () => {
    expect(desiredWhitelist('Telemetrica', [temporary], moscow(`${MONDAY}T09:59`))).toEqual([]);
    expect(desiredWhitelist('Telemetrica', [temporary], moscow(`${MONDAY}T10:00`))).toEqual([
      { slot: 3, number: '+79160000003' },
    ]);
    expect(desiredWhitelist('Telemetrica', [temporary], moscow(`${MONDAY}T18:00`))).toEqual([]);
  });

  it('holds a schedule phone only inside an occurrence, midnight included', () => {
    const at = (wall: string) =>
      desiredWhitelist('Telemetrica', [aroundMidnight, mondayMornings], moscow(wall));
    expect(at('2025-03-02T21:59')).toEqual([]);
    expect(at('2025-03-02T23:59')).toEqual([{ slot: 5, number: '+79160000005' }]);
    expect(at(`${MONDAY}T00:00`)).toEqual([{ slot: 5, number: '+79160000005' }]);
    expect(at(`${MONDAY}T02:00`)).toEqual([]);
    expect(at(`${MONDAY}T08:00`)).toEqual([{ slot: 4, number: '+79160000004' }]);
  });
});

describe('nextChangeAt', () => {
  it('is null when nothing changes by itself', () => {
    expect(nextChangeAt('RTU5025', [primary, permanent], new Date())).toBeNull();
    expect(nextChangeAt('Telemetrica', [temporary], moscow('2025-03-05T00:00'))).toBeNull();
  });

  it('on window models is the end of the window in force (one SMS per run of occurrences)', () => {
    expect(nextChangeAt('RTU5025', [temporary], moscow(`${MONDAY}T06:00`))).toEqual(
      moscow(`${MONDAY}T18:00`),
    );
    expect(nextChangeAt('RTU5025', [mondayMornings], moscow(`${MONDAY}T06:00`))).toEqual(
      moscow(`${MONDAY}T12:00`),
    );
    expect(nextChangeAt('RTU5025', [mondayMornings], moscow(`${MONDAY}T12:00`))).toEqual(
      moscow('2025-03-10T12:00'),
    );
    // Touching occurrences are one window: nothing changes at midnight.
    expect(nextChangeAt('RTU5025', [aroundMidnight], moscow('2025-03-02T23:00'))).toEqual(
      moscow(`${MONDAY}T02:00`),
    );
  });

  it('on models without windows is each start and end, skipping a midnight that changes nothing', () => {
    expect(nextChangeAt('Telemetrica', [temporary], moscow(`${MONDAY}T06:00`))).toEqual(
      moscow(`${MONDAY}T10:00`),
    );
    expect(nextChangeAt('Telemetrica', [temporary], moscow(`${MONDAY}T10:00`))).toEqual(
      moscow(`${MONDAY}T18:00`),
    );
    expect(nextChangeAt('Telemetrica', [aroundMidnight], moscow('2025-03-02T21:00'))).toEqual(
      moscow('2025-03-02T22:00'),
    );
    expect(nextChangeAt('Telemetrica', [aroundMidnight], moscow('2025-03-02T23:00'))).toEqual(
      moscow(`${MONDAY}T02:00`),
    );
  });

  it('is the earliest change among several phones', () => {
    expect(
      nextChangeAt('Telemetrica', [mondayMornings, temporary, permanent], moscow(`${MONDAY}T09:00`)),
    ).toEqual(moscow(`${MONDAY}T10:00`));
  });
});

describe('openNumbersAt', () => {
  it('lets a windowed entry in only inside its window', () => {
    const entries = desiredWhitelist('RTU5025', [temporary, permanent], moscow(`${MONDAY}T06:00`));
    expect([...openNumbersAt(entries, moscow(`${MONDAY}T09:59`)).keys()]).toEqual([1]);
    expect([...openNumbersAt(entries, moscow(`${MONDAY}T10:00`)).keys()]).toEqual([1, 3]);
  });
});
