/**
 * A barrier's device as the engine believes it: what the database wants it to hold (the phones with a slot,
 * and the gateway's number in the power-alarm slot), what it is believed to hold (confirmed slots plus the
 * effect of commands already sent and awaiting their reply), the queue of unsent commands and the slots
 * "quarantined" by a failed command. Read in one statement (`loadDeviceState`); the planner (outbox.ts), the
 * device checks and the budget read it.
 *
 * A slot whose last command failed after every retry is "quarantined": its state on the device is unknown,
 * and sending the same command again and again would only burn SMS. It is planned again when what the
 * database wants for it changes (the phone is edited or removed), when an administrator retries the phone,
 * or, for deletes and the clock (nobody sees them in the UI), an hour after the failure.
 */

import type { PhoneSpec, WhitelistEntry } from '@propusk/devices/access';
import { gatewaySlot } from '@propusk/devices/alarms';
import { DEVICE_MODELS, getSheet, isDeviceModel } from '@propusk/devices/models';
import {
  applyConfirmed,
  type BelievedState,
  commandFromJson,
  type PlannedCommand,
  type PlannedCommandJson,
} from '@propusk/devices/planner';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barriers, deviceCommands, deviceSlots, phones } from '../../db/schema.ts';

/** A failed delete or clock command is tried again by itself after this long. */
export const QUARANTINE_REARM_MS = 60 * 60 * 1000;
/** Command kinds that are device whitelist commands (the planner's), as opposed to settings. */
export const WHITELIST_COMMAND_KINDS = ['add', 'add_window', 'delete', 'set_clock'] as const;
const whitelistKinds = [...WHITELIST_COMMAND_KINDS];

/** The entry a whitelist command leaves in its slot (null: the slot is empty afterwards). */
function intendedEntry(command: PlannedCommand): WhitelistEntry | null {
  if (command.kind === 'delete' || command.slot === undefined || command.number === undefined) return null;
  return command.window
    ? { slot: command.slot, number: command.number, window: command.window }
    : { slot: command.slot, number: command.number };
}

export interface DeviceView {
  /** Confirmed state plus every command that was sent and awaits its reply (or its retry). */
  believed: BelievedState;
  /** Unsent commands of the current plan, in order. */
  queued: { id: number; payload: PlannedCommandJson }[];
  /** Slot → what its failed command tried to leave there. */
  quarantined: Map<number, WhitelistEntry | null>;
  clockQuarantined: boolean;
  addressing: 'slot' | 'number';
  /** Slots of numbers whose batch failed: planned again, one number an SMS (planCommands' `alone`). */
  alone: number[];
}

/** Models whose units hold a set of numbers (Telemetrica): their commands concern a number, not a slot. */
const NUMBER_ADDRESSED_MODELS = DEVICE_MODELS.filter((model) => getSheet(model).addressing === 'number');

/**
 * The json columns below hold rows as positional arrays (`json_build_array`), not objects: on a barrier of
 * 467 phones the phones' aggregate took 2.11 ms against 3.97 ms with `json_build_object` (medians of 15 runs,
 * docs/decisions/0027), and the planner reads them at every change and reply. Each reader names the positions.
 */
export type JsonTuples = unknown[][] | string;
/** A json_agg column: parsed by node-postgres, a string from some drivers. */
const jsonTuples = (value: JsonTuples) =>
  (typeof value === 'string' ? JSON.parse(value) : value) as unknown[][];
const jsonDate = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string);

/** SQL: one phone of alias `p` as `phoneSpecsOf` reads it: id, slot, number, kind, start, end, schedule, pending. */
export const phoneTupleSql = (p: ReturnType<typeof sql>) =>
  sql`json_build_array(${p}.id, ${p}.slot, ${p}.phone, ${p}.type, ${p}.start_time, ${p}.end_time, ${p}.schedule,
    ${p}.status = 'pending')`;

/** The position of `pending` in a `phoneTupleSql`. */
const PHONE_PENDING = 7;

/** The active phones with a slot of barrier `b`, as one json column of `phoneTupleSql`s. */
const phoneSpecsJsonSql = sql`(select coalesce(json_agg(${phoneTupleSql(sql`p`)}), '[]')
  from ${phones} p where p.barrier_id = b.id and p.is_active and p.slot is not null)`;

/** Phone specs from a json column of `phoneTupleSql`s. */
export function phoneSpecsOf(value: JsonTuples): (PhoneSpec & { id: number })[] {
  return jsonTuples(value).map(([id, slot, number, kind, start, end, schedule]) => ({
    id: id as number,
    slot: slot as number,
    number: number as string,
    kind: kind as PhoneSpec['kind'],
    start: jsonDate(start),
    end: jsonDate(end),
    schedule: (schedule ?? null) as PhoneSpec['schedule'],
  }));
}

/** The spec id of the gateway's number in slot 1: no phone row (commands of it name no phone). */
export const GATEWAY_SPEC_ID = 0;

