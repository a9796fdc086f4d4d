/**
 * A conformance run («Проверка устройства по модели», issue 42): every form of a barrier's model sent once to
 * the real unit in a safe order, each reply judged against the sheet, and a unit's own text learnt into the
 * barrier's profile. Pure: the plan of steps from a sheet, the verdict of a reply, the learnt form. The server
 * sends the steps through its outbox one at a time (apps/server/src/modules/conformance).
 *
 * The order keeps residents unaffected: read the test slot (it must be empty), add the test number there,
 * read it back, write a window for it (where the model has windows), set the clock, (only if asked) set the
 * password to itself, delete the test number, read the slot again. The relay time is not sent: no sheet can
 * read it, and a wrong value can keep a barrier open (dialect B's `GOT0` is "stay on"), so the unit's current
 * value cannot be written back as it was.
 */
import { matchErrorReply, matchReplyDetail, renderCommand } from './commands.ts';
import { clockTrialCommand, planClockTrial, withClockOrder } from './conformance-clock-steps.ts';

export { learnReplyForm, withLearntForm } from './conformance-learn.ts';

import type { DeviceModel } from './models.ts';
import { parseDeviceNumber } from './numbers.ts';
import { commandFromJson, type PlannedCommandJson } from './planner.ts';
import { type DeviceProfileOverride, type OverrideReplyKind, resolveSheet } from './profile.ts';
import { parseReadReply, type ReadQuery } from './readback.ts';
import type { CommandReplyMatch } from './reply-choice.ts';
import { matchSettingReplyDetail } from './settings.ts';
import type { ClockOrder } from './sheet-types.ts';

export const CONFORMANCE_STEP_KEYS = [
  'read_before',
  'add',
  'read_added',
  'add_window',
  'clock_try_set',
  'clock_try_window',
  'clock_try_call',
  'clock_retry_set',
  'clock_retry_window',
  'clock_retry_call',
  'power_cut',
  'set_clock',
  'password',
  'delete',
  'read_after',
] as const;
export type ConformanceStepKey = (typeof CONFORMANCE_STEP_KEYS)[number];

/**
 * What a step sends: a whitelist form (add, window, delete, clock), a read, the password set to itself, the
 * clock or a window written in a digit order tried (conformance-clock.ts: its times are chosen when it is
 * sent); or what it asks of the person (`ask`: a call to the unit, a power cut), which sends nothing.
 */
export type ConformanceAction =
  | { form: 'whitelist'; command: PlannedCommandJson }
  | { form: 'read'; query: ReadQuery }
  | { form: 'password_same'; setting: string }
  | { form: 'clock_trial'; order: ClockOrder; part: 'clock' | 'window'; slot: number; number: string }
  | { form: 'ask'; ask: 'call'; order: ClockOrder; number: string }
  | { form: 'ask'; ask: 'power' };

export interface ConformanceStep {
  key: ConformanceStepKey;
  /** Russian, as the run's screen lists it. */
  label: string;
  action: ConformanceAction;
  /** The profile's reply kind a different text of this step is learnt as (null: not learnt). */
  learnAs: OverrideReplyKind | null;
  /** Whether the sheet documents a reply text for this form (false: silence is as the sheet says). */
  expectsReply: boolean;
}

export const CONFORMANCE_STEP_LABELS: Record<ConformanceStepKey, string> = {
  read_before: 'Чтение тестовой ячейки до проверки',
  add: 'Запись тестового номера',
  read_added: 'Чтение записанного номера',
  add_window: 'Запись номера с окном времени',
  clock_try_set: 'Часы для проверочного звонка',
  clock_try_window: 'Окно времени для проверочного звонка',
  clock_try_call: 'Звонок на устройство: открылось?',
  clock_retry_set: 'Часы для второго звонка',
  clock_retry_window: 'Окно времени для второго звонка',
  clock_retry_call: 'Второй звонок на устройство: открылось?',
  power_cut: 'Отключите питание устройства на минуту',
  set_clock: 'Установка часов',
  password: 'Смена пароля на тот же',
  delete: 'Удаление тестового номера',
  read_after: 'Чтение тестовой ячейки после проверки',
};

export interface ConformancePlanInput {
  model: DeviceModel;
  profile?: DeviceProfileOverride | null;
  /** The slot the test number is written to (`freeSlotForRun`); number-addressed models ignore it. */
  slot: number;
  /** '+7XXXXXXXXXX' */
  testNumber: string;
  now: Date;
  /** The person ticked «сменить пароль на тот же». */
  includePassword: boolean;
  /**
   * The number the person calls the unit from to settle the clock's digit order (the test number or one he
   * named); null or absent: no call step (`callRefused` says why, Russian).
   */
  callNumber?: string | null;
  callRefused?: string | null;
  /** The person ticked the power cut (the unit's own power SMS captured). */
  includePower?: boolean;
}

