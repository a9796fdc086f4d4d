/**
 * The server's side of reply matching (issue 30 parts 1 and 2, docs/decisions/0025): the barrier's commands
 * sent within the reply window, how a reply matches each (the rules: `@propusk/devices/reply-choice`), and a
 * read's answer joined from its parts.
 */
import { conformanceReplyMatch } from '@propusk/devices/conformance';
import { commandFromJson, type PlannedCommandJson } from '@propusk/devices/planner';
import { joinReadParts as joinParts, parseReadReply, probeAnswerOnly } from '@propusk/devices/readback';
import type { CommandReplyMatch } from '@propusk/devices/reply-choice';
import { matchSettingReplyDetail } from '@propusk/devices/settings';
import { matchWhitelistReply } from '@propusk/devices/whitelist-reply';
import { and, desc, eq, getTableColumns, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { isConformanceKind, PASSWORD_PROBE_KIND } from '../plan/device-rows.ts';
import { WHITELIST_COMMAND_KINDS } from '../plan/device-state.ts';
import type { ConformancePayload, ReadCommandPayload } from '../plan/read-commands.ts';
import { openSettingPayload, type SettingPayload } from '../plan/setting-payload.ts';
import type { PasswordProbePayload } from '../send/password-probe.ts';

/**
 * How long after its last send a command can still take its reply. A unit out of coverage gets its SMS
 * when it comes back (an SMS centre keeps it for a day by default) and answers then.
 */
export const REPLY_WINDOW_MS = 24 * 60 * 60_000;

/** At most this many recent commands are compared with one reply (a barrier's last day, in practice). */
const CANDIDATES_MAX = 100;

export type CommandRow = typeof deviceCommands.$inferSelect;

export interface ReplyBarrier {
  model: Parameters<typeof matchWhitelistReply>[0];
  profile?: Parameters<typeof parseReadReply>[3];
}

const isWhitelistKind = (kind: string) => (WHITELIST_COMMAND_KINDS as readonly string[]).includes(kind);

/** What a reply says about one command (null: not an answer to it). */
export function matchCommandReply(
  deps: Pick<Dependencies, 'config' | 'secrets'>,
  barrier: ReplyBarrier,
  command: Pick<CommandRow, 'kind' | 'payload'> & Partial<Pick<CommandRow, 'status'>>,
  text: string,
): CommandReplyMatch | null {
  try {
    if (isConformanceKind(command.kind)) {
      // A run's step takes a reply only while it is open: a finished one's silence was its verdict, and an
      // answer owed to it must not take the next step's (issue 42).
      if (command.status !== 'sent' && command.status !== 'queued') return null;
      return conformanceReplyMatch(
        barrier.model,
        barrier.profile,
        (command.payload as ConformancePayload).step,
        text,
        { utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES },
      );
    }
    if (isWhitelistKind(command.kind))
      // Confirmed by its reply, or by the reading sent after it where the model documents no reply to the
      // change or its answer names nothing (0025, 0026): the rules are the devices package's, shared with the
      // convergence property test.
      return matchWhitelistReply(
        barrier.model,
        commandFromJson(command.payload as PlannedCommandJson),
        text,
        { utcOffsetMinutes: deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES, profile: barrier.profile ?? null },
      );
    if (command.kind === 'read' || command.kind === PASSWORD_PROBE_KIND) {
      // A probe (password-probe.ts) is a read written with another password: answered as a read is, but only
      // by a text that names its own slots and no other (a longer read's answer names the probe's slots too
      // when its range covers them: taken for the probe's, it would adopt a password the unit does not hold).
      const query = (command.payload as ReadCommandPayload | PasswordProbePayload).query;
      if (
        command.kind === PASSWORD_PROBE_KIND &&
        !probeAnswerOnly(barrier.model, query, text, barrier.profile)
      )
        return null;
      const reading = parseReadReply(barrier.model, query, text, barrier.profile);
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
 * the queue's own horizon), so a reply reads a barrier's last days, never its whole history. With them, how
 * many commands of the barrier are open (sent or not).
 */
export async function commandsAwaitingReply(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<{ commands: CommandRow[]; openCommands: number }> {
  const since = new Date(now.getTime() - REPLY_WINDOW_MS);
  const storedSince = new Date(since.getTime() - 7 * 24 * 60 * 60_000);
  const rows = await executor
    .select({
      ...getTableColumns(deviceCommands),
      // The barrier's open commands, sent or not (one uncorrelated subquery, counted once): whether its queue
      // is empty once the reply is settled (replies.ts `queueEmpty`).
      openCommands: sql<number>`(select count(*) from ${deviceCommands} o
        where o.barrier_id = ${barrierId} and o.status in ('queued', 'sent'))::int`,
    })
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
  const commands = rows.map(({ openCommands: _count, ...command }) => command);
  return { commands, openCommands: Number(rows[0]?.openCommands ?? 0) };
}

/** A read's answer joined from the parts received so far (kept in `reply`) and this one: `joinReadParts`. */
export function joinReadParts(
  barrier: ReplyBarrier,
  command: Pick<CommandRow, 'payload' | 'reply'>,
  text: string,
): { complete: boolean; text: string; missing: number[] } {
  const payload = command.payload as ReadCommandPayload;
  const parts = command.reply ? [command.reply, text] : [text];
  return joinParts(barrier.model, payload.whole ?? payload.query, parts, barrier.profile);
}
