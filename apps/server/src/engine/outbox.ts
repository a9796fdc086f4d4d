/**
 * The device outbox. After any change to a barrier's phones, the domain calls `syncBarrierDevice` inside
 * the same transaction (after `lockBarrier`): it compares what the database says the device should hold
 * now with what the device is believed to hold (confirmed slots, plus the effect of commands already sent
 * and awaiting their reply), plans the fewest commands with @propusk/devices and stores them as
 * `device_commands` rows. Commands planned earlier but not yet sent are replaced by the new plan, so a phone
 * added and removed before its SMS left costs nothing. The device worker sends them after commit.
 *
 * A change whose commands would exceed the barrier's `sms_weekly_limit` is refused here, before anything
 * is stored (the caller's transaction rolls back). The worker's own re-plans (after a reply, at the start or
 * end of a time window) are not refused: taking a number off a device must never wait for a budget.
 *
 * A slot whose last command failed after every retry is "quarantined": its state on the device is unknown,
 * and sending the same command again and again would only burn SMS. It is planned again when what the
 * database wants for it changes (the phone is edited or removed), when an administrator retries the phone,
 * or, for deletes and the clock (nobody sees them in the UI), an hour after the failure.
 */

import { desiredWhitelist, type PhoneSpec, sameEntry, type WhitelistEntry } from '@propusk/devices/access';
import { gatewaySlot } from '@propusk/devices/alarms';
import { DEVICE_MODELS, type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import {
  applyConfirmed,
  type BelievedState,
  commandFromJson,
  commandToJson,
  type PlannedCommand,
  type PlannedCommandJson,
  planCommands,
} from '@propusk/devices/planner';
import { forecastCommittedSms } from '@propusk/devices/weekly-sms';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { barrierLimits, barriers, deviceCommands, deviceSlots, phones } from '../db/schema.ts';
import type { Dependencies } from '../lib/dependencies.ts';
import { conflict } from '../lib/errors.ts';
import { assertResidentSmsShare, usedAgainstLimit } from './sms-shares.ts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** A failed delete or clock command is tried again by itself after this long. */
export const QUARANTINE_REARM_MS = 60 * 60 * 1000;
/** Command kinds that are device whitelist commands (the planner's), as opposed to settings. */
export const WHITELIST_COMMAND_KINDS = ['add', 'add_window', 'delete', 'set_clock'] as const;
const whitelistKinds = [...WHITELIST_COMMAND_KINDS];

/**
 * Serialises every change to one barrier's phones and device state (slot allocation, planning, sending).
 *
 * `for no key update`, the row lock an UPDATE of the barrier takes, not `for update`: both exclude each other
 * (every holder of this lock still waits for the previous one), but `for update` also blocks the `for key share`
 * that PostgreSQL's foreign-key check takes on the barrier for every row inserted into a table that references
 * it (device_messages, device_commands, actions, phones…). Under load half of PostgreSQL's time went to such
 * inserts of other transactions (an inbound reply's message) waiting for the barrier's lock holder
 * (docs/decisions/0027, session of 2026-11-26). The same mode in send-batcher.ts and device-rows.ts.
 */
export async function lockBarrier(executor: Executor, barrierId: number): Promise<void> {
  await executor.execute(
    sql`select id from ${barriers} where ${barriers.id} = ${barrierId} for no key update`,
  );
}

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
}

/** Models whose units hold a set of numbers (Telemetrica): their commands concern a number, not a slot. */
const NUMBER_ADDRESSED_MODELS = DEVICE_MODELS.filter((model) => getSheet(model).addressing === 'number');

/** The active phones with a slot of barrier `b`, as one json column (`phoneSpecsOf` reads it). */
const phoneSpecsJsonSql = sql`(select coalesce(json_agg(json_build_object('id', p.id, 'slot', p.slot,
    'number', p.phone, 'kind', p.type, 'start', p.start_time, 'end', p.end_time, 'schedule', p.schedule)), '[]')
  from ${phones} p where p.barrier_id = b.id and p.is_active and p.slot is not null)`;

/** A json_agg column: parsed by node-postgres, a string from some drivers. */
type JsonRows = Record<string, unknown>[] | string;
const jsonRows = (value: JsonRows) =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[];
const jsonDate = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string);

