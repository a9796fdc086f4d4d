import { DEFAULT_UTC_OFFSET_MINUTES, formatClockTime } from './device-time.ts';
import { type DeviceModel, passwordValue } from './models.ts';
import { formatNumber } from './numbers.ts';
import { type PlannedCommand, renderBatchText } from './planner.ts';
import { type DeviceProfileOverride, resolveSheet } from './profile.ts';
import type { DeviceSheet, SourcedForm } from './sheet-types.ts';
import { fillTemplate, matchesReplyForms, matchReplyFormsDetail } from './template.ts';

export interface RenderOptions {
  /** The moment the SMS is sent: the time written by set_clock (required for set_clock). */
  now?: Date;
  /** The barrier's offset from UTC: windows and the clock are written in its local time. Default Moscow. */
  utcOffsetMinutes?: number;
  /** The barrier's device profile (number form, extra reply forms). */
  profile?: DeviceProfileOverride | null;
}

/** What a received SMS means for the command in flight. */
export type ReplyOutcome = 'confirmed' | 'refused' | 'format_error';

function formsFor(
  sheet: DeviceSheet,
  command: PlannedCommand,
): { command: SourcedForm; replies: SourcedForm[] } {
  const pair = {
    add: [sheet.commands.add, sheet.replies.add],
    add_window: [sheet.commands.addWindow, sheet.replies.addWindow],
    delete: [sheet.commands.delete, sheet.replies.delete],
    set_clock: [sheet.commands.setClock, sheet.replies.setClock],
  }[command.kind] as [SourcedForm | null, SourcedForm[]];
  const [commandForm, replies] = pair;
  if (!commandForm) throw new Error(`${sheet.model} has no ${command.kind} command.`);
  return { command: commandForm, replies };
}

/** Placeholder values of a command, in the device's forms. */
function commandValues(
  sheet: DeviceSheet,
  command: PlannedCommand,
  options: RenderOptions,
): Record<string, string> {
  const offset = options.utcOffsetMinutes ?? DEFAULT_UTC_OFFSET_MINUTES;
  const values: Record<string, string> = {};
  // A number-addressed device has no slots: the slot is the server's bookkeeping only.
  if (command.slot !== undefined && sheet.addressing === 'slot') {
    if (!Number.isInteger(command.slot) || command.slot < 1 || command.slot > sheet.slotCount) {
      throw new Error(`Slot ${command.slot} is outside 1..${sheet.slotCount} of ${sheet.model}.`);
    }
    values.slot = sheet.formatSlot(command.slot);
  }
  if (command.number !== undefined) values.number = formatNumber(command.number, sheet.numberFormat);
  // A plain add is a batch of one where the reply counts the numbers taken ("1 user(s) added").
  if (command.kind === 'add' || command.kind === 'delete') values.count = '1';
  if (command.window) {
    // A unit reads its windows in the digit order it reads its clock in (the profile's, settled by a run).
    const order = sheet.clockOrder ?? 'yyMMddHHmm';
    values.start = formatClockTime(command.window.start, offset, order);
    values.end = formatClockTime(command.window.end, offset, order);
  }
  if (command.kind === 'set_clock' && options.now)
    values.time = formatClockTime(options.now, offset, sheet.clockOrder ?? 'yyMMddHHmm');
  return values;
}

/** The SMS text that carries a planned command to the device. */
export function renderCommand(
  model: DeviceModel,
  command: PlannedCommand,
  password: string | null | undefined,
  options: RenderOptions = {},
): string {
  const sheet = resolveSheet(model, options.profile);
  if (command.entries) {
    const batch = batchFormFor(sheet, command);
    return renderBatchText(
      sheet,
      batch,
      command.entries.map((entry) => entry.number),
      passwordValue(model, password),
    );
  }
  const { command: form } = formsFor(sheet, command);
  if (command.kind === 'set_clock' && !options.now)
    throw new Error('set_clock needs the sending time (now).');
  const needsSlot = sheet.addressing === 'slot' && command.kind !== 'set_clock';
  if (needsSlot && !command.slot) throw new Error(`A ${command.kind} command needs a slot.`);
  const needsNumber =
    command.kind === 'add' ||
    command.kind === 'add_window' ||
    (command.kind === 'delete' && sheet.addressing === 'number');
  if (needsNumber && !command.number) throw new Error(`A ${command.kind} command needs a number.`);
  if (command.kind === 'add_window' && !command.window)
    throw new Error('An add_window command needs a window.');
  const values = commandValues(sheet, command, options);
  return fillTemplate(form.template, { ...values, pwd: passwordValue(model, password) });
}

