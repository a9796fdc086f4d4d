import type { DeviceSheet } from './sheet-types.ts';
import { callnyG202Sheet, callnyG203Sheet } from './sheets/callny.ts';
import { esim120Sheet, esim320Sheet } from './sheets/eldes.ts';
import { g200Sheet } from './sheets/g200.ts';
import { rtu5024Sheet } from './sheets/rtu5024.ts';
import { rtu5024HashSheet } from './sheets/rtu5024-hash.ts';
import { rtu5025Sheet } from './sheets/rtu5025.ts';
import { telemetricaSheet } from './sheets/telemetrica.ts';
import { tellGateControlSheet } from './sheets/tell.ts';
import { tellBase1000Sheet } from './sheets/tell-base.ts';

/** Every model with a command sheet. */
export const DEVICE_MODELS = [
  'RTU5025',
  'Telemetrica',
  'RTU5024',
  'RTU5024-HASH',
  'G200',
  'ESIM120',
  'ESIM320',
  'TELL-GC20',
  'CALLNY-G202',
  'CALLNY-G203',
  'TELL-BASE1000',
] as const;
export type BuiltInModel = (typeof DEVICE_MODELS)[number];
/** A model an operator defined (`device_models` row id): `defined:17` (docs/decisions/0039). */
export type DefinedModelKey = `defined:${number}`;
export type DeviceModel = BuiltInModel | DefinedModelKey;

export const definedModelKey = (id: number): DefinedModelKey => `defined:${id}`;

/** The id of a defined model's key, or null for anything else. */
export function definedModelId(model: string): number | null {
  const match = /^defined:([1-9]\d{0,9})$/.exec(model);
  return match ? Number(match[1]) : null;
}

const sheets: Record<BuiltInModel, DeviceSheet> = {
  RTU5025: rtu5025Sheet,
  Telemetrica: telemetricaSheet,
  RTU5024: rtu5024Sheet,
  'RTU5024-HASH': rtu5024HashSheet,
  G200: g200Sheet,
  ESIM120: esim120Sheet,
  ESIM320: esim320Sheet,
  'TELL-GC20': tellGateControlSheet,
  'CALLNY-G202': callnyG202Sheet,
  'CALLNY-G203': callnyG203Sheet,
  'TELL-BASE1000': tellBase1000Sheet,
};

/**
 * The defined models' sheets this process knows (`installDefinedModels` in ./defined-model.ts, called by the
 * server at start and after each change of a definition). The one piece of state in this package: a
 * definition lives in the database, and every pure function here takes a model key, not a sheet
 * (docs/decisions/0039 says why and what it costs).
 */
let definedSheets: ReadonlyMap<string, DeviceSheet> = new Map();

export function setDefinedSheets(entries: Iterable<readonly [DefinedModelKey, DeviceSheet]>): void {
  definedSheets = new Map(entries);
}

export function isBuiltInModel(value: unknown): value is BuiltInModel {
  return typeof value === 'string' && (DEVICE_MODELS as readonly string[]).includes(value);
}

/** A built-in model, or a defined one this process knows. */
export function isDeviceModel(value: unknown): value is DeviceModel {
  return isBuiltInModel(value) || (typeof value === 'string' && definedSheets.has(value));
}

export function getSheet(model: DeviceModel): DeviceSheet {
  if (isBuiltInModel(model)) return sheets[model];
  const sheet = definedSheets.get(model);
  if (!sheet) throw new Error(`No sheet for the model ${model}.`);
  return sheet;
}

/**
 * Why a new barrier cannot choose a model yet (Russian, shown under the option), or null when it can. The
 * engine confirms a change by a documented reply, or by reading the changed slot back (`read_back`); a model
 * that can be confirmed neither way (`none`) cannot be chosen.
 */
export function modelUnavailableReason(model: DeviceModel): string | null {
  const { confirmation } = getSheet(model);
  // `read_back`: the engine sends the change, then reads its slot back, and confirms the change only when
  // the reading shows it (apps/server engine, docs/decisions/0026).
  if (confirmation === 'reply' || confirmation === 'read_back') return null;
  return 'Устройство не отвечает на запись номера и не умеет присылать список: изменения нельзя подтвердить.';
}

/** One model as the barrier form offers it. */
export interface DeviceModelOption {
  model: BuiltInModel;
  label: string;
  /** How many numbers the unit holds, by its documents. */
  capacity: number;
  hasPassword: boolean;
  /** Russian hint for the password field (null: the model has no password). */
  passwordHint: string | null;
  /** Whether a new barrier may choose it (see `unavailableReason`). */
  available: boolean;
  unavailableReason: string | null;
}

