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

  it('reads schedules in the local time of the barrier, across midnight', () => {
    // Sunday 23:30 in Moscow is still Sunday in UTC; Monday 01:00 in Moscow is Sunday 22:00 UTC.
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow('2025-03-02T23:30'))[0]?.window).toEqual({
      start: moscow('2025-03-02T22:00'),
      end: moscow(`${MONDAY}T00:00`),
    });
    expect(desiredWhitelist('RTU5025', [aroundMidnight], moscow(`${MONDAY}T00:00`))[0]?.window).toEqual({
      start: moscow(`${MONDAY}T00:00`),
      end: moscow(`${MONDAY}T02:00`),
    });
    const utc = desiredWhitelist('RTU5025', [aroundMidnight], new Date('2025-03-02T23:30:00Z'), 0);
    expect(utc[0]?.window?.start).toEqual(new Date('2025-03-02T22:00:00Z'));
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

  it('on window models is the end of the window in force (one SMS per occurrence)', () => {
    expect(nextChangeAt('RTU5025', [temporary], moscow(`${MONDAY}T06:00`))).toEqual(
      moscow(`${MONDAY}T18:00`),
    );
    expect(nextChangeAt('RTU5025', [mondayMornings], moscow(`${MONDAY}T06:00`))).toEqual(
      moscow(`${MONDAY}T12:00`),
    );
    expect(nextChangeAt('RTU5025', [mondayMornings], moscow(`${MONDAY}T12:00`))).toEqual(
      moscow('2025-03-10T12:00'),
    );
    expect(nextChangeAt('RTU5025', [aroundMidnight], moscow('2025-03-02T23:00'))).toEqual(
      moscow(`${MONDAY}T00:00`),
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
