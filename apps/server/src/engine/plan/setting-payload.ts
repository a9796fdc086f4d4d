/**
 * How a setting command is kept in the outbox: its id and params, with the params of a password change
 * sealed under the server key (a new device password never lands in the database in clear).
 */
import { type DeviceModel, getSheet } from '@propusk/devices/models';
import type { Secrets } from '../../lib/secrets.ts';

export interface SettingPayload {
  setting: string;
  /** Params that are safe to keep readable. */
  params: Record<string, string>;
  /** Sealed JSON of the secret params (a password change). */
  sealed?: string;
}

export function isSecretSetting(model: DeviceModel, settingId: string): boolean {
  const settings = getSheet(model).settings;
  return Object.hasOwn(settings, settingId) && settings[settingId]?.effect === 'change_password';
}

export function sealSettingPayload(
  secrets: Secrets,
  model: DeviceModel,
  settingId: string,
  values: Record<string, string>,
): SettingPayload {
  if (!isSecretSetting(model, settingId)) return { setting: settingId, params: values };
  return { setting: settingId, params: {}, sealed: secrets.encrypt(JSON.stringify(values)) };
}

export function openSettingPayload(secrets: Secrets, payload: SettingPayload): Record<string, string> {
  const sealed = payload.sealed
    ? (JSON.parse(secrets.decrypt(payload.sealed)) as Record<string, string>)
    : {};
  return { ...payload.params, ...sealed };
}
