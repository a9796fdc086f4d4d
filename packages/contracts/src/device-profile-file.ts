/**
 * The device profile file (issue 42 item 5, docs/devices/PROFILE-FORMAT.md): one documented, versioned JSON
 * format for a built-in model's sheet and for a barrier's learnt profile, so that operators can share a
 * profile verified on a real unit. This is the file's shape only (lengths, kinds, counts); what the forms mean
 * for a model is checked by `@propusk/devices/profile-file`. Messages are Russian: they reach an operator who
 * loaded a file, through the API's `problems` and the command line.
 */
import { z } from 'zod';

export const DEVICE_PROFILE_FORMAT = 'propusk-device-profile';
export const DEVICE_PROFILE_VERSION = 1;
/** A profile is a few kilobytes; a file past this is not one (checked before JSON is parsed). */
export const DEVICE_PROFILE_MAX_BYTES = 64 * 1024;

const FORM_MAX = 300;
const SOURCE_MAX = 500;
const FORMS_PER_KIND_MAX = 20;

export const PROFILE_REPLY_KINDS = [
  'add',
  'add_window',
  'delete',
  'set_clock',
  'refused',
  'format_error',
] as const;
export type ProfileReplyKind = (typeof PROFILE_REPLY_KINDS)[number];

export const profileFileFormSchema = z.strictObject({
  template: z.string().max(FORM_MAX, `Форма — не длиннее ${FORM_MAX} символов.`),
  source: z.string().max(SOURCE_MAX, `Источник — не длиннее ${SOURCE_MAX} символов.`),
  /** No source shows this form for this model («не проверено на устройстве»). */
  unverified: z.boolean().optional(),
  /** The unit's own text, learnt by a conformance run or set by an administrator (not in the sheet). */
  learnt: z.boolean().optional(),
});
export type ProfileFileForm = z.infer<typeof profileFileFormSchema>;

const formList = z
  .array(profileFileFormSchema)
  .max(FORMS_PER_KIND_MAX, `Не больше ${FORMS_PER_KIND_MAX} форм.`);

/** One finished conformance run of the unit the profile was taken from. */
export const profileFileRunSchema = z.strictObject({
  run: z.number().int().positive(),
  date: z.string().max(40),
  model: z.string().max(40),
  all_confirmed: z.boolean(),
  /** The unit's own firmware text, where it reports one (docs/devices/MODELS.md shows it beside the run). */
  firmware: z.string().max(80, 'Версия прошивки — не длиннее 80 символов.').optional(),
  /** Each step of the run and its verdict (as_sheet, different, no_answer, refused, format_error, skipped). */
  steps: z
    .array(z.strictObject({ key: z.string().max(40), verdict: z.string().max(40) }))
    .max(20, 'Не больше 20 шагов.'),
});
export type ProfileFileRun = z.infer<typeof profileFileRunSchema>;

export const deviceProfileFileSchema = z.strictObject({
  format: z.literal(DEVICE_PROFILE_FORMAT, 'Это не файл профиля устройства Propusk.'),
  version: z.literal(
    DEVICE_PROFILE_VERSION,
    `Неизвестная версия файла профиля: поддерживается ${DEVICE_PROFILE_VERSION}.`,
  ),
  model: z.string().max(40, 'Модель — не длиннее 40 символов.'),
  exported_at: z.string().max(40),
  /** Where the profile comes from: the model's built-in sheet, or a barrier's unit (its profile applied). */
  source: z.strictObject({
    kind: z.enum(['sheet', 'barrier'], 'Источник профиля: sheet или barrier.'),
    note: z.string().max(SOURCE_MAX),
  }),
  number_format: z.string().max(10),
  clock_order: z.string().max(20).nullable(),
  /** The whitelist commands as the server sends them (`{pwd}` stands for the password: never its value). */
  forms: z.strictObject({
    add: profileFileFormSchema,
    add_window: profileFileFormSchema.nullable(),
    delete: profileFileFormSchema,
    set_clock: profileFileFormSchema.nullable(),
  }),
  /** The replies the unit answers each command with: the learnt ones first, then the sheet's. */
  replies: z.strictObject(
    Object.fromEntries(PROFILE_REPLY_KINDS.map((kind) => [kind, formList])) as Record<
      ProfileReplyKind,
      typeof formList
    >,
  ),
  verified: z.array(profileFileRunSchema).max(50, 'Не больше 50 проверок.'),
});
export type DeviceProfileFile = z.infer<typeof deviceProfileFileSchema>;

export type ProfileFileShape = { ok: true; file: DeviceProfileFile } | { ok: false; problems: string[] };

const pathName = (path: readonly PropertyKey[]) => (path.length > 0 ? `${path.map(String).join('.')}: ` : '');

/**
 * Reads a profile file's text: its size first (linear, before parsing), then JSON, then the format and version
 * (so that a newer file is told as such, not as a list of unknown fields), then the shape. Russian problems.
 */
export function readProfileFileShape(text: string): ProfileFileShape {
  if (
    text.length > DEVICE_PROFILE_MAX_BYTES ||
    new TextEncoder().encode(text).length > DEVICE_PROFILE_MAX_BYTES
  ) {
    return {
      ok: false,
      problems: [`Файл профиля слишком большой: не больше ${DEVICE_PROFILE_MAX_BYTES / 1024} КБ.`],
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problems: ['Файл профиля — не JSON.'] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: ['Файл профиля должен быть объектом JSON.'] };
  }
  const head = raw as Record<string, unknown>;
  if (head.format !== DEVICE_PROFILE_FORMAT) {
    return { ok: false, problems: ['Это не файл профиля устройства Propusk (поле format).'] };
  }
  if (head.version === 2 && head.model === 'defined') {
    // Version 2 is a model an operator defined (device-model-definition.ts): it has a screen of its own.
    return {
      ok: false,
      problems: [
        'Это своя модель оператора (версия 2), а не профиль шлагбаума: загрузите её на экране «Свои модели устройств».',
      ],
    };
  }
  if (head.version !== DEVICE_PROFILE_VERSION) {
    return {
      ok: false,
      problems: [
        `Неизвестная версия файла профиля: ${JSON.stringify(head.version)?.slice(0, 20) ?? 'нет'}. Этот сервер читает версию ${DEVICE_PROFILE_VERSION}.`,
      ],
    };
  }
  const parsed = deviceProfileFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 10).map((issue) => {
      const message = /[а-яё]/i.test(issue.message) ? issue.message : 'поле не подходит по виду.';
      return `${pathName(issue.path)}${message}`;
    });
    return { ok: false, problems };
  }
  return { ok: true, file: parsed.data };
}

/** `POST …/device-profile/import/`: the file's text as it was loaded. */
export const importDeviceProfileBodySchema = z.object({
  file: z.string().max(DEVICE_PROFILE_MAX_BYTES * 4),
});

export const importDeviceProfileResponseSchema = z.object({
  model: z.string(),
  /** The barrier's profile now (null: the model's sheet as it is). */
  profile: z
    .object({
      number_format: z.string().optional(),
      clock_order: z.string().optional(),
      replies: z.partialRecord(z.string(), z.array(z.string())).optional(),
    })
    .nullable(),
  /** How many conformance runs the file says verified it (on the server it came from). */
  verified: z.number().int(),
});
export type ImportDeviceProfileResponse = z.infer<typeof importDeviceProfileResponseSchema>;
