import { alarmExample, alarmRecipientSlots } from './alarms.ts';
import {
  DEFAULT_UTC_OFFSET_MINUTES,
  formatDeviceTime,
  MINUTE_MS,
  parseClockWallTime,
  parseWallTime,
} from './device-time.ts';
import type { DeviceModel } from './models.ts';
import { ANY_NUMBER_PATTERN, parseDeviceNumber } from './numbers.ts';
import { type DeviceProfileOverride, resolveSheet } from './profile.ts';
import type { DeviceAlarmKind, DeviceSheet, SettingSheet } from './sheet-types.ts';
import { fillTemplate, type TemplatePart, templateToRegex } from './template.ts';

export interface SimulatorOptions {
  model: DeviceModel;
  /** The device's password (ignored by models without one). */
  password?: string | null;
  /**
   * The instant the device's clock shows when the simulator first hears of time (its first `receive` or
   * `whitelist` call). Default: a clock that was never set, showing 2000-01-01 00:00.
   */
  clock?: Date;
  /** The barrier's offset from UTC, used only to place `clock`. Default Moscow. */
  utcOffsetMinutes?: number;
  /** A unit that answers as a barrier's profile says (its reply forms first). */
  profile?: DeviceProfileOverride | null;
}

/** What happens to a real unit behind the server's back. */
export type DeviceDrift =
  /** Someone wrote a number into a slot by hand (keypad, or an SMS from his own phone). */
  | { kind: 'manual_add'; slot: number; number: string }
  /** A slot lost its number. */
  | { kind: 'wipe_slot'; slot: number }
  /** The table and the clock were erased (a reset, or a replaced unit set up with the same password). */
  | { kind: 'factory_reset' }
  /**
   * The reset button: the password is the model's factory one again (`factoryPassword`), the numbers are
   * kept (issue 30: "A reset button restores password 1234 and keeps the numbers").
   */
  | { kind: 'password_reset' }
  /**
   * The next batch SMS (several numbers in one, `DeviceSheet.batch`) reaches the unit cut short: it takes the
   * first `keep` numbers only and answers their count (TELL "3 user(s) added" = three numbers taken).
   */
  | { kind: 'short_batch'; keep: number }
  /**
   * The unit on the wall differs from its sheet (issue 42): from now on it answers the named whitelist forms
   * with its own text (`replies`: a template with the sheet's placeholders) and says nothing to the forms in
   * `silent` (it still does what they say). A later `differ` replaces the earlier one.
   */
  | { kind: 'differ'; replies?: Partial<Record<UnitForm, string>>; silent?: UnitForm[] };

/** The whitelist forms a simulated unit may answer differently (`DeviceDrift` `differ`). */
export type UnitForm = 'add' | 'addWindow' | 'delete' | 'setClock';

/** One slot of the device's table, as the device holds it. */
export interface SimulatorSlot {
  slot: number;
  /** '+7XXXXXXXXXX' */
  number: string;
  /** The window as written to the device, `YYMMDDHHmm` local time. */
  window?: { start: string; end: string };
}

export interface SimulatorState {
  password: string | null;
  allowAllCallers: boolean;
  relaySeconds: number | null;
  messages: boolean;
  relayOn: boolean;
  deviceNumber: string | null;
}

