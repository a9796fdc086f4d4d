/**
 * A model an operator defines (issue 42 item 4, docs/decisions/0039-operator-defined-models.md) turned into a
 * command sheet, so that the engine, the planner, the read-back, the conformance run and the simulator use
 * it exactly as a built-in sheet: device behaviour stays data. The definition's shape and parameters are
 * checked by `@propusk/contracts/device-model-definition`; here, what its forms render to: every command one
 * SMS (GSM 7-bit 160 or UCS-2 70 characters, `smsTextFits`), and the preview with sample values. Pure.
 */
import { smsTextFits } from './cost.ts';
import { type DefinedModelKey, definedModelKey, setDefinedSheets } from './models.ts';
import { formatNumber, isNumberFormat, type NumberFormat } from './numbers.ts';
import type { DeviceSheet, SettingParamSheet, SettingSheet, SourcedForm } from './sheet-types.ts';
import { fillTemplate, templatePlaceholders } from './template.ts';

interface DefinedForm {
  template: string;
  source?: string | undefined;
}

/**
 * A checked definition (the shape of `modelDefinitionSchema` in `@propusk/contracts/device-model-definition`,
 * written here because this package depends on nothing of ours).
 */
export interface ModelDefinition {
  name: string;
  addressing: 'slot' | 'number';
  capacity: number;
  slot_digits: number;
  number_format: string;
  password: { digits: number; factory: string | null } | null;
  windows: boolean;
  clock_order: 'yyMMddHHmm' | 'ddMMyyHHmm' | null;
  read_per_sms: number;
  forms: {
    add: DefinedForm;
    add_window: DefinedForm | null;
    delete: DefinedForm;
    set_clock: DefinedForm | null;
    read: DefinedForm | null;
    open: DefinedForm | null;
  };
  replies: Record<
    | 'add'
    | 'add_window'
    | 'delete'
    | 'set_clock'
    | 'refused'
    | 'format_error'
    | 'read_line'
    | 'read_empty'
    | 'open',
    string[]
  >;
  batch: { prefix: string; item: string; separator: string; suffix: string; max_items: number } | null;
  settings: { name: string; template: string; source?: string | undefined; replies: string[] }[];
}

/** How a read form reads (the same rule as the contracts' check): a range, one slot, or the whole list. */
function readMode(template: string): 'slot' | 'range' | 'list' {
  const used = templatePlaceholders(template);
  if (used.includes('from') || used.includes('to')) return 'range';
  return used.includes('slot') ? 'slot' : 'list';
}

/** The source of a form the operator gave none for. */
const operatorSource = (name: string) => `Своя модель оператора «${name}»: форма задана администратором`;

