import type { DeviceSheet } from './sheet-types.ts';
import { rtu5024Sheet } from './sheets/rtu5024.ts';
import { rtu5025Sheet } from './sheets/rtu5025.ts';
import { telemetricaSheet } from './sheets/telemetrica.ts';

export const DEVICE_MODELS = ['RTU5025', 'Telemetrica', 'RTU5024'] as const;
export type DeviceModel = (typeof DEVICE_MODELS)[number];

const sheets: Record<DeviceModel, DeviceSheet> = {
  RTU5025: rtu5025Sheet,
  Telemetrica: telemetricaSheet,
  RTU5024: rtu5024Sheet,
};

export function isDeviceModel(value: unknown): value is DeviceModel {
  return typeof value === 'string' && (DEVICE_MODELS as readonly string[]).includes(value);
}

export function getSheet(model: DeviceModel): DeviceSheet {
  return sheets[model];
}

/** True when the password fits the model (any value, ignored, for models without a password). */
export function isValidDevicePassword(model: DeviceModel, password: string | null | undefined): boolean {
  const pattern = sheets[model].passwordPattern;
  return pattern === null || (typeof password === 'string' && pattern.test(password));
}

/** The `{pwd}` value for a command; a password that does not fit the model is a bug upstream, so it throws. */
export function passwordValue(model: DeviceModel, password: string | null | undefined): string {
  const sheet = sheets[model];
  if (!sheet.hasPassword) return '';
  if (!isValidDevicePassword(model, password)) {
    throw new Error(`The device password does not fit the ${model} model.`);
  }
  return password ?? '';
}
