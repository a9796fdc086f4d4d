import { sameEntry, type TimeWindow, type WhitelistEntry } from './access.ts';
import { DAY_MS } from './device-time.ts';
import { type DeviceModel, getSheet } from './models.ts';
import { formatNumber, type NumberFormat } from './numbers.ts';
import type { BatchForm, DeviceSheet } from './sheet-types.ts';
import { fillTemplate } from './template.ts';

export type PlannedCommandKind = 'add' | 'add_window' | 'delete' | 'set_clock';

export interface PlannedCommand {
  kind: PlannedCommandKind;
  slot?: number;
  /** '+7XXXXXXXXXX' (add, add_window; delete on number-addressed models) */
  number?: string;
  /** add_window */
  window?: TimeWindow;
  /**
   * A batch: several numbers in one SMS (`slot` and `number` are then absent), where the model documents it
   * (`DeviceSheet.batch`) and the planner was asked to batch. Every entry is confirmed by the batch's reply.
   */
  entries?: { slot: number; number: string }[];
}

/** The slot/number pairs a command writes or removes (one for a plain command, several for a batch). */
export function commandEntries(command: PlannedCommand): { slot: number; number?: string }[] {
  if (command.entries) return command.entries;
  if (command.slot === undefined) return [];
  return [
    command.number === undefined ? { slot: command.slot } : { slot: command.slot, number: command.number },
  ];
}

/** What the server believes the device holds: only what the device confirmed. */
export interface BelievedState {
  entries: WhitelistEntry[];
  /** When the device last confirmed a clock setting; null or absent: never. */
  clockSetAt?: Date | null;
  /**
   * Slots whose content is unknown: a command for them was sent and its reply never came (the SMS may or
   * may not have reached the device). The planner rewrites or clears them whatever `entries` says.
   */
  unconfirmedSlots?: number[];
  /**
   * Number-addressed models only: numbers that may be on the device although no confirmed entry holds them
   * (an add or a delete was sent and not confirmed, or an add replaced a slot's number on our side while the
   * device still holds the old one). The planner deletes every one of them that is not desired.
   */
  uncertain?: { slot: number; number: string }[];
}

/**
 * Clock policy: the clock is (re)set before it matters (some slot holds a window) when it was never set or
 * was last set more than 30 days ago. Cheap RTCs drift about a second or two a day, so 30 days stay within
 * the minute precision of a `YYMMDDHHmm` window, and a weekly schedule does not pay an extra SMS every week.
 */
export const CLOCK_MAX_AGE_MS = 30 * DAY_MS;

/** An entry still matters on the device: no window, or a window that has not ended. */
export function isLiveEntry(entry: WhitelistEntry, now: Date): boolean {
  return !entry.window || entry.window.end > now;
}

export function isClockStale(clockSetAt: Date | null | undefined, now: Date): boolean {
  return !clockSetAt || now.getTime() - clockSetAt.getTime() > CLOCK_MAX_AGE_MS;
}

export interface PlanInput {
  model: DeviceModel;
  desired: readonly WhitelistEntry[];
  believed: BelievedState;
  now: Date;
  /**
   * Put several numbers into one SMS where the model documents it (ELDES, TELL, Telemetrica adds). Off by
   * default: the engine must confirm every entry of a batch (`commandEntries`) before it asks for batches.
   */
  batch?: boolean;
  /**
   * Slots whose commands go one number an SMS even when batching (a batch that carried them failed: sent
   * alone, each number's fate is known by its own reply).
   */
  alone?: readonly number[];
}

/**
 * Whether the engine may put several numbers of this model into one SMS: the model documents a batch, and
 * every batch form's reply says how many numbers the unit took (`{count}`), so that a reply confirms a batch
 * only when the unit took every number it carried (TELL "3 user(s) added"). Not a batch whose reply names no
 * count (Telemetrica "success" would confirm a batch the unit took in part) nor a model that confirms nothing
 * by reply (ELDES, confirmation 'none').
 */
export function canBatch(model: DeviceModel): boolean {
  const sheet = getSheet(model);
  const forms = Object.values(sheet.batch ?? {});
  return (
    sheet.confirmation === 'reply' &&
    forms.length > 0 &&
    forms.every(
      (form) => form.replies.length > 0 && form.replies.every((reply) => reply.template.includes('{count}')),
    )
  );
}