/** The built sheet of a definition; `model` is its key (`defined:<id>`). */
export function sheetFromDefinition(model: DefinedModelKey, definition: ModelDefinition): DeviceSheet {
  const fallback = operatorSource(definition.name);
  const form = (given: { template: string; source?: string | undefined }): SourcedForm => ({
    template: given.template,
    source: given.source?.trim() || fallback,
  });
  const replies = (templates: readonly string[]): SourcedForm[] =>
    templates.map((template) => ({ template, source: fallback }));
  const { forms } = definition;
  const slotDigits = definition.slot_digits;
  const numberFormat: NumberFormat = isNumberFormat(definition.number_format)
    ? definition.number_format
    : '+7';
  const settings: Record<string, SettingSheet> = {};
  definition.settings.forEach((setting, index) => {
    settings[`defined_${index + 1}`] = {
      name: setting.name,
      description: `Команда своей модели «${definition.name}».`,
      template: setting.template,
      source: setting.source?.trim() || fallback,
      params: [],
      replies: replies(setting.replies),
      effect: 'other',
    };
  });
  if (forms.open) {
    settings.open = {
      name: 'Открыть',
      description: 'Открывает шлагбаум командой своей модели.',
      template: forms.open.template,
      source: forms.open.source?.trim() || fallback,
      params: [],
      replies: replies(definition.replies.open),
      effect: 'open',
    };
  }
  const read = forms.read;
  const readKind = read ? readMode(read.template) : null;
  const lastSlot = String(definition.capacity).padStart(slotDigits, '0');
  const slotParam = (key: string, name: string): SettingParamSheet => ({
    key,
    name,
    description: `Номер ячейки, ${slotDigits} цифр: от ${'1'.padStart(slotDigits, '0')} до ${lastSlot}`,
    example: '1'.padStart(slotDigits, '0'),
    pattern: `\\d{${slotDigits}}`,
    invalidMessage: `Ячейка записывается ${slotDigits} цифрами.`,
    check: (value) =>
      Number(value) >= 1 && Number(value) <= definition.capacity
        ? null
        : `Ячейка — от 1 до ${definition.capacity}.`,
  });
  if (read && readKind) {
    // The read is also a setting: the settings screen can send it, and the simulator answers it by its effect.
    settings.read = {
      name: 'Чтение номеров',
      description: 'Запрашивает у устройства записанные номера.',
      template: read.template,
      source: read.source?.trim() || fallback,
      params:
        readKind === 'slot'
          ? [slotParam('slot', 'Ячейка')]
          : readKind === 'range'
            ? [slotParam('from', 'Первая ячейка'), slotParam('to', 'Последняя ячейка')]
            : [],
      replies: replies([...definition.replies.read_line, ...definition.replies.read_empty]),
      effect: readKind === 'slot' ? 'query_slot' : 'query_range',
    };
  }
  const addReplies = replies(definition.replies.add);
  return {
    model,
    label: definition.name,
    slotCount: definition.capacity,
    addressing: definition.addressing,
    hasPassword: definition.password !== null,
    passwordPattern: definition.password ? new RegExp(`^\\d{${definition.password.digits}}$`) : null,
    passwordHint: definition.password ? `Пароль устройства — ${definition.password.digits} цифр` : null,
    capacity: definition.capacity,
    capacitySource: fallback,
    confirmation:
      definition.replies.add.length > 0 && definition.replies.delete.length > 0 ? 'reply' : 'read_back',
    batch: definition.batch
      ? {
          add: {
            prefix: definition.batch.prefix,
            item: definition.batch.item,
            separator: definition.batch.separator,
            suffix: definition.batch.suffix,
            maxItems: definition.batch.max_items,
            maxLength: 160,
            source: fallback,
            replies: [],
          },
        }
      : null,
    clockForms:
      definition.windows && forms.set_clock && definition.clock_order
        ? [
            {
              order: definition.clock_order,
              command: form(forms.set_clock),
              replies: replies(definition.replies.set_clock),
            },
          ]
        : [],
    clockOrder: definition.windows ? definition.clock_order : null,
    supportsTimeWindows: definition.windows,
    timeFormat: definition.windows ? 'YYMMDDHHmm' : null,
    numberFormat,
    numberFormatSource: fallback,
    formatSlot: (slot) => String(slot).padStart(slotDigits, '0'),
    slotPattern: `\\d{${slotDigits}}`,
    commands: {
      add: form(forms.add),
      addWindow: definition.windows && forms.add_window ? form(forms.add_window) : null,
      delete: form(forms.delete),
      setClock: definition.windows && forms.set_clock ? form(forms.set_clock) : null,
    },
    replies: {
      add: addReplies,
      addWindow:
        definition.replies.add_window.length > 0 ? replies(definition.replies.add_window) : addReplies,
      delete: replies(definition.replies.delete),
      setClock: replies(definition.replies.set_clock),
      refused: replies(definition.replies.refused),
      formatError: replies(definition.replies.format_error),
      genericSuccess: { template: definition.settings[0]?.replies[0] ?? 'OK', source: fallback },
    },
    readBack:
      read && readKind
        ? {
            mode: readKind,
            command: form(read),
            perSms: readKind === 'range' ? definition.read_per_sms : 1,
            line: replies(definition.replies.read_line),
            empty: replies(definition.replies.read_empty),
          }
        : null,
    settings,
    ...(definition.password?.factory
      ? { factoryPassword: { value: definition.password.factory, source: fallback } }
      : {}),
  };
}