/** The digit orders as a person reads them. */
export const CLOCK_ORDER_LABELS: Record<ClockOrder, string> = {
  yyMMddHHmm: 'год-месяц-день',
  ddMMyyHHmm: 'день-месяц-год',
};

export interface ConformancePlan {
  steps: ConformanceStep[];
  /** Forms of the model the run does not send, and why (Russian). */
  skipped: { form: string; reason: string }[];
}

function stepLabel(key: ConformanceStepKey, action: ConformanceAction): string {
  const label = CONFORMANCE_STEP_LABELS[key];
  return action.form === 'clock_trial' || (action.form === 'ask' && action.ask === 'call')
    ? `${label} (порядок цифр: ${CLOCK_ORDER_LABELS[action.order]})`
    : label;
}

/** How long the test number's window lasts: it opens now and closes an hour later. */
export const TEST_WINDOW_MS = 60 * 60_000;

/**
 * The slot a run writes its test number to: the highest slot nobody uses (new phones take the smallest free
 * slot, so a phone added during the run is least likely to want it). Null: the unit is full.
 */
export function freeSlotForRun(
  model: DeviceModel,
  used: Iterable<number>,
  profile?: DeviceProfileOverride | null,
): number | null {
  const sheet = resolveSheet(model, profile);
  const taken = new Set(used);
  const last = sheet.addressing === 'slot' ? sheet.capacity : sheet.slotCount;
  for (let slot = last; slot >= 1; slot -= 1) if (!taken.has(slot)) return slot;
  return null;
}

/** The steps of a run on this model, in the order they are sent. */
export function planConformance(input: ConformancePlanInput): ConformancePlan {
  const sheet = resolveSheet(input.model, input.profile);
  const steps: ConformanceStep[] = [];
  const skipped: ConformancePlan['skipped'] = [];
  const step: AddStep = (key, action, learnAs, expectsReply) =>
    steps.push({ key, label: stepLabel(key, action), action, learnAs, expectsReply });
  const readQuery: ReadQuery | null = !sheet.readBack
    ? null
    : sheet.readBack.mode === 'list'
      ? { kind: 'list' }
      : sheet.readBack.mode === 'slot'
        ? { kind: 'slot', slot: input.slot }
        : { kind: 'range', from: input.slot, to: input.slot };
  const bySlot = sheet.addressing === 'slot';
  const number = input.testNumber;
  if (readQuery) step('read_before', { form: 'read', query: readQuery }, null, true);
  else skipped.push({ form: 'Чтение номеров', reason: 'У модели нет команды чтения номеров.' });
  // The clock trial first, while the test slot is empty: a window the unit refuses leaves nothing that opens.
  planClockTrial(sheet, input, step, skipped);
  step('add', { form: 'whitelist', command: { kind: 'add', slot: input.slot, number } }, 'add', true);
  if (readQuery) step('read_added', { form: 'read', query: readQuery }, null, true);
  if (sheet.supportsTimeWindows && sheet.commands.addWindow) {
    const start = new Date(Math.floor(input.now.getTime() / 60_000) * 60_000);
    const end = new Date(start.getTime() + TEST_WINDOW_MS);
    step(
      'add_window',
      {
        form: 'whitelist',
        command: {
          kind: 'add_window',
          slot: input.slot,
          number,
          window: { start: start.toISOString(), end: end.toISOString() },
        },
      },
      'add_window',
      sheet.replies.addWindow.length > 0,
    );
  } else skipped.push({ form: 'Окно времени', reason: 'У модели нет окон времени.' });
  if (sheet.alarms && input.includePower) step('power_cut', { form: 'ask', ask: 'power' }, null, true);
  else if (sheet.alarms)
    skipped.push({ form: 'СМС о питании', reason: 'Не отмечено: питание устройства не отключаем.' });
  if (sheet.commands.setClock)
    step('set_clock', { form: 'whitelist', command: { kind: 'set_clock' } }, 'set_clock', true);
  else skipped.push({ form: 'Часы', reason: 'У модели нет часов.' });
  skipped.push({
    form: 'Время открытия',
    reason:
      'Не отправляется: модель не умеет сообщать текущее время открытия, а неверное значение может оставить шлагбаум открытым.',
  });
  const passwordSetting = Object.entries(sheet.settings).find(
    ([, setting]) => setting.effect === 'change_password',
  )?.[0];
  if (passwordSetting && input.includePassword)
    step('password', { form: 'password_same', setting: passwordSetting }, null, true);
  else if (passwordSetting)
    skipped.push({ form: 'Смена пароля', reason: 'Не отмечено: пароль устройства не трогаем.' });
  step(
    'delete',
    {
      form: 'whitelist',
      command: bySlot ? { kind: 'delete', slot: input.slot } : { kind: 'delete', slot: input.slot, number },
    },
    'delete',
    sheet.replies.delete.length > 0,
  );
  if (readQuery) step('read_after', { form: 'read', query: readQuery }, null, true);
  // The add's own replies: a model that documents none (its text lost, or read back) expects none.
  const add = steps.find((candidate) => candidate.key === 'add');
  if (add) add.expectsReply = sheet.replies.add.length > 0;
  return { steps, skipped };
}

