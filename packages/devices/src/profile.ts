/**
 * A barrier's device profile: what an operator may change in its model's sheet without a code change when
 * the unit on the wall writes numbers or answers differently from what the sheet says. An override adds
 * reply forms (tried first, and answered by the simulator playing such a unit) and may choose the number
 * form written in commands. It never removes the documented forms.
 */
import { type DeviceModel, getSheet } from './models.ts';
import { isNumberFormat, type NumberFormat } from './numbers.ts';
import type { ClockOrder, DeviceSheet, SourcedForm } from './sheet-types.ts';
import { templatePlaceholders } from './template.ts';

export const OVERRIDE_REPLY_KINDS = ['add', 'add_window', 'delete', 'set_clock', 'refused'] as const;
export type OverrideReplyKind = (typeof OVERRIDE_REPLY_KINDS)[number];

export interface DeviceProfileOverride {
  number_format?: NumberFormat;
  /** The clock command's digit order, one of the model's documented clock forms (issue 30, item 6). */
  clock_order?: ClockOrder;
  replies?: Partial<Record<OverrideReplyKind, string[]>>;
  /**
   * The unit's own power texts, captured by a conformance run while its supply was cut (issue 42 item 3):
   * recognised exactly, in place of the model's word rule (alarms.ts).
   */
  alarms?: Partial<Record<PowerAlarmKind, string[]>>;
}

export const POWER_ALARM_KINDS = ['power_failure', 'power_restored'] as const;
export type PowerAlarmKind = (typeof POWER_ALARM_KINDS)[number];

export const OVERRIDE_SOURCE = 'Профиль шлагбаума: форма ответа задана администратором';

/** The placeholders a reply form of each kind may use, and the ones it must use. */
const placeholderRules: Record<OverrideReplyKind, { allowed: string[]; required: string[] }> = {
  add: { allowed: ['slot', 'number'], required: [] },
  add_window: { allowed: ['slot', 'number', 'start', 'end'], required: [] },
  delete: { allowed: ['slot', 'number'], required: [] },
  set_clock: { allowed: ['time'], required: [] },
  refused: { allowed: [], required: [] },
};

const MAX_FORMS = 5;
const MAX_FORM_LENGTH = 160;

export type OverrideCheck =
  | { ok: true; value: DeviceProfileOverride }
  | { ok: false; errors: Record<string, string> };

/**
 * Checks an override sent by an administrator; messages are Russian, keyed by field path
 * (`number_format`, `replies.add.0`).
 */
export function validateProfileOverride(model: DeviceModel, raw: unknown): OverrideCheck {
  const sheet = getSheet(model);
  const errors: Record<string, string> = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: { profile: 'Профиль устройства должен быть объектом.' } };
  }
  const input = raw as Record<string, unknown>;
  const value: DeviceProfileOverride = {};
  for (const key of Object.keys(input)) {
    if (key !== 'number_format' && key !== 'replies' && key !== 'clock_order' && key !== 'alarms')
      errors[key] = 'Неизвестное поле профиля.';
  }
  if (input.clock_order !== undefined && input.clock_order !== null) {
    const form = sheet.clockForms.find((candidate) => candidate.order === input.clock_order);
    if (sheet.clockForms.length === 0) errors.clock_order = 'У этой модели нет часов.';
    else if (!form) errors.clock_order = 'Неизвестный порядок цифр времени.';
    else value.clock_order = form.order;
  }
  if (input.number_format !== undefined && input.number_format !== null) {
    if (!isNumberFormat(input.number_format)) errors.number_format = 'Неизвестный формат номера.';
    else value.number_format = input.number_format;
  }
  if (input.replies !== undefined && input.replies !== null) {
    if (typeof input.replies !== 'object' || Array.isArray(input.replies)) {
      errors.replies = 'Формы ответов задаются по видам команд.';
    } else {
      const replies: Partial<Record<OverrideReplyKind, string[]>> = {};
      for (const [kind, forms] of Object.entries(input.replies as Record<string, unknown>)) {
        if (!(OVERRIDE_REPLY_KINDS as readonly string[]).includes(kind)) {
          errors[`replies.${kind}`] = 'Неизвестный вид команды.';
          continue;
        }
        const typedKind = kind as OverrideReplyKind;
        if ((typedKind === 'add_window' || typedKind === 'set_clock') && !sheet.supportsTimeWindows) {
          errors[`replies.${kind}`] = 'У этой модели нет таких команд.';
          continue;
        }
        if (typedKind === 'refused' && !sheet.hasPassword) {
          errors[`replies.${kind}`] = 'У этой модели нет пароля.';
          continue;
        }
        if (!Array.isArray(forms) || forms.length > MAX_FORMS) {
          errors[`replies.${kind}`] = `Укажите от 0 до ${MAX_FORMS} форм ответа.`;
          continue;
        }
        const checked: string[] = [];
        forms.forEach((form, index) => {
          const path = `replies.${kind}.${index}`;
          const problem = checkForm(typedKind, form);
          if (problem) errors[path] = problem;
          else checked.push((form as string).trim());
        });
        if (checked.length > 0) replies[typedKind] = checked;
      }
      if (Object.keys(replies).length > 0) value.replies = replies;
    }
  }
  if (input.alarms !== undefined && input.alarms !== null) {
    const alarms = checkAlarms(sheet.alarms !== undefined, input.alarms, errors);
    if (alarms) value.alarms = alarms;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}

