import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  desiredWhitelist,
  nextChangeAt,
  openNumbersAt,
  type PhoneSpec,
  WEEKDAYS,
  type WeeklySchedule,
  type WhitelistEntry,
} from './access.ts';
import { renderCommand } from './commands.ts';
import { playConformance } from './conformance-play.test-support.ts';
import { installDefinedModels, type ModelDefinition } from './defined-model.ts';
import { MINUTE_MS, parseClockWallTime } from './device-time.ts';
import { DEVICE_MODELS, type DeviceModel, definedModelKey, getSheet } from './models.ts';
import { NUMBER_FORMATS } from './numbers.ts';
import {
  applyConfirmed,
  type BelievedState,
  isLiveEntry,
  markSent,
  type PlannedCommand,
  planCommands,
} from './planner.ts';
import type { DeviceProfileOverride } from './profile.ts';
import {
  adoptList,
  adoptReading,
  confirmationQuery,
  joinReadParts,
  parseReadReply,
  planReadBack,
  type ReadQuery,
  readingConfirms,
  renderReadQuery,
} from './readback.ts';
import { chooseRepliedCommand } from './reply-choice.ts';
import { createDeviceSimulator, type DeviceSimulator } from './simulator.ts';
import { matchWhitelistReply } from './whitelist-reply.ts';

/** mulberry32: a tiny seeded PRNG, so that a failing case can be replayed from its seed. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
  };
}
type Random = ReturnType<typeof createRandom>;

const MAX_SLOT = 12;
/** The reply window of the server (24 h), as a number of commands sent. */
const RECENT_SENDS = 20;
const PASSWORD = '1234';

function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function randomSchedule(random: Random): WeeklySchedule {
  const schedule: WeeklySchedule = {};
  for (const day of WEEKDAYS) {
    if (!random.chance(0.4)) continue;
    const points = new Set<number>();
    const count = random.int(1, 3) * 2;
    while (points.size < count) points.add(random.chance(0.1) ? random.pick([0, 1440]) : random.int(0, 1440));
    const sorted = [...points].sort((a, b) => a - b);
    const intervals = [];
    for (let index = 0; index + 1 < sorted.length; index += 2) {
      intervals.push({ start_time: clockText(sorted[index]!), end_time: clockText(sorted[index + 1]!) });
    }
    schedule[day] = intervals;
  }
  return schedule;
}

function randomNumber(random: Random): string {
  return `+7916${String(random.int(0, 9_999_999)).padStart(7, '0')}`;
}

function randomTiming(random: Random, now: Date): Pick<PhoneSpec, 'kind' | 'start' | 'end' | 'schedule'> {
  const kind = random.pick([
    'primary',
    'permanent',
    'temporary',
    'temporary',
    'schedule',
    'schedule',
  ] as const);
  if (kind === 'temporary') {
    const start = new Date(now.getTime() + random.int(-600, 5000) * MINUTE_MS + random.int(0, 59_999));
    const end = new Date(start.getTime() + random.int(0, 5000) * MINUTE_MS + random.int(0, 59_999));
    return { kind, start, end };
  }
  if (kind === 'schedule') return { kind, schedule: randomSchedule(random) };
  return { kind };
}

interface World {
  model: DeviceModel;
  /** The barrier's profile (learnt by a conformance run on a unit that differs from its sheet), or null. */
  profile: DeviceProfileOverride | null;
  offset: number;
  now: Date;
  phones: Map<number, PhoneSpec>;
  believed: BelievedState;
  device: DeviceSimulator;
  random: Random;
  sent: number;
  /** The commands sent so far, newest first (the server's reply window), and how each ended. */
  recent: {
    command: PlannedCommand;
    status: 'sent' | 'confirmed' | 'failed';
    attempts: number;
    replies: number;
    sentAt: Date | null;
    /** A read-back: what was believed of every slot before it no longer counts. */
    read?: true;
  }[];
  /** Replies the device sent that have not arrived yet. */
  late: string[];
}

/**
 * A reply arriving: matched as the server matches it (`chooseRepliedCommand` over the commands sent, newest
 * first); it confirms only an open command it names, or the one in flight by its form.
 */