export interface DeviceSimulator {
  readonly model: DeviceModel;
  /** The reply SMS to a received SMS, or null when the device ignores it (not a command it understands). */
  receive(text: string, now: Date): string | null;
  /** The numbers the device would let in at `now`, per slot, judging windows by its own clock. */
  whitelist(now: Date): { slot: number; number: string }[];
  /** Whether a call from this number would open the gate at `now`. */
  wouldOpenFor(number: string, now: Date): boolean;
  /** The raw slot table. */
  slots(): SimulatorSlot[];
  /** What the device's clock shows at `now` (`YYMMDDHHmm`). */
  clockReading(now: Date): string;
  state(): SimulatorState;
  /**
   * The relay at `now`: `{pwd}CC` closes it for the relay time (`GOT`, RTU5025 manual p. 11, §6.3.6 "The
   * relay close timer according to the before setting 6.3.3": 000 = 0.5 s, 999 = until the next call or
   * `DD`); a relay time never set is modelled as 999 (the worst case: the server must switch it off).
   */
  relay(now: Date): { on: boolean; seconds: number | null; changes: number };
  /** Changes the device the way people and power cuts do, without telling the server. */
  drift(change: DeviceDrift): void;
  /**
   * The unit's own SMS when its supply is cut or comes back, or another alarm: one SMS (the model's form)
   * to each recipient slot that holds a number (`alarmRecipientSlots`: slot 1 for power), none when the
   * model has no alarm form or the slots are empty — as a real unit, it tells only whom its table names.
   */
  raiseAlarm(kind: DeviceAlarmKind): { to: string; text: string }[];
}

interface StoredSlot {
  deviceNumber: string;
  window?: { start: string; end: string; startWall: number; endWall: number };
}

type Parsed =
  | { kind: 'command'; name: 'add' | 'addWindow' | 'delete' | 'setClock' }
  | { kind: 'setting'; id: string };

interface Parser {
  parsed: Parsed;
  regex: RegExp;
  /** The reply template; null: a setting without a documented reply (the generic success is answered). */
  reply: string | null;
}

const timePart: TemplatePart = { pattern: '\\d{10}' };

function innerPattern(pattern: RegExp): string {
  return pattern.source.replace(/^\^/, '').replace(/\$$/, '');
}

function buildParsers(sheet: DeviceSheet): Parser[] {
  const common: Record<string, TemplatePart> = {
    // Any password of the model's shape is parsed, so that a wrong one can be refused.
    pwd: { pattern: sheet.passwordPattern ? innerPattern(sheet.passwordPattern) : '' },
    slot: { pattern: sheet.slotPattern },
    // A real unit stores whatever digits it is given; any form of a Russian number is accepted.
    number: { pattern: ANY_NUMBER_PATTERN },
    start: timePart,
    end: timePart,
    time: timePart,
  };
  const parsers: Parser[] = [];
  const names = ['addWindow', 'add', 'delete', 'setClock'] as const;
  for (const name of names) {
    const form = sheet.commands[name];
    // A command without a documented reply is applied and answered with silence.
    if (form)
      parsers.push({
        parsed: { kind: 'command', name },
        regex: templateToRegex(form.template, common),
        reply: sheet.replies[name][0]?.template ?? null,
      });
  }
  for (const [id, setting] of Object.entries(sheet.settings)) {
    const parts: Record<string, TemplatePart> = { pwd: common.pwd! };
    for (const param of setting.params) parts[param.key] = { pattern: `(?:${param.pattern})` };
    parsers.push({
      parsed: { kind: 'setting', id },
      regex: templateToRegex(setting.template, parts),
      reply: setting.replies[0]?.template ?? null,
    });
  }
  return parsers;
}

const factoryClockWall = Date.UTC(2000, 0, 1, 0, 0);

