import { describe, expect, it } from 'vitest';
import { scheduleStateAt, scheduleStateText } from './schedule-state';

const weekdays = {
  monday: [
    { start_time: '08:00', end_time: '12:00' },
    { start_time: '18:00', end_time: '20:00' },
  ],
};

describe('scheduleStateAt', () => {
  // 2026-11-30 is a Monday, 2026-12-01 a Tuesday (local time).
  it('says the number opens now, until the interval ends', () => {
    const state = scheduleStateAt(weekdays, new Date(2026, 10, 30, 9, 30));
    expect(scheduleStateText(state)).toBe('Сейчас открывает, до 12:00');
  });

  it('says when it opens later today', () => {
    const state = scheduleStateAt(weekdays, new Date(2026, 10, 30, 13, 0));
    expect(scheduleStateText(state)).toBe('Сейчас не открывает, сегодня с 18:00');
  });

  it('says a day without intervals does not open (not «Активен»)', () => {
    expect(scheduleStateText(scheduleStateAt(weekdays, new Date(2026, 11, 1, 9, 30)))).toBe(
      'Сегодня не открывает',
    );
    expect(scheduleStateText(scheduleStateAt(weekdays, new Date(2026, 10, 30, 20, 0)))).toBe(
      'Сегодня не открывает',
    );
  });
});
