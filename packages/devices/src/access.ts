import { DAY_MS, DEFAULT_UTC_OFFSET_MINUTES, floorToMinute, MINUTE_MS } from './device-time.ts';
import { type DeviceModel, getSheet } from './models.ts';

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ScheduleInterval {
  /** 'HH:MM' local time of the barrier. */
  start_time: string;
  /** 'HH:MM', later than start_time on the same day ('24:00' means the end of the day). */
  end_time: string;
}

export type WeeklySchedule = Partial<Record<Weekday, ScheduleInterval[]>>;

export type PhoneKind = 'primary' | 'permanent' | 'temporary' | 'schedule';

/** One active phone of a barrier, as the database holds it. */
export interface PhoneSpec {
  slot: number;
  /** '+7XXXXXXXXXX' */
  number: string;
  kind: PhoneKind;
  /** temporary: the access interval. */
  start?: Date | null;
  end?: Date | null;
  /** schedule: weekly intervals in the barrier's local time. Treated as immutable (parsed once, cached). */
  schedule?: WeeklySchedule | null;
}

export interface TimeWindow {
  start: Date;
  end: Date;
}

/** What one device slot should hold. */
export interface WhitelistEntry {
  slot: number;
  /** '+7XXXXXXXXXX' */
  number: string;
  /** Only on models with time windows: the device lets the number in only inside it. */
  window?: TimeWindow;
}

/** JavaScript's getUTCDay (0 = Sunday) → weekday name. */
const weekdayByUtcDay: Weekday[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

function parseClockTime(text: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[2]) < 60 && minutes <= 24 * 60 ? minutes : null;
}

type ParsedSchedule = Map<Weekday, [number, number][]>;
const parsedSchedules = new WeakMap<WeeklySchedule, ParsedSchedule>();

/** The valid intervals of each weekday in minutes from midnight (cached: the same object is read often). */
function parseSchedule(schedule: WeeklySchedule): ParsedSchedule {
  const cached = parsedSchedules.get(schedule);
  if (cached) return cached;
  const parsed: ParsedSchedule = new Map();
  for (const weekday of WEEKDAYS) {
    const intervals: [number, number][] = [];
    for (const interval of schedule[weekday] ?? []) {
      const start = parseClockTime(interval.start_time);
      const end = parseClockTime(interval.end_time);
      if (start !== null && end !== null && start < end) intervals.push([start, end]);
    }
    parsed.set(
      weekday,
      intervals.sort((a, b) => a[0] - b[0]),
    );
  }
  parsedSchedules.set(schedule, parsed);
  return parsed;
}

/**
 * Occurrences of a weekly schedule around `now` (from the day before to eight days after), as instants,
 * sorted by start. Malformed or empty intervals are skipped.
 */
export function scheduleOccurrences(
  schedule: WeeklySchedule,
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): TimeWindow[] {
  const offsetMs = utcOffsetMinutes * MINUTE_MS;
  const todayWallStart = Math.floor((now.getTime() + offsetMs) / DAY_MS) * DAY_MS;
  const parsed = parseSchedule(schedule);
  const occurrences: TimeWindow[] = [];
  for (let day = -1; day <= 8; day += 1) {
    const dayWallStart = todayWallStart + day * DAY_MS;
    // 1970-01-01 was a Thursday (getUTCDay 4).
    const weekday = weekdayByUtcDay[(((dayWallStart / DAY_MS + 4) % 7) + 7) % 7]!;
    for (const [start, end] of parsed.get(weekday) ?? []) {
      occurrences.push({
        start: new Date(dayWallStart + start * MINUTE_MS - offsetMs),
        end: new Date(dayWallStart + end * MINUTE_MS - offsetMs),
      });
    }
  }
  // Days are visited in order and each day's intervals are sorted: the list is already sorted by start.
  return occurrences;
}

/** The occurrence in force at `now` or, between occurrences, the next one; null when there is none. */
export function currentOrNextOccurrence(
  schedule: WeeklySchedule,
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): TimeWindow | null {
  const parsed = parseSchedule(schedule);
  const offsetMs = utcOffsetMinutes * MINUTE_MS;
  const nowMs = now.getTime();
  const todayWallStart = Math.floor((nowMs + offsetMs) / DAY_MS) * DAY_MS;
  for (let day = 0; day <= 7; day += 1) {
    const dayWallStart = todayWallStart + day * DAY_MS;
    const weekday = weekdayByUtcDay[(((dayWallStart / DAY_MS + 4) % 7) + 7) % 7]!;
    for (const [start, end] of parsed.get(weekday) ?? []) {
      const endMs = dayWallStart + end * MINUTE_MS - offsetMs;
      if (endMs > nowMs)
        return { start: new Date(dayWallStart + start * MINUTE_MS - offsetMs), end: new Date(endMs) };
    }
  }
  return null;
}