function phoneSpecsOf(value: JsonRows): (PhoneSpec & { id: number })[] {
  return jsonRows(value).map((phone) => ({
    id: phone.id as number,
    slot: phone.slot as number,
    number: phone.number as string,
    kind: phone.kind as PhoneSpec['kind'],
    start: jsonDate(phone.start),
    end: jsonDate(phone.end),
    schedule: (phone.schedule ?? null) as PhoneSpec['schedule'],
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
  phonesJson: JsonRows,
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
  const result = (await executor.execute(
    sql`select b.device_model as model, case when b.deleted_at is null then b.device_gateway_number end as gateway, ${phoneSpecsJsonSql} as phones
      from ${barriers} b where b.id = ${barrierId}`,
  )) as unknown as { rows: { model: string; gateway: string | null; phones: JsonRows }[] };
  const row = result.rows[0];
  return row ? { model: row.model, specs: specsWithGateway(row.model, row.phones, row.gateway) } : null;
}

/**
 * Everything the planner reads about a barrier's device, in one statement: the model and clock, the active
 * phones with a slot, the confirmed slots, the open whitelist commands (in id order) and the failed ones that
 * no later command of the same slot (number, on number-addressed models) or the clock superseded. null: no
 * such barrier. One round trip instead of six: the planner runs at every change, reply and window edge.
 */
export async function loadDeviceState(executor: Executor, barrierId: number) {
  const numberModels = sql.join(
    NUMBER_ADDRESSED_MODELS.map((model) => sql`${model}`),
    sql`, `,
  );
  const kinds = sql.join(
    whitelistKinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  const result = (await executor.execute(sql`
    select b.device_model as model, b.device_clock_set_at as clock_set_at,
      case when b.deleted_at is null then b.device_gateway_number end as gateway,
      exists (select 1 from ${phones} w where w.barrier_id = b.id and w.is_active and w.status = 'pending')
        as has_pending,
      ${phoneSpecsJsonSql} as phones,
      (select coalesce(json_agg(json_build_object('slot', s.slot, 'number', s.number,
          'window_start', s.window_start, 'window_end', s.window_end)), '[]')
        from ${deviceSlots} s where s.barrier_id = b.id) as slots,
      (select coalesce(json_agg(json_build_object('id', c.id, 'payload', c.payload, 'status', c.status,
          'attempts', c.attempts) order by c.id), '[]')
        from ${deviceCommands} c
        where c.barrier_id = b.id and c.status in ('queued', 'sent') and c.kind in (${kinds})) as open,
      (select coalesce(json_agg(json_build_object('payload', f.payload, 'finished_at', f.finished_at)), '[]')
        from ${deviceCommands} f
        where f.barrier_id = b.id and f.status = 'failed' and f.attempts > 0 and f.kind in (${kinds})
          and not exists (
            select 1 from ${deviceCommands} l
            where l.barrier_id = f.barrier_id and l.id > f.id and l.status <> 'cancelled' and l.kind in (${kinds})
              and coalesce(l.payload->>(case when b.device_model in (${numberModels}) then 'number' else 'slot' end), '')
                = coalesce(f.payload->>(case when b.device_model in (${numberModels}) then 'number' else 'slot' end), '')
          )) as failed
    from ${barriers} b where b.id = ${barrierId}`)) as unknown as {
    rows: {
      model: string;
      clock_set_at: string | Date | null;
      gateway: string | null;
      has_pending: boolean;
      phones: JsonRows;
      slots: JsonRows;
      open: JsonRows;
      failed: JsonRows;
    }[];
  };
  const row = result.rows[0];
  if (!row) return null;
  return {
    model: row.model,
    clockSetAt: jsonDate(row.clock_set_at),
    /** Some active phone is `pending` (settlePendingPhones has something to look at). */
    hasPendingPhones: Boolean(row.has_pending),
    specs: specsWithGateway(row.model, row.phones, row.gateway),
    slots: jsonRows(row.slots).map((slot) => ({
      slot: slot.slot as number,
      number: slot.number as string,
      windowStart: jsonDate(slot.window_start),
      windowEnd: jsonDate(slot.window_end),
    })),
    open: jsonRows(row.open).map((command) => ({
      id: command.id as number,
      payload: command.payload as PlannedCommandJson,
      status: command.status as string,
      attempts: command.attempts as number,
    })),
    failed: jsonRows(row.failed).map((command) => ({
      payload: command.payload as PlannedCommandJson,
      finishedAt: jsonDate(command.finished_at),
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
  let clockQuarantined = false;
  for (const row of state?.failed ?? []) {
    const command = commandFromJson(row.payload);
    const finishedAt = row.finishedAt ?? now;
    const rearmed = now.getTime() - finishedAt.getTime() >= QUARANTINE_REARM_MS;
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
  return { believed, queued, quarantined, clockQuarantined, addressing };
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

/** Command SMS sent or queued for this barrier's device in the 7 days before `now` (retries count). */
export async function countCommandsThisWeek(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`coalesce(sum(greatest(${deviceCommands.attempts}, 1)), 0)::int` })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.status, ['queued', 'sent', 'confirmed', 'failed']),
        gt(deviceCommands.createdAt, new Date(now.getTime() - WEEK_MS)),
      ),
    );
  return row?.count ?? 0;
}

/** What the barrier's timed phones have committed its device to over the coming week (weekly-sms.ts). */
export async function loadCommittedSms(
  executor: Executor,
  deps: Pick<Dependencies, 'config'>,
  barrierId: number,
  now: Date,
  known?: { model: DeviceModel; specs: readonly PhoneSpec[]; clockSetAt: Date | null },
): Promise<number> {
  let source = known;
  if (!source) {
    const state = await loadDeviceState(executor, barrierId);
    if (!state || !isDeviceModel(state.model)) return 0;
    source = { model: state.model, specs: state.specs, clockSetAt: state.clockSetAt };
  }
  return forecastCommittedSms(
    source.model,
    source.specs,
    now,
    source.clockSetAt,
    deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
  ).total;
}

/** The barrier's `sms_weekly_limit` (null: none). */
async function loadWeeklyLimit(executor: Executor, barrierId: number): Promise<number | null> {
  const [limits] = await executor
    .select({ smsWeeklyLimit: barrierLimits.smsWeeklyLimit })
    .from(barrierLimits)
    .where(eq(barrierLimits.barrierId, barrierId));
  return limits?.smsWeeklyLimit ?? null;
}

/**
 * 409 when `extra` more SMS would take the barrier over its weekly limit: the SMS of the last seven days,
 * plus `extra`, plus what its timed phones are committed to over the coming week (`committed`; loaded when
 * not given), must stay within `sms_weekly_limit`. Counting the committed SMS is what keeps a change by a
 * person from spending the SMS that accepted phones' windows will need.
 */
export async function assertWeeklySmsBudget(
  executor: Executor,
  deps: Pick<Dependencies, 'config'>,
  barrierId: number,
  extra: number,
  now: Date,
  committed?: number,
): Promise<void> {
  const limit = await loadWeeklyLimit(executor, barrierId);
  if (limit === null) return;
  const used = await usedAgainstLimit(
    executor,
    barrierId,
    now,
    await countCommandsThisWeek(executor, barrierId, now),
  );
  const ahead = committed ?? (await loadCommittedSms(executor, deps, barrierId, now));
  if (used + extra + ahead > limit) throw conflict('sms_weekly_limit');
}

export interface SyncOptions {
  /** Refuse (409) a plan that exceeds `sms_weekly_limit`. Default true (changes made by people). */
  enforceWeeklyLimit?: boolean;
  /** Slots to plan again even though their last command failed (an administrator's retry). */
  retrySlots?: number[];
  /**
   * What the barrier was committed to before the change (`loadCommittedSms`, read before writing). A change
   * that queues no command is still checked against the limit when it commits the device to more than this
   * (a schedule edited to more windows, a timed phone on a model without windows added before its start).
   * Not given: 0, so any change with SMS ahead is checked (a caller that knows it changed nothing that
   * costs, e.g. a rename, passes the value so that a spent budget does not refuse it).
   */
  committedBefore?: number;
  /**
   * The resident whose own change this is (sms-shares.ts): its new commands are his, and the change is refused
   * over his share of the weekly limit. Null or absent: the owner, his staff or the system.
   */
  spentBy?: number | null;
}

/**
 * How many of the queued commands the new plan starts with (those stay queued as they are). A stored payload
 * comes back from jsonb with its keys reordered (a window's `end` before its `start`), so it is compared in
 * the planner's own form.
 */
function commonPrefix(queued: DeviceView['queued'], plan: PlannedCommand[]): number {
  let index = 0;
  while (
    index < queued.length &&
    index < plan.length &&
    JSON.stringify(commandToJson(commandFromJson(queued[index]!.payload))) ===
      JSON.stringify(commandToJson(plan[index]!))
  ) {
    index += 1;
  }
  return index;
}

/**
 * The plan for the barrier's device as the database describes it now, plus `extraSpecs` (phones not written
 * yet: a preview), without writing anything: the commands the new plan keeps from the queue, those it drops
 * (`stale`) and those it adds (`fresh`). null for a barrier without a known model.
 */
async function planDevice(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
  options: SyncOptions,
  extraSpecs: readonly (PhoneSpec & { id: number })[] = [],
) {
  const now = deps.clock.now();
  const state = await loadDeviceState(executor, barrierId);
  if (!state || !isDeviceModel(state.model)) return null;
  const model: DeviceModel = state.model;
  const specs = [...state.specs, ...extraSpecs];
  const view = deviceViewOf(state, now);
  const retry = new Set(options.retrySlots ?? []);

  const desiredBySlot = new Map(
    desiredWhitelist(model, specs, now, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES).map((entry) => [
      entry.slot,
      entry,
    ]),
  );
  let believed = view.believed;
  const unconfirmed = new Set(believed.unconfirmedSlots ?? []);
  const uncertain = [...(believed.uncertain ?? [])];
  const frozen = new Set<number>();
  for (const [slot, intended] of view.quarantined) {
    if (!retry.has(slot) && sameEntry(desiredBySlot.get(slot) ?? null, intended)) {
      // The database still wants what failed: leave the slot alone until something changes.
      frozen.add(slot);
      desiredBySlot.delete(slot);
      unconfirmed.delete(slot);
    } else {
      unconfirmed.add(slot);
      // On a number-addressed device the failed add's number may be there, whatever slot it was filed under.
      if (intended && view.addressing === 'number') uncertain.push({ slot, number: intended.number });
    }
  }
  believed = {
    uncertain,
    entries: believed.entries.filter((entry) => !frozen.has(entry.slot)),
    clockSetAt: view.clockQuarantined && retry.size === 0 ? now : (believed.clockSetAt ?? null),
    unconfirmedSlots: [...unconfirmed].sort((a, b) => a - b),
  };
  const plan = planCommands({ model, desired: [...desiredBySlot.values()], believed, now });
  const kept = commonPrefix(view.queued, plan);
  return {
    now,
    model,
    specs,
    believed,
    stale: view.queued.slice(kept),
    fresh: plan.slice(kept),
    plan,
    hasPendingPhones: state.hasPendingPhones,
  };
}

/**
 * What `syncBarrierDevice` would queue if `extraSpecs` were added to the barrier's phones, without writing:
 * the number of new commands (SMS) and whether the weekly SMS limit would refuse them (the same check,
 * counting the queued commands the plan would cancel as cancelled). For previews (a bulk import).
 */
export async function forecastDeviceSync(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
  extraSpecs: readonly (PhoneSpec & { id: number })[],
  options: Pick<SyncOptions, 'committedBefore'> = {},
): Promise<{ sms: number; overWeeklyLimit: boolean }> {
  const planned = await planDevice(executor, deps, barrierId, {}, extraSpecs);
  if (!planned) return { sms: 0, overWeeklyLimit: false };
  const { now, model, specs, believed, stale, fresh, plan } = planned;
  const limit = await loadWeeklyLimit(executor, barrierId);
  if (limit === null) return { sms: fresh.length, overWeeklyLimit: false };
  const clockSetAt = plan.some((command) => command.kind === 'set_clock')
    ? now
    : (believed.clockSetAt ?? null);
  const committed = await loadCommittedSms(executor, deps, barrierId, now, { model, specs, clockSetAt });
  if (fresh.length === 0 && committed <= (options.committedBefore ?? 0))
    return { sms: 0, overWeeklyLimit: false };
  const used = (await countCommandsThisWeek(executor, barrierId, now)) - stale.length;
  return { sms: fresh.length, overWeeklyLimit: used + fresh.length + committed > limit };
}

/**
 * Plans and queues the commands that bring the barrier's device to the state the database now describes.
 * Must run inside the transaction of the change, after `lockBarrier`. Returns the number of commands
 * newly queued (0 when the queue already held the right plan). Queued commands that the new plan still
 * starts with stay as they are; the rest of the old plan is cancelled.
 */
export async function syncBarrierDevice(
  executor: Executor,
  deps: Pick<Dependencies, 'clock' | 'config'>,
  barrierId: number,
  options: SyncOptions = {},
): Promise<number> {
  const planned = await planDevice(executor, deps, barrierId, options);
  if (!planned) return 0;
  const { now, model, specs, believed, stale, fresh, plan, hasPendingPhones } = planned;
  if (stale.length > 0) {
    await executor
      .update(deviceCommands)
      .set({ status: 'cancelled', finishedAt: now })
      .where(
        inArray(
          deviceCommands.id,
          stale.map((row) => row.id),
        ),
      );
  }
  // Barriers without a limit pay nothing for the forecast.
  if ((options.enforceWeeklyLimit ?? true) && (await loadWeeklyLimit(executor, barrierId)) !== null) {
    // The clock as the device will have it once this plan is sent (the forecast counts its renewal).
    const clockSetAt = plan.some((command) => command.kind === 'set_clock')
      ? now
      : (believed.clockSetAt ?? null);
    const committed = await loadCommittedSms(executor, deps, barrierId, now, { model, specs, clockSetAt });
    if (fresh.length > 0 || committed > (options.committedBefore ?? 0))
      await assertWeeklySmsBudget(executor, deps, barrierId, fresh.length, now, committed);
    // His timed phones' coming SMS count in his share too (phones.sms_paid_by): a change that commits the
    // device to more is checked even when it queues nothing now.
    if (options.spentBy != null)
      await assertResidentSmsShare(
        executor,
        barrierId,
        options.spentBy,
        fresh.length,
        now,
        deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
        { committedGrew: committed > (options.committedBefore ?? 0) },
      );
  }
  if (fresh.length > 0) {
    const phoneIdBySlot = new Map(
      specs.filter((spec) => spec.id !== GATEWAY_SPEC_ID).map((spec) => [spec.slot, spec.id]),
    );
    const dueAts = commandDeadlines(fresh);
    await executor.insert(deviceCommands).values(
      fresh.map((command, index) => ({
        barrierId,
        phoneId:
          command.slot !== undefined && command.kind !== 'delete'
            ? (phoneIdBySlot.get(command.slot) ?? null)
            : null,
        kind: command.kind,
        spentBy: options.spentBy ?? null,
        payload: commandToJson(command),
        createdAt: now,
        dueAt: dueAts[index] ?? null,
      })),
    );
    const pendingPhoneIds = fresh
      .filter((command) => command.kind === 'add' || command.kind === 'add_window')
      .map((command) => phoneIdBySlot.get(command.slot as number))
      .filter((id): id is number => id !== undefined);
    if (pendingPhoneIds.length > 0) {
      await executor
        .update(phones)
        .set({ status: 'pending', updatedAt: now })
        .where(inArray(phones.id, pendingPhoneIds));
    }
  }
  // Phones marked pending just now have their command queued: only those pending before can be settled.
  if (hasPendingPhones) await settlePendingPhones(executor, barrierId, now);
  return fresh.length;
}

/**
 * Each command's deadline in the queue's order across barriers (`device_commands.due_at`; null: when it is
 * stored): a window's start; for the clock, the soonest start of the windows planned after it (it is written
 * for them, and carries no deadline of its own).
 */
function commandDeadlines(commands: readonly PlannedCommand[]): (Date | null)[] {
  return commands.map((command, index) => {
    if (command.window) return command.window.start;
    if (command.kind !== 'set_clock') return null;
    let soonest: Date | null = null;
    for (const later of commands.slice(index + 1))
      if (later.window && (soonest === null || later.window.start < soonest)) soonest = later.window.start;
    return soonest;
  });
}

/**
 * A pending phone with no command on its way for its slot is as the device should have it (e.g. a
 * temporary phone on a model without windows, before its start): it is `ok`.
 */
export async function settlePendingPhones(executor: Executor, barrierId: number, now: Date): Promise<void> {
  await executor.execute(sql`
    update ${phones} set status = 'ok', updated_at = ${now}
    where ${phones.barrierId} = ${barrierId} and ${phones.isActive} and ${phones.status} = 'pending'
      and not exists (
        select 1 from ${deviceCommands} c
        where c.barrier_id = ${barrierId} and c.status in ('queued', 'sent')
          and c.kind in ('add', 'add_window', 'delete')
          and (c.payload->>'slot')::int = ${phones.slot}
      )`);
}
