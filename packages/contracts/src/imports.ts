/**
 * Bulk import of residents and their numbers into a barrier (issue 14): the file's columns, the words of its
 * cells, the preview and the result. Row problems carry a stable code and the Russian text a person reads.
 */
import { z } from 'zod';
import { PHONE_TYPES } from './phones.ts';

/** The columns of the file, in the template's order (headers are matched without case, in any order). */
export const IMPORT_COLUMNS = {
  phone: 'Телефон',
  name: 'Имя',
  note: 'Квартира или примечание',
  type: 'Тип',
  start: 'Начало',
  end: 'Конец',
  schedule: 'Расписание',
} as const;
export type ImportColumn = keyof typeof IMPORT_COLUMNS;

/** The words of the «Тип» column; an empty cell is «Основной» (the resident's own number, his account). */
export const IMPORT_TYPE_WORDS = {
  primary: 'Основной',
  permanent: 'Постоянный',
  temporary: 'Временный',
  schedule: 'По расписанию',
} as const;

/** A line whose «Телефон» cell starts with this is a comment (the template's explanation) and is skipped. */
export const IMPORT_COMMENT_MARK = '#';
export const IMPORT_MAX_FILE_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
/**
 * The longest cell of a data row (issue 40 item 1): far above any column's need (a name is at most 150
 * characters, a schedule of a week a few hundred), so a longer one is refused with the file before any rule reads it.
 */
export const IMPORT_MAX_CELL_LENGTH = 1000;

/** The template's explanation line, under the headers. */
export const IMPORT_TEMPLATE_NOTE = [
  '# Строки с «#» в начале (как эта и примеры ниже) не загружаются. Телефон: +7 и 10 цифр (можно 8 и 10 цифр).',
  'Тип: Основной (номер жителя, по нему он входит; пусто — тоже Основной), Постоянный, Временный, По расписанию;',
  'дополнительный номер относится к жителю из ближайшей строки «Основной» выше.',
  'Начало и Конец (для временных): ДД.ММ.ГГГГ ЧЧ:ММ, местное время.',
  'Расписание: пн-пт 08:00-20:00; сб 10:00-14:00 (дни: пн вт ср чт пт сб вс, через «-» или «,»).',
].join(' ');

/** Example rows of the template (a resident, his extra numbers), as comments: they are never imported. */
export const IMPORT_TEMPLATE_EXAMPLES: readonly (readonly string[])[] = [
  ['# пример: +79001234567', 'Иванов Иван', 'кв. 12', 'Основной', '', '', ''],
  ['# пример: +79001234568', 'Иванова Мария', 'кв. 12', 'Постоянный', '', '', ''],
  ['# пример: +79001234569', 'Няня', 'кв. 12', 'По расписанию', '', '', 'пн-пт 08:00-20:00; сб 10:00-14:00'],
  ['# пример: +79001234570', 'Гость', 'кв. 12', 'Временный', '01.12.2026 10:00', '05.12.2026 22:00', ''],
];

export const IMPORT_PROBLEM_TEXTS = {
  phone_invalid: 'Неверный номер телефона: нужен +7 и 10 цифр.',
  phone_duplicate_file: 'Этот номер уже есть в файле выше.',
  phone_duplicate: 'Этот номер уже есть на шлагбауме.',
  type_invalid: 'Неизвестный тип: Основной, Постоянный, Временный или По расписанию.',
  name_too_long: 'Имя с примечанием длиннее 100 знаков.',
  // The clean-text rule of every human text field (issue 29 part 6, clean-text.ts).
  text_not_allowed:
    'В имени или примечании только буквы, цифры, пробелы и знаки препинания: без ссылок, эмодзи и служебных символов.',
  name_required: 'Для дополнительного номера укажите имя.',
  no_resident: 'Нет строки «Основной» выше: неясно, чей это номер.',
  resident_has_problems: 'У основного номера жителя есть ошибки.',
  window_required: 'Для временного номера укажите Начало и Конец.',
  window_format: 'Начало и Конец: ДД.ММ.ГГГГ ЧЧ:ММ.',
  window_order: 'Начало должно быть раньше конца.',
  window_past: 'Конец уже прошёл.',
  schedule_required: 'Для номера по расписанию укажите Расписание.',
  schedule_format: 'Расписание не прочитано: пример «пн-пт 08:00-20:00; сб 10:00-14:00».',
  schedule_invalid: 'В расписании начало позже конца или промежутки пересекаются.',
  schedule_interval_too_short: 'Промежуток расписания короче, чем разрешено на шлагбауме.',
  already_has_access: 'Житель уже подключён к шлагбауму.',
  user_blocked_by_admin: 'Вы заблокировали этого жителя.',
  phone_blocked_on_barrier: 'Этот номер заблокирован владельцем шлагбаума.',
  limit_user_phones: 'Превышен лимит номеров на жителя.',
  limit_user_temporary: 'Превышен лимит временных номеров на жителя.',
  limit_barrier_temporary: 'Превышен лимит временных номеров шлагбаума.',
  limit_user_schedule: 'Превышен лимит номеров по расписанию на жителя.',
  limit_barrier_schedule: 'Превышен лимит номеров по расписанию шлагбаума.',
  no_free_slot: 'Не хватает места в памяти устройства.',
  sms_weekly_limit: 'Превышен недельный лимит СМС шлагбаума.',
} as const;
export type ImportProblemCode = keyof typeof IMPORT_PROBLEM_TEXTS;

