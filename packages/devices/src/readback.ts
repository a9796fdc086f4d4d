/**
 * Reading a device's whitelist back ("Проверить устройство"): which queries to send (the fewest SMS the
 * model allows), what their replies say, and how that differs from what the server believes and wants.
 * Pure: the server sends the queries through its outbox and stores the readings.
 */
import type { WhitelistEntry } from './access.ts';
import { matchErrorReply } from './commands.ts';
import type { DeviceModel } from './models.ts';
import { passwordValue } from './models.ts';
import { parseDeviceNumber } from './numbers.ts';
import { type BelievedState, commandEntries, isLiveEntry, type PlannedCommand } from './planner.ts';
import { type DeviceProfileOverride, resolveSheet } from './profile.ts';
import { normalizeReplyText } from './reply-text.ts';
import type { DeviceSheet, ReadBackSheet } from './sheet-types.ts';
import { fillTemplate, findReplyForm, matchesReplyForms } from './template.ts';

/** The model's read-back; a model without one documented cannot be checked (a bug upstream to ask). */
export function readBackOf(sheet: DeviceSheet): ReadBackSheet {
  if (!sheet.readBack) throw new Error(`${sheet.model} documents no way to read its numbers back.`);
  return sheet.readBack;
}

/** One read-back query: a range of slots, one slot, or the whole list (number-addressed models). */
export type ReadQuery =
  | { kind: 'range'; from: number; to: number }
  | { kind: 'slot'; slot: number }
  | { kind: 'list' };

/** What the device holds: slot → '+7XXXXXXXXXX' (or the raw text when it is not a number), null = empty. */
export type SlotReading = Record<number, string | null>;

export interface ReadBackPlanOptions {
  /** Read every slot of the device, not only the area in use. */
  full?: boolean;
  profile?: DeviceProfileOverride | null;
}

/**
 * The queries that read the slots in use (and the next block, where a number written by hand most likely
 * went), in the fewest SMS: ranges of `perSms` slots where the model has range queries (one reply SMS each),
 * one query a slot otherwise, one list query on number-addressed models.
 */
export function planReadBack(
  model: DeviceModel,
  slotsInUse: readonly number[],
  options: ReadBackPlanOptions = {},
): ReadQuery[] {
  const sheet = resolveSheet(model, options.profile);
  const readBack = readBackOf(sheet);
  if (readBack.mode === 'list') return [{ kind: 'list' }];
  const used = [...new Set(slotsInUse)].filter((slot) => slot >= 1 && slot <= sheet.slotCount);
  if (readBack.mode === 'slot') {
    // Every slot up to the last in use and the next one (where a number written by hand most likely
    // went), as ranges read them: one SMS a slot on a model that reads one slot a query.
    const last = options.full ? sheet.slotCount : Math.min(sheet.slotCount, Math.max(0, ...used) + 1);
    const slots = Array.from({ length: last }, (_, index) => index + 1);
    return slots.sort((a, b) => a - b).map((slot) => ({ kind: 'slot', slot }));
  }
  const size = readBack.perSms;
  const last = options.full ? sheet.slotCount : Math.min(sheet.slotCount, Math.max(0, ...used) + 1);
  const queries: ReadQuery[] = [];
  for (let from = 1; from <= last; from += size) {
    queries.push({ kind: 'range', from, to: Math.min(sheet.slotCount, from + size - 1) });
  }
  return queries;
}

/** The SMS text of a read-back query. */
export function renderReadQuery(
  model: DeviceModel,
  query: ReadQuery,
  password: string | null | undefined,
  profile?: DeviceProfileOverride | null,
): string {
  const sheet = resolveSheet(model, profile);
  const values: Record<string, string> = { pwd: passwordValue(model, password) };
  if (query.kind === 'range') {
    values.from = sheet.formatSlot(query.from);
    values.to = sheet.formatSlot(query.to);
  } else if (query.kind === 'slot') {
    values.slot = sheet.formatSlot(query.slot);
    values.from = values.slot;
    values.to = values.slot;
  }
  const readBack = readBackOf(sheet);
  const template =
    query.kind === 'slot' && readBack.mode === 'range'
      ? (sheet.settings.query_slot?.template ?? readBack.command.template)
      : readBack.command.template;
  return fillTemplate(template, values);
}

export type ReadReply =
  /** `answered`: the slots the text itself names (the others of the range are read as empty). */
  | { outcome: 'read'; slots: SlotReading; answered: number[] }
  | { outcome: 'read_list'; numbers: string[] }
  | { outcome: 'refused' | 'format_error' }
  | null;

