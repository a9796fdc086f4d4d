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