/**
 * The defined models the engine knows in this process: every stored definition, built into sheets. The
 * server calls it at start and after each change of its models (docs/decisions/0039).
 */
export function installDefinedModels(models: readonly { id: number; definition: ModelDefinition }[]): void {
  setDefinedSheets(
    models.map(({ id, definition }) => {
      const key = definedModelKey(id);
      return [key, sheetFromDefinition(key, definition)] as const;
    }),
  );
}

/** One rendered form of the preview. */
export interface DefinedFormPreview {
  /** Russian: what the form does. */
  label: string;
  text: string;
  /** Characters as the SMS counts them, and the limit of one SMS in its encoding. */
  units: number;
  limit: number;
  fits: boolean;
}

/** Values that make each parameter as long as it can be (the SMS check) or a readable example (the preview). */
function parameterValues(definition: ModelDefinition, longest: boolean): Record<string, string> {
  const digits = definition.password?.digits ?? 4;
  const format = isNumberFormat(definition.number_format) ? definition.number_format : '+7';
  const slot = longest ? definition.capacity : Math.min(5, definition.capacity);
  const slotText = String(slot).padStart(definition.slot_digits, '0');
  return {
    pwd: longest ? '9'.repeat(digits) : (definition.password?.factory ?? '1234567890'.slice(0, digits)),
    slot: slotText,
    from: String(1).padStart(definition.slot_digits, '0'),
    to: slotText,
    number: formatNumber(longest ? '+79999999999' : '+79161234567', format),
    start: definition.clock_order === 'ddMMyyHHmm' ? '0112260800' : '2612010800',
    end: definition.clock_order === 'ddMMyyHHmm' ? '0112262000' : '2612012000',
    time: definition.clock_order === 'ddMMyyHHmm' ? '0112260930' : '2612010930',
  };
}

function commandTexts(
  definition: ModelDefinition,
  values: Record<string, string>,
): { label: string; text: string }[] {
  const list: { label: string; text: string }[] = [];
  const push = (label: string, template: string | undefined) => {
    if (template !== undefined) list.push({ label, text: fillTemplate(template, values) });
  };
  const { forms } = definition;
  push('Запись номера', forms.add.template);
  push('Запись номера с окном времени', forms.add_window?.template);
  push('Удаление номера', forms.delete.template);
  push('Установка часов', forms.set_clock?.template);
  push('Чтение номеров', forms.read?.template);
  push('Открытие', forms.open?.template);
  for (const setting of definition.settings) push(`Настройка «${setting.name}»`, setting.template);
  if (definition.batch) {
    const { prefix, item, separator, suffix, max_items } = definition.batch;
    const items = Array.from({ length: max_items }, () => fillTemplate(item, values)).join(separator);
    list.push({
      label: `Запись ${max_items} номеров одной СМС`,
      text: `${fillTemplate(prefix, values)}${items}${suffix}`,
    });
  }
  return list;
}

/** Each command with sample values, as the editor shows it (and whether it fits one SMS). */
export function previewDefinition(definition: ModelDefinition): DefinedFormPreview[] {
  return commandTexts(definition, parameterValues(definition, false)).map(({ label, text }) => {
    const fit = smsTextFits(text);
    return { label, text, ...fit };
  });
}

/**
 * Commands that could be longer than one SMS once filled (every parameter as long as it can be: the longest
 * password, the last cell, the number in the model's form): Russian problems naming the form.
 */
export function definitionSmsProblems(definition: ModelDefinition): string[] {
  return commandTexts(definition, parameterValues(definition, true)).flatMap(({ label, text }) => {
    const fit = smsTextFits(text);
    return fit.fits
      ? []
      : [
          `${label}: команда длиннее одной СМС (${fit.units} из ${fit.limit} знаков${fit.limit === 70 ? ': русские буквы и особые знаки сокращают СМС до 70' : ''}).`,
        ];
  });
}
