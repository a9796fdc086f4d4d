import { currentOrNextOccurrence, desiredWhitelist, nextChangeAt, type PhoneSpec } from './access.ts';
import { smsPerAttempt } from './cost.ts';
import { DAY_MS, DEFAULT_UTC_OFFSET_MINUTES, floorToMinute } from './device-time.ts';
import { type DeviceModel, getSheet } from './models.ts';
import {
  applyConfirmed,
  type BelievedState,
  CLOCK_MAX_AGE_MS,
  commandEntries,
  type PlannedCommandKind,
  planCommands,
} from './planner.ts';

export interface SmsCount {
  /** Commands sent by the reconciles after the start, up to and including the end. */
  total: number;
  byKind: Record<PlannedCommandKind, number>;
  /** Commands of the reconcile at the start itself (bringing the device in step the first time). */
  initial: number;
  /**
   * Of `total`, the commands sent at the instant a timed phone's access begins (an add at its start, or a
   * window written once it has begun) rather than ahead of it. On a model with windows a schedule phone's
   * windows are written ahead, so this is 0; on a model without windows every opening is one.
   */
  atAccessStart: number;
  /** The believed state at the end (every command confirmed). */
  believed: BelievedState;
}

const emptyByKind = (): Record<PlannedCommandKind, number> => ({
  add: 0,
  add_window: 0,
  delete: 0,
  set_clock: 0,
});

/**
 * Simulates the server's reconciler between two instants: a reconcile at `from`, then one at every
 * `nextChangeAt`, every command confirmed at once. Counts the SMS sent. The phones do not change meanwhile.
 */
export function countSmsBetween(
  model: DeviceModel,
  phones: readonly PhoneSpec[],
  from: Date,
  to: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
  believedAtStart: BelievedState = { entries: [], clockSetAt: null },
  options: { batch?: boolean } = {},
): SmsCount {
  const byKind = emptyByKind();
  let believed = believedAtStart;
  let initial = 0;
  let total = 0;
  let atAccessStart = 0;
  const timedSlots = new Set(
    phones
      .filter((phone) => phone.kind === 'schedule' || phone.kind === 'temporary')
      .map((phone) => phone.slot),
  );
  let now: Date | null = from;
  while (now !== null && now <= to) {
    const commands = planCommands({
      model,
      desired: desiredWhitelist(model, phones, now, utcOffsetMinutes),
      believed,
      now,
      batch: options.batch ?? false,
    });
    // One command is one SMS (a batch carries several numbers), two where a change is confirmed by reading
    // it back (smsPerAttempt, cost.ts).
    for (const command of commands) {
      believed = applyConfirmed(believed, command, now, getSheet(model).addressing);
      const sms = smsPerAttempt(model, command);
      if (now === from) initial += sms;
      else {
        total += sms;
        byKind[command.kind] += sms;
        const opensNow =
          (command.kind === 'add' && commandEntries(command).some((entry) => timedSlots.has(entry.slot))) ||
          (command.kind === 'add_window' && command.window !== undefined && command.window.start <= now);
        if (opensNow) atAccessStart += sms;
      }
    }
    now = nextChangeAt(model, phones, now, utcOffsetMinutes);
  }
  return { total, byKind, initial, atAccessStart, believed };
}

/**
 * SMS per week in steady state: the device is brought in step at `weekStart` (counted apart as `initial`),
 * then every command of the following seven days is counted.
 */
export function countWeeklySms(
  model: DeviceModel,
  phones: readonly PhoneSpec[],
  weekStart: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
  options: { batch?: boolean } = {},
): SmsCount {
  return countSmsBetween(
    model,
    phones,
    weekStart,
    new Date(weekStart.getTime() + 7 * DAY_MS),
    utcOffsetMinutes,
    { entries: [], clockSetAt: null },
    options,
  );
}

/** The budget's horizon: the coming seven days. */
export const FORECAST_HORIZON_MS = 7 * DAY_MS;

