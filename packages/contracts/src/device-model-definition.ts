/**
 * A model an operator defines (issue 42 item 4, docs/decisions/0039-operator-defined-models.md): the forms of
 * a unit no built-in sheet covers (DoorHan, AN-Motors, CAME/Nice GSM modules, clones), as templates with
 * parameters, with the replies the unit answers and the few facts the engine needs. This module is the shape:
 * lengths first, kinds, which parameter each form may and must carry; what the forms render to (one SMS, the
 * number form) is checked by `@propusk/devices/defined-model`. Messages are Russian and name the field.
 *
 * The file is the profile file (`propusk-device-profile`, docs/devices/PROFILE-FORMAT.md) version 2: the same
 * envelope with `source.kind: "defined"` and the definition.
 */
import { z } from 'zod';
import {
  DEVICE_PROFILE_FORMAT,
  DEVICE_PROFILE_MAX_BYTES,
  profileFileRunSchema,
} from './device-profile-file.ts';

export const DEFINED_MODEL_FILE_VERSION = 2;
/** The `model` of a defined model's file (a barrier's model key is `defined:<id>` on its server). */
export const DEFINED_MODEL_FILE_MODEL = 'defined';

export const DEFINED_MODEL_LIMITS = {
  /** Models per administrator. */
  perOwner: 20,
  nameMax: 60,
  templateMax: 160,
  sourceMax: 300,
  repliesPerKind: 5,
  settingsMax: 10,
  capacityMax: 2000,
} as const;

/** Russian names of the forms and replies, as the editor labels them and the messages name them. */
export const DEFINED_FORM_LABELS = {
  add: 'Команда записи номера',
  add_window: 'Команда записи номера с окном времени',
  delete: 'Команда удаления номера',
  set_clock: 'Команда установки часов',
  read: 'Команда чтения номеров',
  open: 'Команда открытия',
} as const;
export type DefinedFormKey = keyof typeof DEFINED_FORM_LABELS;

export const DEFINED_REPLY_LABELS = {
  add: 'Ответ на запись номера',
  add_window: 'Ответ на запись с окном',
  delete: 'Ответ на удаление номера',
  set_clock: 'Ответ на установку часов',
  refused: 'Ответ на неверный пароль',
  format_error: 'Ответ «команда не понята»',
  read_line: 'Строка ответа на чтение',
  read_empty: 'Строка ответа на чтение: пустая ячейка',
  open: 'Ответ на открытие',
} as const;
export type DefinedReplyKey = keyof typeof DEFINED_REPLY_LABELS;

