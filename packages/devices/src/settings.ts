import { matchErrorReply } from './commands.ts';
import { type DeviceModel, getSheet, passwordValue } from './models.ts';
import type { SettingSheet } from './sheet-types.ts';
import { fillTemplate, matchesReplyForms } from './template.ts';

export interface SettingParamView {
  key: string;
  name: string;
  description: string;
  example: string;
}

export interface SettingView {
  name: string;
  description: string;
  template: string;
  params: SettingParamView[];
}

export type RenderSettingResult =
  | { ok: true; text: string }
  | { ok: false; missing: string[]; invalid: Record<string, string> };

export type SettingParams = Record<string, string | null | undefined>;

/** The settings of a model as the settings screen shows them (`{pwd}` is not a param). */
export function getSettings(model: DeviceModel): Record<string, SettingView> {
  const result: Record<string, SettingView> = {};
  for (const [id, setting] of Object.entries(getSheet(model).settings)) {
    result[id] = {
      name: setting.name,
      description: setting.description,
      template: setting.template,
      params: setting.params.map(({ key, name, description, example }) => ({
        key,
        name,
        description,
        example,
      })),
    };
  }
  return result;
}

function findSetting(model: DeviceModel, settingId: string): SettingSheet | undefined {
  const settings = getSheet(model).settings;
  return Object.hasOwn(settings, settingId) ? settings[settingId] : undefined;
}

export function hasSetting(model: DeviceModel, settingId: string): boolean {
  return findSetting(model, settingId) !== undefined;
}

type CheckedParams =
  | { ok: true; values: Record<string, string> }
  | { ok: false; missing: string[]; invalid: Record<string, string> };

/** Trims, checks and normalises the params of a setting; unknown params are ignored. */
export function checkSettingParams(
  model: DeviceModel,
  settingId: string,
  params: SettingParams,
): CheckedParams {
  const setting = findSetting(model, settingId);
  if (!setting) return { ok: false, missing: [], invalid: { setting: 'Неизвестная настройка.' } };
  const missing: string[] = [];
  const invalid: Record<string, string> = {};
  const values: Record<string, string> = {};
  for (const param of setting.params) {
    const raw = params[param.key];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '') {
      missing.push(param.key);
      continue;
    }
    if (!new RegExp(`^(?:${param.pattern})$`).test(value)) {
      invalid[param.key] = param.invalidMessage;
      continue;
    }
    const problem = param.check?.(value) ?? null;
    if (problem !== null) {
      invalid[param.key] = problem;
      continue;
    }
    values[param.key] = param.normalize ? param.normalize(value) : value;
  }
  if (missing.length === 0 && Object.keys(invalid).length === 0) {
    Object.assign(invalid, setting.checkAll?.(values) ?? {});
  }
  if (missing.length > 0 || Object.keys(invalid).length > 0) return { ok: false, missing, invalid };
  return { ok: true, values };
}

/** The SMS text of a setting, or what is missing or wrong in the params. */
export function renderSetting(
  model: DeviceModel,
  settingId: string,
  params: SettingParams,
  password: string | null | undefined,
): RenderSettingResult {
  const checked = checkSettingParams(model, settingId, params);
  if (!checked.ok) return checked;
  const setting = findSetting(model, settingId)!;
  return {
    ok: true,
    text: fillTemplate(setting.template, { ...checked.values, pwd: passwordValue(model, password) }),
  };
}

/**
 * The new device password this setting sets, once the device confirms it (null for other settings).
 * The server stores it only after `matchSettingReply` says 'confirmed'.
 */
export function changesPasswordTo(
  model: DeviceModel,
  settingId: string,
  params: SettingParams,
): string | null {
  const setting = findSetting(model, settingId);
  if (setting?.effect !== 'change_password') return null;
  const checked = checkSettingParams(model, settingId, params);
  return checked.ok ? (checked.values.new_password ?? null) : null;
}

/**
 * Whether a received SMS is the device's answer to this setting: 'confirmed', 'refused' (wrong password),
 * 'format_error' (not understood), or null (not it). A setting without a documented reply is confirmed by
 * any reply that is not an error: the manuals say every understood command is answered.
 */
export function matchSettingReply(
  model: DeviceModel,
  settingId: string,
  params: SettingParams,
  replyText: string,
): 'confirmed' | 'refused' | 'format_error' | null {
  const sheet = getSheet(model);
  const setting = findSetting(model, settingId);
  if (!setting) return null;
  const error = matchErrorReply(sheet, replyText);
  if (error) return error;
  if (setting.replies.length === 0) return replyText.trim() === '' ? null : 'confirmed';
  const checked = checkSettingParams(model, settingId, params);
  return matchesReplyForms(setting.replies, checked.ok ? checked.values : {}, replyText) ? 'confirmed' : null;
}
