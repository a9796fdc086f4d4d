/** Device clocks and windows are wall-clock time of the barrier's place, minute precision (`YYMMDDHHmm`). */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Moscow, the default place of a barrier. */
export const DEFAULT_UTC_OFFSET_MINUTES = 180;

export function floorToMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / MINUTE_MS) * MINUTE_MS);
}

const two = (value: number) => String(value).padStart(2, '0');

/** The instant as the device's wall clock writes it, e.g. 2025-03-01 08:00 Moscow → '2503010800'. */
export function formatDeviceTime(date: Date, utcOffsetMinutes: number): string {
  const wall = new Date(date.getTime() + utcOffsetMinutes * MINUTE_MS);
  return (
    two(wall.getUTCFullYear() % 100) +
    two(wall.getUTCMonth() + 1) +
    two(wall.getUTCDate()) +
    two(wall.getUTCHours()) +
    two(wall.getUTCMinutes())
  );
}

/** The wall-clock milliseconds (UTC fields hold the local time) of a `YYMMDDHHmm` text, or null. */
export function parseWallTime(text: string): number | null {
  const match = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(2000 + year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59)
    return null;
  return wall;
}

/** The instant a `YYMMDDHHmm` text means at the given offset, or null when it is not a valid time. */
export function parseDeviceTime(text: string, utcOffsetMinutes: number): Date | null {
  const wall = parseWallTime(text);
  return wall === null ? null : new Date(wall - utcOffsetMinutes * MINUTE_MS);
}

/** `YYMMDDHHmm` ↔ `DDMMYYHHmm`: the two digit orders of the RTU clock command differ only in year and day. */
function swapYearAndDay(text: string): string {
  return text.slice(4, 6) + text.slice(2, 4) + text.slice(0, 2) + text.slice(6);
}

/** The clock command's `{time}` in the given digit order (`yyMMddHHmm` or `ddMMyyHHmm`). */
export function formatClockTime(
  date: Date,
  utcOffsetMinutes: number,
  order: 'yyMMddHHmm' | 'ddMMyyHHmm',
): string {
  const text = formatDeviceTime(date, utcOffsetMinutes);
  return order === 'yyMMddHHmm' ? text : swapYearAndDay(text);
}

/** The wall-clock milliseconds of a clock command's `{time}` written in the given order, or null. */
export function parseClockWallTime(text: string, order: 'yyMMddHHmm' | 'ddMMyyHHmm'): number | null {
  if (!/^\d{10}$/.test(text)) return null;
  return parseWallTime(order === 'yyMMddHHmm' ? text : swapYearAndDay(text));
}
