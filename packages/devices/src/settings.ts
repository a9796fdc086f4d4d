import { matchErrorReply } from './commands.ts';
import { maskSecrets, PASSWORD_MASK } from './mask.ts';
import { type DeviceModel, getSheet, passwordValue } from './models.ts';
import type { SettingSheet } from './sheet-types.ts';
import { fillTemplate, matchReplyFormsDetail } from './template.ts';

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

type CheckedParam =
  | { state: 'missing' }
  | { state: 'invalid'; value: string; message: string }
  | { state: 'ok'; value: string };

/** One param as entered: trimmed, checked, and normalised into the form written in the SMS. */
function checkParam(param: SettingSheet['params'][number], raw: string | null | undefined): CheckedParam {
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (value === '') return { state: 'missing' };
  if (!new RegExp(`^(?:${param.pattern})$`).test(value)) {
    return { state: 'invalid', value, message: param.invalidMessage };
  }
  const problem = param.check?.(value) ?? null;
  if (problem !== null) return { state: 'invalid', value, message: problem };
  return { state: 'ok', value: param.normalize ? param.normalize(value) : value };
}

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
    const checked = checkParam(param, params[param.key]);
    if (checked.state === 'missing') missing.push(param.key);
    else if (checked.state === 'invalid') invalid[param.key] = checked.message;
    else values[param.key] = checked.value;
  }
  if (missing.length === 0 && Object.keys(invalid).length === 0) {
    Object.assign(invalid, setting.checkAll?.(values) ?? {});
  }
  if (missing.length > 0 || Object.keys(invalid).length > 0) return { ok: false, missing, invalid };
  return { ok: true, values };
}

/** The SMS text of a setting from its checked values and the device password (the only place it is built). */
function settingText(model: DeviceModel, setting: SettingSheet, values: Record<string, string>, pwd: string) {
  return fillTemplate(setting.template, { ...values, pwd: getSheet(model).hasPassword ? pwd : '' });
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
  return { ok: true, text: settingText(model, setting, checked.values, passwordValue(model, password)) };
}

export interface SettingPreview {
  /**
   * The SMS as the device will receive it, with the password (and a new password) masked as the device log
   * masks them (`maskSecrets`). A param not entered yet stays as its `{key}`; one that does not fit stays as
   * typed.
   */
  text: string;
  /** Every param is accepted: `text` is, but for the masked secrets, exactly what the server sends. */
  isComplete: boolean;
  /** Per param, why the entered value will be refused (the server's own messages). */
  invalid: Record<string, string>;
}

/**
 * The settings screen's 'Команда:' preview, built by the same code as `renderSetting` (values normalised the
 * way the server normalises them: `30` → `030`), so the screen and the device cannot disagree.
 */
export function previewSetting(model: DeviceModel, settingId: string, params: SettingParams): SettingPreview {
  const setting = findSetting(model, settingId);
  if (!setting) return { text: '', isComplete: false, invalid: { setting: 'Неизвестная настройка.' } };
  const values: Record<string, string> = {};
  const invalid: Record<string, string> = {};
  let isComplete = true;
  for (const param of setting.params) {
    const checked = checkParam(param, params[param.key]);
    if (checked.state === 'missing') {
      isComplete = false;
      continue;
    }
    values[param.key] = checked.value;
    if (checked.state === 'invalid') {
      isComplete = false;
      invalid[param.key] = checked.message;
    }
  }
  if (isComplete) {
    Object.assign(invalid, setting.checkAll?.(values) ?? {});
    if (Object.keys(invalid).length > 0) isComplete = false;
  }
  const newPassword = setting.effect === 'change_password' ? (values.new_password ?? null) : null;
  // The password itself is never known here: its mask stands in for it, as in the device log.
  const text = maskSecrets(settingText(model, setting, values, PASSWORD_MASK), [newPassword]);
  return { text, isComplete, invalid };
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
 * The reply forms that confirm a setting: its documented ones; for a setting the sources give no reply
 * (RTU5025 manual v1.5 p. 11, §6.3.1–6.3.5: ALL#, AUT#, GOT, GON/GOFF), only the family's generic
 * acknowledgement (`genericSuccess`, cited in the sheet) — never any text (docs/decisions/0025).
 */
function settingReplyForms(model: DeviceModel, setting: SettingSheet) {
  return setting.replies.length > 0 ? setting.replies : [getSheet(model).replies.genericSuccess];
}

/**
 * Whether a received SMS is the device's answer to this setting, and whether it names it (carries the
 * setting's own values, as `Password changed to 5678`): 'confirmed', 'refused' (wrong password),
 * 'format_error' (not understood), or null (not it).
 */
export function matchSettingReplyDetail(
  model: DeviceModel,
  settingId: string,
  params: SettingParams,
  replyText: string,
): { outcome: 'confirmed' | 'refused' | 'format_error'; names: boolean } | null {
  const sheet = getSheet(model);
  const setting = findSetting(model, settingId);
  if (!setting) return null;
  const error = matchErrorReply(sheet, replyText);
  if (error) return { outcome: error, names: false };
  const checked = checkSettingParams(model, settingId, params);
  const found = matchReplyFormsDetail(
    settingReplyForms(model, setting),
    checked.ok ? checked.values : {},
    replyText,
  );
  return found ? { outcome: 'confirmed', names: found.names } : null;
}

/** `matchSettingReplyDetail` without the naming: what the reply says. */
export function matchSettingReply(
  model: DeviceModel,
  settingId: string,
  params: SettingParams,
  replyText: string,
): 'confirmed' | 'refused' | 'format_error' | null {
  return matchSettingReplyDetail(model, settingId, params, replyText)?.outcome ?? null;
}