/**
 * The phones, and the gateway's number where the barrier holds it (issue 30 item 5): a permanent entry of
 * nobody's in the model's power-alarm slot (slot 1), so that the unit's power-failure SMS reach the server.
 * A deleted barrier's unit is cleared of it too (the SQL gives no gateway then).
 */
function specsWithGateway(
  model: string,
  phonesJson: JsonTuples,
  gateway: string | null,
): (PhoneSpec & { id: number })[] {
  const specs = phoneSpecsOf(phonesJson);
  const slot = gateway && isDeviceModel(model) ? gatewaySlot(model) : null;
  if (slot === null || gateway === null) return specs;
  return [
    { id: GATEWAY_SPEC_ID, slot, number: gateway, kind: 'permanent', start: null, end: null, schedule: null },
    ...specs,
  ];
}

/** The barrier's model and active phones in one statement (null: no such barrier). */
export async function loadModelAndSpecs(executor: Executor, barrierId: number) {
  const statement = preparedStatement(executor, 'device.modelAndSpecs', () =>
    executor
      .select({
        model: sql<string>`b.device_model`,
        gateway: sql<string | null>`case when b.deleted_at is null then b.device_gateway_number end`,
        phones: sql<JsonTuples>`${phoneSpecsJsonSql}`,
      })
      .from(sql`${barriers} b`)
      .where(sql`b.id = ${sql.placeholder('barrierId')}`),
  );
  const [row] = await statement.execute({ barrierId });
  return row ? { model: row.model, specs: specsWithGateway(row.model, row.phones, row.gateway) } : null;
}

/**
 * The items of a command row `c` (alias), one row each: a plain command itself; a batch (`entries`) one plain
 * command of its kind per entry (`batch` true). So a failed batch's numbers are seen one by one, and a later
 * batch supersedes the failures of the numbers it carries. A failed batch's number is superseded only by a
 * later command that was sent: until then it keeps being planned alone (`DeviceView.alone`), so that the
 * single commands queued for it are not merged into a batch again at the next re-plan.
 */
const commandItemsSql = (c: ReturnType<typeof sql>) => sql`
  select case when jsonb_typeof(${c}.payload->'entries') = 'array'
      then jsonb_build_object('kind', ${c}.payload->'kind', 'slot', e.value->'slot', 'number', e.value->'number')
      else ${c}.payload end as payload,
    jsonb_typeof(${c}.payload->'entries') = 'array' as batch
  from jsonb_array_elements(case when jsonb_typeof(${c}.payload->'entries') = 'array'
    then ${c}.payload->'entries' else jsonb_build_array(${c}.payload) end) e`;

/**
 * Everything the planner reads about a barrier's device, in one statement: the model and clock, the active
 * phones with a slot, the confirmed slots, the open whitelist commands (in id order) and the failed ones that
 * no later command of the same slot (number, on number-addressed models) or the clock superseded. null: no
 * such barrier. One round trip instead of six: the planner runs at every change, reply and window edge.
 */
export async function loadDeviceState(executor: Executor, barrierId: number) {
  // A named statement (planned once per connection): sent as a plain query it was planned at every call, and
  // its planning (1 ms under the mixed load) cost as much as running it.
  const statement = preparedStatement(executor, 'device.state', () => {
    const numberModels = sql.join(
      NUMBER_ADDRESSED_MODELS.map((model) => sql`${model}`),
      sql`, `,
    );
    const kinds = sql.join(
      whitelistKinds.map((kind) => sql`${kind}`),
      sql`, `,
    );
    return executor
      .select({
        model: sql<string>`b.device_model`,
        clock_set_at: sql<string | Date | null>`b.device_clock_set_at`,
        gateway: sql<string | null>`case when b.deleted_at is null then b.device_gateway_number end`,
        has_pending: sql<boolean>`exists (select 1 from ${phones} w
          where w.barrier_id = b.id and w.is_active and w.status = 'pending')`,
        phones: sql<JsonTuples>`${phoneSpecsJsonSql}`,
        slots: sql<JsonTuples>`(select coalesce(json_agg(json_build_array(s.slot, s.number, s.window_start,
            s.window_end)), '[]')
          from ${deviceSlots} s where s.barrier_id = b.id)`,
        open: sql<JsonTuples>`(select coalesce(json_agg(json_build_array(c.id, c.payload, c.status, c.attempts)
            order by c.id), '[]')
          from ${deviceCommands} c
          where c.barrier_id = b.id and c.status in ('queued', 'sent') and c.kind in (${kinds}))`,
        failed: sql<JsonTuples>`(select coalesce(json_agg(json_build_array(fi.payload, fi.batch,
            f.finished_at)), '[]')
          from ${deviceCommands} f
          cross join lateral (${commandItemsSql(sql`f`)}) fi
          where f.barrier_id = b.id and f.status = 'failed' and f.attempts > 0 and f.kind in (${kinds})
            and not exists (
              select 1 from ${deviceCommands} l
              cross join lateral (${commandItemsSql(sql`l`)}) li
              where l.barrier_id = f.barrier_id and l.id > f.id and l.status <> 'cancelled' and l.kind in (${kinds})
                and (not fi.batch or l.attempts > 0)
                and coalesce(li.payload->>(case when b.device_model in (${numberModels}) then 'number' else 'slot' end), '')
                  = coalesce(fi.payload->>(case when b.device_model in (${numberModels}) then 'number' else 'slot' end), '')
            ))`,
      })
      .from(sql`${barriers} b`)
      .where(sql`b.id = ${sql.placeholder('barrierId')}`);
  });
  const result = { rows: await statement.execute({ barrierId }) };
  const row = result.rows[0];
  if (!row) return null;
  const phoneRows = jsonTuples(row.phones);
  return {
    model: row.model,
    clockSetAt: jsonDate(row.clock_set_at),
    /** Some active phone is `pending` (settlePendingPhones has something to look at). */
    hasPendingPhones: Boolean(row.has_pending),
    /** The active phones with a slot whose status is `pending` (some may have none: see `hasPendingPhones`). */
    pendingPhones: phoneRows
      .filter((phone) => phone[PHONE_PENDING] === true)
      .map(([id, slot]) => ({ id: id as number, slot: slot as number })),
    specs: specsWithGateway(row.model, phoneRows, row.gateway),
    slots: jsonTuples(row.slots).map(([slot, number, windowStart, windowEnd]) => ({
      slot: slot as number,
      number: number as string,
      windowStart: jsonDate(windowStart),
      windowEnd: jsonDate(windowEnd),
    })),
    open: jsonTuples(row.open).map(([id, payload, status, attempts]) => ({
      id: id as number,
      payload: payload as PlannedCommandJson,
      status: status as string,
      attempts: attempts as number,
    })),
    failed: jsonTuples(row.failed).map(([payload, batch, finishedAt]) => ({
      payload: payload as PlannedCommandJson,
      /** One number of a failed batch. */
      batch: Boolean(batch),
      finishedAt: jsonDate(finishedAt),
    })),
  };
}
export type DeviceState = NonNullable<Awaited<ReturnType<typeof loadDeviceState>>>;

