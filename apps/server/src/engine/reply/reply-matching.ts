/**
 * The server's side of reply matching (issue 30 parts 1 and 2, issue 44, docs/decisions/0025): the barrier's
 * commands sent within the reply window, loaded as the reply decision takes them (the rules:
 * `@propusk/devices/reply`).
 */
import type { ReplyCommand } from '@propusk/devices/reply';
import { and, desc, eq, getTableColumns, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { openSettingPayload, type SettingPayload } from '../plan/index.ts';

/**
 * How long after its last send a command can still take its reply. A unit out of coverage gets its SMS
 * when it comes back (an SMS centre keeps it for a day by default) and answers then.
 */
export const REPLY_WINDOW_MS = 24 * 60 * 60_000;

/** At most this many recent commands are compared with one reply (a barrier's last day, in practice). */
const CANDIDATES_MAX = 100;

export type CommandRow = typeof deviceCommands.$inferSelect;

/**
 * A loaded command as the reply decision takes it (`@propusk/devices/reply`), with its row: a sealed setting's
 * params opened (a password change is sealed in the outbox; one that no longer opens is `null`: it matches
 * nothing).
 */
export function replyCandidate(
  deps: Pick<Dependencies, 'secrets'>,
  row: CommandRow,
): ReplyCommand & { row: CommandRow } {
  const { id, kind, status, attempts, replies, sentAt, reply } = row;
  return { id, kind, status, attempts, replies, sentAt, reply, payload: openedPayload(deps, row), row };
}

function openedPayload(deps: Pick<Dependencies, 'secrets'>, row: CommandRow): unknown {
  // Only a setting's payload is ever sealed (setting-payload.ts).
  const payload = row.payload as Partial<SettingPayload> | null;
  if (typeof payload?.sealed !== 'string') return row.payload;
  try {
    const { sealed: _sealed, ...readable } = payload;
    return { ...readable, params: openSettingPayload(deps.secrets, payload as SettingPayload) };
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
