/**
 * An SMS from a device: stored once (a gateway's second delivery matches nothing), matched to the command it
 * names among those sent within the reply window (reply-matching.ts, docs/decisions/0025), and settled.
 */
import { isDeepStrictEqual } from 'node:util';
import type { DeviceAlarmKind } from '@propusk/devices/alarms';
import { maskSecrets } from '@propusk/devices/mask';
import { isDeviceModel } from '@propusk/devices/models';
import { chooseRepliedCommand } from '@propusk/devices/reply-choice';
import { and, eq, sql } from 'drizzle-orm';
import { barriers, deviceCommands, inboundSms } from '../db/schema.ts';
import { insertDeviceMessages, type NewDeviceMessage } from './device-log-repository.ts';
import { deviceSecrets, loadBarrier, oldestOpenCommand, type QueueDeps, slotOf } from './device-rows.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from './failure-reasons.ts';
import { commandsAwaitingReply, joinReadParts, matchCommandReply } from './reply-matching.ts';
import { confirmCommand, failCommand, logMessages } from './settle.ts';
import { recordUnitAlarm } from './unit-alarms.ts';

export interface ReplyResult {
  inboundId: number;
  /** The command this SMS answered, and how. */
  matched: {
    barrierId: number;
    commandId: number;
    /** `late`: it answered a command that had already finished; nothing changed. */
    outcome: 'confirmed' | 'refused' | 'format_error' | 'late';
  } | null;
  /** This SMS (same gateway, phone and gateway message id) was delivered before: nothing was done. */
  duplicate?: true;
  /** The unit's own SMS (a power failure, its return, an alarm): logged as such, it answers no command. */
  alarm?: { barrierId: number; kind: DeviceAlarmKind };
}

/** An inbound SMS as its gateway names it; a second delivery with the same id is not handled again. */
export interface InboundGatewayId {
  /** Which gateway delivered it (`android`, `demo`). */
  gateway: string;
  /** The gateway's id of the SMS (the Android app's `payload.messageId`). */
  messageId: string;
}

/**
 * An SMS received from a device: stored, then matched against the command in flight to the barrier(s)
 * whose device phone sent it. A reply that arrives after its timeout (the command waits for a retry) still
 * counts. `Password Error!` fails the command at once: sending it again cannot help.
 */
export async function handleDeviceReply(
  deps: QueueDeps,
  message: { from: string; text: string; gatewayId?: InboundGatewayId | undefined },
): Promise<ReplyResult> {
  const now = deps.clock.now();
  const gatewayId = message.gatewayId;
  // One INSERT … ON CONFLICT on (gateway, phone, message id): of two deliveries of one SMS (a webhook retry,
  // or two in parallel) exactly one gets a row; the other is already handled and matches nothing.
  const [inbound] = await deps.db
    .insert(inboundSms)
    .values({
      fromPhone: message.from,
      text: message.text.slice(0, 2000),
      receivedAt: now,
      gateway: gatewayId?.gateway ?? null,
      gatewayMessageId: gatewayId?.messageId.slice(0, 200) ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: inboundSms.id });
  if (!inbound) {
    deps.logger.info(
      { gateway: gatewayId?.gateway, gatewayMessageId: gatewayId?.messageId.slice(0, 200) },
      'inbound SMS delivered again by its gateway: already handled',
    );
    return { inboundId: 0, matched: null, duplicate: true };
  }
  try {
    // The unit's own SMS first: it names no command, and must never be taken for an answer (issue 30 item 5).
    const alarm = await recordUnitAlarm(deps, message, now);
    if (alarm) return { inboundId: inbound.id, matched: null, alarm };
    return await matchDeviceReply(deps, message, inbound.id, now);
  } catch (error) {
    // Not handled after all: forget its id, so that the gateway's retry of this delivery is taken in.
    if (gatewayId)
      await deps.db
        .delete(inboundSms)
        .where(eq(inboundSms.id, inbound.id))
        .catch(() => undefined);
    throw error;
  }
}