function deliver(world: World, reply: string): void {
  const { model, offset } = world;
  const chosen = chooseRepliedCommand(
    world.recent,
    (entry) => {
      if (entry.read) return null;
      return matchWhitelistReply(model, entry.command, reply, {
        utcOffsetMinutes: offset,
        profile: world.profile,
      });
    },
    {
      now: world.now,
      sameEffect: (a, b) => isDeepStrictEqual(a.command, b.command),
      // As the server: a read-back makes every slot's earlier state moot, as a write to that slot does.
      sameSlot: (a, b) => a.read === true || b.read === true || a.command.slot === b.command.slot,
    },
  );
  if (chosen?.outcome !== 'confirmed') return;
  chosen.command.replies += 1;
  if (chosen.paidWhileInFlight) chosen.paidWhileInFlight.replies += 1;
  if (chosen.late) return;
  chosen.command.status = 'confirmed';
  world.believed = applyConfirmed(
    world.believed,
    chosen.command.command,
    world.now,
    getSheet(model).addressing,
  );
}

/** Some of the replies held back arrive now, in any order. */
function deliverSomeLate(world: World): void {
  const { random } = world;
  const kept: string[] = [];
  for (const reply of world.late) {
    if (random.chance(0.5)) deliver(world, reply);
    else kept.push(reply);
  }
  world.late = kept;
}

/** One reconcile round after another until the planner has nothing to send, with messages lost on the way. */
function reconcile(world: World, commandBudget = Number.POSITIVE_INFINITY): void {
  const { model, offset, random } = world;
  for (let round = 0; round < 100; round += 1) {
    const desired = desiredWhitelist(model, [...world.phones.values()], world.now, offset);
    // Several numbers in one SMS where the model documents it (ELDES, TELL, Telemetrica adds).
    const plan = planCommands({ model, desired, believed: world.believed, now: world.now, batch: true });
    if (plan.length === 0) return;
    const { confirmation } = getSheet(model);
    for (const command of plan) {
      if (commandBudget <= 0) return;
      commandBudget -= 1;
      world.sent += 1;
      world.believed = markSent(world.believed, command);
      const text = renderCommand(model, command, PASSWORD, {
        now: world.now,
        utcOffsetMinutes: offset,
        profile: world.profile,
      });
      if (confirmation === 'none' || (confirmation === 'read_back' && command.kind !== 'set_clock')) {
        // A model that can confirm nothing is played without losses: nothing could ever repair them.
        if (confirmation !== 'none' && random.chance(0.1)) continue; // the SMS never reached the device
        const reply = world.device.receive(text, world.now);
        if (confirmation === 'none') {
          expect(reply, text).toBeNull();
          world.believed = applyConfirmed(world.believed, command, world.now, getSheet(model).addressing);
          continue;
        }
        if (random.chance(0.15)) continue; // the device applied it, but its reply was lost: retried next round
        if (confirmation === 'read_back' && command.kind !== 'set_clock') {
          // No reply is documented: the unit is silent, and the slot read back confirms the change.
          expect(reply, text).toBeNull();
          const query = confirmationQuery(model, command);
          expect(query, text).not.toBeNull();
          if (!query) continue;
          const answer =
            world.device.receive(renderReadQuery(model, query, PASSWORD, world.profile), world.now) ?? '';
          expect(
            readingConfirms(command, parseReadReply(model, query, answer, world.profile)),
            `${text} → ${answer}`,
          ).toBe(true);
          world.believed = applyConfirmed(world.believed, command, world.now, getSheet(model).addressing);
          continue;
        }
        continue;
      }
      // A model that answers: late answers, retries, answers taken as the server takes them.
      const entry = {
        command,
        status: 'sent' as 'sent' | 'confirmed' | 'failed',
        attempts: 0,
        replies: 0,
        sentAt: null as Date | null,
      };
      world.recent.unshift(entry);
      // The server's reply window: only the commands sent lately can take an answer.
      world.recent.length = Math.min(world.recent.length, RECENT_SENDS);
      // Late answers on every model but Telemetrica and TELL BASE 1000: their answers name nothing and their
      // deletes cannot be read back safely (Telemetrica's empty list has no documented answer to tell from a
      // late "success"; no SMS command of the BASE 1000 lists its users), so a late answer whose debt was
      // already paid can confirm a delete the unit never heard (docs/decisions/0025, "Deletes read back":
      // the documented limit).
      const lateAnswers = model !== 'Telemetrica' && model !== 'TELL-BASE1000';
      // A delete whose answer names nothing, on a model that reads its list (TELL): the list read
      // sent right after it confirms it, as the server sends it (render.ts `confirmRead`).
      const readAfter = confirmationQuery(model, command);
      // Up to three attempts, as the queue retries a command that got no answer (DEVICE_MAX_ATTEMPTS).
      for (let attempt = 0; attempt < 3 && entry.status === 'sent'; attempt += 1) {
        // Late replies of earlier commands may arrive while this one is in flight.
        deliverSomeLate(world);
        entry.attempts += 1;
        entry.sentAt = world.now;
        let timedOutForGood = false;
        if (!random.chance(0.1)) {
          // The SMS reached the device (else it never did).
          const reply = world.device.receive(text, world.now);
          expect(reply, text).not.toBeNull();
          // Late answers on every model: a unit's answers that name their command (slot and number) are
          // placed by what they name; answers that name nothing ("success", «User removed») by the debt
          // rule, and a delete's by the list read after it. (One answer delivered twice by a gateway is
          // played by the server's tests: device-field-replies.test.ts.)
          const fate = lateAnswers ? random.int(0, 19) : random.pick([0, 1, 2, 8, 9, 10, 11, 12, 13, 14]);
          if (fate < 3) {
            // its reply was lost
          } else if (fate < 6) {
            // It arrives after the command timed out (the case: the unit was out of coverage).
            world.late.push(reply ?? '');
            timedOutForGood = readAfter === null;
          } else deliver(world, reply ?? '');
        }
        if (readAfter && entry.status === 'sent' && !random.chance(0.1)) {
          // The read reached the device; its answer is lost now and then, and late ones may come first.
          const answer = world.device.receive(
            renderReadQuery(model, readAfter, PASSWORD, world.profile),
            world.now,
          );
          expect(answer, text).not.toBeNull();
          deliverSomeLate(world);
          if (!random.chance(0.15)) deliver(world, answer ?? '');
        }
        if (timedOutForGood) break;
      }
      // No reply in time: the command failed (the planner sends what is still needed next round).
      if (entry.status === 'sent') entry.status = 'failed';
    }
    deliverSomeLate(world);
  }
  throw new Error(
    `The reconciler did not settle in 100 rounds (${model}, ${world.recent.filter((entry) => entry.status !== 'confirmed' && entry.replies === 0).length} unanswered).`,
  );
}

