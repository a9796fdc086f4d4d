import { sameEntry, type TimeWindow, type WhitelistEntry } from './access.ts';
import { DAY_MS } from './device-time.ts';
import { type DeviceModel, getSheet } from './models.ts';

export type PlannedCommandKind = 'add' | 'add_window' | 'delete' | 'set_clock';

export interface PlannedCommand {
  kind: PlannedCommandKind;
  slot?: number;
  /** '+7XXXXXXXXXX' (add, add_window) */
  number?: string;
  /** add_window */
  window?: TimeWindow;
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
}

/**
 * The fewest commands that bring the device from the believed state to the desired one, in sending order:
 * deletes first (access is withdrawn before anything else), then the clock if windows need it, then adds
 * by slot. An add overwrites its slot, so a changed entry costs one add. A believed entry whose window has
 * ended is treated as empty: the device no longer lets that number in, so deleting it would waste an SMS.
 */
export function planCommands({ model, desired, believed, now }: PlanInput): PlannedCommand[] {
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

  const deletes: PlannedCommand[] = [...new Set([...believedBySlot.keys(), ...unconfirmed])]
    .filter((slot) => !desiredBySlot.has(slot))
    .sort((a, b) => a - b)
    .map((slot) => ({ kind: 'delete', slot }));

  const adds: PlannedCommand[] = [...desiredBySlot.values()]
    .filter((entry) => unconfirmed.has(entry.slot) || !sameEntry(believedBySlot.get(entry.slot), entry))
    .sort((a, b) => a.slot - b.slot)
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

function withoutSlot(slots: readonly number[] | undefined, slot: number | undefined): number[] {
  return (slots ?? []).filter((other) => other !== slot);
}

/**
 * The believed state once `command` is handed to the SMS gateway: its slot becomes unknown until the
 * device confirms. Call it before sending, in the same transaction that marks the command as sent, so that
 * a crash or a lost reply can never leave a number on the device that the server does not know about.
 */
export function markSent(believed: BelievedState, command: PlannedCommand): BelievedState {
  if (command.kind === 'set_clock' || command.slot === undefined) return believed;
  const unconfirmedSlots = [...withoutSlot(believed.unconfirmedSlots, command.slot), command.slot].sort(
    (a, b) => a - b,
  );
  return { ...believed, unconfirmedSlots };
}

/** The believed state after the device confirmed `command` at `now`. */
export function applyConfirmed(believed: BelievedState, command: PlannedCommand, now: Date): BelievedState {
  const clockSetAt = believed.clockSetAt ?? null;
  if (command.kind === 'set_clock') return { ...believed, entries: [...believed.entries], clockSetAt: now };
  if (command.slot === undefined) throw new Error(`A ${command.kind} command needs a slot.`);
  const unconfirmedSlots = withoutSlot(believed.unconfirmedSlots, command.slot);
  const others = believed.entries.filter((entry) => entry.slot !== command.slot);
  if (command.kind === 'delete') return { entries: others, clockSetAt, unconfirmedSlots };
  if (command.number === undefined) throw new Error(`A ${command.kind} command needs a number.`);
  const entry: WhitelistEntry = { slot: command.slot, number: command.number };
  if (command.kind === 'add_window') {
    if (!command.window) throw new Error('An add_window command needs a window.');
    entry.window = { start: command.window.start, end: command.window.end };
  }
  return { entries: [...others, entry].sort((a, b) => a.slot - b.slot), clockSetAt, unconfirmedSlots };
}

/** Commands as JSON-safe values (the server keeps them in its outbox table) and back. */
export interface PlannedCommandJson {
  kind: PlannedCommandKind;
  slot?: number;
  number?: string;
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