/** What the device holds or will hold once the commands already on their way are confirmed. */
export async function loadDeviceView(executor: Executor, barrierId: number, now: Date): Promise<DeviceView> {
  return deviceViewOf(await loadDeviceState(executor, barrierId), now);
}

/** The device view of a state read by `loadDeviceState` (null: a barrier that does not exist). */
export function deviceViewOf(state: DeviceState | null, now: Date): DeviceView {
  const addressing =
    state && isDeviceModel(state.model) ? getSheet(state.model).addressing : ('slot' as const);
  let believed: BelievedState = {
    clockSetAt: state?.clockSetAt ?? null,
    entries: (state?.slots ?? []).map((row) => ({
      slot: row.slot,
      number: row.number,
      ...(row.windowStart && row.windowEnd ? { window: { start: row.windowStart, end: row.windowEnd } } : {}),
    })),
  };
  const queued: DeviceView['queued'] = [];
  for (const row of state?.open ?? []) {
    if (row.status === 'queued' && row.attempts === 0) queued.push({ id: row.id, payload: row.payload });
    else believed = applyConfirmed(believed, commandFromJson(row.payload), now, addressing);
  }

  const quarantined = new Map<number, WhitelistEntry | null>();
  const alone: number[] = [];
  let clockQuarantined = false;
  for (const row of state?.failed ?? []) {
    const command = commandFromJson(row.payload);
    const finishedAt = row.finishedAt ?? now;
    const rearmed = now.getTime() - finishedAt.getTime() >= QUARANTINE_REARM_MS;
    if (row.batch && command.slot !== undefined && command.number !== undefined) {
      // A failed batch is not frozen: its numbers may or may not be on the unit, so they are planned again
      // at once, one an SMS (so that each number's fate is known by its own reply); only a failure of that
      // single command quarantines the slot.
      alone.push(command.slot);
      believed = {
        ...believed,
        unconfirmedSlots: [...(believed.unconfirmedSlots ?? []), command.slot],
        uncertain: [...(believed.uncertain ?? []), { slot: command.slot, number: command.number }],
      };
      continue;
    }
    if (command.kind === 'set_clock') {
      clockQuarantined ||= !rearmed;
    } else if (command.slot !== undefined && !(command.kind === 'delete' && rearmed)) {
      quarantined.set(command.slot, intendedEntry(command));
    } else if (command.slot !== undefined) {
      // A re-armed delete: the slot's content is unknown, so the planner clears it.
      believed = {
        ...believed,
        unconfirmedSlots: [...(believed.unconfirmedSlots ?? []), command.slot],
        ...(command.number !== undefined
          ? { uncertain: [...(believed.uncertain ?? []), { slot: command.slot, number: command.number }] }
          : {}),
      };
    }
  }
  return { believed, queued, quarantined, clockQuarantined, addressing, alone };
}

/** The device's projected state: what it will hold once every open command is confirmed. */
export async function loadProjectedState(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<BelievedState> {
  const view = await loadDeviceView(executor, barrierId, now);
  let state = view.believed;
  for (const command of view.queued)
    state = applyConfirmed(state, commandFromJson(command.payload), now, view.addressing);
  return state;
}