/**
 * SMS one timed phone will cost after `now` once its slot is in step (the commands of the change itself,
 * the reconcile at `now`, are not counted here): what the reconciler sends at the phone's window edges.
 *
 * - a schedule phone: every command of the coming seven days. A weekly schedule repeats, so any seven days
 *   cost the same. On a model that writes a window in one SMS (RTU5025 `A{slot}#{number}#{start}#{end}#`)
 *   that is one SMS per run of touching occurrences, written ahead as soon as the previous run ends (the
 *   device opens and closes it by itself: nothing is sent at an occurrence's start or end); on a model
 *   without windows (Telemetrica) an add at its start and a delete at its end (touching occurrences merge
 *   into one).
 * - a temporary phone: everything it will still cost, however far its end (at most an add and a delete on a
 *   model without windows; nothing on a model with windows, whose window was written by the change).
 * - permanent and primary phones: nothing (they cost only when changed).
 *
 * Clock settings are not counted here (one per device, see `forecastClockSms`). Each phone is planned alone:
 * a slot's commands (a number's, on number-addressed models) never depend on another phone's.
 */
export function forecastPhoneSms(
  model: DeviceModel,
  phone: PhoneSpec,
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): number {
  if (phone.kind !== 'schedule' && phone.kind !== 'temporary') return 0;
  let to = now.getTime() + FORECAST_HORIZON_MS;
  if (phone.kind === 'temporary') {
    if (!phone.start || !phone.end) return 0;
    to = Math.max(to, floorToMinute(phone.end).getTime());
  }
  const count = countSmsBetween(model, [phone], now, new Date(to), utcOffsetMinutes, {
    entries: [],
    // The clock is counted once per device, apart.
    clockSetAt: new Date(to),
  });
  return count.total - count.byKind.set_clock;
}

/**
 * 1 when a model with windows will have its clock set within the coming seven days: the clock is renewed
 * every `CLOCK_MAX_AGE_MS` while some slot needs a window (planner.ts). `clockSetAt` is when the clock was or
 * will be set by the commands already planned (null: never).
 */
export function forecastClockSms(
  model: DeviceModel,
  phones: readonly PhoneSpec[],
  now: Date,
  clockSetAt: Date | null,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): number {
  if (!getSheet(model).supportsTimeWindows) return 0;
  const due = new Date(Math.max(now.getTime(), (clockSetAt?.getTime() ?? 0) + CLOCK_MAX_AGE_MS));
  const horizonEnd = now.getTime() + FORECAST_HORIZON_MS;
  if (due.getTime() > horizonEnd) return 0;
  const needsWindowAfterDue = phones.some((phone) => {
    if (phone.kind === 'temporary') {
      if (!phone.start || !phone.end) return false;
      return floorToMinute(phone.start) < floorToMinute(phone.end) && floorToMinute(phone.end) > due;
    }
    if (phone.kind !== 'schedule') return false;
    const next = currentOrNextOccurrence(phone.schedule ?? {}, due, utcOffsetMinutes);
    return next !== null && next.start.getTime() <= horizonEnd;
  });
  return needsWindowAfterDue ? 1 : 0;
}

/**
 * What a barrier's timed phones have committed it to after `now`: the sum of `forecastPhoneSms`, plus the
 * clock setting when it falls due in the coming week. With the SMS of the last seven days and those of a
 * change, this is what `sms_weekly_limit` is checked against, so that a phone accepted within the budget
 * keeps the device within it whatever its windows do.
 */
export function forecastCommittedSms(
  model: DeviceModel,
  phones: readonly PhoneSpec[],
  now: Date,
  clockSetAt: Date | null,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): { phones: number; clock: number; total: number } {
  let phoneSms = 0;
  for (const phone of phones) phoneSms += forecastPhoneSms(model, phone, now, utcOffsetMinutes);
  const clock = forecastClockSms(model, phones, now, clockSetAt, utcOffsetMinutes);
  return { phones: phoneSms, clock, total: phoneSms + clock };
}
