/**
 * Device models the create form offers: one list, `DEVICE_MODEL_OPTIONS` of @propusk/devices, the list the
 * server checks the model against (issue 32, item 7). Every model with a command sheet is shown with its
 * capacity; a model the engine cannot confirm yet is shown disabled with the reason. Models without a device
 * password disable the password field.
 */
import {
  type DeviceModelOption,
  definedModelId,
  getSheet,
  isDeviceModel,
  DEVICE_MODEL_OPTIONS as MODELS,
} from '@propusk/devices/models';

export interface ModelSelectOption {
  value: string;
  label: string;
  disabled: boolean;
}

const numbersWord = (count: number): string => {
  const tens = count % 100;
  const units = count % 10;
  if (tens >= 11 && tens <= 14) return 'номеров';
  if (units === 1) return 'номер';
  if (units >= 2 && units <= 4) return 'номера';
  return 'номеров';
};

export const modelOptionLabel = (option: DeviceModelOption): string =>
  `${option.label} — до ${option.capacity} ${numbersWord(option.capacity)}`;

export const DEVICE_MODEL_OPTIONS: readonly ModelSelectOption[] = MODELS.map((option) => ({
  value: option.model,
  label: option.available ? modelOptionLabel(option) : `${modelOptionLabel(option)} (пока недоступна)`,
  disabled: !option.available,
}));

export const DEFAULT_DEVICE_MODEL = 'RTU5025';

export function findModelOption(model: string): DeviceModelOption | null {
  return MODELS.find((option) => option.model === model) ?? null;
}

export function hasDevicePassword(model: string): boolean {
  return isDeviceModel(model) ? getSheet(model).hasPassword : true;
}

/** The password hint of the chosen model (null: no password); a defined model's from its installed sheet. */
export function devicePasswordHint(model: string): string | null {
  const option = findModelOption(model);
  if (option) return option.passwordHint;
  return isDeviceModel(model) ? getSheet(model).passwordHint : null;
}

/** How many numbers the chosen model holds (the form's upper bound for "Максимум номеров"). */
export function deviceCapacity(model: string): number {
  return findModelOption(model)?.capacity ?? (isDeviceModel(model) ? getSheet(model).capacity : 10000);
}

/** Digits of the chosen model's password: 4 on every built-in model, a defined model's own. */
export function devicePasswordLength(model: string): number {
  if (!isDeviceModel(model)) return 4;
  const digits = /\\d\{(\d)\}/.exec(getSheet(model).passwordPattern?.source ?? '')?.[1];
  return digits ? Number(digits) : 4;
}

export const isDevicePassword = (value: string, model?: string) =>
  model !== undefined && isDeviceModel(model)
    ? (getSheet(model).passwordPattern?.test(value) ?? true)
    : /^\d{4}$/.test(value);

/** A defined model as the barrier form offers it (the administrator's own; issue 42 item 4). */
export const definedModelOption = (model: {
  model: string;
  name: string;
  capacity: number;
}): ModelSelectOption => ({
  value: model.model,
  label: `${model.name} — своя модель, до ${model.capacity} ${numbersWord(model.capacity)}`,
  disabled: false,
});

/** What the screens call a barrier's model: a built-in one by its name, a defined one by the name he gave it. */
export function deviceModelLabel(model: string): string {
  if (definedModelId(model) === null) return model;
  return isDeviceModel(model) ? getSheet(model).label : 'своя модель';
}
