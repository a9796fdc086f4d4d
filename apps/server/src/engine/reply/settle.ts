/**
 * A command settled: confirmed by its reply (the slot, the clock, a new password written; a read's reading
 * handed to its check) or failed (the phone in error, the barrier planned again). Domain modules that follow
 * a command (the relay's openings, the device checks' readings) hear of it through hooks.ts.
 */
import type { PlannedCommand } from '@propusk/devices/planner';
import type { ReplySettlement } from '@propusk/devices/reply';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceCommands, deviceSlots, phones } from '../../db/schema.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { commandSettled, type HookDeps, readReplied } from '../hooks.ts';
import {
  DEVICE_NOT_UNDERSTOOD,
  DEVICE_REFUSED_PASSWORD,
  insertDeviceMessages,
  type NewDeviceMessage,
} from '../log/index.ts';
import type { ReadCommandPayload } from '../plan/index.ts';
import {
  type BarrierRow,
  type CommandRow,
  commandCoversSlot,
  isConformanceKind,
  isProbeKind,
  isReadKind,
  isWhitelistKind,
  markDeviceConfirmed,
  type QueueDeps,
  syncBarrierDevice,
} from '../plan/index.ts';
import { adoptProbedPassword, cancelQueuedProbes } from './probed-password.ts';

/**
 * Writes to the conversation log after the SMS was handed over (or refused). The log is for reading: a
 * failure to write it must not make the queue send the command again, so it is logged and dropped.
 */
export async function logMessages(deps: QueueDeps, messages: NewDeviceMessage[]): Promise<void> {
  try {
    await insertDeviceMessages(deps.db, messages);
  } catch (error) {
    deps.logger.error({ err: error }, 'device message could not be written to the log');
  }
}

/** Why a command sent in vain failed (send-batcher.ts): the unit never answered it. */
export const NO_REPLY = 'No reply from the device.';

/**
 * The unit fell silent (issue 43): the first command to fail unanswered since its last confirmed one tells
 * the barrier's administrators («Устройство не отвечает»); the next ones of the same silence do not.
 */
async function tellUnitSilent(tx: Executor, command: CommandRow): Promise<void> {
  const lastConfirmed = sql`coalesce((select max(d.finished_at) from ${deviceCommands} d
    where d.barrier_id = ${command.barrierId} and d.status = 'confirmed'), '-infinity'::timestamptz)`;
  const earlier = await tx
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, command.barrierId),
        sql`${deviceCommands.id} <> ${command.id}`,
        eq(deviceCommands.status, 'failed'),
        eq(deviceCommands.lastError, NO_REPLY),
        sql`${deviceCommands.finishedAt} > ${lastConfirmed}`,
      ),
    )
    .limit(1);
  if (earlier.length === 0)
    await recordNotification(tx, { kind: 'unit_silent', barrierId: command.barrierId });
}

export async function failCommand(
  tx: Executor,
  deps: Pick<QueueDeps, 'clock' | 'config'> & HookDeps,
  command: CommandRow,
  reason: string,
  now: Date,
  options: { countAsSent?: boolean } = {},
): Promise<void> {
  await tx
    .update(deviceCommands)
    .set({
      status: 'failed',
      lastError: reason,
      finishedAt: now,
      nextAttemptAt: null,
      // A command that could not even be written is settled like one that was sent in vain (quarantined).
      ...(options.countAsSent === false ? { attempts: Math.max(1, command.attempts) } : {}),
    })
    .where(eq(deviceCommands.id, command.id));
  await commandSettled(deps, tx, command, { confirmed: false, reason }, now);
  if (reason === NO_REPLY) await tellUnitSilent(tx, command);
  if (command.phoneId !== null) {
    await tx
      .update(phones)
      .set({ status: 'error', updatedAt: now })
      .where(and(eq(phones.id, command.phoneId), eq(phones.isActive, true)));
  }
  if (isWhitelistKind(command.kind))
    await syncBarrierDevice(tx, deps, command.barrierId, { enforceWeeklyLimit: false });
  if (isReadKind(command.kind)) {
    const failure =
      reason === DEVICE_REFUSED_PASSWORD
        ? 'refused'
        : reason === DEVICE_NOT_UNDERSTOOD
          ? 'format_error'
          : 'no_reply';
    await readReplied(deps, tx, command.payload as ReadCommandPayload, { outcome: failure }, now);
  }
}