/**
 * slot → number, sorted by slot; a number-addressed device has no slots of its own, so only the set of
 * its numbers is compared.
 */
const byNumber = (map: Map<number, string>, model: DeviceModel) =>
  getSheet(model).addressing === 'number'
    ? [...new Set(map.values())].sort()
    : [...map.entries()].sort(([a], [b]) => a - b);

/** What the device lets in equals what the database wants, now and until the next planned change. */
/** expect(actual).toEqual(expected), with the costly reporting only when they differ. */
function expectEqual(actual: unknown, expected: unknown, label: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, label).toEqual(expected);
}

function expectInStep(world: World, label: string): void {
  const { model, offset, now, device } = world;
  const phones = [...world.phones.values()];
  const desired = desiredWhitelist(model, phones, now, offset);
  const deviceOpen = new Map(device.whitelist(now).map((entry) => [entry.slot, entry.number]));
  expectEqual(byNumber(deviceOpen, model), byNumber(openNumbersAt(desired, now), model), label);

  // The device's table, apart from windows that ended, is exactly the desired whitelist.
  // The unit's windows as it holds them, in the digit order the run settled (the profile's).
  const order = world.profile?.clock_order ?? 'yyMMddHHmm';
  const instant = (text: string) => new Date(parseClockWallTime(text, order)! - offset * MINUTE_MS);
  const held: WhitelistEntry[] = device.slots().map((slot) => ({
    slot: slot.slot,
    number: slot.number,
    ...(slot.window
      ? {
          window: {
            start: instant(slot.window.start),
            end: instant(slot.window.end),
          },
        }
      : {}),
  }));
  const live = held.filter((entry) => isLiveEntry(entry, now));
  if (getSheet(model).addressing === 'number') {
    expectEqual(
      [...new Set(live.map((entry) => entry.number))].sort(),
      [...new Set(desired.map((entry) => entry.number))].sort(),
      label,
    );
  } else {
    expectEqual(live, desired, label);
  }

  // Until the next change the device needs no SMS: windows open and close by its own clock.
  const next = nextChangeAt(model, phones, now, offset);
  const horizon = next ? next.getTime() : now.getTime() + 3 * 24 * 60 * MINUTE_MS;
  for (let probe = 0; probe < 3; probe += 1) {
    const at = new Date(
      now.getTime() + world.random.int(0, (horizon - now.getTime()) / MINUTE_MS - 1) * MINUTE_MS,
    );
    const open = new Map(device.whitelist(at).map((entry) => [entry.slot, entry.number]));
    expectEqual(
      byNumber(open, model),
      byNumber(openNumbersAt(desiredWhitelist(model, phones, at, offset), at), model),
      `${label} probe ${at.toISOString()}`,
    );
  }
}