export type AddStep = (
  key: ConformanceStepKey,
  action: ConformanceAction,
  learnAs: OverrideReplyKind | null,
  expectsReply: boolean,
) => void;

/** The steps that leave the unit as it began once the test number was written: the delete and the last read. */
export function cleanupSteps(plan: readonly ConformanceStep[]): ConformanceStep[] {
  return plan.filter((step) => step.key === 'delete' || step.key === 'read_after');
}

export interface VerdictOptions {
  utcOffsetMinutes?: number;
  /** The device password (the password step's reply names it). */
  password?: string | null;
}

/**
 * `as_sheet`: the reply has a form of the sheet (or of the profile: a text learnt before); `different`: the
 * unit answered in a text the sheet does not have; `no_answer`: nothing came; `refused` / `format_error`:
 * the unit said the password was wrong or it did not understand.
 */
export type ConformanceVerdict =
  | 'as_sheet'
  | 'different'
  | 'no_answer'
  | 'refused'
  | 'format_error'
  /** A call step: the gate opened / did not open for the call. */
  | 'opened'
  | 'not_opened';

export function conformanceVerdict(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  step: ConformanceStep,
  text: string | null,
  options: VerdictOptions = {},
): ConformanceVerdict {
  if (text === null) return 'no_answer';
  const sheet = resolveSheet(model, profile);
  const error = matchErrorReply(sheet, text);
  if (error) return error;
  const { action } = step;
  if (action.form === 'read') {
    const reading = parseReadReply(model, action.query, text, profile);
    return reading && (reading.outcome === 'read' || reading.outcome === 'read_list')
      ? 'as_sheet'
      : 'different';
  }
  if (action.form === 'ask') return 'no_answer';
  if (action.form === 'clock_trial') {
    // The times of a trial window are chosen when it is sent; the reply forms name the slot and number only.
    const hour = { start: new Date(0).toISOString(), end: new Date(3_600_000).toISOString() };
    const found = matchReplyDetail(model, commandFromJson(clockTrialCommand(action, hour)), text, {
      utcOffsetMinutes: options.utcOffsetMinutes,
      profile: withClockOrder(profile, action.order),
    });
    return found?.outcome === 'confirmed' ? 'as_sheet' : 'different';
  }
  if (action.form === 'password_same') {
    const found = matchSettingReplyDetail(
      model,
      action.setting,
      { new_password: options.password ?? '' },
      text,
    );
    return found?.outcome === 'confirmed' && sheetHasReplies(model, action.setting)
      ? 'as_sheet'
      : 'different';
  }
  const found = matchReplyDetail(model, commandFromJson(action.command), text, {
    utcOffsetMinutes: options.utcOffsetMinutes,
    profile,
  });
  return found?.outcome === 'confirmed' ? 'as_sheet' : 'different';
}

function sheetHasReplies(model: DeviceModel, settingId: string): boolean {
  return (resolveSheet(model).settings[settingId]?.replies.length ?? 0) > 0;
}

/**
 * How the engine weighs a reply to a run's step while it is in flight: an error reply is that; any other
 * text is the step's answer (the run learns it), strongest when it has a form of the sheet that names the
 * step's slot and number. A finished step takes no reply (its silence was its verdict).
 */
export function conformanceReplyMatch(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  step: ConformanceStep,
  text: string,
  options: VerdictOptions = {},
): CommandReplyMatch {
  const verdict = conformanceVerdict(model, profile, step, text, options);
  if (verdict === 'refused' || verdict === 'format_error') return { outcome: verdict, strength: 0 };
  return { outcome: 'confirmed', strength: verdict === 'as_sheet' ? 2 : 0 };
}

/** The SMS text a whitelist step sends (the clock step: at `now`). */
export function renderConformanceWhitelist(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  command: PlannedCommandJson,
  password: string | null | undefined,
  now: Date,
  utcOffsetMinutes?: number,
): string {
  return renderCommand(model, commandFromJson(command), password, { now, utcOffsetMinutes, profile });
}

/** Whether a read's answer shows the test number in its slot (read_added) or the slot empty (the others). */
export function readShows(
  model: DeviceModel,
  profile: DeviceProfileOverride | null | undefined,
  query: ReadQuery,
  text: string,
  slot: number,
  testNumber: string,
): 'number' | 'empty' | 'other' | null {
  const reading = parseReadReply(model, query, text, profile);
  if (!reading) return null;
  if (reading.outcome === 'read_list') return reading.numbers.includes(testNumber) ? 'number' : 'empty';
  if (reading.outcome !== 'read') return null;
  const held = reading.slots[slot];
  if (held === null || held === undefined) return 'empty';
  return parseDeviceNumber(held) === testNumber || held === testNumber ? 'number' : 'other';
}