/**
 * What a received SMS says in answer to a query, or null when it is not an answer to it. Slots of the
 * queried range that the reply does not mention are read as empty (a reply SMS answers a whole range of
 * `perSms` slots); a line whose number cannot be read is kept as the raw text, so that it shows.
 */
export function parseReadReply(
  model: DeviceModel,
  query: ReadQuery,
  text: string,
  profile?: DeviceProfileOverride | null,
): ReadReply {
  const sheet = resolveSheet(model, profile);
  const error = matchErrorReply(sheet, text);
  if (error) return { outcome: error };
  const normalized = normalizeReplyText(text);
  const readBack = readBackOf(sheet);
  if (query.kind === 'list') {
    const numbers = new Set<string>();
    for (const form of readBack.line) {
      for (const groups of findReplyForm(form.template, normalized)) {
        const number = parseDeviceNumber(groups.number ?? '');
        if (number) numbers.add(number);
      }
    }
    const emptyForms = readBack.emptyList ?? [sheet.replies.genericSuccess];
    const confirmed = numbers.size > 0 || matchesReplyForms(emptyForms, {}, text);
    return confirmed ? { outcome: 'read_list', numbers: [...numbers].sort() } : null;
  }
  const from = query.kind === 'range' ? query.from : query.slot;
  const to = query.kind === 'range' ? query.to : query.slot;
  const slots: SlotReading = {};
  let mentioned = 0;
  for (const form of readBack.empty) {
    for (const groups of findReplyForm(form.template, normalized)) {
      const slot = Number(groups.slot);
      if (slot >= from && slot <= to) {
        slots[slot] = null;
        mentioned += 1;
      }
    }
  }
  for (const form of readBack.line) {
    for (const groups of findReplyForm(form.template, normalized)) {
      const slot = Number(groups.slot);
      if (slot < from || slot > to) continue;
      const raw = (groups.number ?? '').trim();
      slots[slot] = parseDeviceNumber(raw) ?? raw;
      mentioned += 1;
    }
  }
  if (mentioned === 0) return null;
  const answered = Object.keys(slots)
    .map(Number)
    .sort((a, b) => a - b);
  for (let slot = from; slot <= to; slot += 1) if (!(slot in slots)) slots[slot] = null;
  return { outcome: 'read', slots, answered };
}

/**
 * A read's answer joined from its parts (issue 30 part 2, docs/decisions/0025): a gateway may deliver the
 * parts of a long SMS one by one and in any order. Complete once every slot of the range is answered; a slot
 * or list read (number-addressed models do not say how many numbers they hold) with its first answer.
 * `missing`: the slots still unanswered, which the next attempt asks for (first to last missing).
 */
export function joinReadParts(
  model: DeviceModel,
  whole: ReadQuery,
  parts: readonly string[],
  profile?: DeviceProfileOverride | null,
): { complete: boolean; missing: number[]; text: string } {
  const text = parts.join('\n');
  if (whole.kind !== 'range') return { complete: true, missing: [], text };
  const reading = parseReadReply(model, whole, text, profile);
  const answered = new Set(reading?.outcome === 'read' ? reading.answered : []);
  const missing: number[] = [];
  for (let slot = whole.from; slot <= whole.to; slot += 1) if (!answered.has(slot)) missing.push(slot);
  return { complete: missing.length === 0, missing, text };
}

/**
 * A read command's answer so far: the parts received before (`received`, kept on the command) and `text`
 * joined over the range it first asked (`whole`, else `query`: a retry asks only the slots still missing).
 * The reply decision (reply.ts) and the next attempt's narrowed query (the server's send) read it.
 */
export function joinReadAnswer(
  model: DeviceModel,
  payload: { query: ReadQuery; whole?: ReadQuery | undefined },
  received: string | null,
  text: string,
  profile?: DeviceProfileOverride | null,
): { complete: boolean; missing: number[]; text: string } {
  const parts = received ? [received, text] : [text];
  return joinReadParts(model, payload.whole ?? payload.query, parts, profile);
}

/** One slot (or, on number-addressed models, one number) where the device differs from the server. */
export interface ReadBackDifference {
  slot: number | null;
  /** What the device holds there ('+7…', raw text, or null: empty / absent). */
  device: string | null;
  /** What the database wants there now (null: nothing). */
  expected: string | null;
  /** remove: a number the database does not allow; write: a number the device lacks or holds wrongly. */
  action: 'remove' | 'write';
}

