import { describe, expect, it } from 'vitest';
import { dayjs, quickWindow } from './dates';

/** The `datetime-local` value the form holds for an instant (the browser's own time zone). */
const local = (iso: string) => dayjs(iso).format('YYYY-MM-DDTHH:mm');

describe('quickWindow', () => {
  const now = new Date('2026-11-23T09:15:42Z'); // 12:15 in Moscow

  it('starts now, to the minute, and lasts one hour, three hours or a day', () => {
    expect(quickWindow('hour', now)).toEqual({
      start_time: local('2026-11-23T09:15:00Z'),
      end_time: local('2026-11-23T10:15:00Z'),
    });
    expect(quickWindow('three_hours', now)?.end_time).toBe(local('2026-11-23T12:15:00Z'));
    expect(quickWindow('day', now)?.end_time).toBe(local('2026-11-24T09:15:00Z'));
  });

  it("ends 'today' at 23:59 of the barrier's day, Moscow by default", () => {
    expect(quickWindow('today', now)?.end_time).toBe(local('2026-11-23T20:59:00Z'));
    // 00:30 in Moscow is already the next day there, though not in UTC.
    expect(quickWindow('today', new Date('2026-11-23T21:30:00Z'))?.end_time).toBe(
      local('2026-11-24T20:59:00Z'),
    );
    // Another offset: UTC+5.
    expect(quickWindow('today', now, 300)?.end_time).toBe(local('2026-11-23T18:59:00Z'));
    // At 23:59 there is nothing left of the day.
    expect(quickWindow('today', new Date('2026-11-23T20:59:10Z'))).toBeNull();
  });
});
