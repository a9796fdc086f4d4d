/**
 * A model's forms as one shareable file (issue 42 item 5, docs/devices/PROFILE-FORMAT.md). `profileFile`
 * writes a built-in sheet, or a barrier's resolved sheet (its learnt profile applied), as the file's data;
 * `overrideFromFile` reads a file whose shape is already checked (`@propusk/contracts/device-profile-file`)
 * back into the barrier profile it stands for, with Russian problems. Pure: no I/O, no clock.
 *
 * Only what a profile may change travels back: learnt reply forms (`learnt: true`), the number form and the
 * clock order. The commands and the sheet's own replies must be the model's (a file cannot rewrite a sheet:
 * operator-defined models are issue 42 item 4). The device password is never in a file: commands carry
 * `{pwd}`, and the factory password is not written.
 */
import { type DeviceModel, getSheet, isDeviceModel } from './models.ts';
import { isNumberFormat } from './numbers.ts';
import {
  type DeviceProfileOverride,
  OVERRIDE_REPLY_KINDS,
  type OverrideReplyKind,
  resolveSheet,
  validateProfileOverride,
} from './profile.ts';
import type { DeviceSheet, SourcedForm } from './sheet-types.ts';

export const PROFILE_FILE_FORMAT = 'propusk-device-profile';
export const PROFILE_FILE_VERSION = 1;

export interface FileForm {
  template: string;
  source: string;
  unverified?: boolean | undefined;
  learnt?: boolean | undefined;
}

export const FILE_REPLY_KINDS = [
  'add',
  'add_window',
  'delete',
  'set_clock',
  'refused',
  'format_error',
] as const;
type FileReplyKind = (typeof FILE_REPLY_KINDS)[number];

export interface FileRun {
  run: number;
  date: string;
  model: string;
  all_confirmed: boolean;
  /** The unit's own firmware text, where it reports one. */
  firmware?: string | undefined;
  steps: { key: string; verdict: string }[];
}

/** The file's data (the same shape as `deviceProfileFileSchema`). */
export interface ProfileFileData {
  format: typeof PROFILE_FILE_FORMAT;
  version: typeof PROFILE_FILE_VERSION;
  model: string;
  exported_at: string;
  source: { kind: 'sheet' | 'barrier'; note: string };
  number_format: string;
  clock_order: string | null;
  forms: { add: FileForm; add_window: FileForm | null; delete: FileForm; set_clock: FileForm | null };
  replies: Record<FileReplyKind, FileForm[]>;
  verified: FileRun[];
}

const sheetReplies = (sheet: DeviceSheet): Record<FileReplyKind, SourcedForm[]> => ({
  add: sheet.replies.add,
  add_window: sheet.replies.addWindow,
  delete: sheet.replies.delete,
  set_clock: sheet.replies.setClock,
  refused: sheet.replies.refused,
  format_error: sheet.replies.formatError,
});

const fileForm = (form: SourcedForm, learnt: boolean): FileForm => ({
  template: form.template,
  source: form.source,
  ...(form.unverified ? { unverified: true } : {}),
  ...(learnt ? { learnt: true } : {}),
});

export interface ProfileFileInput {
  model: DeviceModel;
  /** The barrier's profile (null or absent: the built-in sheet as it is). */
  override?: DeviceProfileOverride | null;
  source: { kind: 'sheet' | 'barrier'; note: string };
  exportedAt: Date;
  verified?: FileRun[];
}

/** The file of a model's sheet with a barrier's profile applied: commands, replies, learnt marks, runs. */
export function profileFile(input: ProfileFileInput): ProfileFileData {
  const sheet = resolveSheet(input.model, input.override ?? null);
  const learnt = input.override?.replies ?? {};
  const replies = sheetReplies(sheet);
  const command = (form: SourcedForm | null) => (form ? fileForm(form, false) : null);
  return {
    format: PROFILE_FILE_FORMAT,
    version: PROFILE_FILE_VERSION,
    model: input.model,
    exported_at: input.exportedAt.toISOString(),
    source: input.source,
    number_format: sheet.numberFormat,
    clock_order: sheet.clockOrder,
    forms: {
      add: fileForm(sheet.commands.add, false),
      add_window: command(sheet.commands.addWindow),
      delete: fileForm(sheet.commands.delete, false),
      set_clock: command(sheet.commands.setClock),
    },
    replies: Object.fromEntries(
      FILE_REPLY_KINDS.map((kind) => {
        const own = (learnt as Partial<Record<string, string[]>>)[kind]?.length ?? 0;
        return [kind, replies[kind].map((form, index) => fileForm(form, index < own))];
      }),
    ) as Record<FileReplyKind, FileForm[]>,
    verified: input.verified ?? [],
  };
}

