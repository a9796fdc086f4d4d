/**
 * An SMS from a device: stored once (a gateway's second delivery matches nothing), matched to the command it
 * names among those sent within the reply window (loaded by reply-matching.ts, decided by
 * `@propusk/devices/reply`, docs/decisions/0025), and settled (settle.ts).
 */
import type { DeviceAlarmKind } from '@propusk/devices/alarms';
import { maskSecrets } from '@propusk/devices/mask';
import { isDeviceModel } from '@propusk/devices/models';
import type { DeviceProfileOverride } from '@propusk/devices/profile';
import { decideInbound } from '@propusk/devices/reply';
import { eq, inArray, sql } from 'drizzle-orm';
import { barriers, deviceCommands, deviceMessages, inboundSms } from '../../db/schema.ts';
import { unitTextTaken } from '../hooks.ts';
import type { NewDeviceMessage } from '../log/index.ts';
import { DEVICE_NOT_UNDERSTOOD, DEVICE_REFUSED_PASSWORD } from '../log/index.ts';
import { deviceSecrets, loadBarrier, oldestOpenCommand, type QueueDeps } from '../plan/index.ts';
import { commandsAwaitingReply, replyCandidate } from './reply-matching.ts';
import { type Confirmed, confirmCommand, failCommand, logMessages, writesInOneStatement } from './settle.ts';
import { recordUnitAlarm } from './unit-alarms.ts';

export interface ReplyResult {
  inboundId: number;
  /** The command this SMS answered, and how. */
  matched: {
    barrierId: number;
    commandId: number;
    /**
     * `late`: it answered a command that had already finished; nothing changed. `acknowledged`: the command's
     * own answer where the reading sent after it confirms it (a delete on TELL): nothing changed.
     */
    outcome: 'confirmed' | 'refused' | 'format_error' | 'late' | 'acknowledged';
    /**
     * Nothing is left to send: the command answered was the barrier's only open one, and the re-plan after
     * it queued nothing (read under the barrier's lock). The worker need not be woken for it.
     */
    queueEmpty?: true;
  } | null;
  /** This SMS (same gateway, phone and gateway message id) was delivered before: nothing was done. */
  duplicate?: true;
  /** Taken by a conformance run's power step as the unit's own text (issue 42 item 3). */
  captured?: true;
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
  // One statement: the SMS stored — INSERT … ON CONFLICT on (gateway, phone, message id), so of two deliveries
  // of one SMS (a webhook retry, or two in parallel) exactly one gets a row; the other is already handled and
  // matches nothing — and the barriers with this device phone read with it (no row: a second delivery).
  const rows = rowsOf<SenderRow>(
    await deps.db.execute(sql`
      with stored as (
        insert into ${inboundSms} (from_phone, text, received_at, gateway, gateway_message_id)
        values (${message.from}, ${message.text.slice(0, 2000)}, ${now}, ${gatewayId?.gateway ?? null},
          ${gatewayId?.messageId.slice(0, 200) ?? null})
        on conflict do nothing
        returning id
      )
      select stored.id as inbound_id, b.id, b.device_model as model,
        b.device_password_encrypted as password_encrypted, b.device_profile as profile,
        b.deleted_at is null as live,
        -- The live barrier, and a deleted one only while it still clears its unit (its commands looked up
        -- by barrier: a subplan per barrier found by barriers_device_phone_idx, never a join with the open
        -- commands, which stale statistics could turn into a read of every open command).
        (b.deleted_at is null or exists (select 1 from ${deviceCommands} c
          where c.barrier_id = b.id and c.status in ('queued', 'sent'))) as candidate
      from stored left join ${barriers} b on b.device_phone = ${message.from}
      order by b.id`),
  );
  const inboundId = rows[0]?.inbound_id;
  if (inboundId === undefined) {
    deps.logger.info(
      { gateway: gatewayId?.gateway, gatewayMessageId: gatewayId?.messageId.slice(0, 200) },
      'inbound SMS delivered again by its gateway: already handled',
    );
    return { inboundId: 0, matched: null, duplicate: true };
  }
  const senders = rows.flatMap((row) =>
    row.id === null
      ? []
      : [
          {
            id: Number(row.id),
            model: row.model ?? '',
            passwordEncrypted: row.password_encrypted,
            profile: row.profile,
            live: Boolean(row.live),
            candidate: Boolean(row.candidate),
          },
        ],
  );
  try {
    // The live barrier's unit: its own SMS names no command, and must never be taken for an answer (issue 30
    // item 5); the reply decision recognises it first.
    const live = senders.find((sender) => sender.live) ?? null;
    const unit = live
      ? {
          ...live,
          passwordSecret: live.passwordEncrypted ? deps.secrets.decrypt(live.passwordEncrypted) : null,
        }
      : null;
    // A conformance run's power step takes the unit's own texts first (issue 42 item 3).
    if (
      unit &&
      (await unitTextTaken(deps, { id: unit.id, passwordSecret: unit.passwordSecret }, message.text, now))
    )
      return { inboundId, matched: null, captured: true };
    return await matchDeviceReply(deps, message, inboundId, now, senders, unit);
  } catch (error) {
    // Not handled after all: forget its id, so that the gateway's retry of this delivery is taken in.
    if (gatewayId)
      await deps.db
        .delete(inboundSms)
        .where(eq(inboundSms.id, inboundId))
        .catch(() => undefined);
    throw error;
  }
}

interface SenderRow {
  inbound_id: number;
  id: number | null;
  model: string | null;
  password_encrypted: string | null;
  profile: unknown;
  live: boolean | null;
  candidate: boolean | null;
}