/** The batch form of a batch command (a batch the model does not document is a bug upstream). */
function batchFormFor(sheet: DeviceSheet, command: PlannedCommand) {
  const form = command.kind === 'add' || command.kind === 'delete' ? sheet.batch?.[command.kind] : undefined;
  if (!form) throw new Error(`${sheet.model} documents no ${command.kind} of several numbers in one SMS.`);
  return form;
}

/** Whether a text is the device saying the password was wrong, or that it did not understand a command. */
export function matchErrorReply(sheet: DeviceSheet, replyText: string): 'refused' | 'format_error' | null {
  if (sheet.hasPassword && matchesReplyForms(sheet.replies.refused, {}, replyText)) return 'refused';
  if (matchesReplyForms(sheet.replies.formatError, {}, replyText)) return 'format_error';
  return null;
}

/**
 * Whether a received SMS answers this command: 'confirmed', 'refused' (wrong password), 'format_error'
 * (the device did not understand it), or null when it is not a reply to it. Commands go to a device one at
 * a time, so an error reply belongs to the one in flight. A confirmation must carry the slot and number of
 * the command where its form has them (numbers compared by subscriber, whatever form the device writes).
 */
export function matchReply(
  model: DeviceModel,
  command: PlannedCommand,
  replyText: string,
  options: Pick<RenderOptions, 'utcOffsetMinutes' | 'profile'> = {},
): ReplyOutcome | null {
  const sheet = resolveSheet(model, options.profile);
  const error = matchErrorReply(sheet, replyText);
  if (error) return error;
  if (command.entries) {
    // A batch's reply names how many numbers it took, not which: every one of them must have been taken.
    const count = String(command.entries.length);
    return matchesReplyForms(batchFormFor(sheet, command).replies, { count }, replyText) ? 'confirmed' : null;
  }
  const { replies } = formsFor(sheet, command);
  // The clock the device echoes depends on when it was sent; any time is accepted.
  return matchesReplyForms(replies, commandValues(sheet, command, options), replyText) ? 'confirmed' : null;
}

/**
 * What a received SMS says about this command, and whether it names it. `names: true`: the reply carries
 * the command's own values (its slot and number, docs/decisions/0025), so it answers this command whenever
 * it arrives; `names: false`: an error reply, or a form without values ("Set Time OK"), which can only be
 * taken by the command in flight. Null: not an answer to this command.
 */
export function matchReplyDetail(
  model: DeviceModel,
  command: PlannedCommand,
  replyText: string,
  options: Pick<RenderOptions, 'utcOffsetMinutes' | 'profile'> = {},
): { outcome: ReplyOutcome; names: boolean } | null {
  const sheet = resolveSheet(model, options.profile);
  const error = matchErrorReply(sheet, replyText);
  if (error) return { outcome: error, names: false };
  if (command.entries) {
    // A batch's reply says how many numbers it took, not which: it names no command.
    const count = String(command.entries.length);
    const taken = matchesReplyForms(batchFormFor(sheet, command).replies, { count }, replyText);
    return taken ? { outcome: 'confirmed', names: false } : null;
  }
  const { replies } = formsFor(sheet, command);
  const found = matchReplyFormsDetail(replies, commandValues(sheet, command, options), replyText);
  return found ? { outcome: 'confirmed', names: found.names } : null;
}