/**
 * A read whose answer arrives split into parts, in any order, some lost: the parts are joined until every
 * slot of the range is answered, and each new attempt asks only for the slots still missing.
 */
function readInParts(world: World, whole: ReadQuery): string {
  const { model, random, device, now } = world;
  const parts: string[] = [];
  let query = whole;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const reply = device.receive(renderReadQuery(model, query, PASSWORD, world.profile), now);
    expect(reply, JSON.stringify(query)).not.toBeNull();
    // A list read (number-addressed models) does not say how many numbers it holds: only a range's answer
    // can be known complete, so only a range's answer is split here.
    if (whole.kind !== 'range') return reply ?? '';
    const lines = (reply ?? '').split('\n');
    const size = random.int(1, Math.max(1, lines.length));
    const pieces: string[] = [];
    for (let index = 0; index < lines.length; index += size)
      pieces.push(lines.slice(index, index + size).join('\n'));
    pieces.sort(() => (random.chance(0.5) ? 1 : -1));
    for (const piece of pieces) if (pieces.length === 1 || !random.chance(0.2)) parts.push(piece);
    const joined = joinReadParts(model, whole, parts, world.profile);
    if (joined.complete) return joined.text;
    const first = joined.missing[0]!;
    const last = joined.missing.at(-1)!;
    query = { kind: 'range', from: first, to: last };
  }
  throw new Error(`The read of ${JSON.stringify(whole)} never completed.`);
}

/**
 * "Проверить устройство": the unit drifted behind the server's back; the server reads the slots in use back,
 * trusts the reading, and the next reconcile repairs the difference.
 */
function driftAndCheck(world: World): void {
  const { model, random, device } = world;
  // A model with no documented way to read its numbers back cannot be checked.
  if (!getSheet(model).readBack) return;
  const inUse = [
    ...world.believed.entries.map((entry) => entry.slot),
    ...[...world.phones.keys()],
    ...(world.believed.unconfirmedSlots ?? []),
  ];
  const change = random.pick(['manual_add', 'manual_add', 'wipe_slot', 'factory_reset'] as const);
  if (change === 'manual_add') {
    // Within the area a check reads: the slots in use and the next one.
    device.drift({
      kind: 'manual_add',
      slot: random.int(1, Math.max(0, ...inUse) + 1),
      number: randomNumber(random),
    });
  } else if (change === 'wipe_slot' && inUse.length > 0) {
    device.drift({ kind: 'wipe_slot', slot: random.pick(inUse) });
  } else if (change === 'factory_reset' && random.chance(0.3)) {
    device.drift({ kind: 'factory_reset' });
  }
  world.recent.unshift({
    command: { kind: 'set_clock' },
    status: 'confirmed',
    attempts: 1,
    replies: 1,
    sentAt: world.now,
    read: true,
  });
  for (const query of planReadBack(model, inUse)) {
    const reply = readInParts(world, query);
    const parsed = parseReadReply(model, query, reply, world.profile);
    if (parsed?.outcome === 'read') world.believed = adoptReading(world.believed, parsed.slots);
    else if (parsed?.outcome === 'read_list') world.believed = adoptList(world.believed, parsed.numbers);
    else throw new Error(`Unreadable reply ${reply}`);
  }
}

/**
 * A unit that differs from its sheet (issue 42 item 6), as a conformance run meets it: the other clock order
 * or not, another number form, its own add text, fewer slots than the sheet (room for the test slot and the
 * residents). The run is played on it first; the world then goes on with the profile it learnt.
 */
function learntUnit(random: Random, world: World): void {
  const { model } = world;
  world.device.drift({
    kind: 'differ',
    clockOrder: random.pick(['yyMMddHHmm', 'ddMMyyHHmm'] as const),
    numberFormat: random.pick(NUMBER_FORMATS.filter((format) => format !== '10')),
    ...(random.chance(0.5) ? { replies: { add: 'Tel {slot} saved: {number}' } } : {}),
    capacity: 60,
    overCapacity: random.pick(['error', 'silence'] as const),
  });
  const run = playConformance(model, world.device, {
    now: world.now,
    slot: 50,
    testNumber: '+79990000000',
  });
  world.profile = run.profile;
  world.now = new Date(Math.ceil(run.end.getTime() / MINUTE_MS) * MINUTE_MS);
  // The run left the unit as it began: nothing in its table.
  expect(world.device.slots(), `learnt run on ${model}`).toEqual([]);
}

/** The model an operator defined in docs/devices/examples/defined-model.json, installed as the server does. */
function installExampleDefinedModel(): DeviceModel {
  const file = JSON.parse(
    readFileSync(new URL('../../../docs/devices/examples/defined-model.json', import.meta.url), 'utf8'),
  ) as { definition: ModelDefinition };
  installDefinedModels([{ id: 1, definition: file.definition }]);
  return definedModelKey(1) as DeviceModel;
}