/** A barrier whose device phone sent the SMS (read with the SMS stored). */
interface Sender {
  id: number;
  model: string;
  passwordEncrypted: string | null;
  profile: unknown;
  live: boolean;
  /** Live, or deleted with commands still open. */
  candidate: boolean;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function matchDeviceReply(
  deps: QueueDeps,
  message: { from: string; text: string },
  inboundId: number,
  now: Date,
  senders: Sender[],
  unit: (Sender & { passwordSecret: string | null }) | null,
): Promise<ReplyResult> {
  // Each candidate's commands are read under its lock, in its own transaction, in the order of the barriers.
  for (const { id: barrierId } of senders.filter((sender) => sender.candidate)) {
    const matched = await deps.db.transaction(async (tx) => {
      const barrier = await loadBarrier(tx, barrierId, { lock: true });
      if (!barrier) return null;
      const { commands, openCommands } = await commandsAwaitingReply(tx, barrierId, now);
      // The one decision (`@propusk/devices/reply`): the live unit's own SMS, or which command the reply
      // answers and what that settles.
      const inbound = decideInbound({
        model: barrier.model,
        profile: barrier.profile,
        text: message.text,
        now,
        candidates: commands.map((row) => replyCandidate(deps, row)),
        utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
        secrets: deviceSecrets(deps, barrier),
        unit: unit && {
          model: unit.model,
          profile: (unit.profile as DeviceProfileOverride | null) ?? null,
          secrets: [unit.passwordSecret],
        },
      });
      if (inbound === null) return null;
      if (inbound.as === 'alarm') return inbound;
      const { decision } = inbound;
      const { settle } = decision;
      const command = decision.command.row;
      // One answer more heard for each command the decision names. Its own statement, before the
      // confirmation rewrites the row (one statement cannot update a row twice).
      if (decision.answered.length > 0)
        await tx
          .update(deviceCommands)
          .set({ replies: sql`${deviceCommands.replies} + 1` })
          .where(
            inArray(
              deviceCommands.id,
              decision.answered.map((answered) => answered.id),
            ),
          );
      // The reply's log row and its inbound SMS linked to the command: written with the confirmation of a
      // one-slot change (one statement), else in one statement of their own.
      const logged = [
        sql`insert into ${deviceMessages} (barrier_id, direction, text, command_id, outcome, created_at)
          values (${barrierId}, 'in', ${decision.loggedText.slice(0, 2000)},
            ${command.id}, ${decision.outcome}, ${now})`,
        sql`update ${inboundSms} set command_id = ${command.id} where id = ${inboundId}`,
      ];
      let confirmed: Confirmed | null = null;
      if (settle.as === 'late') {
        // An answer to a command that had already finished (a repeated delivery, or a reply after the
        // command failed): kept in the log, linked to its command, and it changes nothing.
        deps.metrics.unmatchedDeviceReplies.inc();
        if (command.reply === null)
          await tx
            .update(deviceCommands)
            .set({ reply: message.text })
            .where(eq(deviceCommands.id, command.id));
      } else if (settle.as === 'read_part')
        // A part of a read's answer: kept until every slot of the range is answered.
        await tx.update(deviceCommands).set({ reply: settle.text }).where(eq(deviceCommands.id, command.id));
      else if (settle.as === 'confirm')
        confirmed = await confirmCommand(tx, deps, barrier, command, settle, now, { alongside: logged });
      else if (settle.as === 'fail')
        await failCommand(
          tx,
          deps,
          command,
          settle.reason === 'refused' ? DEVICE_REFUSED_PASSWORD : DEVICE_NOT_UNDERSTOOD,
          now,
        );
      // `acknowledge`: heard and logged with its command; the reading sent after it decides.
      if (!confirmed?.alongsideDone) await tx.execute(writesInOneStatement(logged));
      const wasOnlyOpen = openCommands === 1 && (command.status === 'queued' || command.status === 'sent');
      const queueEmpty = settle.as !== 'late' && wasOnlyOpen && confirmed?.queuedSms === 0;
      return {
        as: 'reply' as const,
        barrierId,
        commandId: command.id,
        outcome: decision.outcome,
        ...(queueEmpty ? { queueEmpty: true as const } : {}),
      };
    });
    if (matched?.as === 'alarm' && unit) {
      const { kind, loggedText } = matched;
      const alarm = await recordUnitAlarm(deps, { barrierId: unit.id, kind, loggedText }, now);
      return { inboundId, matched: null, alarm };
    }
    if (matched?.as === 'reply') {
      const { as: _reply, ...answered } = matched;
      return { inboundId, matched: answered };
    }
  }
  deps.metrics.unmatchedDeviceReplies.inc();
  // The reply is already kept in inbound_sms: a failure to log it must not refuse the gateway's delivery.
  await logUnrecognisedReply(deps, message, now, senders).catch((error: unknown) =>
    deps.logger.error({ err: error }, 'unrecognised device reply could not be written to the log'),
  );
  return { inboundId, matched: null };
}

/**
 * A reply from a device's number that answered no command in flight: kept in the log of every barrier with
 * that device phone (the live one, and a deleted one still clearing its device), shown as unrecognised.
 */
async function logUnrecognisedReply(
  deps: QueueDeps,
  message: { from: string; text: string },
  now: Date,
  senders: Sender[],
) {
  const messages: NewDeviceMessage[] = [];
  for (const row of senders) {
    if (!row.candidate) continue;
    const barrier = isDeviceModel(row.model)
      ? {
          ...row,
          model: row.model,
          devicePhone: message.from,
          profile: (row.profile as DeviceProfileOverride | null) ?? null,
        }
      : null;
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