/** A device that behaves like the model's sheet says: slot table, windows against its own clock, replies. */
export function createDeviceSimulator(options: SimulatorOptions): DeviceSimulator {
  const model = options.model;
  const sheet = resolveSheet(model, options.profile);
  const parsers = buildParsers(sheet);
  const pwdPart: TemplatePart = { pattern: sheet.passwordPattern ? innerPattern(sheet.passwordPattern) : '' };
  const offsetMs = (options.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES) * MINUTE_MS;
  /** Slot → stored number. On a number-addressed device the keys are only the order numbers arrived in. */
  const table = new Map<number, StoredSlot>();
  const state: SimulatorState = {
    password: sheet.hasPassword ? (options.password ?? null) : null,
    allowAllCallers: false,
    relaySeconds: null,
    messages: true,
    relayOn: false,
    deviceNumber: null,
  };
  /** Device wall-clock milliseconds minus real milliseconds; fixed at the first call that knows `now`. */
  let wallOffset: number | null = null;
  let wasReset = false;
  /** `differ`: the unit's own texts and its silences. */
  let quirks: { replies: Partial<Record<UnitForm, string>>; silent: UnitForm[] } = {
    replies: {},
    silent: [],
  };
  /** `short_batch`: the numbers the next batch keeps (null: all). */
  let nextBatchKeeps: number | null = null;
  /** When a closed relay opens again by its timer (ms since epoch); null: it stays closed. */
  let relayOffAt: number | null = null;
  /** How many times the relay was switched by a command (on or off). */
  let relayChanges = 0;
  const relayOnAt = (now: Date): boolean =>
    state.relayOn && (relayOffAt === null || now.getTime() < relayOffAt);

  const deviceWall = (now: Date): number => {
    if (wallOffset === null) {
      wallOffset =
        options.clock && !wasReset
          ? options.clock.getTime() + offsetMs - now.getTime()
          : factoryClockWall - now.getTime();
    }
    return now.getTime() + wallOffset;
  };

  const parseSlot = (text: string | undefined): number | null => {
    const slot = Number(text);
    return Number.isInteger(slot) && slot >= 1 && slot <= sheet.slotCount ? slot : null;
  };

  const isOpen = (stored: StoredSlot, now: Date): boolean => {
    if (!stored.window) return true;
    const wall = deviceWall(now);
    return stored.window.startWall <= wall && wall < stored.window.endWall;
  };

  const findNumber = (number: string): number[] =>
    [...table.entries()]
      .filter(([, stored]) => parseDeviceNumber(stored.deviceNumber) === number)
      .map(([slot]) => slot);

  const addByNumber = (deviceNumber: string): void => {
    const number = parseDeviceNumber(deviceNumber);
    if (number === null || findNumber(number).length > 0) return;
    table.set(Math.max(0, ...table.keys()) + 1, { deviceNumber });
  };

  const runCommand = (name: string, groups: Record<string, string>, now: Date): boolean => {
    if (name === 'setClock') {
      const wall = parseClockWallTime(groups.time ?? '', sheet.clockOrder ?? 'yyMMddHHmm');
      if (wall === null) return false;
      wallOffset = wall - now.getTime();
      return true;
    }
    if (sheet.addressing === 'number') {
      const number = parseDeviceNumber(groups.number ?? '');
      if (number === null) return false;
      if (name === 'delete') for (const slot of findNumber(number)) table.delete(slot);
      else addByNumber(groups.number ?? '');
      return true;
    }
    const slot = parseSlot(groups.slot);
    if (slot === null) return false;
    if (name === 'delete') {
      table.delete(slot);
      return true;
    }
    const deviceNumber = groups.number ?? '';
    if (parseDeviceNumber(deviceNumber) === null) return false;
    if (name === 'add') {
      table.set(slot, { deviceNumber });
      return true;
    }
    const startWall = parseWallTime(groups.start ?? '');
    const endWall = parseWallTime(groups.end ?? '');
    if (startWall === null || endWall === null || startWall >= endWall) return false;
    table.set(slot, {
      deviceNumber,
      window: { start: groups.start ?? '', end: groups.end ?? '', startWall, endWall },
    });
    return true;
  };

  /** One line of a read-back reply for a slot, in the first documented form. */
  const slotLine = (slot: number): string => {
    const stored = table.get(slot);
    const formatted = sheet.formatSlot(slot);
    if (stored)
      return fillTemplate(sheet.readBack?.line[0]?.template ?? '', {
        slot: formatted,
        number: stored.deviceNumber,
      });
    return fillTemplate(sheet.readBack?.empty[0]?.template ?? '', { slot: formatted });
  };

  /** Applies a setting; returns the reply, or null when the params are not acceptable. */
  const runSetting = (
    setting: SettingSheet,
    reply: string | null,
    groups: Record<string, string>,
    now: Date,
  ): string | null => {
    for (const param of setting.params) {
      if (param.check && param.check(groups[param.key] ?? '') !== null) return null;
    }
    if (setting.checkAll && Object.keys(setting.checkAll(groups)).length > 0) return null;
    const answer = (values: Record<string, string> = {}) =>
      fillTemplate(reply ?? sheet.replies.genericSuccess.template, { ...groups, ...values });
    switch (setting.effect) {
      case 'device_number':
        state.deviceNumber = groups.phone ?? null;
        return answer();
      case 'change_password':
        state.password = groups.new_password ?? state.password;
        return answer();
      case 'query_slot':
        return slotLine(parseSlot(groups.slot) ?? 0);
      case 'query_range': {
        if (sheet.readBack?.mode === 'list') {
          const numbers = [...table.values()].map((stored) => stored.deviceNumber);
          const empty = sheet.readBack.emptyList?.[0] ?? sheet.replies.genericSuccess;
          return numbers.length > 0 ? numbers.join('\n') : empty.template;
        }
        // Every slot of the range, one line each, as the RTU5024 manual lists them (`002: Empty`).
        const from = parseSlot(groups.from) ?? 1;
        const to = parseSlot(groups.to) ?? sheet.slotCount;
        const lines: string[] = [];
        for (let slot = from; slot <= to; slot += 1) lines.push(slotLine(slot));
        return lines.join('\n');
      }
      case 'allow_all':
        state.allowAllCallers = true;
        return answer();
      case 'allow_listed':
        state.allowAllCallers = false;
        return answer();
      case 'relay_time':
        state.relaySeconds = Number(groups.seconds);
        return answer();
      case 'messages':
        state.messages = false;
        return answer();
      case 'open': {
        state.relayOn = true;
        relayChanges += 1;
        const seconds = state.relaySeconds;
        relayOffAt =
          seconds === null || seconds >= 999 ? null : now.getTime() + (seconds === 0 ? 500 : seconds * 1000);
        return answer();
      }
      case 'other':
        return answer();
      case 'close':
        state.relayOn = false;
        relayOffAt = null;
        relayChanges += 1;
        return answer();
    }
  };

  const whitelist = (now: Date) =>
    [...table.entries()]
      .filter(([, stored]) => isOpen(stored, now))
      .sort(([a], [b]) => a - b)
      .map(([slot, stored]) => ({
        slot,
        number: parseDeviceNumber(stored.deviceNumber) ?? stored.deviceNumber,
      }));

  return {
    model,
    receive(text, now) {
      deviceWall(now);
      const trimmed = text.trim();
      for (const parser of parsers) {
        const match = parser.regex.exec(trimmed);
        if (!match) continue;
        const groups: Record<string, string> = { ...match.groups };
        if (sheet.hasPassword && groups.pwd !== state.password)
          return sheet.replies.refused[0]?.template ?? null;
        const { pwd: _password, ...shown } = groups;
        if (parser.parsed.kind === 'command') {
          const name = parser.parsed.name;
          if (!runCommand(name, groups, now)) return formatError();
          if (quirks.silent.includes(name)) return null;
          const own = quirks.replies[name];
          if (own !== undefined) return fillTemplate(own, { count: '1', ...shown });
          return parser.reply === null ? null : fillTemplate(parser.reply, { count: '1', ...shown });
        }
        return runSetting(sheet.settings[parser.parsed.id]!, parser.reply, shown, now) ?? formatError();
      }
      const batch = receiveBatch(trimmed, now);
      if (batch !== undefined) return batch;
      // The right password and a command it does not understand: the manual's format error.
      if (
        sheet.hasPassword &&
        state.password &&
        trimmed.startsWith(state.password) &&
        /^\d{4}[A-Z]/.test(trimmed)
      ) {
        return formatError();
      }
      return null;
    },
    whitelist,
    wouldOpenFor(number, now) {
      return state.allowAllCallers || whitelist(now).some((entry) => entry.number === number);
    },
    slots() {
      return [...table.entries()]
        .sort(([a], [b]) => a - b)
        .map(([slot, stored]) => {
          const entry: SimulatorSlot = {
            slot,
            number: parseDeviceNumber(stored.deviceNumber) ?? stored.deviceNumber,
          };
          if (stored.window) entry.window = { start: stored.window.start, end: stored.window.end };
          return entry;
        });
    },
    clockReading(now) {
      return formatDeviceTime(new Date(deviceWall(now)), 0);
    },
    state() {
      return { ...state };
    },
    relay(now) {
      return { on: relayOnAt(now), seconds: state.relaySeconds, changes: relayChanges };
    },
    raiseAlarm(kind) {
      const text = alarmExample(model, kind);
      if (text === null) return [];
      return alarmRecipientSlots(model, kind).flatMap((slot) => {
        const stored = table.get(slot);
        const to = stored ? parseDeviceNumber(stored.deviceNumber) : null;
        return to ? [{ to, text }] : [];
      });
    },
    drift(change) {
      if (change.kind === 'password_reset') {
        if (!sheet.factoryPassword) throw new Error(`${model} has no known factory password.`);
        state.password = sheet.factoryPassword.value;
        return;
      }
      if (change.kind === 'factory_reset') {
        table.clear();
        wallOffset = null;
        wasReset = true;
        return;
      }
      if (change.kind === 'differ') {
        quirks = { replies: { ...(change.replies ?? {}) }, silent: [...(change.silent ?? [])] };
        return;
      }
      if (change.kind === 'short_batch') {
        nextBatchKeeps = change.keep;
        return;
      }
      if (change.kind === 'wipe_slot') {
        table.delete(change.slot);
        return;
      }
      const number = parseDeviceNumber(change.number);
      if (number === null) throw new Error('A drifted number must be a Russian mobile number.');
      if (sheet.addressing === 'number') addByNumber(number);
      else table.set(change.slot, { deviceNumber: number.replace(/^\+7/, '0007') });
    },
  };

  /**
   * Several numbers in one SMS (`DeviceSheet.batch`): each is applied as its plain command would be; the
   * reply counts them. Undefined: the text is not a batch.
   */
  function receiveBatch(text: string, now: Date): string | null | undefined {
    for (const [kind, form] of Object.entries(sheet.batch ?? {})) {
      const prefix = new RegExp(`^${innerPattern(templateToRegex(form.prefix, { pwd: pwdPart }))}`).exec(
        text,
      );
      if (!prefix) continue;
      let rest = text.slice(prefix[0].length);
      if (form.suffix) {
        if (!rest.endsWith(form.suffix)) continue;
        rest = rest.slice(0, rest.length - form.suffix.length);
      }
      const item = new RegExp(
        `^${innerPattern(templateToRegex(form.item, { number: { pattern: ANY_NUMBER_PATTERN } }))}`,
      );
      const numbers: string[] = [];
      while (rest.length > 0) {
        const match = item.exec(rest);
        if (!match) return undefined;
        numbers.push(match.groups?.number ?? '');
        rest = rest.slice(match[0].length);
        if (rest.length === 0) break;
        if (form.separator) {
          if (!rest.startsWith(form.separator)) return undefined;
          rest = rest.slice(form.separator.length);
        }
      }
      if (numbers.length === 0 || numbers.length > form.maxItems) return undefined;
      if (sheet.hasPassword && prefix.groups?.pwd !== state.password)
        return sheet.replies.refused[0]?.template ?? null;
      if (nextBatchKeeps !== null) numbers.splice(nextBatchKeeps);
      nextBatchKeeps = null;
      for (const number of numbers) {
        if (!runCommand(kind === 'delete' ? 'delete' : 'add', { number }, now)) return formatError();
      }
      const reply = form.replies[0]?.template;
      return reply === undefined ? null : fillTemplate(reply, { count: String(numbers.length) });
    }
    return undefined;
  }

  function formatError(): string | null {
    return sheet.replies.formatError[0]?.template ?? null;
  }
}