function runCase(seed: number, variant: 'sheet' | 'learnt' | 'defined' = 'sheet'): number {
  const random = createRandom(seed);
  const learnt = variant === 'learnt';
  const model =
    variant === 'defined'
      ? installExampleDefinedModel()
      : learnt
        ? random.pick(['RTU5025', 'RTU5024'] as const)
        : random.pick(DEVICE_MODELS);
  const offset = random.pick([180, 180, 0, 300, -240, 330]);
  // Reconciles run at whole minutes (the jobs are scheduled at nextChangeAt, which falls on minutes).
  const start = new Date(
    Date.UTC(2025, random.int(0, 11), random.int(1, 28), random.int(0, 23), random.int(0, 59)),
  );
  const clock = random.pick([
    undefined,
    start,
    new Date(start.getTime() + random.int(-5000, 5000) * MINUTE_MS),
  ]);
  const world: World = {
    model,
    profile: null,
    offset,
    now: start,
    phones: new Map(),
    believed: { entries: [], clockSetAt: null },
    device: createDeviceSimulator({ model, password: PASSWORD, clock, utcOffsetMinutes: offset }),
    random,
    sent: 0,
    recent: [],
    late: [],
  };

  if (learnt) learntUnit(random, world);
  const steps = random.int(5, 30);
  for (let step = 0; step < steps; step += 1) {
    const label = `seed ${seed}, model ${model}, step ${step}`;
    const operation = random.pick([
      'add',
      'add',
      'delete',
      'edit',
      'edit',
      'time',
      'time',
      'next',
      'interrupted',
      'drift',
    ]);
    const slots = [...world.phones.keys()];
    if (operation === 'add' && slots.length < MAX_SLOT) {
      let slot = 1;
      while (world.phones.has(slot)) slot += 1;
      world.phones.set(slot, { slot, number: randomNumber(random), ...randomTiming(random, world.now) });
    } else if (operation === 'delete' && slots.length > 0) {
      world.phones.delete(random.pick(slots));
    } else if (operation === 'edit' && slots.length > 0) {
      const slot = random.pick(slots);
      const phone = world.phones.get(slot)!;
      world.phones.set(
        slot,
        random.chance(0.5)
          ? { ...phone, number: randomNumber(random) }
          : { slot, number: phone.number, ...randomTiming(random, world.now) },
      );
    } else if (operation === 'time') {
      world.now = new Date(world.now.getTime() + random.int(1, 3 * 24 * 60) * MINUTE_MS);
    } else if (operation === 'next') {
      const next = nextChangeAt(model, [...world.phones.values()], world.now, offset);
      world.now = next ?? new Date(world.now.getTime() + 60 * MINUTE_MS);
    } else if (operation === 'drift') {
      driftAndCheck(world);
    } else if (operation === 'interrupted') {
      // The server stops in the middle of a reconcile; time passes before it runs again.
      world.phones.set(random.int(1, MAX_SLOT), {
        slot: 0,
        number: randomNumber(random),
        ...randomTiming(random, world.now),
      });
      for (const [slot, phone] of world.phones) world.phones.set(slot, { ...phone, slot });
      reconcile(world, random.int(0, 2));
      world.now = new Date(world.now.getTime() + random.int(1, 600) * MINUTE_MS);
    }
    reconcile(world);
    expectInStep(world, label);
  }
  return world.sent;
}

describe('planner + simulator', () => {
  it('always bring the device to the desired whitelist, whatever the changes and losses', () => {
    let sent = 0;
    for (
      let seed = Number(process.env.SEED ?? process.env.FROM ?? 1);
      seed <= Number(process.env.SEED ?? process.env.TO ?? 2000);
      seed += 1
    )
      sent += runCase(seed);
    // The cases did exercise the device.
    expect(sent).toBeGreaterThan(10_000);
  }, 180_000);

  it('bring a unit that differs from its sheet to the desired whitelist once a run learnt its profile', () => {
    let sent = 0;
    for (let seed = 1; seed <= 300; seed += 1) sent += runCase(seed, 'learnt');
    expect(sent).toBeGreaterThan(1_000);
  }, 180_000);

  it('bring a unit of a model an operator defined to the desired whitelist', () => {
    let sent = 0;
    for (let seed = 1; seed <= 300; seed += 1) sent += runCase(seed, 'defined');
    expect(sent).toBeGreaterThan(1_000);
  }, 180_000);
});