async function matchDeviceReply(
  deps: QueueDeps,
  message: { from: string; text: string },
  inboundId: number,
  now: Date,
): Promise<ReplyResult> {
  // The barriers with this device phone: the live one, and a deleted one only while it still clears its unit.
  // Found by `barriers_device_phone_idx`, a deleted one's commands looked up by barrier (a subplan under the
  // `or`); each one's command in flight is read under its lock below. No join with the open commands: with
  // stale statistics such a join could read every open command of every barrier.
  const candidates = await deps.db
    .select({ barrierId: barriers.id })
    .from(barriers)
    .where(
      and(
        eq(barriers.devicePhone, message.from),
        sql`(${barriers.deletedAt} is null or exists (select 1 from ${deviceCommands} c
          where c.barrier_id = ${barriers.id} and c.status in ('queued', 'sent')))`,
      ),
    )
    .orderBy(barriers.id);
  for (const { barrierId } of candidates) {
    const matched = await deps.db.transaction(async (tx) => {
      const barrier = await loadBarrier(tx, barrierId, { lock: true });
      if (!barrier) return null;
      const candidates = await commandsAwaitingReply(tx, barrierId, now);
      // A command's `reply` holds its answer (a failed one's too, once a late answer came): one answer each.
      const counted = candidates.map((command) => ({ ...command, replies: command.reply === null ? 0 : 1 }));
      const chosen = chooseRepliedCommand(
        counted,
        (command) => matchCommandReply(deps, barrier, command, message.text),
        (a, b) => a.kind === b.kind && isDeepStrictEqual(a.payload, b.payload),
        // A read-back makes every slot's earlier state moot, as a write to that slot does.
        (a, b) => a.kind === 'read' || b.kind === 'read' || slotOf(a) === slotOf(b),
      );
      if (chosen === null) return null;
      const { command, outcome } = chosen;
      if (chosen.late) {
        // An answer to a command that had already finished (a repeated delivery, or a reply after the
        // command failed): kept in the log, linked to its command, and it changes nothing.
        deps.metrics.unmatchedDeviceReplies.inc();
        if (command.reply === null)
          await tx
            .update(deviceCommands)
            .set({ reply: message.text })
            .where(eq(deviceCommands.id, command.id));
      } else if (outcome === 'confirmed' && command.kind === 'read') {
        // A part of a read's answer: kept until every slot of the range is answered.
        const joined = joinReadParts(barrier, command, message.text);
        if (joined.complete) await confirmCommand(tx, deps, barrier, command, joined.text, now);
        else
          await tx
            .update(deviceCommands)
            .set({ reply: joined.text })
            .where(eq(deviceCommands.id, command.id));
      } else if (outcome === 'confirmed') await confirmCommand(tx, deps, barrier, command, message.text, now);
      else if (outcome === 'refused') await failCommand(tx, deps, command, DEVICE_REFUSED_PASSWORD, now);
      else await failCommand(tx, deps, command, DEVICE_NOT_UNDERSTOOD, now);
      await insertDeviceMessages(tx, [
        {
          barrierId,
          direction: 'in',
          text: maskSecrets(message.text, deviceSecrets(deps, barrier, command)),
          outcome: chosen.late ? 'late' : outcome,
          commandId: command.id,
          createdAt: now,
        },
      ]);
      await tx.update(inboundSms).set({ commandId: command.id }).where(eq(inboundSms.id, inboundId));
      return { barrierId, commandId: command.id, outcome: chosen.late ? ('late' as const) : outcome };
    });
    if (matched) return { inboundId, matched };
  }
  deps.metrics.unmatchedDeviceReplies.inc();
  // The reply is already kept in inbound_sms: a failure to log it must not refuse the gateway's delivery.
  await logUnrecognisedReply(deps, message, now).catch((error: unknown) =>
    deps.logger.error({ err: error }, 'unrecognised device reply could not be written to the log'),
  );
  return { inboundId, matched: null };
}

/**
 * A reply from a device's number that answered no command in flight: kept in the log of every barrier with
 * that device phone (the live one, and a deleted one still clearing its device), shown as unrecognised.
 */
async function logUnrecognisedReply(deps: QueueDeps, message: { from: string; text: string }, now: Date) {
  const rows = await deps.db
    .select({
      id: barriers.id,
      model: barriers.deviceModel,
      devicePhone: barriers.devicePhone,
      passwordEncrypted: barriers.devicePasswordEncrypted,
      deletedAt: barriers.deletedAt,
      hasOpenCommands: sql<boolean>`exists (select 1 from ${deviceCommands} c where c.barrier_id = ${barriers.id} and c.status in ('queued', 'sent'))`,
    })
    .from(barriers)
    .where(eq(barriers.devicePhone, message.from));
  const messages: NewDeviceMessage[] = [];
  for (const row of rows) {
    if (row.deletedAt !== null && !row.hasOpenCommands) continue;
    const barrier = isDeviceModel(row.model) ? { ...row, model: row.model } : null;
    const command = barrier ? await oldestOpenCommand(deps.db, row.id, now) : undefined;
    messages.push({
      barrierId: row.id,
      direction: 'in',
      text: barrier ? maskSecrets(message.text, deviceSecrets(deps, barrier, command)) : message.text,
      outcome: 'unrecognised',
      createdAt: now,
    });
  }
  await logMessages(deps, messages);
}
