import { DEFAULT_UTC_OFFSET_MINUTES, formatDeviceTime } from './device-time.ts';
import { type DeviceModel, getSheet, passwordValue } from './models.ts';
import type { PlannedCommand } from './planner.ts';
import type { DeviceSheet } from './sheet-types.ts';
import { fillTemplate, matchesReplyTemplate } from './template.ts';

export interface RenderOptions {
  /** The moment the SMS is sent: the time written by set_clock (required for set_clock). */
  now?: Date;
  /** The barrier's offset from UTC: windows and the clock are written in its local time. Default Moscow. */
  utcOffsetMinutes?: number;
}

function templatesFor(sheet: DeviceSheet, command: PlannedCommand): { command: string; reply: string } {
  const pair = {
    add: [sheet.commands.add, sheet.replies.add],
    add_window: [sheet.commands.addWindow, sheet.replies.addWindow],
    delete: [sheet.commands.delete, sheet.replies.delete],
    set_clock: [sheet.commands.setClock, sheet.replies.setClock],
  }[command.kind];
  const [commandTemplate, replyTemplate] = pair;
  if (!commandTemplate || !replyTemplate) throw new Error(`${sheet.model} has no ${command.kind} command.`);
  return { command: commandTemplate, reply: replyTemplate };
}

/** Placeholder values of a command, in the device's forms. */
function commandValues(
  sheet: DeviceSheet,
  command: PlannedCommand,
  options: RenderOptions,
): Record<string, string> {
  const offset = options.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
  const values: Record<string, string> = {};
  if (command.slot !== undefined) {
    if (!Number.isInteger(command.slot) || command.slot < 1 || command.slot > sheet.slotCount) {
      throw new Error(`Slot ${command.slot} is outside 1..${sheet.slotCount} of ${sheet.model}.`);
    }
    values.slot = sheet.formatSlot(command.slot);
  }
  if (command.number !== undefined) {
    if (!/^\+7\d{10}$/.test(command.number)) throw new Error('A number must be written as +7XXXXXXXXXX.');
    values.number = sheet.formatNumber(command.number);
  }
  if (command.window) {
    values.start = formatDeviceTime(command.window.start, offset);
    values.end = formatDeviceTime(command.window.end, offset);
  }
  if (command.kind === 'set_clock' && options.now) values.time = formatDeviceTime(options.now, offset);
  return values;
}

/** The SMS text that carries a planned command to the device. */
export function renderCommand(
  model: DeviceModel,
  command: PlannedCommand,
  password: string | null | undefined,
  options: RenderOptions = {},
): string {
  const sheet = getSheet(model);
  const { command: template } = templatesFor(sheet, command);
  if (command.kind === 'set_clock' && !options.now)
    throw new Error('set_clock needs the sending time (now).');
  if (
    (command.kind === 'add' || command.kind === 'add_window' || command.kind === 'delete') &&
    !command.slot
  ) {
    throw new Error(`A ${command.kind} command needs a slot.`);
  }
  if ((command.kind === 'add' || command.kind === 'add_window') && !command.number) {
    throw new Error(`A ${command.kind} command needs a number.`);
  }
  if (command.kind === 'add_window' && !command.window)
    throw new Error('An add_window command needs a window.');
  const values = commandValues(sheet, command, options);
  return fillTemplate(template, { ...values, pwd: passwordValue(model, password) });
}

/**
 * Whether a received SMS answers this command: 'confirmed', 'refused' (wrong password), or null when it is
 * not a reply to it. Commands go to a device one at a time, so a refusal belongs to the one in flight.
 */
export function matchReply(
  model: DeviceModel,
  command: PlannedCommand,
  replyText: string,
  options: Pick<RenderOptions, 'utcOffsetMinutes'> = {},
): 'confirmed' | 'refused' | null {
  const sheet = getSheet(model);
  if (sheet.replies.refused !== null && matchesReplyTemplate(sheet.replies.refused, {}, replyText)) {
    return 'refused';
  }
  const { reply } = templatesFor(sheet, command);
  // The clock the device echoes depends on when it was sent; any time is accepted.
  return matchesReplyTemplate(reply, commandValues(sheet, command, options), replyText) ? 'confirmed' : null;
}
