/**
 * The shape of a device model's command sheet. A sheet is data: templates with `{key}` placeholders, each
 * with the source it was taken from, and the few facts that translate numbers and slots into the form the
 * model expects. The planner, the renderer, the reply matcher, the read-back and the simulator are generic
 * over sheets, so a new controller model is a new sheet, not new code paths.
 */
import type { NumberFormat } from './numbers.ts';

/** A command or reply form and where it comes from (document, section or page; or "production"). */
export interface SourcedForm {
  template: string;
  source: string;
  /**
   * True when no source shows this exact form for this model (it is inferred, taken from a sibling product,
   * or contradicted): the settings and device screens mark it «не проверено на устройстве».
   */
  unverified?: boolean;
  /** The unit takes the form only from this firmware version on (older units ignore or misread it). */
  minFirmware?: string;
}

/** The two documented digit orders of the RTU clock command (issue 30, item 6). */
export type ClockOrder = 'yyMMddHHmm' | 'ddMMyyHHmm';

/** One documented clock form: the command, its replies, and the order of the digits in `{time}`. */
export interface ClockForm {
  order: ClockOrder;
  command: SourcedForm;
  replies: SourcedForm[];
}

/**
 * Several numbers in one SMS: `prefix` (with `{pwd}`), then `item` per number (`{number}`) joined by
 * `separator`. At most `maxItems` numbers and `maxLength` characters (one SMS).
 */
export interface BatchForm {
  prefix: string;
  item: string;
  separator: string;
  suffix: string;
  maxItems: number;
  maxLength: number;
  source: string;
  /** Reply forms of a batch; `{count}` is the number of items. Empty: as `confirmation` says. */
  replies: SourcedForm[];
  unverified?: boolean;
}

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
  | 'close'
  /** A defined model's own setting: the simulator only answers it. */
  | 'other';

export interface SettingParamSheet {
  key: string;
  /** Russian label shown as the input label. */
  name: string;
  /** Russian hint shown as the input placeholder. */
  description: string;
  example: string;
  /** Whole-value pattern (anchored by the code that uses it). Also used by the simulator to parse. */
  pattern: string;
  /** Russian message returned when the value does not fit. */
  invalidMessage: string;
  /** Extra check after the pattern (ranges); returns a Russian message or null. */
  check?: (value: string) => string | null;
  /** Normalises an accepted value into the form written in the SMS (e.g. zero padding). */
  normalize?: (value: string) => string;
  /**
   * A param with a few fixed values (the device's own words, `ON`/`OFF`): the settings screen offers them as
   * Russian choices (`label`) and sends `value`; the SMS keeps the device's form (issue 32 item 5).
   */
  choices?: readonly { value: string; label: string }[];
}

export interface SettingSheet {
  name: string;
  description: string;
  /** `{pwd}` is filled by the server and is not a param. */
  template: string;
  /** Where the command form comes from. */
  source: string;
  /** The form is not shown by any source for this model (the screens mark it «не проверено на устройстве»). */
  unverified?: boolean;
  params: SettingParamSheet[];
  /**
   * Documented reply forms. Placeholders: the params, plus `{number}` (query_slot) and `{lines}`
   * (query_range). Empty: no reply text is documented, so any reply from the device that is not an error
   * (`refused`, `formatError`) confirms it — the manuals say every understood command is answered.
   */
  replies: SourcedForm[];
  effect: SettingEffect;
  /** Checks that involve several params (e.g. a range); Russian messages per key. */
  checkAll?: (params: Record<string, string>) => Record<string, string>;
}

export interface CommandTemplates {
  add: SourcedForm;
  /** Add with a time window `{start}`..`{end}` (device local time, `timeFormat`). Null: no windows. */
  addWindow: SourcedForm | null;
  /** Placeholders `{slot}` (slot-addressed models) or `{number}` (number-addressed models). */
  delete: SourcedForm;
  /** Set the device clock to `{time}`. Null: the model has no clock. */
  setClock: SourcedForm | null;
}

/** Every documented reply form of the whitelist commands; the first one is what the simulator answers. */
export interface ReplyForms {
  add: SourcedForm[];
  addWindow: SourcedForm[];
  delete: SourcedForm[];
  setClock: SourcedForm[];
  /** A reply that says the password was wrong (nothing changed). */
  refused: SourcedForm[];
  /** A reply that says the command was not understood (nothing changed; sending it again cannot help). */
  formatError: SourcedForm[];
  /** What the simulator answers to a setting without a documented reply. */
  genericSuccess: SourcedForm;
}

/** How the whitelist is read back from the device. */
export interface ReadBackSheet {
  /**
   * `range`: `{from}`..`{to}` in one command, answered `perSms` slots to an SMS;
   * `slot`: one `{slot}` a command; `list`: one command lists every number (number-addressed models).
   */
  mode: 'range' | 'slot' | 'list';
  command: SourcedForm;
  /** Slots asked for in one command (range mode), so that one reply SMS answers one command. */
  perSms: number;
  /** One line of a reply: `{slot}` and `{number}` (range, slot) or `{number}` alone (list). */
  line: SourcedForm[];
  /** One line of a reply for an empty slot (`{slot}`). */
  empty: SourcedForm[];
  /** List mode: the whole reply of a device that holds no number. */
  emptyList?: SourcedForm[];
}