/**
 * The fewest commands that bring the device from the believed state to the desired one, in sending order:
 * deletes first (access is withdrawn before anything else), then the clock if windows need it, then adds
 * by deadline: plain adds (access due now) before windows, windows by their start, ties by slot (each add
 * has a slot of its own, so no add depends on another). An add overwrites its slot, so a changed entry costs
 * one add. A believed entry whose window has
 * ended is treated as empty: the device no longer lets that number in, so deleting it would waste an SMS.
 */
export function planCommands({ model, desired, believed, now, batch, alone }: PlanInput): PlannedCommand[] {
  const sheet = getSheet(model);
  const desiredBySlot = new Map<number, WhitelistEntry>();
  for (const entry of desired) {
    if (!Number.isInteger(entry.slot) || entry.slot < 1 || entry.slot > sheet.slotCount) {
      throw new Error(`Slot ${entry.slot} is outside 1..${sheet.slotCount} of ${model}.`);
    }
    if (entry.window && !sheet.supportsTimeWindows) throw new Error(`${model} has no time windows.`);
    if (desiredBySlot.has(entry.slot)) throw new Error(`Slot ${entry.slot} is desired twice.`);
    desiredBySlot.set(entry.slot, entry);
  }
  const believedBySlot = new Map<number, WhitelistEntry>();
  for (const entry of believed.entries) {
    if (isLiveEntry(entry, now)) believedBySlot.set(entry.slot, entry);
  }
  const unconfirmed = new Set(believed.unconfirmedSlots ?? []);
  if (sheet.addressing === 'number') {
    const plan = planByNumber(desiredBySlot, believedBySlot, believed, unconfirmed);
    return batch ? batchCommands(sheet, plan, new Set(alone ?? [])) : plan;
  }

  const deletes: PlannedCommand[] = [...new Set([...believedBySlot.keys(), ...unconfirmed])]
    .filter((slot) => !desiredBySlot.has(slot))
    .sort((a, b) => a - b)
    .map((slot) => ({ kind: 'delete', slot }));

  const adds: PlannedCommand[] = [...desiredBySlot.values()]
    .filter((entry) => unconfirmed.has(entry.slot) || !sameEntry(believedBySlot.get(entry.slot), entry))
    .sort((a, b) => accessDueAt(a) - accessDueAt(b) || a.slot - b.slot)
    .map((entry) =>
      entry.window
        ? { kind: 'add_window', slot: entry.slot, number: entry.number, window: entry.window }
        : { kind: 'add', slot: entry.slot, number: entry.number },
    );

  const windowsMatter = desired.some((entry) => entry.window !== undefined);
  const clock: PlannedCommand[] =
    sheet.supportsTimeWindows && windowsMatter && isClockStale(believed.clockSetAt, now)
      ? [{ kind: 'set_clock' }]
      : [];

  return [...deletes, ...clock, ...adds];
}

/** When an entry's access is due: now for a plain entry, its window's start otherwise. */
const accessDueAt = (entry: WhitelistEntry): number =>
  entry.window?.start.getTime() ?? Number.NEGATIVE_INFINITY;

/**
 * Number-addressed devices hold a set of numbers: a delete names the number, an add removes nothing. Every
 * number that may be on the device and is not desired is deleted (once, whatever slot we filed it under);
 * every desired number the device may lack is added.
 */
