import { describe, expect, it } from 'vitest';
import type { PhoneSpec, WeeklySchedule } from './access.ts';
import { DAY_MS, MINUTE_MS } from './device-time.ts';
import { CLOCK_MAX_AGE_MS } from './planner.ts';
import {
  countSmsBetween,
  FORECAST_HORIZON_MS,
  forecastClockSms,
  forecastCommittedSms,
  forecastPhoneSms,
} from './weekly-sms.ts';

const moscow = (wall: string) => new Date(`${wall}+03:00`);
const now = moscow('2025-03-03T06:00'); // a Monday

/** 24 one-minute windows a day, every day: the attack of issue 17. */
const everyHour = (): WeeklySchedule => {
  const day = Array.from({ length: 24 }, (_, hour) => ({
    start_time: `${String(hour).padStart(2, '0')}:00`,
    end_time: `${String(hour).padStart(2, '0')}:01`,
  }));
  return {
    monday: day,
    tuesday: day,
    wednesday: day,
    thursday: day,
    friday: day,
    saturday: day,
    sunday: day,
  };
};
const attack: PhoneSpec = { slot: 7, number: '+79160000007', kind: 'schedule', schedule: everyHour() };
const modest: PhoneSpec = {
  slot: 8,
  number: '+79160000008',
  kind: 'schedule',
  schedule: { tuesday: [{ start_time: '08:00', end_time: '12:00' }] },
};

describe('forecastPhoneSms', () => {
  it('costs 24 one-minute windows a day one SMS each on RTU5025: 168 in the coming week', () => {
    expect(forecastPhoneSms('RTU5025', attack, now)).toBe(168);
  });

  it('costs them an add and a delete each on a model without windows: 336', () => {
    expect(forecastPhoneSms('Telemetrica', attack, now)).toBe(336);
  });

  it('costs one weekly interval one SMS a week (the next occurrence) with windows, two without', () => {
    // Written now (the change's own SMS) for Tuesday; Tuesday's end writes the next Tuesday's window.
    expect(forecastPhoneSms('RTU5025', modest, now)).toBe(1);
    expect(forecastPhoneSms('Telemetrica', modest, now)).toBe(2);
  });

  it('costs a temporary phone nothing more with windows, and its add and delete without, however far', () => {
    const far: PhoneSpec = {
      slot: 9,
      number: '+79160000009',
      kind: 'temporary',
      start: new Date(now.getTime() + 20 * DAY_MS),
      end: new Date(now.getTime() + 21 * DAY_MS),
    };
    expect(forecastPhoneSms('RTU5025', far, now)).toBe(0);
    expect(forecastPhoneSms('Telemetrica', far, now)).toBe(2);
    const started = { ...far, start: new Date(now.getTime() - DAY_MS) };
    // Already in (the change's own add), only its delete is ahead.
    expect(forecastPhoneSms('Telemetrica', started, now)).toBe(1);
    const ended = {
      ...far,
      start: new Date(now.getTime() - 2 * DAY_MS),
      end: new Date(now.getTime() - DAY_MS),
    };
    expect(forecastPhoneSms('Telemetrica', ended, now)).toBe(0);
  });

  it('costs permanent and primary phones nothing', () => {
    expect(forecastPhoneSms('RTU5025', { slot: 1, number: '+79160000001', kind: 'permanent' }, now)).toBe(0);
    expect(forecastPhoneSms('Telemetrica', { slot: 1, number: '+79160000001', kind: 'primary' }, now)).toBe(
      0,
    );
  });

  it('adds up, phone by phone, to what the reconciler sends for all of them together', () => {
    const phones: PhoneSpec[] = [
      attack,
      modest,
      { slot: 3, number: '+79160000003', kind: 'permanent' },
      {
        slot: 4,
        number: '+79160000004',
        kind: 'temporary',
        start: new Date(now.getTime() + 2 * DAY_MS),
        end: new Date(now.getTime() + 3 * DAY_MS),
      },
      {
        slot: 5,
        number: '+79160000005',
        kind: 'schedule',
        schedule: {
          monday: [
            { start_time: '22:00', end_time: '24:00' },
            { start_time: '09:00', end_time: '09:30' },
          ],
          tuesday: [{ start_time: '00:00', end_time: '02:00' }],
        },
      },
    ];
    for (const model of ['RTU5025', 'Telemetrica'] as const) {
      const together = countSmsBetween(
        model,
        phones,
        now,
        new Date(now.getTime() + FORECAST_HORIZON_MS),
        180,
        {
          entries: [],
          clockSetAt: now,
        },
      );
      const forecast = forecastCommittedSms(model, phones, now, now);
      expect(forecast.phones).toBe(together.total);
      expect(forecast.clock).toBe(0);
    }
  });
});

describe('forecastClockSms', () => {
  it('counts the clock once when it falls due in the coming week while windows are needed', () => {
    const due = new Date(now.getTime() - CLOCK_MAX_AGE_MS + 3 * DAY_MS);
    expect(forecastClockSms('RTU5025', [attack], now, due)).toBe(1);
    expect(forecastClockSms('RTU5025', [attack], now, now)).toBe(0);
    expect(forecastClockSms('Telemetrica', [attack], now, null)).toBe(0);
    expect(
      forecastClockSms('RTU5025', [{ slot: 1, number: '+79160000001', kind: 'permanent' }], now, null),
    ).toBe(0);
    const shortTemporary: PhoneSpec = {
      slot: 2,
      number: '+79160000002',
      kind: 'temporary',
      start: now,
      end: new Date(now.getTime() + 60 * MINUTE_MS),
    };
    // The window ends before the clock is due: no clock setting.
    expect(forecastClockSms('RTU5025', [shortTemporary], now, due)).toBe(0);
  });
});
