import { DEFAULT_UTC_OFFSET_MINUTES, formatDeviceTime, MINUTE_MS, parseWallTime } from './device-time.ts';
import { type DeviceModel, getSheet } from './models.ts';
import type { DeviceSheet, SettingSheet } from './sheet-types.ts';
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
}

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
  reply: string;
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
    number: { pattern: sheet.numberPattern },
    start: timePart,
    end: timePart,
    time: timePart,
  };
  const parsers: Parser[] = [];
  const names = ['addWindow', 'add', 'delete', 'setClock'] as const;
  for (const name of names) {
    const template = sheet.commands[name];
    const reply = sheet.replies[name];
    if (template && reply)
      parsers.push({ parsed: { kind: 'command', name }, regex: templateToRegex(template, common), reply });
  }
  for (const [id, setting] of Object.entries(sheet.settings)) {
    const parts: Record<string, TemplatePart> = { pwd: common.pwd! };
    for (const param of setting.params) parts[param.key] = { pattern: `(?:${param.pattern})` };
    parsers.push({
      parsed: { kind: 'setting', id },
      regex: templateToRegex(setting.template, parts),
      reply: setting.reply,
    });
  }
  return parsers;
}

const factoryClockWall = Date.UTC(2000, 0, 1, 0, 0);

/** A device that behaves like the model's sheet says: slot table, windows against its own clock, replies. */
export function createDeviceSimulator(options: SimulatorOptions): DeviceSimulator {
  const model = options.model;
  const sheet = getSheet(model);
  const parsers = buildParsers(sheet);
  const offsetMs = (options.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES) * MINUTE_MS;
  const table = new Map<number, StoredSlot>();
  const state: SimulatorState = {
    password: sheet.hasPassword ? (options.password ?? null) : null,
    allowAllCallers: false,
    relaySeconds: null,
    messages: false,
    relayOn: false,
    deviceNumber: null,
  };
  /** Device wall-clock milliseconds minus real milliseconds; fixed at the first call that knows `now`. */
  let wallOffset: number | null = null;

  const deviceWall = (now: Date): number => {
    if (wallOffset === null) {
      wallOffset = options.clock
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

  const runCommand = (name: string, groups: Record<string, string>, now: Date): boolean => {
    if (name === 'setClock') {
      const wall = parseWallTime(groups.time ?? '');
      if (wall === null) return false;
      wallOffset = wall - now.getTime();
      return true;
    }
    const slot = parseSlot(groups.slot);
    if (slot === null) return false;
    if (name === 'delete') {
      table.delete(slot);
      return true;
    }
    const deviceNumber = groups.number ?? '';
    if (sheet.parseNumber(deviceNumber) === null) return false;
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

  /** Applies a setting; returns extra reply values, or null when the params are not acceptable. */
  const runSetting = (
    setting: SettingSheet,
    groups: Record<string, string>,
  ): Record<string, string> | null => {
    for (const param of setting.params) {
      if (param.check && param.check(groups[param.key] ?? '') !== null) return null;
    }
    if (setting.checkAll && Object.keys(setting.checkAll(groups)).length > 0) return null;
    switch (setting.effect) {
      case 'device_number':
        state.deviceNumber = groups.phone ?? null;
        return {};
      case 'change_password':
        state.password = groups.new_password ?? state.password;
        return {};
      case 'query_slot': {
        const stored = table.get(parseSlot(groups.slot) ?? 0);
        return { number: stored ? stored.deviceNumber : sheet.replies.emptySlot };
      }
      case 'query_range': {
        const from = parseSlot(groups.from) ?? 1;
        const to = parseSlot(groups.to) ?? sheet.slotCount;
        const lines = [...table.entries()]
          .filter(([slot]) => slot >= from && slot <= to)
          .sort(([a], [b]) => a - b)
          .map(([slot, stored]) =>
            fillTemplate(sheet.replies.rangeLine, {
              slot: sheet.formatSlot(slot),
              number: stored.deviceNumber,
            }),
          );
        return { lines: lines.length > 0 ? lines.join('\n') : sheet.replies.rangeEmpty };
      }
      case 'allow_all':
        state.allowAllCallers = true;
        return {};
      case 'allow_listed':
        state.allowAllCallers = false;
        return {};
      case 'relay_time':
        state.relaySeconds = Number(groups.seconds);
        return {};
      case 'messages':
        state.messages = groups.mode === 'ON';
        return {};
      case 'open':
        state.relayOn = true;
        return {};
      case 'close':
        state.relayOn = false;
        return {};
    }
  };

  const whitelist = (now: Date) =>
    [...table.entries()]
      .filter(([, stored]) => isOpen(stored, now))
      .sort(([a], [b]) => a - b)
      .map(([slot, stored]) => ({
        slot,
        number: sheet.parseNumber(stored.deviceNumber) ?? stored.deviceNumber,
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
        if (sheet.hasPassword && groups.pwd !== state.password) return sheet.replies.refused;
        let extra: Record<string, string> | null = {};
        if (parser.parsed.kind === 'command') {
          if (!runCommand(parser.parsed.name, groups, now)) return null;
        } else {
          extra = runSetting(sheet.settings[parser.parsed.id]!, groups);
          if (extra === null) return null;
        }
        const { pwd: _password, ...shown } = groups;
        return fillTemplate(parser.reply, { ...shown, ...extra });
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
            number: sheet.parseNumber(stored.deviceNumber) ?? stored.deviceNumber,
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
  };
}