function planByNumber(
  desiredBySlot: Map<number, WhitelistEntry>,
  believedBySlot: Map<number, WhitelistEntry>,
  believed: BelievedState,
  unconfirmed: Set<number>,
): PlannedCommand[] {
  const desiredNumbers = new Set([...desiredBySlot.values()].map((entry) => entry.number));
  const held = new Map<string, number>();
  for (const entry of believedBySlot.values())
    if (!held.has(entry.number)) held.set(entry.number, entry.slot);
  const uncertain = new Map<string, number>();
  for (const entry of believed.uncertain ?? [])
    if (!uncertain.has(entry.number)) uncertain.set(entry.number, entry.slot);

  const deletes = new Map<string, number>();
  for (const [number, slot] of [...held, ...uncertain]) {
    if (!desiredNumbers.has(number) && !deletes.has(number)) deletes.set(number, slot);
  }
  const deleteCommands: PlannedCommand[] = [...deletes]
    .sort(([, a], [, b]) => a - b)
    .map(([number, slot]) => ({ kind: 'delete', slot, number }));
  const adds: PlannedCommand[] = [...desiredBySlot.values()]
    .filter((entry) => unconfirmed.has(entry.slot) || uncertain.has(entry.number) || !held.has(entry.number))
    .sort((a, b) => a.slot - b.slot)
    .map((entry) => ({ kind: 'add', slot: entry.slot, number: entry.number }));
  return [...deleteCommands, ...adds];
}

/**
 * The longest a batch SMS can be: a 4-character password for `{pwd}` (the models' passwords are 4 digits)
 * and numbers in the longest form a barrier's profile may choose (`0007…`).
 */
export function batchLength(sheet: DeviceSheet, form: BatchForm, numbers: readonly string[]): number {
  return renderBatchText(sheet, form, numbers, sheet.hasPassword ? '0000' : '', '0007').length;
}

/** The text of a batch: prefix, items joined by the separator, suffix. */
export function renderBatchText(
  sheet: DeviceSheet,
  form: BatchForm,
  numbers: readonly string[],
  password: string,
  numberFormat: NumberFormat = sheet.numberFormat,
): string {
  const items = numbers.map((number) =>
    fillTemplate(form.item, { number: formatNumber(number, numberFormat) }),
  );
  return fillTemplate(form.prefix, { pwd: password }) + items.join(form.separator) + form.suffix;
}

/**
 * Consecutive plain adds (or deletes) of a number-addressed model go into batches of as many numbers as one
 * SMS holds (`maxItems`, `maxLength`); a batch of one stays a plain command (its own documented form). The
 * order is kept: every delete still goes before every add.
 */
function batchCommands(
  sheet: DeviceSheet,
  plan: PlannedCommand[],
  alone: ReadonlySet<number>,
): PlannedCommand[] {
  const result: PlannedCommand[] = [];
  let group: PlannedCommand[] = [];
  let groupKind: 'add' | 'delete' | null = null;
  const flush = () => {
    if (group.length === 1) result.push(group[0]!);
    else if (group.length > 1 && groupKind)
      result.push({
        kind: groupKind,
        entries: group.map((command) => ({ slot: command.slot!, number: command.number! })),
      });
    group = [];
    groupKind = null;
  };
  for (const command of plan) {
    const kind = command.kind === 'add' || command.kind === 'delete' ? command.kind : null;
    const form = kind ? sheet.batch?.[kind] : undefined;
    if (
      !kind ||
      !form ||
      command.slot === undefined ||
      command.number === undefined ||
      alone.has(command.slot)
    ) {
      flush();
      result.push(command);
      continue;
    }
    if (groupKind !== kind) flush();
    const numbers = [...group.map((member) => member.number!), command.number];
    if (
      group.length > 0 &&
      (numbers.length > form.maxItems || batchLength(sheet, form, numbers) > form.maxLength)
    )
      flush();
    groupKind = kind;
    group.push(command);
  }
  flush();
  return result;
}

const withoutUncertain = (believed: BelievedState, number: string | undefined) =>
  (believed.uncertain ?? []).filter((entry) => entry.number !== number);

function withoutSlot(slots: readonly number[] | undefined, slot: number | undefined): number[] {
  return (slots ?? []).filter((other) => other !== slot);
}

/**
 * The believed state once `command` is handed to the SMS gateway: its slot becomes unknown until the
 * device confirms. Call it before sending, in the same transaction that marks the command as sent, so that
 * a crash or a lost reply can never leave a number on the device that the server does not know about.
 */