/** Days of occurrences looked at around `now` for the run of touching occurrences that holds or follows it. */
const RUN_DAYS_BEFORE = 8;
const RUN_DAYS_AFTER = 15;

/**
 * The access window a model with time windows is written for a schedule phone at `now`: the run of
 * touching or overlapping occurrences in force at `now` or, between runs, the next one — written ahead, as
 * soon as the previous run ends (one slot holds one window). A run is exactly the union of the schedule's
 * occurrences, never wider, and a window that ends where the next occurrence begins (22:00–24:00 then
 * 00:00–02:00) is written as one window, so that no SMS is needed at the minute an occurrence starts.
 * Null: the schedule has no occurrence; 'always': the occurrences leave no gap in the week.
 *
 * A schedule with a gap has one in every seven days, so the run that holds `now` began less than seven days
 * ago, and the next one begins within seven days and lasts less than seven: 8 days back and 15 ahead hold
 * it whole, and the same run is found (the same window, no rewrite) at every instant inside it.
 */
export function scheduleAccessRun(
  schedule: WeeklySchedule,
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): TimeWindow | 'always' | null {
  const parsed = parseSchedule(schedule);
  const offsetMs = utcOffsetMinutes * MINUTE_MS;
  const nowMs = now.getTime();
  const todayWallStart = Math.floor((nowMs + offsetMs) / DAY_MS) * DAY_MS;
  let runStart: number | null = null;
  let runEnd = 0;
  for (let day = -RUN_DAYS_BEFORE; day <= RUN_DAYS_AFTER; day += 1) {
    const dayWallStart = todayWallStart + day * DAY_MS;
    const weekday = weekdayByUtcDay[(((dayWallStart / DAY_MS + 4) % 7) + 7) % 7]!;
    for (const [start, end] of parsed.get(weekday) ?? []) {
      const startMs = dayWallStart + start * MINUTE_MS - offsetMs;
      const endMs = dayWallStart + end * MINUTE_MS - offsetMs;
      if (runStart !== null && startMs <= runEnd) {
        runEnd = Math.max(runEnd, endMs);
        continue;
      }
      // A gap: the run so far is over.
      if (runStart !== null && runEnd > nowMs) return { start: new Date(runStart), end: new Date(runEnd) };
      runStart = startMs;
      runEnd = endMs;
    }
  }
  if (runStart === null) return null;
  // No gap after the run began: either a gap-free week (always in) or a run still open at the scan's end.
  if (runEnd - runStart >= 7 * DAY_MS) return 'always';
  return runEnd > nowMs ? { start: new Date(runStart), end: new Date(runEnd) } : null;
}

/**
 * The interval in which this phone may open, around `now`: for a window model the window to write (the
 * current or next one; for a schedule the run of touching occurrences), for other models the one that holds
 * `now`. Null when the phone has none ahead. Permanent and primary phones have no interval (always open)
 * and return undefined, as does a schedule whose occurrences leave no gap on a model with windows.
 */
function phoneInterval(
  hasWindows: boolean,
  phone: PhoneSpec,
  now: Date,
  utcOffsetMinutes: number,
): TimeWindow | null | undefined {
  if (phone.kind === 'primary' || phone.kind === 'permanent') return undefined;
  if (phone.kind === 'temporary') {
    if (!phone.start || !phone.end) return null;
    // Windows are written to the minute; truncating the end never keeps a number open past its end.
    const window = { start: floorToMinute(phone.start), end: floorToMinute(phone.end) };
    return window.start < window.end && window.end > now ? window : null;
  }
  if (!hasWindows) return currentOrNextOccurrence(phone.schedule ?? {}, now, utcOffsetMinutes);
  const run = scheduleAccessRun(phone.schedule ?? {}, now, utcOffsetMinutes);
  return run === 'always' ? undefined : run;
}

