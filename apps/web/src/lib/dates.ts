import dayjs from 'dayjs';
import 'dayjs/locale/ru';

dayjs.locale('ru');

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '-';
  const date = dayjs(value);
  return date.isValid() ? date.format('D MMMM YYYY, HH:mm') : value;
}

/** ISO instant → the value a `datetime-local` input shows (local time, minutes). */
export function toDateTimeLocal(value: string | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('YYYY-MM-DDTHH:mm') : '';
}

/** A `datetime-local` value (local time) → ISO instant for the API; '' stays ''. */
export function fromDateTimeLocal(value: string): string {
  if (!value) return '';
  const date = dayjs(value);
  // With the browser's offset, so the server need not guess the time zone.
  return date.isValid() ? date.format('YYYY-MM-DDTHH:mm:ssZ') : '';
}

export { dayjs };

/**
 * The barriers' offset from UTC in minutes. The server reads times without an offset in one offset per
 * deployment (`DEVICE_TIMEZONE_OFFSET_MINUTES`, Moscow by default); the client does not receive it, so it
 * uses the same default.
 */
export const BARRIER_UTC_OFFSET_MINUTES = 180;

export const QUICK_WINDOWS = ['hour', 'three_hours', 'today', 'day'] as const;
export type QuickWindow = (typeof QUICK_WINDOWS)[number];

export const QUICK_WINDOW_LABELS: Readonly<Record<QuickWindow, string>> = {
  hour: '1 час',
  three_hours: '3 часа',
  today: 'Сегодня до 23:59',
  day: 'Сутки',
};

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * A temporary phone's window that starts now (to the minute): for one hour, three hours, a day, or until
 * 23:59 of the barrier's today (its offset, Moscow by default). Returned as `datetime-local` values, like the
 * inputs hold them; null when the barrier's day is over (it is already 23:59 there).
 */
export function quickWindow(
  kind: QuickWindow,
  now: Date,
  offsetMinutes: number = BARRIER_UTC_OFFSET_MINUTES,
): { start_time: string; end_time: string } | null {
  const start = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  let end: number;
  if (kind === 'today') {
    // The barrier's wall clock as a UTC date: its calendar day, then 23:59 of that day back to an instant.
    const local = new Date(start + offsetMinutes * MINUTE_MS);
    end =
      Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), 23, 59) -
      offsetMinutes * MINUTE_MS;
  } else {
    end = start + { hour: 1, three_hours: 3, day: 24 }[kind] * HOUR_MS;
  }
  if (end <= start) return null;
  return {
    start_time: dayjs(start).format('YYYY-MM-DDTHH:mm'),
    end_time: dayjs(end).format('YYYY-MM-DDTHH:mm'),
  };
}
