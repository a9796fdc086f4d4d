/**
 * Which command a device's reply answers (issue 30 part 1, docs/decisions/0025). A reply is compared with
 * every command of the barrier sent within the reply window (`REPLY_WINDOW_MS`), newest attempt first:
 *
 * - a reply that NAMES a command (its slot and number, a password change's new password, the slots of a read)
 *   answers that command whenever it arrives: an open one (in flight, or timed out and waiting for its retry)
 *   is confirmed; a finished one (confirmed before, or failed) gets the reply logged as late and nothing
 *   changes — a late or repeated answer never confirms the command sent after it;
 * - a reply that names nothing ("Set Time OK", "Relay ON", "Set Success!") and an error reply ("Error
 *   password", "SMS Format Error") can only answer the command in flight (`sent`), and only if its form is
 *   one of that command's forms.
 *
 * A reply that names the command exactly (slot AND number) is preferred over a read that only covers its
 * slot: an add's answer `002:7…` delivered again is the add's, not a line of a range read sent after it;
 * a reply of several lines of a read's range is the read's, even when one of its lines repeats an add's.
 */
import { matchReplyDetail } from '@propusk/devices/commands';
import { commandFromJson, type PlannedCommandJson } from '@propusk/devices/planner';
import { parseReadReply } from '@propusk/devices/readback';
import { matchSettingReplyDetail } from '@propusk/devices/settings';
import { and, desc, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import type { ReadCommandPayload } from '../device-checks/service.ts';
import { WHITELIST_COMMAND_KINDS } from './outbox.ts';
import { openSettingPayload, type SettingPayload } from './setting-payload.ts';

/**
 * How long after its last send a command can still take its reply. A unit out of coverage gets its SMS
 * when it comes back (an SMS centre keeps it for a day by default) and answers then.
 */
export const REPLY_WINDOW_MS = 24 * 60 * 60_000;

/** At most this many recent commands are compared with one reply (a barrier's last day, in practice). */
const CANDIDATES_MAX = 100;

export type CommandRow = typeof deviceCommands.$inferSelect;

export type ReplyOutcome = 'confirmed' | 'refused' | 'format_error';

/** How a reply relates to one command: what it says, and how strongly it points at that command. */
export interface CommandReplyMatch {
  outcome: ReplyOutcome;
  /**
   * 3: several lines of a read's range; 2: the reply carries the command's own values (slot and number, a
   * new password); 1: one line of a read's range; 0: it names nothing (a generic form, an error reply).
   */
  strength: 0 | 1 | 2 | 3;
}

export interface ReplyBarrier {
  model: Parameters<typeof matchReplyDetail>[0];
  profile?: Parameters<typeof parseReadReply>[3];
}

const isWhitelistKind = (kind: string) => (WHITELIST_COMMAND_KINDS as readonly string[]).includes(kind);

/** What a reply says about one command (null: not an answer to it). */
export function matchCommandReply(
  deps: Pick<Dependencies, 'config' | 'secrets'>,
  barrier: ReplyBarrier,
  command: Pick<CommandRow, 'kind' | 'payload'>,
  text: string,
): CommandReplyMatch | null {
  try {
    if (isWhitelistKind(command.kind)) {
      const found = matchReplyDetail(
        barrier.model,
        commandFromJson(command.payload as PlannedCommandJson),
        text,
        { utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES, profile: barrier.profile ?? null },
      );
      return found ? { outcome: found.outcome, strength: found.names ? 2 : 0 } : null;
    }
    if (command.kind === 'read') {
      const reading = parseReadReply(
        barrier.model,
        (command.payload as ReadCommandPayload).query,
        text,
        barrier.profile,
      );
      if (reading === null) return null;
      if (reading.outcome === 'refused' || reading.outcome === 'format_error')
        return { outcome: reading.outcome, strength: 0 };
      // A list read (number-addressed models) names no slot. A range or slot read names the slots it covers:
      // several lines of its range are its answer (3: above an add that names one of those lines); one line
      // alone could be an add's or a delete's answer, which names it exactly and wins (1).
      if (reading.outcome !== 'read') return { outcome: 'confirmed', strength: 0 };
      return { outcome: 'confirmed', strength: reading.answered.length > 1 ? 3 : 1 };
    }
    const payload = command.payload as SettingPayload;
    const found = matchSettingReplyDetail(
      barrier.model,
      payload.setting,
      openSettingPayload(deps.secrets, payload),
      text,
    );
    return found ? { outcome: found.outcome, strength: found.names ? 2 : 0 } : null;
  } catch {
    return null;
  }
}

/**
 * The barrier's commands that may take a reply now, newest attempt first: open commands already sent
 * (in flight, or timed out and waiting for a retry) and commands finished within the reply window whose
 * last send was within it too. Open ones are read by `device_commands_open_idx`; finished ones by
 * `device_commands_created_idx` (a command finished within the window was stored at most a week before it:
 * the queue's own horizon), so a reply reads a barrier's last days, never its whole history.
 */
export async function commandsAwaitingReply(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<CommandRow[]> {
  const since = new Date(now.getTime() - REPLY_WINDOW_MS);
  const storedSince = new Date(since.getTime() - 7 * 24 * 60 * 60_000);
  return executor
    .select()
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        sql`${deviceCommands.attempts} > 0`,
        isNotNull(deviceCommands.sentAt),
        or(
          inArray(deviceCommands.status, ['queued', 'sent']),
          and(
            inArray(deviceCommands.status, ['confirmed', 'failed']),
            gte(deviceCommands.createdAt, storedSince),
            gte(deviceCommands.sentAt, since),
          ),
        ),
      ),
    )
    .orderBy(desc(deviceCommands.sentAt), desc(deviceCommands.id))
    .limit(CANDIDATES_MAX);
}

export interface ChosenReply {
  command: CommandRow;
  outcome: ReplyOutcome;
  /** The command had already finished: the reply is logged as late and changes nothing. */
  late: boolean;
}

const isOpen = (command: CommandRow) => command.status === 'queued' || command.status === 'sent';

/**
 * The command a reply answers among `candidates` (newest attempt first), or null. See the file's comment.
 */
export function chooseRepliedCommand(
  candidates: readonly CommandRow[],
  match: (command: CommandRow) => CommandReplyMatch | null,
): ChosenReply | null {
  let best: { command: CommandRow; found: CommandReplyMatch } | null = null;
  for (const command of candidates) {
    const found = match(command);
    if (!found) continue;
    // A reply that names nothing answers only the command in flight.
    if (found.strength === 0 && command.status !== 'sent') continue;
    // An error reply names nothing either: only the command in flight takes it.
    if (found.outcome !== 'confirmed' && command.status !== 'sent') continue;
    if (!best || found.strength > best.found.strength) best = { command, found };
  }
  if (!best) return null;
  const late = !isOpen(best.command);
  return { command: best.command, outcome: best.found.outcome, late };
}