/** Every model with its capacity and password hint: the barrier form's list and the server's check. */
export const DEVICE_MODEL_OPTIONS: readonly DeviceModelOption[] = DEVICE_MODELS.map((model) => {
  const sheet = sheets[model];
  const reason = modelUnavailableReason(model);
  return {
    model,
    label: sheet.label,
    capacity: sheet.capacity,
    hasPassword: sheet.hasPassword,
    passwordHint: sheet.passwordHint,
    available: reason === null,
    unavailableReason: reason,
  };
});

/** A model a new barrier may choose: it has a sheet and the engine can confirm its changes. */
export function isAvailableDeviceModel(value: unknown): value is DeviceModel {
  // A defined model is offered only through its owner's list (the barriers service checks the owner).
  return isDeviceModel(value) && modelUnavailableReason(value) === null;
}

/** True when the password fits the model (any value, ignored, for models without a password). */
export function isValidDevicePassword(model: DeviceModel, password: string | null | undefined): boolean {
  const pattern = getSheet(model).passwordPattern;
  return pattern === null || (typeof password === 'string' && pattern.test(password));
}

/** The `{pwd}` value for a command; a password that does not fit the model is a bug upstream, so it throws. */
export function passwordValue(model: DeviceModel, password: string | null | undefined): string {
  const sheet = getSheet(model);
  if (!sheet.hasPassword) return '';
  if (!isValidDevicePassword(model, password)) {
    throw new Error(`The device password does not fit the ${model} model.`);
  }
  return password ?? '';
}

/** Russian: what each kind of the unit's unasked SMS says (the device screen's list of unverified forms). */
const ALARM_FORM_NAMES = {
  power_failure: 'Сообщение устройства о пропаже питания',
  power_restored: 'Сообщение устройства о восстановлении питания',
  alarm: 'Тревожное сообщение устройства',
} as const;

/** One form of a model that no source shows for it (the screens mark it «не проверено на устройстве»). */
export interface UnverifiedForm {
  /** Stable and unique within a model's list: the form's side and its text (a React key). */
  key: string;
  /** Russian: what the form does. */
  what: string;
  /** `sms`: a command the server sends (shown as «Текст СМС»); `reply`: text the unit sends («Ответ устройства»). */
  side: 'sms' | 'reply';
  template: string;
}

/**
 * Every whitelist, read-back, clock and setting form of the model that is marked unverified in its sheet, and
 * the unit's replies and messages so marked. Each text once per side: a form that serves two purposes (a read
 * command that is also a setting, one reply text for an add and a delete) keeps its first name.
 */
export function unverifiedForms(model: DeviceModel): UnverifiedForm[] {
  const sheet = getSheet(model);
  const forms = new Map<string, UnverifiedForm>();
  const add = (
    what: string,
    side: UnverifiedForm['side'],
    form: { template: string; unverified?: boolean } | null | undefined,
  ) => {
    const key = `${side}:${form?.template}`;
    if (form?.unverified && !forms.has(key)) forms.set(key, { key, what, side, template: form.template });
  };
  add('Запись номера', 'sms', sheet.commands.add);
  add('Удаление номера', 'sms', sheet.commands.delete);
  add('Установка часов', 'sms', sheet.commands.setClock);
  add('Чтение номеров', 'sms', sheet.readBack?.command);
  add(
    'Запись нескольких номеров одной СМС',
    'sms',
    sheet.batch?.add ? { ...sheet.batch.add, template: sheet.batch.add.prefix + sheet.batch.add.item } : null,
  );
  for (const reply of sheet.replies.add) add('Ответ на запись номера', 'reply', reply);
  for (const reply of sheet.replies.delete) add('Ответ на удаление номера', 'reply', reply);
  const readReplies = [
    ...(sheet.readBack?.line ?? []),
    ...(sheet.readBack?.empty ?? []),
    ...(sheet.readBack?.emptyList ?? []),
  ];
  for (const reply of readReplies) add('Ответ на чтение номеров', 'reply', reply);
  for (const setting of Object.values(sheet.settings)) add(setting.name, 'sms', setting);
  for (const form of sheet.alarms?.forms ?? [])
    add(ALARM_FORM_NAMES[form.kind], 'reply', {
      template: form.example,
      unverified: form.unverified ?? false,
    });
  return [...forms.values()];
}