/**
 * The differences between a reading and what the database wants in each slot that was read. Windows are
 * not read back, so an entry counts by its number; a number whose window has ended stays on an RTU by
 * design (it lets nobody in, and deleting it would cost an SMS), so it is not a difference.
 */
export function diffReading(input: {
  reading: SlotReading;
  believed: readonly WhitelistEntry[];
  desired: readonly WhitelistEntry[];
  now: Date;
}): ReadBackDifference[] {
  const ended = new Map(
    input.believed
      .filter((entry) => !isLiveEntry(entry, input.now))
      .map((entry) => [entry.slot, entry.number]),
  );
  const desired = new Map(input.desired.map((entry) => [entry.slot, entry.number]));
  const differences: ReadBackDifference[] = [];
  for (const [slotText, device] of Object.entries(input.reading)) {
    const slot = Number(slotText);
    const expected = desired.get(slot) ?? null;
    if (device === expected) continue;
    if (expected === null && device !== null && ended.get(slot) === device) continue;
    differences.push({ slot, device, expected, action: expected === null ? 'remove' : 'write' });
  }
  return differences.sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0));
}

/** The differences of a number-addressed device's list. */
export function diffList(input: {
  numbers: readonly string[];
  desired: readonly WhitelistEntry[];
}): ReadBackDifference[] {
  const onDevice = new Set(input.numbers);
  const desired = new Map(input.desired.map((entry) => [entry.number, entry.slot]));
  const differences: ReadBackDifference[] = [];
  for (const number of [...onDevice].sort()) {
    if (!desired.has(number))
      differences.push({ slot: null, device: number, expected: null, action: 'remove' });
  }
  for (const [number, slot] of desired) {
    if (!onDevice.has(number)) differences.push({ slot, device: null, expected: number, action: 'write' });
  }
  return differences;
}

/**
 * The believed state once a reading is trusted: every slot that was read holds what the device said (an
 * entry that matches by number keeps its window, which a read-back cannot see; a line that is not a number
 * makes the slot unknown, so the planner rewrites or clears it), and the clock is no longer trusted. The
 * planner then repairs from there, deletes first.
 */
export function adoptReading(believed: BelievedState, reading: SlotReading): BelievedState {
  const read = new Set(Object.keys(reading).map(Number));
  const entries = believed.entries.filter((entry) => !read.has(entry.slot));
  const unconfirmed = new Set(believed.unconfirmedSlots ?? []);
  for (const [slotText, device] of Object.entries(reading)) {
    const slot = Number(slotText);
    unconfirmed.delete(slot);
    if (device === null) continue;
    if (parseDeviceNumber(device) !== device) {
      unconfirmed.add(slot);
      continue;
    }
    const known = believed.entries.find((entry) => entry.slot === slot && entry.number === device);
    entries.push(known ?? { slot, number: device });
  }
  // The clock cannot be read back, and a reset unit (even an empty one) shows no other sign: a check
  // trusts the clock no more, so the planner sets it again when windows are in use (one SMS).
  return {
    ...believed,
    entries: entries.sort((a, b) => a.slot - b.slot),
    unconfirmedSlots: [...unconfirmed].sort((a, b) => a - b),
    uncertain: (believed.uncertain ?? []).filter((entry) => !read.has(entry.slot)),
    clockSetAt: null,
  };
}

/** The believed state of a number-addressed device once its list is trusted. */
export function adoptList(believed: BelievedState, numbers: readonly string[]): BelievedState {
  const onDevice = new Set(numbers);
  const entries = believed.entries.filter((entry) => onDevice.has(entry.number));
  const known = new Set(entries.map((entry) => entry.number));
  const uncertain = [...onDevice]
    .filter((number) => !known.has(number))
    .map((number) => ({ slot: 0, number }));
  return { ...believed, entries, uncertain, unconfirmedSlots: [] };
}

/**
 * The cheapest read that proves which password the unit holds (issue 30 item 4): one SMS of one or two slots, or the list on
 * models that read only the whole list; null when the model documents no read-back (or every slot is avoided).
 * A unit answers a read only with its own password (King Pigeon RTU5023–5029 manual v2.5, p. 8, note 7: a
 * wrong password gets no answer), so an answer to a read with the other password proves the unit holds that one
 * — provided the answer cannot be another command's. `avoid`: the slots that commands sent with the stored
 * password may still be answered about (their reads' ranges, their changes' slots); the probe reads the lowest
 * slots outside them, so its answer names slots no other answer names (`probeAnswerOnly`).
 */
