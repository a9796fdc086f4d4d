/**
 * The shape of a device model's command sheet. A sheet is data: templates with `{key}` placeholders,
 * reply templates, and the few pure functions that translate numbers and slots into the form the model
 * expects. The planner, the renderer, the reply matcher and the simulator are generic over sheets, so a new
 * controller model is a new sheet, not new code paths.
 */

/** What a setting does to the device; the simulator acts on it, the server only needs `changes_password`. */
export type SettingEffect =
  | 'device_number'
  | 'change_password'
  | 'query_slot'
  | 'query_range'
  | 'allow_all'
  | 'allow_listed'
  | 'relay_time'
  | 'messages'
  | 'open'
  | 'close';

export interface SettingParamSheet {
  key: string;
  /** Russian label shown as the input label. */
  name: string;
  /** Russian hint shown as the input placeholder. */
  description: string;
  example: string;
  /** Whole-value pattern (anchored by the code that uses it). Also used by the simulator to parse. */
  pattern: string;
  /** English message returned when the value does not fit. */
  invalidMessage: string;
  /** Extra check after the pattern (ranges); returns an English message or null. */
  check?: (value: string) => string | null;
  /** Normalises an accepted value into the form written in the SMS (e.g. zero padding). */
  normalize?: (value: string) => string;
}

export interface SettingSheet {
  name: string;
  description: string;
  /** `{pwd}` is filled by the server and is not a param. */
  template: string;
  params: SettingParamSheet[];
  /** Reply template. Placeholders: the params, plus `{number}` (query_slot) and `{lines}` (query_range). */
  reply: string;
  effect: SettingEffect;
  /** Checks that involve several params (e.g. a range); English messages per key. */
  checkAll?: (params: Record<string, string>) => Record<string, string>;
}

export interface CommandTemplates {
  add: string;
  /** Add with a time window `{start}`..`{end}` (device local time, `timeFormat`). Null: no windows. */
  addWindow: string | null;
  delete: string;
  /** Set the device clock to `{time}`. Null: the model has no clock. */
  setClock: string | null;
}

export interface ReplyTemplates {
  add: string;
  addWindow: string | null;
  delete: string;
  setClock: string | null;
  /** Reply to any command carrying a wrong password. Null: the model has no password. */
  refused: string | null;
  /** One line of the query_range reply (`{slot}`, `{number}`), joined with newlines into `{lines}`. */
  rangeLine: string;
  /** `{lines}` when the queried range is empty. */
  rangeEmpty: string;
  /** `{number}` in the query_slot reply when the slot is empty. */
  emptySlot: string;
}

export interface DeviceSheet {
  model: string;
  label: string;
  /** Slots are 1..slotCount. */
  slotCount: number;
  hasPassword: boolean;
  /** Anchored pattern of a valid device password; null when the model has none. */
  passwordPattern: RegExp | null;
  supportsTimeWindows: boolean;
  /** Format of `{start}`, `{end}` and `{time}` (device local time). */
  timeFormat: 'YYMMDDHHmm' | null;
  /** '+7XXXXXXXXXX' → the form the device stores and compares. */
  formatNumber: (e164: string) => string;
  /** The device form → '+7XXXXXXXXXX' (null when it is not a number of this model's form). */
  parseNumber: (deviceForm: string) => string | null;
  /** Pattern (unanchored source) of a number in the device form, for parsing commands. */
  numberPattern: string;
  formatSlot: (slot: number) => string;
  /** Pattern (unanchored source) of a slot as written in commands. */
  slotPattern: string;
  commands: CommandTemplates;
  replies: ReplyTemplates;
  settings: Record<string, SettingSheet>;
}
