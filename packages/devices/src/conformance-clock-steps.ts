/**
 * The clock order trial's steps of a conformance run (issue 42 item 2; the times: conformance-clock.ts): how
 * they are planned, rendered and judged.
 */
import { renderCommand } from './commands.ts';
import {
  type AddStep,
  CLOCK_ORDER_LABELS,
  type ConformanceAction,
  type ConformancePlan,
  type ConformancePlanInput,
  type ConformanceStepKey,
} from './conformance.ts';
import { clockTrialWindow, otherClockOrder } from './conformance-clock.ts';
import { DEFAULT_UTC_OFFSET_MINUTES } from './device-time.ts';
import type { DeviceModel } from './models.ts';
import { commandFromJson, type PlannedCommandJson } from './planner.ts';
import { type DeviceProfileOverride, resolveSheet } from './profile.ts';
import type { ClockOrder, DeviceSheet } from './sheet-types.ts';

/**
 * The clock order trial (conformance-clock.ts): the clock and a window for the call number written in the
 * profile's order, a call; the same in the other order if it did not open (the server skips the retry when
 * the first call opened).
 */
export function planClockTrial(
  sheet: DeviceSheet,
  input: ConformancePlanInput,
  step: AddStep,
  skipped: ConformancePlan['skipped'],
): void {
  const form = 'Порядок цифр времени';
  if (!sheet.supportsTimeWindows || !sheet.commands.setClock || sheet.clockForms.length < 2) return;
  const number = input.callNumber;
  if (!number) {
    skipped.push({ form, reason: input.callRefused ?? 'Не выбран номер для звонка.' });
    return;
  }
  const first = sheet.clockOrder ?? 'yyMMddHHmm';
  const trial = (order: ClockOrder, keys: [ConformanceStepKey, ConformanceStepKey, ConformanceStepKey]) => {
    const base = { form: 'clock_trial', order, slot: input.slot, number } as const;
    step(keys[0], { ...base, part: 'clock' }, null, sheet.replies.setClock.length > 0);
    step(keys[1], { ...base, part: 'window' }, null, sheet.replies.addWindow.length > 0);
    step(keys[2], { form: 'ask', ask: 'call', order, number }, null, true);
  };
  trial(first, ['clock_try_set', 'clock_try_window', 'clock_try_call']);
  trial(otherClockOrder(first), ['clock_retry_set', 'clock_retry_window', 'clock_retry_call']);
}

/** The profile with the clock's digit order set (how a trial step is rendered and judged). */
export function withClockOrder(
  profile: DeviceProfileOverride | null | undefined,
  order: ClockOrder,
): DeviceProfileOverride {
  return { ...(profile ?? {}), clock_order: order };
}

export type ClockTrialAction = Extract<ConformanceAction, { form: 'clock_trial' }>;

export function clockTrialCommand(
  action: ClockTrialAction,
  window: { start: string; end: string },
): PlannedCommandJson {
  return action.part === 'clock'
    ? { kind: 'set_clock' }
    : { kind: 'add_window', slot: action.slot, number: action.number, window };
}

/**
 * The SMS of a clock trial step sent at `now`, in the order tried: the clock, or the call number's window
 * (`clockTrialWindow`, chosen from `now`: the clock step went out just before it). Null: no window tells the
 * two orders apart today (the step is then not sent).
 */
export function renderClockTrial(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  action: ClockTrialAction,
  password: string | null | undefined,
  now: Date,
  utcOffsetMinutes = DEFAULT_UTC_OFFSET_MINUTES,
): string | null {
  const window = clockTrialWindow(now, utcOffsetMinutes, action.order);
  if (!window) return null;
  const command = clockTrialCommand(action, {
    start: window.start.toISOString(),
    end: window.end.toISOString(),
  });
  return renderCommand(model, commandFromJson(command), password, {
    now,
    utcOffsetMinutes,
    profile: withClockOrder(profile, action.order),
  });
}

/** What the person's answer to a call step means for the run and the barrier's profile. */
export interface ClockCallResult {
  /** `opened`: in the order the profile already had; `different`: in the other order (learnt). */
  verdict: 'opened' | 'different' | 'not_opened';
  /** The profile to store (null: unchanged). */
  profile: DeviceProfileOverride | null;
  /** Russian: what was learnt, for the step's view. */
  learnt: string | null;
  note: string | null;
  /** The other order is still to be tried (the retry steps are sent); false: they are skipped. */
  retry: boolean;
}

/**
 * «Открылось?» answered (issue 42 item 2): «Да» settles the order the call step tried into the profile (the
 * engine's clock and windows are rendered in it from then on) and skips the retry; «Нет» to the first call
 * tries the other order once; «Нет» to both leaves the profile's order as it was.
 */
export function settleClockCall(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  action: Extract<ConformanceAction, { form: 'ask'; ask: 'call' }>,
  isRetry: boolean,
  opened: boolean,
): ClockCallResult {
  const current = resolveSheet(model, profile).clockOrder;
  if (opened) {
    const same = action.order === current;
    return {
      verdict: same ? 'opened' : 'different',
      profile: same && profile?.clock_order === action.order ? null : withClockOrder(profile, action.order),
      learnt: same ? null : `Порядок цифр времени: ${CLOCK_ORDER_LABELS[action.order]}`,
      note: null,
      retry: false,
    };
  }
  return {
    verdict: 'not_opened',
    profile: null,
    learnt: null,
    note: isRetry
      ? `Окно не открылось ни в одном порядке цифр: порядок цифр времени установить не удалось, в профиле остаётся ${CLOCK_ORDER_LABELS[current ?? 'yyMMddHHmm']}.`
      : null,
    retry: !isRetry,
  };
}

/** The steps of the other order's trial, skipped once the first call opened. */
export const CLOCK_RETRY_KEYS: readonly ConformanceStepKey[] = [
  'clock_retry_set',
  'clock_retry_window',
  'clock_retry_call',
];
