/**
 * The phone forms' rules (spec.md section 5), as pure functions so the forms and their tests share them.
 * Each returns the message per field; an empty object means valid.
 */
import { COMMON_VALIDATION } from '@propusk/contracts/texts/common';
import { PHONE_VALIDATION, WEEKDAYS, type Weekday } from '@propusk/contracts/texts/phones';

export interface Interval {
  start_time: string;
  end_time: string;
}
export type WeeklySchedule = Record<Weekday, Interval[]>;

export const DEFAULT_INTERVAL: Interval = { start_time: '08:00', end_time: '12:00' };
export const SCHEDULE_EMPTY_MESSAGE = 'Добавьте хотя бы один интервал.';

export function emptySchedule(): WeeklySchedule {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, []])) as unknown as WeeklySchedule;
}

/** Monday to Friday: what 'Копировать на будни' fills. */
export const WORKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

/** The schedule with `source`'s intervals (copies) on each of `days`; the other days stay as they are. */
export function copyDayTo(
  schedule: WeeklySchedule,
  source: Weekday,
  days: readonly Weekday[],
): WeeklySchedule {
  const copy = { ...schedule };
  for (const day of days) copy[day] = schedule[source].map((interval) => ({ ...interval }));
  return copy;
}

/** Accepts the API's map (days may be missing) and fills every weekday. */
export function toWeeklySchedule(value: Partial<Record<Weekday, Interval[] | undefined>> | null | undefined) {
  const schedule = emptySchedule();
  for (const day of WEEKDAYS) schedule[day] = [...(value?.[day] ?? [])];
  return schedule;
}

export function isIntervalValid(interval: Interval): boolean {
  return Boolean(interval.start_time && interval.end_time) && interval.start_time < interval.end_time;
}

export function scheduleError(schedule: WeeklySchedule): string | null {
  const intervals = WEEKDAYS.flatMap((day) => schedule[day]);
  if (intervals.some((interval) => !isIntervalValid(interval))) return PHONE_VALIDATION.scheduleInvalid;
  if (intervals.length === 0) return SCHEDULE_EMPTY_MESSAGE;
  return null;
}

/** Temporary phone window: both required, start before end (datetime-local values compare as text). */
export function windowError(start: string, end: string): string | null {
  if (!start || !end) return PHONE_VALIDATION.temporaryRequired;
  if (start >= end) return PHONE_VALIDATION.temporaryOrder;
  return null;
}

export type PhoneType = 'permanent' | 'temporary' | 'schedule';

export interface AddPhoneValues {
  name: string;
  phone: string;
  type: PhoneType;
  start_time: string;
  end_time: string;
  schedule: WeeklySchedule;
}

export type AddPhoneErrors = Partial<Record<'name' | 'phone' | 'window' | 'schedule', string>>;

export function validateAddPhone(values: AddPhoneValues): AddPhoneErrors {
  const errors: AddPhoneErrors = {};
  const hasPhone = values.phone !== '' && values.phone !== '+7';
  if (!values.name.trim()) errors.name = PHONE_VALIDATION.phoneNameAndNumberRequired;
  if (!hasPhone) errors.phone = PHONE_VALIDATION.phoneNameAndNumberRequired;
  else if (!/^\+7\d{10}$/.test(values.phone)) errors.phone = PHONE_VALIDATION.phoneFormat;
  if (values.type === 'temporary') {
    const message = windowError(values.start_time, values.end_time);
    if (message) errors.window = message;
  }
  if (values.type === 'schedule') {
    const message = scheduleError(values.schedule);
    if (message) errors.schedule = message;
  }
  return errors;
}

export interface EditPhoneValues {
  name: string;
  start_time: string;
  end_time: string;
  schedule: WeeklySchedule;
}

export type EditPhoneErrors = Partial<Record<'name' | 'window' | 'schedule', string>>;

export function validateEditPhone(type: string, values: EditPhoneValues): EditPhoneErrors {
  const errors: EditPhoneErrors = {};
  if (!values.name.trim()) errors.name = COMMON_VALIDATION.nameRequired;
  if (type === 'temporary') {
    const message = windowError(values.start_time, values.end_time);
    if (message) errors.window = message;
  }
  if (type === 'schedule') {
    const message = scheduleError(values.schedule);
    if (message) errors.schedule = message;
  }
  return errors;
}

/** The weekly map as the API takes it: days without intervals left out. */
export function scheduleForApi(schedule: WeeklySchedule): Partial<WeeklySchedule> {
  return Object.fromEntries(
    WEEKDAYS.filter((day) => schedule[day].length > 0).map((day) => [day, schedule[day]]),
  );
}
