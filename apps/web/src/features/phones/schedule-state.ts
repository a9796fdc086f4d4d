/**
 * Where a timed number stands now (issue 41): a number by schedule is on the device all week, but the gate
 * opens for it only within its intervals; «Активен» on a day it does not work misled. Wall-clock times of the
 * schedule against this phone's clock (the server's, as last seen).
 */
import type { WeeklyScheduleInput } from '@propusk/contracts/phones';
import { WEEKDAYS } from '@propusk/contracts/texts/phones';

export type ScheduleState =
  | { kind: 'now'; until: string }
  | { kind: 'later_today'; from: string }
  | { kind: 'not_today' };

const minutesOf = (time: string) => {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
};

export function scheduleStateAt(schedule: WeeklyScheduleInput | null | undefined, now: Date): ScheduleState {
  // Date's week starts on Sunday; WEEKDAYS on Monday.
  const day = WEEKDAYS[(now.getDay() + 6) % 7];
  const intervals = [...((day && schedule?.[day]) ?? [])].sort(
    (a, b) => minutesOf(a.start_time) - minutesOf(b.start_time),
  );
  const minute = now.getHours() * 60 + now.getMinutes();
  const current = intervals.find(
    (interval) => minutesOf(interval.start_time) <= minute && minute < minutesOf(interval.end_time),
  );
  if (current) return { kind: 'now', until: current.end_time };
  const next = intervals.find((interval) => minutesOf(interval.start_time) > minute);
  if (next) return { kind: 'later_today', from: next.start_time };
  return { kind: 'not_today' };
}

export function scheduleStateText(state: ScheduleState): string {
  switch (state.kind) {
    case 'now':
      return `Сейчас открывает, до ${state.until}`;
    case 'later_today':
      return `Сейчас не открывает, сегодня с ${state.from}`;
    default:
      return 'Сегодня не открывает';
  }
}