export function markSent(believed: BelievedState, command: PlannedCommand): BelievedState {
  if (command.entries) {
    return command.entries.reduce(
      (state, entry) => markSent(state, { kind: command.kind, slot: entry.slot, number: entry.number }),
      believed,
    );
  }
  if (command.kind === 'set_clock' || command.slot === undefined) return believed;
  if (command.number !== undefined && command.kind === 'delete') {
    // Only number-addressed deletes carry a number: until confirmed, the number may still be there.
    return {
      ...believed,
      uncertain: [
        ...withoutUncertain(believed, command.number),
        { slot: command.slot, number: command.number },
      ],
    };
  }
  const unconfirmedSlots = [...withoutSlot(believed.unconfirmedSlots, command.slot), command.slot].sort(
    (a, b) => a - b,
  );
  if (command.number === undefined) return { ...believed, unconfirmedSlots };
  // An add in flight: on a number-addressed device the number may arrive even if it is no longer wanted.
  return {
    ...believed,
    unconfirmedSlots,
    uncertain: [
      ...withoutUncertain(believed, command.number),
      { slot: command.slot, number: command.number },
    ],
  };
}

/**
 * The believed state after the device confirmed `command` at `now`. On a number-addressed device an add
 * removes nothing: a number we had filed under the same slot stays on the device (uncertain) until deleted.
 */
export function applyConfirmed(
  believed: BelievedState,
  command: PlannedCommand,
  now: Date,
  addressing: 'slot' | 'number' = 'slot',
): BelievedState {
  if (command.entries) {
    return command.entries.reduce(
      (state, entry) =>
        applyConfirmed(
          state,
          { kind: command.kind, slot: entry.slot, number: entry.number },
          now,
          addressing,
        ),
      believed,
    );
  }
  const clockSetAt = believed.clockSetAt ?? null;
  if (command.kind === 'delete' && command.number !== undefined && command.slot !== undefined) {
    // A number-addressed delete: that number is gone, wherever we had filed it.
    return {
      ...believed,
      entries: believed.entries.filter((entry) => entry.number !== command.number),
      uncertain: withoutUncertain(believed, command.number),
      unconfirmedSlots: withoutSlot(believed.unconfirmedSlots, command.slot),
    };
  }
  if (command.kind === 'set_clock') return { ...believed, entries: [...believed.entries], clockSetAt: now };
  if (command.slot === undefined) throw new Error(`A ${command.kind} command needs a slot.`);
  const slot = command.slot;
  const unconfirmedSlots = withoutSlot(believed.unconfirmedSlots, slot);
  const others = believed.entries.filter((entry) => entry.slot !== slot);
  // On a slot-addressed device a confirmed write leaves nothing else in its slot.
  let uncertain = (believed.uncertain ?? []).filter(
    (entry) => addressing === 'number' || entry.slot !== slot,
  );
  if (command.kind === 'delete') return { entries: others, clockSetAt, unconfirmedSlots, uncertain };
  if (command.number === undefined) throw new Error(`A ${command.kind} command needs a number.`);
  const number = command.number;
  uncertain = uncertain.filter((entry) => entry.number !== number);
  const replaced = believed.entries.find((entry) => entry.slot === slot && entry.number !== number);
  if (addressing === 'number' && replaced) uncertain = [...uncertain, { slot, number: replaced.number }];
  const entry: WhitelistEntry = { slot, number };
  if (command.kind === 'add_window') {
    if (!command.window) throw new Error('An add_window command needs a window.');
    entry.window = { start: command.window.start, end: command.window.end };
  }
  const kept = addressing === 'number' ? others.filter((other) => other.number !== number) : others;
  return {
    entries: [...kept, entry].sort((a, b) => a.slot - b.slot),
    clockSetAt,
    unconfirmedSlots,
    uncertain,
  };
}

/** Commands as JSON-safe values (the server keeps them in its outbox table) and back. */
export interface PlannedCommandJson {
  kind: PlannedCommandKind;
  slot?: number;
  number?: string;
  entries?: { slot: number; number: string }[];
  window?: { start: string; end: string };
}

export function commandToJson(command: PlannedCommand): PlannedCommandJson {
  const { window, ...rest } = command;
  return window
    ? { ...rest, window: { start: window.start.toISOString(), end: window.end.toISOString() } }
    : rest;
}

export function commandFromJson(json: PlannedCommandJson): PlannedCommand {
  const { window, ...rest } = json;
  return window ? { ...rest, window: { start: new Date(window.start), end: new Date(window.end) } } : rest;
}