/**
 * What `confirmCommand` did beyond the confirmation: `alongside` ran (the caller's writes, in the statement of a
 * one-slot change), and how many SMS it queued: 0 for a whitelist change (null: not a whitelist change, whose
 * domain hooks may have queued commands of their own).
 *
 * A confirmed whitelist change does not re-plan the device. The plan already counts a command that was sent
 * and awaits its reply as done (device-state.ts `deviceViewOf`: `believed`), so its confirmation changes
 * neither what the database wants nor what the unit is believed to hold, and the plan would come out the
 * same: every change to the phones plans in its own transaction, and what changes with time alone (a window
 * opening or closing, a quarantine re-armed) is planned by the sweep (order.ts `reconcileBarrier`). Under load
 * the re-plan was the largest cost of a reply: the device state read (all phones, slots and open commands of
 * the barrier) and the planner, for a result that was thrown away (docs/decisions/0027, sixth session).
 */
export interface Confirmed {
  alongsideDone: boolean;
  queuedSms: number | null;
}

/** A confirmation as the reply decision gives it (`@propusk/devices/reply`): the text, and what it wrote. */
export type Confirmation = Extract<ReplySettlement, { as: 'confirm' }>;

/**
 * Confirms a command with its reply (`confirmation`: its text, a read's reading, the password a setting wrote,
 * the whitelist change). `alongside`: data-modifying statements of the caller (the reply's log
 * row, its inbound SMS linked) that go in the same statement as the confirmation where it is one statement
 * (a one-slot change: the command, its slot and its phone in one round trip, all under the barrier's lock);
 * elsewhere they are not run (`alongsideDone` false) and the caller runs them itself.
 */
export async function confirmCommand(
  tx: Executor,
  deps: QueueDeps,
  barrier: BarrierRow,
  command: CommandRow,
  confirmation: Confirmation,
  now: Date,
  options: { alongside?: SQL[] } = {},
): Promise<Confirmed> {
  const replyText = confirmation.text;
  // The unit answered with the barrier's password: its number is this barrier's from now on (0030).
  await markDeviceConfirmed(tx, barrier, now);
  const oneSlot = oneSlotChange(confirmation.planned);
  if (oneSlot) {
    await confirmOneSlot(tx, deps, barrier.id, command, oneSlot, replyText, now, options.alongside ?? []);
    return { alongsideDone: true, queuedSms: 0 };
  }
  const unchanged = { alongsideDone: false, queuedSms: null };
  await tx
    .update(deviceCommands)
    .set({ status: 'confirmed', reply: replyText, finishedAt: now, nextAttemptAt: null, lastError: null })
    .where(eq(deviceCommands.id, command.id));
  await commandSettled(deps, tx, command, { confirmed: true }, now);
  // A conformance run's step changes nothing the server believes: its run hears of it (hooks.ts).
  if (isConformanceKind(command.kind)) return unchanged;
  if (isReadKind(command.kind)) {
    await readReplied(deps, tx, command.payload as ReadCommandPayload, confirmation.reading ?? null, now);
    return unchanged;
  }
  if (isProbeKind(command.kind)) {
    await adoptProbedPassword(tx, deps, barrier, command, now);
    return unchanged;
  }
  if (!isWhitelistKind(command.kind)) {
    const { newPassword } = confirmation;
    if (newPassword !== undefined) {
      // The change is confirmed: the pending password is the unit's; the one it replaces is kept a week
      // (password-probe.ts), in case the confirmation was not what it seemed.
      await tx
        .update(barriers)
        .set({
          devicePasswordEncrypted: deps.secrets.encrypt(newPassword),
          devicePasswordPendingEncrypted: null,
          devicePasswordPreviousEncrypted: barrier.passwordEncrypted,
          devicePasswordChangedAt: now,
          updatedAt: now,
        })
        .where(eq(barriers.id, barrier.id));
      await cancelQueuedProbes(tx, barrier.id, now);
    }
    return unchanged;
  }
  const { planned } = confirmation;
  if (!planned) return { alongsideDone: false, queuedSms: 0 };
  if (planned.kind === 'set_clock') {
    await tx.update(barriers).set({ deviceClockSetAt: now }).where(eq(barriers.id, barrier.id));
  } else if (planned.entries) {
    // A batch's reply counted every number it carried (commands.ts): each entry is confirmed as its plain
    // command would be.
    for (const entry of planned.entries)
      await confirmSlot(tx, barrier.id, { kind: planned.kind, ...entry }, 'in_slot', now);
  } else if (planned.slot !== undefined) {
    await confirmSlot(tx, barrier.id, { ...planned, slot: planned.slot }, command.phoneId, now);
  }
  return { alongsideDone: false, queuedSms: 0 };
}

/**
 * A whitelist command's slot confirmed: the slot row written or removed, and the phone that holds the slot
 * `ok` once nothing else for its slot is on its way. `phone`: the command's phone (null: none, as a delete or
 * the gateway's number), or 'in_slot' for a batch's entry (one row carries several numbers and links no
 * phone: the active phone in that slot).
 */