/** Every parameter a template may name, in Russian (the editor's hint and the messages). */
export const DEFINED_PARAMETER_NAMES: Record<string, string> = {
  pwd: 'пароль',
  slot: 'ячейка',
  number: 'номер',
  start: 'начало окна',
  end: 'конец окна',
  time: 'время часов',
  from: 'первая ячейка',
  to: 'последняя ячейка',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const text = (label: string, max: number, min = 0) =>
  z
    .string(`${label}: нужен текст.`)
    .max(max, `${label}: не длиннее ${max} символов.`)
    .min(min, `${label}: заполните поле.`)
    .refine((value) => !CONTROL.test(value), `${label}: управляющие символы недопустимы.`);

const formSchema = (label: string) =>
  z.strictObject(
    {
      template: text(label, DEFINED_MODEL_LIMITS.templateMax, 1),
      /** Where the form comes from (the unit's manual, its page), as an operator knows it. */
      source: text(`${label}, источник`, DEFINED_MODEL_LIMITS.sourceMax).optional(),
    },
    `${label}: нужен объект с полем template.`,
  );

const replyList = (label: string) =>
  z
    .array(text(label, DEFINED_MODEL_LIMITS.templateMax, 1), `${label}: нужен список.`)
    .max(
      DEFINED_MODEL_LIMITS.repliesPerKind,
      `${label}: не больше ${DEFINED_MODEL_LIMITS.repliesPerKind} форм.`,
    );

export const DEFINED_NUMBER_FORMATS = ['0007', '007', '+7', '7', '8', '10'] as const;

export const modelDefinitionSchema = z.strictObject(
  {
    name: text('Название модели', DEFINED_MODEL_LIMITS.nameMax, 1),
    /** `slot`: numbers in numbered cells; `number`: a set of numbers, a delete names the number. */
    addressing: z.enum(['slot', 'number'], 'Хранение номеров: slot (по ячейкам) или number (списком).'),
    capacity: z
      .number('Ёмкость: нужно число.')
      .int('Ёмкость: целое число.')
      .min(1, 'Ёмкость: от 1 номера.')
      .max(
        DEFINED_MODEL_LIMITS.capacityMax,
        `Ёмкость: не больше ${DEFINED_MODEL_LIMITS.capacityMax} номеров.`,
      ),
    /** How many digits a cell is written with (zero-padded): `001` is 3. */
    slot_digits: z
      .number('Цифр в номере ячейки: нужно число.')
      .int('Цифр в номере ячейки: целое число.')
      .min(1, 'Цифр в номере ячейки: от 1 до 4.')
      .max(4, 'Цифр в номере ячейки: от 1 до 4.'),
    number_format: z.enum(DEFINED_NUMBER_FORMATS, 'Формат номера: 0007, 007, +7, 7, 8 или 10.'),
    /** Null: the unit has no password. */
    password: z
      .strictObject(
        {
          digits: z
            .number('Пароль, цифр: нужно число.')
            .int('Пароль, цифр: целое число.')
            .min(3, 'Пароль, цифр: от 3 до 8.')
            .max(8, 'Пароль, цифр: от 3 до 8.'),
          /** The password after the unit's reset button (null: not known). */
          factory: z
            .string('Заводской пароль: нужен текст.')
            .max(8, 'Заводской пароль: не длиннее 8 цифр.')
            .regex(/^\d+$/, 'Заводской пароль: только цифры.')
            .nullable(),
        },
        'Пароль: объект с полями digits и factory или null.',
      )
      .nullable(),
    /** Numbers with time windows (then the add with a window and the clock are needed). */
    windows: z.boolean('Окна времени: да или нет.'),
    /** The order of the digits in `{time}` of the clock command (`{start}`, `{end}` are always yyMMddHHmm). */
    clock_order: z
      .enum(['yyMMddHHmm', 'ddMMyyHHmm'], 'Порядок цифр времени: yyMMddHHmm или ddMMyyHHmm.')
      .nullable(),
    /** Slots per reply SMS of a range read (`{from}`..`{to}`). */
    read_per_sms: z
      .number('Ячеек в одном ответе на чтение: нужно число.')
      .int('Ячеек в одном ответе на чтение: целое число.')
      .min(1, 'Ячеек в одном ответе на чтение: от 1 до 20.')
      .max(20, 'Ячеек в одном ответе на чтение: от 1 до 20.'),
    forms: z.strictObject(
      {
        add: formSchema(DEFINED_FORM_LABELS.add),
        add_window: formSchema(DEFINED_FORM_LABELS.add_window).nullable(),
        delete: formSchema(DEFINED_FORM_LABELS.delete),
        set_clock: formSchema(DEFINED_FORM_LABELS.set_clock).nullable(),
        read: formSchema(DEFINED_FORM_LABELS.read).nullable(),
        open: formSchema(DEFINED_FORM_LABELS.open).nullable(),
      },
      'Команды: объект add, add_window, delete, set_clock, read, open.',
    ),
    replies: z.strictObject(
      Object.fromEntries(
        Object.entries(DEFINED_REPLY_LABELS).map(([key, label]) => [key, replyList(label)]),
      ) as Record<DefinedReplyKey, ReturnType<typeof replyList>>,
      'Ответы: объект со списками по видам команд.',
    ),
    /** Several numbers in one SMS (number-addressed units only): prefix, then item per number. Null: one. */
    batch: z
      .strictObject(
        {
          prefix: text('Несколько номеров в СМС, начало', 40),
          item: text('Несколько номеров в СМС, номер', 40, 1),
          separator: text('Несколько номеров в СМС, разделитель', 5),
          suffix: text('Несколько номеров в СМС, конец', 20),
          max_items: z
            .number('Несколько номеров в СМС, сколько: нужно число.')
            .int('Несколько номеров в СМС, сколько: целое число.')
            .min(2, 'Несколько номеров в СМС, сколько: от 2 до 20.')
            .max(20, 'Несколько номеров в СМС, сколько: от 2 до 20.'),
        },
        'Несколько номеров в СМС: объект или null.',
      )
      .nullable(),
    /** Settings without parameters (`{pwd}` only): access for all, messages off and the like. */
    settings: z
      .array(
        z.strictObject({
          name: text('Название настройки', 60, 1),
          template: text('Команда настройки', DEFINED_MODEL_LIMITS.templateMax, 1),
          source: text('Команда настройки, источник', DEFINED_MODEL_LIMITS.sourceMax).optional(),
          replies: replyList('Ответ на настройку'),
        }),
        'Настройки: нужен список.',
      )
      .max(DEFINED_MODEL_LIMITS.settingsMax, `Настроек — не больше ${DEFINED_MODEL_LIMITS.settingsMax}.`),
  },
  'Описание модели должно быть объектом.',
);
export type ModelDefinition = z.infer<typeof modelDefinitionSchema>;

const placeholderPattern = /\{([a-z_]+)\}/g;
const placeholdersOf = (template: string) =>
  [...template.matchAll(placeholderPattern)].map((match) => match[1] ?? '');
const paramName = (key: string) =>
  `{${key}}${DEFINED_PARAMETER_NAMES[key] ? ` (${DEFINED_PARAMETER_NAMES[key]})` : ''}`;

/** Which parameters a template may and must carry. */
interface ParameterRule {
  allowed: string[];
  required: string[];
}

function commandRule(definition: ModelDefinition, own: string[], required: string[]): ParameterRule {
  const pwd = definition.password ? ['pwd'] : [];
  return { allowed: [...pwd, ...own], required: [...pwd, ...required] };
}

/** The rules of each command form (the read form's depend on how it reads: see `readRule`). */
export function commandRules(
  definition: ModelDefinition,
): Record<Exclude<DefinedFormKey, 'read'>, ParameterRule> {
  const who = definition.addressing === 'slot' ? ['slot', 'number'] : ['number'];
  return {
    add: commandRule(definition, who, who),
    add_window: commandRule(definition, [...who, 'start', 'end'], [...who, 'start', 'end']),
    delete: commandRule(
      definition,
      definition.addressing === 'slot' ? ['slot'] : ['number'],
      definition.addressing === 'slot' ? ['slot'] : ['number'],
    ),
    set_clock: commandRule(definition, ['time'], ['time']),
    open: commandRule(definition, [], []),
  };
}

/** How a read form reads: one `{slot}`, a range `{from}`..`{to}`, or the whole list (no parameter). */
export function readMode(template: string): 'slot' | 'range' | 'list' {
  const used = placeholdersOf(template);
  if (used.includes('from') || used.includes('to')) return 'range';
  if (used.includes('slot')) return 'slot';
  return 'list';
}

export const REPLY_PARAMETERS: Record<DefinedReplyKey, string[]> = {
  add: ['slot', 'number'],
  add_window: ['slot', 'number', 'start', 'end'],
  delete: ['slot', 'number'],
  set_clock: ['time'],
  refused: [],
  format_error: [],
  read_line: ['slot', 'number'],
  read_empty: ['slot'],
  open: [],
};

function checkTemplate(label: string, template: string, rule: ParameterRule, problems: string[]): void {
  const used = placeholdersOf(template);
  const unknown = used.find((key) => !rule.allowed.includes(key));
  if (unknown !== undefined) {
    const allowed = rule.allowed.map(paramName).join(', ') || 'никаких';
    problems.push(`${label}: неизвестный параметр {${unknown}}. Здесь допустимы: ${allowed}.`);
  }
  const missing = rule.required.find((key) => !used.includes(key));
  if (missing !== undefined)
    problems.push(`${label}: нет параметра ${paramName(missing)}, без него команда не сработает.`);
  if (/[{}]/.test(template.replace(placeholderPattern, ''))) {
    problems.push(`${label}: фигурные скобки — только вокруг параметра, например {number}.`);
  }
}

/** What the shape alone can tell about the parameters and the forms a model needs (Russian, naming the field). */
export function definitionParameterProblems(definition: ModelDefinition): string[] {
  const problems: string[] = [];
  const rules = commandRules(definition);
  for (const key of ['add', 'add_window', 'delete', 'set_clock', 'open'] as const) {
    const form = definition.forms[key];
    if (form) checkTemplate(DEFINED_FORM_LABELS[key], form.template, rules[key], problems);
  }
  const read = definition.forms.read;
  if (read) {
    const mode = readMode(read.template);
    const own = mode === 'range' ? ['from', 'to'] : mode === 'slot' ? ['slot'] : [];
    if (mode === 'list' && definition.addressing === 'slot') {
      problems.push(
        `${DEFINED_FORM_LABELS.read}: у устройства с ячейками нужна подстановка {slot} или {from} и {to}.`,
      );
    } else if (mode !== 'list' && definition.addressing === 'number') {
      problems.push(
        `${DEFINED_FORM_LABELS.read}: у устройства без ячеек команда чтения читает весь список, без параметров.`,
      );
    } else
      checkTemplate(DEFINED_FORM_LABELS.read, read.template, commandRule(definition, own, own), problems);
  }
  for (const [key, label] of Object.entries(DEFINED_REPLY_LABELS) as [DefinedReplyKey, string][]) {
    const allowed =
      definition.addressing === 'number' && key === 'read_line' ? ['number'] : REPLY_PARAMETERS[key];
    definition.replies[key].forEach((reply, index) => {
      const name = `${label} № ${index + 1}`;
      checkTemplate(name, reply, { allowed, required: [] }, problems);
      const hasText = reply.replace(placeholderPattern, '').replace(/[\s:#.,!;=-]/g, '').length > 0;
      const names = placeholdersOf(reply).some((key) => key === 'slot' || key === 'number');
      if (!hasText && !names) {
        problems.push(
          `${name}: нужен текст или параметр ячейки или номера: иначе ответом сочтётся любое СМС.`,
        );
      }
    });
  }
  definition.settings.forEach((setting, index) => {
    const label = `Настройка «${setting.name}» (№ ${index + 1})`;
    checkTemplate(label, setting.template, commandRule(definition, [], []), problems);
    setting.replies.forEach((reply, replyIndex) => {
      checkTemplate(`${label}, ответ № ${replyIndex + 1}`, reply, { allowed: [], required: [] }, problems);
    });
  });
  const names = definition.settings.map((setting) => setting.name.trim().toLowerCase());
  if (new Set(names).size !== names.length) problems.push('Настройки: названия не должны повторяться.');
  if (definition.batch) {
    if (definition.addressing === 'slot') {
      problems.push('Несколько номеров в СМС: только для устройств, хранящих номера списком (без ячеек).');
    }
    checkTemplate(
      'Несколько номеров в СМС, начало',
      definition.batch.prefix,
      commandRule(definition, [], []),
      problems,
    );
    checkTemplate(
      'Несколько номеров в СМС, номер',
      definition.batch.item,
      { allowed: ['number'], required: ['number'] },
      problems,
    );
  }
  if (definition.windows) {
    if (!definition.forms.add_window)
      problems.push(`${DEFINED_FORM_LABELS.add_window}: нужна, если у устройства есть окна времени.`);
    if (!definition.forms.set_clock)
      problems.push(`${DEFINED_FORM_LABELS.set_clock}: нужна, если у устройства есть окна времени.`);
    if (!definition.clock_order)
      problems.push('Порядок цифр времени: нужен, если у устройства есть окна времени.');
  } else {
    if (definition.forms.add_window)
      problems.push(`${DEFINED_FORM_LABELS.add_window}: только если у устройства есть окна времени.`);
    if (definition.forms.set_clock)
      problems.push(`${DEFINED_FORM_LABELS.set_clock}: только если у устройства есть окна времени.`);
  }
  if (definition.addressing === 'slot' && String(definition.capacity).length > definition.slot_digits) {
    problems.push(`Цифр в номере ячейки: ${definition.slot_digits} мало для ёмкости ${definition.capacity}.`);
  }
  if (definition.password?.factory && definition.password.factory.length !== definition.password.digits) {
    problems.push(`Заводской пароль: ровно ${definition.password.digits} цифр.`);
  }
  const confirmsByReply = definition.replies.add.length > 0 && definition.replies.delete.length > 0;
  if (!confirmsByReply && !definition.forms.read) {
    problems.push(
      'Ответы на запись и удаление номера или команда чтения: нужно хотя бы одно, иначе изменения нельзя подтвердить.',
    );
  }
  if (definition.forms.read && definition.replies.read_line.length === 0) {
    problems.push(`${DEFINED_REPLY_LABELS.read_line}: нужна, если есть команда чтения.`);
  }
  return problems;
}

export type DefinitionShape = { ok: true; definition: ModelDefinition } | { ok: false; problems: string[] };

const pathName = (path: readonly PropertyKey[]) =>
  path.length > 0 ? ` (поле ${path.map(String).join('.')})` : '';

/** A definition object (the editor's form or a file's `definition`): the shape, then its parameters. */
export function readModelDefinition(raw: unknown): DefinitionShape {
  const parsed = modelDefinitionSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 10).map((issue) => {
      const message = /[а-яё]/i.test(issue.message) ? issue.message : 'поле не подходит по виду.';
      return issue.code === 'unrecognized_keys'
        ? `Лишнее поле: ${issue.keys.slice(0, 3).join(', ')}${pathName(issue.path)}.`
        : `${message}${/[а-яё]/i.test(issue.message) ? '' : pathName(issue.path)}`;
    });
    return { ok: false, problems };
  }
  const problems = definitionParameterProblems(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, definition: parsed.data };
}

export const definedModelFileSchema = z.strictObject({
  format: z.literal(DEVICE_PROFILE_FORMAT, 'Это не файл профиля устройства Propusk.'),
  version: z.literal(DEFINED_MODEL_FILE_VERSION),
  model: z.literal(DEFINED_MODEL_FILE_MODEL, 'Модель файла своей модели: "defined".'),
  exported_at: z.string().max(40),
  source: z.strictObject({
    kind: z.literal('defined', 'Источник файла своей модели: "defined".'),
    note: z.string().max(500),
  }),
  definition: z.unknown(),
  verified: z.array(profileFileRunSchema).max(50, 'Не больше 50 проверок.'),
});
export type DefinedModelFile = Omit<z.infer<typeof definedModelFileSchema>, 'definition'> & {
  definition: ModelDefinition;
};

/**
 * A defined model's file text: the size first (before parsing), JSON, the format and its version (version 1
 * is a built-in model's or a barrier's profile: told as such), the envelope, then the definition.
 */
export function readDefinedModelFile(
  text: string,
): { ok: true; file: DefinedModelFile } | { ok: false; problems: string[] } {
  if (
    text.length > DEVICE_PROFILE_MAX_BYTES ||
    new TextEncoder().encode(text).length > DEVICE_PROFILE_MAX_BYTES
  ) {
    return {
      ok: false,
      problems: [`Файл слишком большой: не больше ${DEVICE_PROFILE_MAX_BYTES / 1024} КБ.`],
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problems: ['Файл — не JSON.'] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: ['Файл должен быть объектом JSON.'] };
  }
  const head = raw as Record<string, unknown>;
  if (head.format !== DEVICE_PROFILE_FORMAT) {
    return { ok: false, problems: ['Это не файл профиля устройства Propusk (поле format).'] };
  }
  if (head.version === 1) {
    return {
      ok: false,
      problems: [
        'Это профиль встроенной модели или шлагбаума (версия 1): загрузите его на экране «Проверка устройства» шлагбаума.',
      ],
    };
  }
  if (head.version !== DEFINED_MODEL_FILE_VERSION) {
    return {
      ok: false,
      problems: [
        `Неизвестная версия файла: ${JSON.stringify(head.version)?.slice(0, 20) ?? 'нет'}. Своя модель — версия ${DEFINED_MODEL_FILE_VERSION}.`,
      ],
    };
  }
  const parsed = definedModelFileSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues
        .slice(0, 10)
        .map((issue) =>
          /[а-яё]/i.test(issue.message)
            ? issue.message
            : `Поле ${issue.path.map(String).join('.')}: не подходит по виду.`,
        ),
    };
  }
  const definition = readModelDefinition(parsed.data.definition);
  if (!definition.ok) return definition;
  return { ok: true, file: { ...parsed.data, definition: definition.definition } };
}

