import { describe, expect, it } from 'vitest';
import { CALL_WITHIN_MS, clockTrialWindow, otherClockOrder, trialOpens } from './conformance-clock.ts';
import { formatClockTime } from './device-time.ts';
import type { ClockOrder } from './sheet-types.ts';

const ORDERS: ClockOrder[] = ['yyMMddHHmm', 'ddMMyyHHmm'];
const OFFSET = 180;

describe('the clock trial window (issue 42 item 2)', () => {
  it('every five hours or so of 2026–2028 is open in the order tried and closed in the other', () => {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2029, 0, 1);
    let tried = 0;
    for (let time = from; time < to; time += 5 * 60 * 60_000 + 17 * 60_000) {
      const clockAt = new Date(time);
      for (const order of ORDERS) {
        const window = clockTrialWindow(clockAt, OFFSET, order);
        expect(window, `${clockAt.toISOString()} ${order}`).not.toBeNull();
        if (!window) continue;
        const texts = {
          clock: formatClockTime(clockAt, OFFSET, order),
          start: formatClockTime(window.start, OFFSET, order),
          end: formatClockTime(window.end, OFFSET, order),
        };
        for (const elapsed of [0, 5 * 60_000, CALL_WITHIN_MS]) {
          expect(trialOpens(texts, order, elapsed)).toBe(true);
          expect(trialOpens(texts, otherClockOrder(order), elapsed)).not.toBe(true);
        }
        tried += 1;
      }
    }
    expect(tried).toBeGreaterThan(9_000);
  }, 30_000);

  it('28.11.2026 15:00 Moscow in yyMMdd: the window ends on 1 December, read the other way in 2001', () => {
    const window = clockTrialWindow(new Date('2026-11-28T12:00:00Z'), OFFSET, 'yyMMddHHmm');
    expect(window && formatClockTime(window.end, OFFSET, 'yyMMddHHmm')).toBe('2612010000');
    // Read as ddMMyy: 26.12.2001, before the clock's 26.11.2028.
    expect(trialOpens({ clock: '2611281500', start: '2611281450', end: '2612010000' }, 'ddMMyyHHmm')).toBe(
      false,
    );
  });
});
