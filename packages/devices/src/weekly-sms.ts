import { desiredWhitelist, nextChangeAt, type PhoneSpec } from './access.ts';
import { DAY_MS, DEFAULT_UTC_OFFSET_MINUTES } from './device-time.ts';
import type { DeviceModel } from './models.ts';
import { applyConfirmed, type BelievedState, type PlannedCommandKind, planCommands } from './planner.ts';

export interface SmsCount {
  /** Commands sent by the reconciles after the start, up to and including the end. */
  total: number;
  byKind: Record<PlannedCommandKind, number>;
  /** Commands of the reconcile at the start itself (bringing the device in step the first time). */
  initial: number;
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
): SmsCount {
  const byKind = emptyByKind();
  let believed = believedAtStart;
  let initial = 0;
  let total = 0;
  let now: Date | null = from;
  while (now !== null && now <= to) {
    const commands = planCommands({
      model,
      desired: desiredWhitelist(model, phones, now, utcOffsetMinutes),
      believed,
      now,
    });
    for (const command of commands) {
      believed = applyConfirmed(believed, command, now);
      if (now === from) initial += 1;
      else {
        total += 1;
        byKind[command.kind] += 1;
      }
    }
    now = nextChangeAt(model, phones, now, utcOffsetMinutes);
  }
  return { total, byKind, initial, believed };
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
): SmsCount {
  return countSmsBetween(
    model,
    phones,
    weekStart,
    new Date(weekStart.getTime() + 7 * DAY_MS),
    utcOffsetMinutes,
  );
}