async function confirmSlot(
  tx: Executor,
  barrierId: number,
  planned: PlannedCommand & { slot: number },
  phone: number | null | 'in_slot',
  now: Date,
): Promise<void> {
  if (planned.kind === 'delete') {
    await tx
      .delete(deviceSlots)
      .where(and(eq(deviceSlots.barrierId, barrierId), eq(deviceSlots.slot, planned.slot)));
  } else if (planned.number !== undefined) {
    const values = {
      number: planned.number,
      windowStart: planned.window?.start ?? null,
      windowEnd: planned.window?.end ?? null,
      confirmedAt: now,
    };
    await tx
      .insert(deviceSlots)
      .values({ barrierId, slot: planned.slot, ...values })
      .onConflictDoUpdate({ target: [deviceSlots.barrierId, deviceSlots.slot], set: values });
  }
  if (phone === null || planned.kind === 'delete') return;
  // The phone is in step once its slot holds it and nothing else for that slot is on its way.
  const which = phone === 'in_slot' ? sql`${phones.barrierId} = ${barrierId}` : sql`${phones.id} = ${phone}`;
  await tx.execute(sql`
    update ${phones} set status = 'ok', updated_at = ${now}
    where ${which} and ${phones.isActive} and ${phones.slot} = ${planned.slot}
      and not exists (
        select 1 from ${deviceCommands} c
        where c.barrier_id = ${barrierId} and c.status in ('queued', 'sent')
          and ${commandCoversSlot(sql`c`, planned.slot)}
      )`);
}

/** A plain add, windowed add or delete of one slot (no batch, not the clock): its slot and phone. */
function oneSlotChange(planned: PlannedCommand | undefined): (PlannedCommand & { slot: number }) | null {
  // The decision gives the change only for a whitelist command.
  if (!planned) return null;
  if (planned.kind === 'set_clock' || planned.entries || planned.slot === undefined) return null;
  if (planned.kind !== 'delete' && planned.number === undefined) return null;
  return { ...planned, slot: planned.slot };
}

/**
 * `confirmCommand` of a one-slot change in one statement: the command confirmed, its slot written or
 * removed, its phone `ok` once nothing else for the slot is on its way (`confirmSlot`'s rule; the command
 * itself, still open in the statement's snapshot, left out by its id), and the caller's `alongside` writes.
 * The hooks are told after it, as after `confirmCommand`'s first statement.
 */
async function confirmOneSlot(
  tx: Executor,
  deps: HookDeps,
  barrierId: number,
  command: CommandRow,
  planned: PlannedCommand & { slot: number },
  replyText: string,
  now: Date,
  alongside: SQL[],
): Promise<void> {
  const parts: SQL[] = [
    sql`update ${deviceCommands} set status = 'confirmed', reply = ${replyText}, finished_at = ${now},
      next_attempt_at = null, last_error = null where id = ${command.id}`,
  ];
  if (planned.kind === 'delete')
    parts.push(sql`delete from ${deviceSlots} where barrier_id = ${barrierId} and slot = ${planned.slot}`);
  else {
    const windowStart = planned.window?.start ?? null;
    const windowEnd = planned.window?.end ?? null;
    parts.push(sql`insert into ${deviceSlots} (barrier_id, slot, number, window_start, window_end, confirmed_at)
      values (${barrierId}, ${planned.slot}, ${planned.number ?? null}, ${windowStart}::timestamptz,
        ${windowEnd}::timestamptz, ${now})
      on conflict (barrier_id, slot) do update set number = excluded.number,
        window_start = excluded.window_start, window_end = excluded.window_end, confirmed_at = excluded.confirmed_at`);
    if (command.phoneId !== null)
      parts.push(sql`update ${phones} set status = 'ok', updated_at = ${now}
        where id = ${command.phoneId} and is_active and slot = ${planned.slot}
          and not exists (
            select 1 from ${deviceCommands} c
            where c.barrier_id = ${barrierId} and c.status in ('queued', 'sent') and c.id <> ${command.id}
              and ${commandCoversSlot(sql`c`, planned.slot)}
          )`);
  }
  await tx.execute(writesInOneStatement([...parts, ...alongside]));
  await commandSettled(deps, tx, command, { confirmed: true }, now);
}

/** Data-modifying statements run as one (each but the last a CTE): one round trip, one snapshot. */
export function writesInOneStatement(parts: SQL[]): SQL {
  const last = parts.at(-1);
  if (!last) throw new Error('No statement to run.');
  if (parts.length === 1) return last;
  const ctes = parts.slice(0, -1).map((part, index) => sql`${sql.raw(`w${index}`)} as (${part})`);
  return sql`with ${sql.join(ctes, sql`, `)} ${last}`;
}