/** The learnt power texts: the model must send such SMS; each text as a reply form is (no placeholders). */
function checkAlarms(
  hasAlarms: boolean,
  raw: unknown,
  errors: Record<string, string>,
): DeviceProfileOverride['alarms'] | null {
  if (!hasAlarms) {
    errors.alarms = 'Эта модель не присылает СМС о питании.';
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.alarms = 'Тексты о питании задаются по видам.';
    return null;
  }
  const alarms: NonNullable<DeviceProfileOverride['alarms']> = {};
  for (const [kind, forms] of Object.entries(raw as Record<string, unknown>)) {
    if (!(POWER_ALARM_KINDS as readonly string[]).includes(kind)) {
      errors[`alarms.${kind}`] = 'Неизвестный вид СМС о питании.';
      continue;
    }
    if (!Array.isArray(forms) || forms.length > MAX_FORMS) {
      errors[`alarms.${kind}`] = `Укажите от 0 до ${MAX_FORMS} текстов.`;
      continue;
    }
    const checked: string[] = [];
    forms.forEach((form, index) => {
      const problem = checkForm('refused', form);
      if (problem) errors[`alarms.${kind}.${index}`] = problem;
      else checked.push((form as string).trim());
    });
    if (checked.length > 0) alarms[kind as PowerAlarmKind] = checked;
  }
  return Object.keys(alarms).length > 0 ? alarms : null;
}

/** A placeholder named in Russian (issue 32 item 5: no command syntax in a message; the forms show it). */
const PLACEHOLDER_NAMES: Readonly<Record<string, string>> = {
  slot: 'ячейка',
  number: 'номер',
  start: 'начало',
  end: 'конец',
  time: 'время',
  pwd: 'пароль',
};
const placeholderName = (key: string) => `«${PLACEHOLDER_NAMES[key] ?? 'неизвестная'}»`;

function checkForm(kind: OverrideReplyKind, form: unknown): string | null {
  if (typeof form !== 'string' || form.trim() === '') return 'Форма ответа не может быть пустой.';
  const text = form.trim();
  if (text.length > MAX_FORM_LENGTH) return `Форма ответа — не длиннее ${MAX_FORM_LENGTH} символов.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'Форма ответа не может содержать управляющие символы.';
  const rules = placeholderRules[kind];
  const used = templatePlaceholders(text);
  const unknown = used.filter((key) => !rules.allowed.includes(key));
  if (unknown.length > 0) {
    const allowed = rules.allowed.map(placeholderName).join(', ') || 'нет';
    return `Недопустимая подстановка: ${placeholderName(unknown[0] ?? '')}. Допустимы: ${allowed}.`;
  }
  if (/[{}]/.test(text.replace(/\{[a-z_]+\}/g, ''))) return 'Фигурные скобки — только для подстановок.';
  // A form made of placeholders only would accept any text as the answer.
  if (text.replace(/\{[a-z_]+\}/g, '').replace(/[\s:#.,!]/g, '').length === 0 && used.length === 0) {
    return 'Форма ответа должна содержать текст.';
  }
  const missing = rules.required.filter((key) => !used.includes(key));
  if (missing.length > 0) return `В форме ответа нужна подстановка {${missing[0]}}.`;
  return null;
}

const overrideForms = (forms: string[] | undefined): SourcedForm[] =>
  (forms ?? []).map((template) => ({ template, source: OVERRIDE_SOURCE }));

const resolved = new WeakMap<DeviceProfileOverride, Map<DeviceModel, DeviceSheet>>();

/** The model's sheet with a barrier's override applied (the sheet itself when there is none). */
export function resolveSheet(model: DeviceModel, override?: DeviceProfileOverride | null): DeviceSheet {
  const sheet = getSheet(model);
  // Learnt power texts change no command nor reply: alarms.ts reads them from the profile itself.
  if (!override || (!override.number_format && !override.replies && !override.clock_order)) return sheet;
  let byModel = resolved.get(override);
  const cached = byModel?.get(model);
  if (cached) return cached;
  const replies = override.replies ?? {};
  const clock = sheet.clockForms.find((form) => form.order === override.clock_order);
  const result: DeviceSheet = {
    ...sheet,
    ...(clock
      ? {
          clockOrder: clock.order,
          commands: { ...sheet.commands, setClock: clock.command },
        }
      : {}),
    numberFormat: override.number_format ?? sheet.numberFormat,
    numberFormatSource: override.number_format ? OVERRIDE_SOURCE : sheet.numberFormatSource,
    replies: {
      ...sheet.replies,
      add: [...overrideForms(replies.add), ...sheet.replies.add],
      addWindow: [...overrideForms(replies.add_window), ...sheet.replies.addWindow],
      delete: [...overrideForms(replies.delete), ...sheet.replies.delete],
      setClock: [...overrideForms(replies.set_clock), ...(clock ? clock.replies : sheet.replies.setClock)],
      refused: [...overrideForms(replies.refused), ...sheet.replies.refused],
    },
  };
  if (!byModel) {
    byModel = new Map();
    resolved.set(override, byModel);
  }
  byModel.set(model, result);
  return result;
}