function phoneEntry(
  hasWindows: boolean,
  phone: PhoneSpec,
  now: Date,
  utcOffsetMinutes: number,
): WhitelistEntry | null {
  const interval = phoneInterval(hasWindows, phone, now, utcOffsetMinutes);
  if (interval === undefined) return { slot: phone.slot, number: phone.number };
  if (interval === null) return null;
  if (hasWindows) return { slot: phone.slot, number: phone.number, window: interval };
  return interval.start <= now ? { slot: phone.slot, number: phone.number } : null;
}

/**
 * The whitelist the device should hold at `now`, sorted by slot. On models with time windows a temporary
 * phone is present with its window until its end, a schedule phone with the window of its current or next
 * run of touching occurrences (written ahead: the device opens it by itself); on models without windows an
 * interval phone is present only while inside its interval.
 */
export function desiredWhitelist(
  model: DeviceModel,
  phones: readonly PhoneSpec[],
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): WhitelistEntry[] {
  const hasWindows = getSheet(model).supportsTimeWindows;
  const entries: WhitelistEntry[] = [];
  const slots = new Set<number>();
  for (const phone of phones) {
    if (slots.has(phone.slot)) throw new Error(`Two phones hold slot ${phone.slot}.`);
    slots.add(phone.slot);
    const entry = phoneEntry(hasWindows, phone, now, utcOffsetMinutes);
    if (entry) entries.push(entry);
  }
  return entries.sort((a, b) => a.slot - b.slot);
}

export function sameEntry(
  a: WhitelistEntry | null | undefined,
  b: WhitelistEntry | null | undefined,
): boolean {
  if (!a || !b) return !a && !b;
  if (a.slot !== b.slot || a.number !== b.number) return false;
  if (!a.window || !b.window) return !a.window && !b.window;
  return (
    a.window.start.getTime() === b.window.start.getTime() && a.window.end.getTime() === b.window.end.getTime()
  );
}

/** The numbers an entry list lets in at `now` (slot → number), as a device honouring the windows would. */
export function openNumbersAt(entries: readonly WhitelistEntry[], now: Date): Map<number, string> {
  const open = new Map<number, string>();
  for (const entry of entries) {
    if (!entry.window || (entry.window.start <= now && now < entry.window.end))
      open.set(entry.slot, entry.number);
  }
  return open;
}

/** When this phone's desired entry next changes, or null. */
function phoneNextChange(
  hasWindows: boolean,
  phone: PhoneSpec,
  now: Date,
  utcOffsetMinutes: number,
): Date | null {
  if (phone.kind === 'temporary') {
    if (!phone.start || !phone.end) return null;
    const start = floorToMinute(phone.start);
    const end = floorToMinute(phone.end);
    if (start >= end || end <= now) return null;
    // With windows the entry stays as written until its end; without, it appears at the start.
    return hasWindows || start <= now ? end : start;
  }
  if (phone.kind !== 'schedule') return null;
  // With windows every run of touching occurrences is one SMS, written ahead when the previous run ends.
  if (hasWindows) {
    const run = scheduleAccessRun(phone.schedule ?? {}, now, utcOffsetMinutes);
    return run === null || run === 'always' ? null : run.end;
  }
  const occurrences = scheduleOccurrences(phone.schedule ?? {}, now, utcOffsetMinutes);
  let index = occurrences.findIndex((occurrence) => occurrence.end > now);
  if (index < 0) return null;
  let current = occurrences[index]!;
  if (current.start > now) return current.start;
  // Without windows the number stays in over touching occurrences (e.g. 22:00–24:00 then 00:00–02:00).
  let end = current.end;
  while (index + 1 < occurrences.length) {
    index += 1;
    current = occurrences[index]!;
    if (current.start > end) return end;
    if (current.end > end) end = current.end;
  }
  // The occurrences run without a gap for more than a week: the number is always in.
  return null;
}

/**
 * The next instant after `now` at which the desired whitelist changes (when the server should reconcile
 * again), or null when it never changes by itself.
 */
export function nextChangeAt(
  model: DeviceModel,
  phones: readonly PhoneSpec[],
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): Date | null {
  const hasWindows = getSheet(model).supportsTimeWindows;
  let next: Date | null = null;
  for (const phone of phones) {
    const change = phoneNextChange(hasWindows, phone, now, utcOffsetMinutes);
    if (change && (next === null || change < next)) next = change;
  }
  return next;
}