/** `POST /api/admin/device-models/` and `PUT …/{id}/`: the definition, or a file's text to import. */
export const saveDeviceModelBodySchema = z.union([
  z.strictObject({ definition: z.unknown() }),
  z.strictObject({ file: z.string().max(DEVICE_PROFILE_MAX_BYTES * 4) }),
]);

export const deviceModelSchema = z.object({
  id: z.number().int(),
  /** The barrier's `device_model` for this model. */
  model: z.string(),
  name: z.string(),
  definition: modelDefinitionSchema,
  /** Live barriers of its owner that use it (a model in use cannot be deleted). */
  barriers: z.number().int(),
  updated_at: z.string(),
});
export type DeviceModelView = z.infer<typeof deviceModelSchema>;

export const deviceModelListSchema = z.object({ models: z.array(deviceModelSchema) });

export const deviceModelFileResponseSchema = z.object({
  /** The file's data (`propusk-device-profile` version 2). */
  file: z.record(z.string(), z.unknown()),
  name: z.string(),
});

/** `GET /api/admin/barriers/{id}/device-model/`: is the barrier's model a defined one, and verified on it. */
export const barrierDefinedModelSchema = z.object({
  defined: z.boolean(),
  name: z.string().nullable(),
  /** A conformance run on this barrier confirmed every form since the model last changed. */
  verified: z.boolean(),
});
export type BarrierDefinedModel = z.infer<typeof barrierDefinedModelSchema>;