/**
 * What the unit sends by itself, unasked (issue 30 item 5): `power_failure` (its supply was cut),
 * `power_restored` (it came back), `alarm` (any other alarm of the unit).
 */
export type DeviceAlarmKind = 'power_failure' | 'power_restored' | 'alarm';

/**
 * One form of an unasked SMS. A pattern, not a template: no source gives the exact text, so the form is
 * recognised by the words any wording of it must carry (case-insensitive), and `example` is what the
 * simulator sends.
 */
export interface AlarmForm {
  kind: DeviceAlarmKind;
  /** Unanchored, tested case-insensitively against the whole SMS. */
  pattern: RegExp;
  example: string;
  source: string;
  /** True: no source shows this text for this model («не проверено на устройстве»). */
  unverified?: boolean;
}

/** Who receives the unit's unasked SMS, and how they are recognised. */
export interface AlarmSheet {
  /** Slots 1..alarmSlots receive the unit's alarm SMS. */
  alarmSlots: number;
  /** The one slot that receives the power-failure SMS. */
  powerSlot: number;
  /** Where the two facts above come from. */
  recipientsSource: string;
  /** First match wins; a text matching forms of two kinds is not recognised (ambiguous). */
  forms: AlarmForm[];
}

export interface DeviceSheet {
  model: string;
  label: string;
  /** Slots are 1..slotCount. For number-addressed models, the server's own numbering (the device has none). */
  slotCount: number;
  /**
   * `slot`: the device holds numbers in numbered positions; an add overwrites its position and a delete
   * names the position. `number`: the device holds a set of numbers; a delete names the number and an add
   * never removes another number.
   */
  addressing: 'slot' | 'number';
  hasPassword: boolean;
  /** Anchored pattern of a valid device password; null when the model has none. */
  passwordPattern: RegExp | null;
  /** Russian hint for the password field of the barrier form (null: the model has no password). */
  passwordHint: string | null;
  /**
   * How many numbers the unit holds, by its documents (the barrier form's limit). On slot-addressed models
   * this is `slotCount`; on number-addressed ones `slotCount` is only the server's numbering.
   */
  capacity: number;
  /** Where the capacity comes from. */
  capacitySource: string;
  /**
   * How a whitelist change is confirmed: `reply` (a documented reply), `read_back` (no reply documented: the
   * engine reads the slot or list back and compares), `none` (neither is documented: a change cannot be
   * confirmed and the engine must not offer the model until it can).
   */
  confirmation: 'reply' | 'read_back' | 'none';
  /**
   * `confirmation: 'reply'` models whose answer to a delete names nothing ("success", «User removed») but
   * that can read their list: a delete is confirmed by the list read sent right after it (the number gone),
   * not by that answer, which only acknowledges it. Such an answer cannot be told from a late answer to an
   * earlier command, and a delete believed done that the unit never heard leaves a revoked number able to
   * open the gate (docs/decisions/0025, "Deletes read back").
   */
  confirmDeletesByRead?: true;
  /** Several numbers in one SMS, where the model documents it (null: one number an SMS). */
  batch: { add?: BatchForm; delete?: BatchForm } | null;
  /** Documented clock forms, the default (strongest source) first; empty when the model has no clock. */
  clockForms: ClockForm[];
  /** The digit order of `{time}` in the clock command (the chosen clock form's; null: no clock). */
  clockOrder: ClockOrder | null;
  supportsTimeWindows: boolean;
  /** Format of `{start}`, `{end}` and `{time}` (device local time). */
  timeFormat: 'YYMMDDHHmm' | null;
  /** How numbers are written in commands (a barrier's profile may override it). */
  numberFormat: NumberFormat;
  /** Where that number form comes from. */
  numberFormatSource: string;
  formatSlot: (slot: number) => string;
  /** Pattern (unanchored source) of a slot as written in commands. */
  slotPattern: string;
  commands: CommandTemplates;
  replies: ReplyForms;
  /**
   * A reply the source says the unit sends but whose text the source lost (e.g. a manual's "will return:"
   * followed by nothing): per whitelist command, where that is said. The evidence says so instead of "no
   * reply documented"; only a unit can tell the text (a conformance run learns it).
   */
  lostReplies?: Partial<Record<'add' | 'delete', string>>;
  /** Null: no way to read the whitelist back is documented. */
  readBack: ReadBackSheet | null;
  settings: Record<string, SettingSheet>;
  /** The unit's unasked SMS (alarms, power); absent: the model documents none the server can receive. */
  alarms?: AlarmSheet;
  /**
   * What an operator must know of such a unit before Propusk drives it (English sentences, each with its
   * source): `docs/devices/MODELS.md` lists them under the model.
   */
  operatorNotes?: string[];
  /**
   * The password a unit has after its reset button (issue 30 item 4): the administrator's «устройство сброшено
   * к заводским настройкам» sets the stored password again from it. Absent: no source gives it.
   */
  factoryPassword?: { value: string; source: string };
}