export function passwordProbeQuery(model: DeviceModel, avoid: Iterable<number> = []): ReadQuery | null {
  const sheet = resolveSheet(model);
  if (!sheet.readBack || !sheet.hasPassword) return null;
  if (sheet.readBack.mode === 'list') return { kind: 'list' };
  const avoided = new Set(avoid);
  // Two slots where a range is one SMS: an answer of two lines is the read's, never a late answer to an add
  // or a delete of one slot (those name one line: docs/decisions/0025).
  const size = sheet.readBack.mode === 'slot' ? 1 : Math.min(2, sheet.readBack.perSms, sheet.slotCount);
  for (let from = 1; from + size - 1 <= sheet.slotCount; from += 1) {
    let free = true;
    for (let slot = from; slot < from + size; slot += 1) if (avoided.has(slot)) free = false;
    if (!free) continue;
    return size === 1 && sheet.readBack.mode === 'slot'
      ? { kind: 'slot', slot: from }
      : { kind: 'range', from, to: from + size - 1 };
  }
  return null;
}

/** Every slot a text names in the model's read-back line forms (`001:…`, `002: Empty`), any slot. */
export function slotsNamed(
  model: DeviceModel,
  text: string,
  profile?: DeviceProfileOverride | null,
): number[] {
  const sheet = resolveSheet(model, profile);
  if (!sheet.readBack || sheet.readBack.mode === 'list') return [];
  const normalized = normalizeReplyText(text);
  const named = new Set<number>();
  for (const form of [...sheet.readBack.empty, ...sheet.readBack.line])
    for (const groups of findReplyForm(form.template, normalized)) {
      const slot = Number(groups.slot);
      if (Number.isInteger(slot)) named.add(slot);
    }
  return [...named].sort((a, b) => a - b);
}

/**
 * Whether a text can be a password probe's answer: it names no slot outside the probe's query. A longer read's
 * answer (or one part of it) also names the probe's slots when its range covers them; it names others too.
 */
export function probeAnswerOnly(
  model: DeviceModel,
  query: ReadQuery,
  text: string,
  profile?: DeviceProfileOverride | null,
): boolean {
  if (query.kind === 'list') return true;
  const from = query.kind === 'range' ? query.from : query.slot;
  const to = query.kind === 'range' ? query.to : query.slot;
  return slotsNamed(model, text, profile).every((slot) => slot >= from && slot <= to);
}

/** The slots a read's answer can name: its range, its slot (none for a list). */
export function querySlots(query: ReadQuery): number[] {
  if (query.kind === 'list') return [];
  if (query.kind === 'slot') return [query.slot];
  return Array.from({ length: query.to - query.from + 1 }, (_, index) => query.from + index);
}

/**
 * Models whose sheet documents no reply to a whitelist change (`confirmation: 'read_back'`), and deletes on
 * models whose delete answer names nothing (`confirmDeletesByRead`): the query that shows a sent command's
 * effect (its slot, or the whole list), or null when the command is confirmed by its reply.
 */
export function confirmationQuery(model: DeviceModel, command: PlannedCommand): ReadQuery | null {
  const sheet = resolveSheet(model);
  const byRead =
    sheet.confirmation === 'read_back' || (sheet.confirmDeletesByRead === true && command.kind === 'delete');
  if (!byRead || !sheet.readBack || command.kind === 'set_clock') return null;
  if (sheet.readBack.mode === 'list') return { kind: 'list' };
  const [entry] = commandEntries(command);
  if (!entry) return null;
  return sheet.readBack.mode === 'slot'
    ? { kind: 'slot', slot: entry.slot }
    : { kind: 'range', from: entry.slot, to: entry.slot };
}

/** Whether a reading shows the command done: its slot (or the list) holds what the command wrote. */
export function readingConfirms(command: PlannedCommand, reading: ReadReply): boolean {
  if (!reading || (reading.outcome !== 'read' && reading.outcome !== 'read_list')) return false;
  return commandEntries(command).every((entry) => {
    if (reading.outcome === 'read_list') {
      const held = entry.number !== undefined && reading.numbers.includes(entry.number);
      return command.kind === 'delete' ? !held : held;
    }
    if (!(entry.slot in reading.slots)) return false;
    const held = reading.slots[entry.slot] ?? null;
    return command.kind === 'delete' ? held === null : held === (entry.number ?? null);
  });
}
