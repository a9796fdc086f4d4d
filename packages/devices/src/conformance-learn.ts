/**
 * What a conformance run learns into the barrier's profile (issue 42): a unit's own reply text as a form, the
 * number form its read-back shows, its own power texts.
 */

import { recogniseAlarm } from './alarms.ts';
import type { ConformanceStep } from './conformance.ts';
import { DEFAULT_UTC_OFFSET_MINUTES, formatClockTime } from './device-time.ts';
import type { DeviceModel } from './models.ts';
import { formatNumber, type NumberFormat } from './numbers.ts';
import { commandFromJson } from './planner.ts';
import {
  type DeviceProfileOverride,
  type OverrideReplyKind,
  type PowerAlarmKind,
  resolveSheet,
  validateProfileOverride,
} from './profile.ts';

/** The placeholders a learnt text may carry, per kind: the values the step wrote, as the unit writes them. */
function stepValues(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  step: ConformanceStep,
  sentAt: Date,
  utcOffsetMinutes: number | undefined,
): Record<string, string> {
  const sheet = resolveSheet(model, profile);
  if (step.action.form !== 'whitelist') return {};
  const command = commandFromJson(step.action.command);
  const values: Record<string, string> = {};
  if (command.slot !== undefined && sheet.addressing === 'slot') values.slot = sheet.formatSlot(command.slot);
  if (command.number) values.number = formatNumber(command.number, sheet.numberFormat);
  const offset = utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
  if (command.window) {
    values.start = formatClockTime(command.window.start, offset, sheet.clockOrder ?? 'yyMMddHHmm');
    values.end = formatClockTime(command.window.end, offset, sheet.clockOrder ?? 'yyMMddHHmm');
  }
  if (command.kind === 'set_clock')
    values.time = formatClockTime(sentAt, offset, sheet.clockOrder ?? 'yyMMddHHmm');
  return values;
}

const withoutBraces = (text: string) => text.replace(/[{}]/g, '');

/**
 * The unit's text as a reply form of the profile: the values the step wrote (the slot, the number in any of
 * its written forms, the window, the time) become placeholders, so the form matches the next command's
 * reply. Null: the step's kind is not learnt, or the form would not be a valid profile form.
 */
export function learnReplyForm(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  step: ConformanceStep,
  text: string,
  sentAt: Date,
  utcOffsetMinutes?: number,
): { kind: OverrideReplyKind; form: string } | null {
  if (!step.learnAs) return null;
  const values = stepValues(model, profile, step, sentAt, utcOffsetMinutes);
  let form = withoutBraces(text.trim());
  // The number first (it contains digits a slot could match), in the form the unit wrote it.
  if (values.number && step.action.form === 'whitelist') {
    const e164 = step.action.command.number ?? '';
    const written = [values.number, e164, e164.slice(1), `8${e164.slice(2)}`, e164.slice(2)];
    for (const candidate of written) {
      if (candidate && form.includes(candidate)) {
        form = form.split(candidate).join('{number}');
        break;
      }
    }
  }
  for (const key of ['start', 'end', 'time'] as const) {
    const value = values[key];
    if (value && form.includes(value)) form = form.split(value).join(`{${key}}`);
  }
  if (values.slot) {
    const pattern = new RegExp(`(?<!\\d)0*${Number(values.slot)}(?!\\d)`);
    form = form.replace(pattern, '{slot}');
  }
  const merged: DeviceProfileOverride = {
    ...(profile ?? {}),
    replies: { ...(profile?.replies ?? {}), [step.learnAs]: [form] },
  };
  const checked = validateProfileOverride(model, merged);
  return checked.ok ? { kind: step.learnAs, form } : null;
}

/** The profile with a learnt form added in front of its kind's forms (at most five a kind, the newest kept). */
export function withLearntForm(
  profile: DeviceProfileOverride | null | undefined,
  learnt: { kind: OverrideReplyKind; form: string },
): DeviceProfileOverride {
  const forms = profile?.replies?.[learnt.kind] ?? [];
  const next = [learnt.form, ...forms.filter((form) => form !== learnt.form)].slice(0, 5);
  return { ...(profile ?? {}), replies: { ...(profile?.replies ?? {}), [learnt.kind]: next } };
}

/**
 * The form a read-back writes the test number in (`+7…`, `0007…`, `007…`, `7…`, `8…`, or its ten digits
 * alone), read from the characters before its ten digits; null when the text does not show the number.
 */
export function numberFormatShown(text: string, e164: string): NumberFormat | null {
  const ten = e164.slice(2);
  const at = text.indexOf(ten);
  if (ten.length !== 10 || at < 0) return null;
  const before = text.slice(Math.max(0, at - 4), at);
  // Longest first: `0007` also ends in `007` and in `7`.
  for (const format of ['+7', '0007', '007', '7', '8'] as const) if (before.endsWith(format)) return format;
  return /\d$/.test(before) ? null : '10';
}

/**
 * The number form to learn from a read-back that shows the test number (issue 42 item 2): the unit's, when it
 * differs from the form the profile sends now; null when it is the same or the text does not show it.
 */
export function learnNumberFormat(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  text: string,
  e164: string,
): NumberFormat | null {
  const shown = numberFormatShown(text, e164);
  if (shown === null || shown === resolveSheet(model, profile).numberFormat) return null;
  return validateProfileOverride(model, { ...(profile ?? {}), number_format: shown }).ok ? shown : null;
}

/**
 * The unit's own power texts captured while its supply was cut and restored (issue 42 item 3), as the
 * profile's alarm forms: a text the model's word rule reads as a failure or a restoration is that; the others
 * by their order (the failure comes first). At most one text a kind; the rest are not learnt.
 */
export function learnPowerTexts(
  model: DeviceModel,
  captured: readonly string[],
): Partial<Record<PowerAlarmKind, string>> {
  const learnt: Partial<Record<PowerAlarmKind, string>> = {};
  const unread: string[] = [];
  for (const raw of captured) {
    const text = raw.trim();
    const kind = recogniseAlarm(model, text)?.kind;
    if ((kind === 'power_failure' || kind === 'power_restored') && learnt[kind] === undefined)
      learnt[kind] = text;
    else if (kind !== 'alarm') unread.push(text);
  }
  for (const text of unread) {
    if (learnt.power_failure === undefined) learnt.power_failure = text;
    else if (learnt.power_restored === undefined) learnt.power_restored = text;
  }
  return learnt;
}

/** The profile with learnt power texts in front of their kinds' forms (at most five a kind). */
export function withLearntAlarms(
  profile: DeviceProfileOverride | null | undefined,
  learnt: Partial<Record<PowerAlarmKind, string>>,
): DeviceProfileOverride {
  const alarms = { ...(profile?.alarms ?? {}) };
  for (const kind of ['power_failure', 'power_restored'] as const) {
    const text = learnt[kind];
    if (text === undefined) continue;
    alarms[kind] = [text, ...(alarms[kind] ?? []).filter((form) => form !== text)].slice(0, 5);
  }
  return { ...(profile ?? {}), alarms };
}