export const importProblemSchema = z.object({
  code: z.string(),
  text: z.string(),
});

/**
 * What the commit will do with a row without problems (issue 29 item 5, docs/decisions/0023). One wording per
 * type of row, the same whether the number has an account or not (issue 28: no account oracle): a number with
 * an account is invited and decides itself; a number without one gets access at once.
 */
export const IMPORT_OUTCOME_TEXTS = {
  resident:
    'Получит доступ. Если этим номером уже входят в Пропуск, человек получит приглашение и решит сам.',
  extra_phone:
    'Добавится к номерам жителя выше (если житель уже входит в Пропуск — когда он примет приглашение). Если этим номером входит другой человек, он получит своё приглашение.',
} as const;
export type ImportOutcomeCode = keyof typeof IMPORT_OUTCOME_TEXTS;

export const importRowSchema = z.object({
  /** The line of the file (1 = the headers). */
  line: z.number().int(),
  phone: z.string(),
  name: z.string(),
  note: z.string(),
  type: z.enum(PHONE_TYPES).nullable(),
  problems: z.array(importProblemSchema),
  /** What the commit will do with the row; null while it has problems. */
  outcome: z.object({ code: z.enum(['resident', 'extra_phone']), text: z.string() }).nullable(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const importTotalsSchema = z.object({
  rows: z.number().int(),
  rows_with_problems: z.number().int(),
  /**
   * Residents («Основной» rows without problems). Nothing in a preview or a result says which numbers already
   * have an account (issue 28: no account oracle).
   */
  residents: z.number().int(),
  phones: z.number().int(),
  /**
   * SMS the device commands of the import will take at most (the outbox's plan with every row on the
   * device): rows that become invitations cost nothing until accepted, which the preview does not say.
   */
  sms: z.number().int(),
  /** Minutes the gateway takes to send them. */
  send_minutes: z.number().int(),
});

export const importPreviewSchema = z.object({
  /** SHA-256 of the file: the commit must send the same file with it. */
  digest: z.string(),
  rows: z.array(importRowSchema),
  totals: importTotalsSchema,
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importResultSchema = z.object({
  /** Numbers put on the barrier now (residents without an account and their extra numbers). */
  phones: z.number().int(),
  /** Residents who got access now. */
  residents: z.number().int(),
  /**
   * Invitations made to numbers that already log in to Propusk: access, and the row's extra numbers, only
   * once the person accepts (issue 29 item 5).
   */
  invitations: z.number().int(),
  sms: z.number().int(),
  send_minutes: z.number().int(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const importTemplateQuerySchema = z.object({
  format: z.enum(['csv', 'xlsx']).default('xlsx'),
});

export const IMPORT_MESSAGES = {
  fileMissing: 'Attach the file as the multipart field "file".',
  fileInvalid: 'The file is not a CSV or XLSX table.',
  fileTooLarge: 'The file is larger than 2 MB.',
  headersInvalid: 'The first line must hold the template headers; Телефон is required.',
  empty: 'The file has no rows.',
  tooManyRows: 'The file has more than 5000 rows.',
  cellTooLong: 'A cell of the file is longer than 1000 characters.',
  hasProblems: 'Some rows have problems; nothing was imported.',
  fileChanged: 'The file differs from the one previewed.',
} as const;

export const importCommitQuerySchema = z.object({
  /** The preview's `digest` of the file sent again. */
  digest: z
    .string()
    .regex(/^[0-9a-f]{64}$/, { error: 'Must be the preview’s digest.' })
    .optional(),
});