export type FileOverrideResult =
  | { ok: true; model: DeviceModel; override: DeviceProfileOverride | null }
  | { ok: false; problems: string[] };

const KIND_NAMES: Record<FileReplyKind, string> = {
  add: 'запись номера',
  add_window: 'запись номера с окном',
  delete: 'удаление номера',
  set_clock: 'установка часов',
  refused: 'неверный пароль',
  format_error: 'команда не понята',
};
const COMMAND_NAMES: Record<keyof ProfileFileData['forms'], string> = KIND_NAMES;

/**
 * The barrier profile a checked file stands for on a barrier of `barrierModel`. Problems: another model, an
 * unknown model, a command that is not the model's, a reply form the sheet does not have and that is not
 * marked learnt, a learnt form with a parameter its command does not have (as the profile editor says).
 */
export function overrideFromFile(file: ProfileFileData, barrierModel: DeviceModel): FileOverrideResult {
  if (!isDeviceModel(file.model)) {
    return { ok: false, problems: [`Неизвестная модель устройства: «${file.model}».`] };
  }
  if (file.model !== barrierModel) {
    return {
      ok: false,
      problems: [`Профиль снят с модели ${file.model}, а устройство шлагбаума — ${barrierModel}.`],
    };
  }
  const model = file.model;
  const sheet = getSheet(model);
  const problems: string[] = [];
  const raw: Record<string, unknown> = {};
  if (!isNumberFormat(file.number_format))
    problems.push(`Неизвестный формат номера: «${file.number_format}».`);
  else if (file.number_format !== sheet.numberFormat) raw.number_format = file.number_format;
  if (file.clock_order !== sheet.clockOrder) raw.clock_order = file.clock_order;

  const replies: Partial<Record<OverrideReplyKind, string[]>> = {};
  for (const kind of FILE_REPLY_KINDS) {
    const documented = new Set(sheetReplies(sheet)[kind].map((form) => form.template));
    const clockReplies = kind === 'set_clock' ? sheet.clockForms.flatMap((form) => form.replies) : [];
    for (const form of clockReplies) documented.add(form.template);
    for (const form of file.replies[kind]) {
      if (form.learnt) {
        if (!(OVERRIDE_REPLY_KINDS as readonly string[]).includes(kind)) {
          problems.push(`Ответ «${KIND_NAMES[kind]}» не может быть выученным.`);
          continue;
        }
        const list = replies[kind as OverrideReplyKind] ?? [];
        list.push(form.template);
        replies[kind as OverrideReplyKind] = list;
      } else if (!documented.has(form.template)) {
        problems.push(
          `Ответ «${KIND_NAMES[kind]}» «${form.template}» не из листа модели ${model}: свой текст устройства отмечается "learnt": true.`,
        );
      }
    }
  }
  if (Object.keys(replies).length > 0) raw.replies = replies;
  if (problems.length > 0) return { ok: false, problems };

  const checked = validateProfileOverride(model, raw);
  if (!checked.ok) {
    return {
      ok: false,
      problems: Object.entries(checked.errors).map(([path, message]) => `${pathLabel(path)}: ${message}`),
    };
  }
  const override = Object.keys(checked.value).length > 0 ? checked.value : null;
  // The commands follow from the model and the clock order: a file cannot change them.
  const resolved = resolveSheet(model, override);
  const expected: Record<keyof ProfileFileData['forms'], SourcedForm | null> = {
    add: resolved.commands.add,
    add_window: resolved.commands.addWindow,
    delete: resolved.commands.delete,
    set_clock: resolved.commands.setClock,
  };
  for (const key of Object.keys(expected) as (keyof ProfileFileData['forms'])[]) {
    if ((file.forms[key]?.template ?? null) !== (expected[key]?.template ?? null)) {
      problems.push(
        `Команда «${COMMAND_NAMES[key]}» отличается от листа модели ${model}: команды модели в файле не меняются.`,
      );
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, model, override };
}

/** `replies.add.0` → «ответ „запись номера“, форма 1» (no field paths in a message). */
function pathLabel(path: string): string {
  const [head, kind, index] = path.split('.');
  if (head === 'replies' && kind && kind in KIND_NAMES) {
    const name = `Ответ «${KIND_NAMES[kind as FileReplyKind]}»`;
    return index === undefined ? name : `${name}, форма ${Number(index) + 1}`;
  }
  if (head === 'number_format') return 'Формат номера';
  if (head === 'clock_order') return 'Порядок цифр времени';
  return 'Профиль';
}
