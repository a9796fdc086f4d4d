/**
 * The unit decides its clock's digit order (issue 42 item 2). The two RTU clock forms disagree:
 * gate-opener.app writes `{pwd}T{yyMMddHHmm}#` ("Sync clock", reply "Set Time OK!",
 * gate-opener.app/hardware/rtu5024/commands), the field project idealfit/gsm-relay sends `T` + `ddMMyyHHmm`
 * (windows-ui/GSMRelayDesktop/ViewModels/MainViewModel.cs, SetupRelayAsync, reply "Set Time OK"). Both replies
 * are the same and most ddMMyy strings are valid yyMMdd dates, so no answer tells which order the unit read.
 * A call does: the run sets the clock and writes a window for the call number, both in the order tried, with
 * times chosen so that a unit reading that order lets the call in and a unit reading the other order does not.
 *
 * Why such times exist: a text written in one order and read in the other keeps its month and minutes, and the
 * pair that was the day is read as the year (28.11.2026 15:00 written yyMMdd is `2611281500`, read ddMMyy
 * 26.11.2028; written ddMMyy `2811261500`, read yyMMdd 2028-11-26). So the other reading orders texts by the
 * day they were written on first. The window ends at the first minute of a month: its day `01` is read as the
 * year 2001, long before the clock's reading — the window is closed (or refused: it ends before it starts),
 * while in the tried order it runs from now to the month's end. On the 1st of a month the window starts
 * instead on the previous month's last day (day 28–31, read as the years 2028–2031: after the clock's 2001)
 * and lasts three hours from now. `clockTrialWindow` checks both
 * readings (`trialOpens`) and gives null where they do not differ.
 */
import { formatClockTime, HOUR_MS, MINUTE_MS, parseClockWallTime } from './device-time.ts';
import type { ClockOrder } from './sheet-types.ts';

/** How long after the clock trial the call may come and still find the window open in the tried order. */
export const CALL_WITHIN_MS = 2 * HOUR_MS;

export const otherClockOrder = (order: ClockOrder): ClockOrder =>
  order === 'yyMMddHHmm' ? 'ddMMyyHHmm' : 'yyMMddHHmm';

/**
 * Whether a unit reading times in `readAs` lets the window's number in when its clock was set with `clock`
 * (texts as sent) `elapsedMs` before the call; null: it cannot read one of the texts (it refuses them).
 */
export function trialOpens(
  texts: { clock: string; start: string; end: string },
  readAs: ClockOrder,
  elapsedMs = 0,
): boolean | null {
  const clock = parseClockWallTime(texts.clock, readAs);
  const start = parseClockWallTime(texts.start, readAs);
  const end = parseClockWallTime(texts.end, readAs);
  if (clock === null || start === null || end === null) return null;
  const at = clock + elapsedMs;
  return start <= at && at < end;
}

/** The wall time (UTC fields hold the local time) → the instant. */
const instant = (wall: number, offsetMs: number) => new Date(wall - offsetMs);

/**
 * The trial window for a clock set at `clockAt` in `order`: open in that order, closed in the other for the
 * next `CALL_WITHIN_MS` (both checked). Null when no such window is found (a date whose other reading is
 * not a valid date: the order is then not tried).
 */
export function clockTrialWindow(
  clockAt: Date,
  utcOffsetMinutes: number,
  order: ClockOrder,
): { start: Date; end: Date } | null {
  const offsetMs = utcOffsetMinutes * MINUTE_MS;
  const minute = Math.floor(clockAt.getTime() / MINUTE_MS) * MINUTE_MS;
  const wall = new Date(minute + offsetMs);
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth();
  // Starts a few minutes back (the window step is sent after the clock step), ends on a 1st; on the 1st
  // itself, starts on the previous month's last day (day 0 of this month).
  const back = new Date(minute - 10 * MINUTE_MS);
  const candidates =
    wall.getUTCDate() >= 2
      ? [1, 2, 3].map((ahead) => ({ start: back, end: instant(Date.UTC(year, month + ahead, 1), offsetMs) }))
      : [
          {
            start: instant(Date.UTC(year, month, 0), offsetMs),
            end: new Date(minute + CALL_WITHIN_MS + HOUR_MS),
          },
        ];
  const other = otherClockOrder(order);
  const text = (date: Date) => formatClockTime(date, utcOffsetMinutes, order);
  return (
    candidates.find((window) => {
      const texts = { clock: text(new Date(minute)), start: text(window.start), end: text(window.end) };
      return [0, CALL_WITHIN_MS].every(
        (elapsed) =>
          trialOpens(texts, order, elapsed) === true && trialOpens(texts, other, elapsed) === false,
      );
    }) ?? null
  );
}
