/**
 * SQL of the device conversation log (`device_messages`) and of the figures a device's health is judged by.
 * Pages read the (barrier_id, id) or (barrier_id, outcome, id) index backwards and stop after page_size rows.
 */
import type { DeviceMessageDirection, DeviceMessageOutcome } from '@propusk/contracts/devices';
import { getSheet, isDeviceModel } from '@propusk/devices/models';
import { PASSWORD_PROBE_KIND } from '@propusk/devices/reply';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barriers, deviceCommands, deviceMessages } from '../../db/schema.ts';
import { pageOffset, totalOfPage } from '../../lib/paging.ts';

export interface NewDeviceMessage {
  barrierId: number;
  direction: DeviceMessageDirection;
  /** Already masked (@propusk/devices/mask). */
  text: string;
  outcome: DeviceMessageOutcome;
  commandId?: number | null;
  providerId?: string | null;
  createdAt: Date;
}

export async function insertDeviceMessages(executor: Executor, messages: NewDeviceMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await executor.insert(deviceMessages).values(
    messages.map((message) => ({
      barrierId: message.barrierId,
      direction: message.direction,
      text: message.text.slice(0, 2000),
      outcome: message.outcome,
      commandId: message.commandId ?? null,
      providerId: message.providerId ?? null,
      createdAt: message.createdAt,
    })),
  );
}

/** A page of a barrier's conversation, newest first, with its total and the command kind of each message. */
export async function listDeviceMessages(
  executor: Executor,
  filter: { barrierId: number; outcome?: DeviceMessageOutcome | undefined },
  query: { page: number; page_size: number },
) {
  const shape = filter.outcome ? 'outcome' : 'all';
  const where = () =>
    and(
      eq(deviceMessages.barrierId, sql.placeholder('barrierId')),
      filter.outcome ? eq(deviceMessages.outcome, sql.placeholder('outcome')) : undefined,
    );
  const page = preparedStatement(executor, `deviceMessages.page:${shape}`, () =>
    executor
      .select({
        ...getTableColumns(deviceMessages),
        commandKind: deviceCommands.kind,
        total: sql<number>`(select count(*) from ${deviceMessages} where ${where()})`.mapWith(Number),
      })
      .from(deviceMessages)
      .leftJoin(deviceCommands, eq(deviceCommands.id, deviceMessages.commandId))
      .where(where())
      .orderBy(desc(deviceMessages.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const values = { barrierId: filter.barrierId, ...(filter.outcome ? { outcome: filter.outcome } : {}) };
  const rows = await page.execute({ ...values, limit: query.page_size, offset: pageOffset(query) });
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `deviceMessages.count:${shape}`, () =>
      executor.select({ count: count() }).from(deviceMessages).where(where()),
    );
    const [row] = await counted.execute(values);
    return row?.count ?? 0;
  });
  return { rows, total };
}

export type DeviceMessageRow = Awaited<ReturnType<typeof listDeviceMessages>>['rows'][number];

/** What a device's health is judged by (health.ts `deviceStateOf`). */
export interface DeviceFigures {
  barrierId: number;
  lastReplyAt: Date | null;
  openCommands: number;
  oldestOpenAt: Date | null;
  /** Attempts of the oldest open command: the one in flight, or the next to send. */
  oldestOpenAttempts: number;
  consecutiveFailures: number;
  /** Why the last finished command failed (null: it was confirmed, or nothing finished yet). */
  lastFailureReason: string | null;
  unrecognisedCount: number;
  /** The newest SMS from the unit's number, of any kind (an alarm, a late answer): it was on the air then. */
  lastMessageInAt: Date | null;
  /** When the run of unanswered commands began: the first one sent since the last confirmed one. */
  silentSince: Date | null;
  /** The unit's newest power SMS (`power_failure` | `power_restored`) and when it came; null: none yet. */
  lastPower: { outcome: 'power_failure' | 'power_restored'; at: Date } | null;
  /** The unit's other alarm SMS in the 24 hours before `now`. */
  alarmsToday: number;
  /**
   * Whether the unit's model takes a password (Telemetrica does not): a unit without one cannot be silent
   * because of a wrong password (health.ts).
   */
  hasPassword: boolean;
}

const toDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

interface FiguresRow {
  barrier_id: number;
  last_reply_at: unknown;
  last_confirmed_at: unknown;
  open_commands: number | string;
  oldest_open_at: unknown;
  oldest_open_attempts: number | string;
  consecutive_failures: number | string;
  last_failure_reason: string | null;
  unrecognised_count: number | string;
  silent_since: unknown;
  last_power: 'power_failure' | 'power_restored' | null;
  last_power_at: unknown;
  device_model: string | null;
  alarms_today: number | string;
}

/**
 * A password probe (password-probe.ts) asks with a password the server does not hold for the unit's: its
 * silence or refusal says nothing about the stored one, so it counts neither as a failure nor as silence.
 * Its answer does count as the unit's answer (a confirmed command).
 */
const notProbe = sql.raw(`c.kind <> '${PASSWORD_PROBE_KIND}'`);

/**
 * The figures statement, built once per executor: the barrier ids are one array parameter and the alarm
 * window's start another, so that every page size shares one named prepared statement. PostgreSQL planned
 * the dozen correlated subqueries at every call when they were sent as a plain query (1.5 ms of planning a
 * call under the mixed load, more than its execution).
 */
function figuresStatement(executor: Executor) {
  return preparedStatement(executor, 'device.figures', () =>
    executor
      .select({
        barrier_id: sql<number>`b.id`,
        last_reply_at: sql<unknown>`(select max(m.created_at) from ${deviceMessages} m
          where m.barrier_id = b.id and m.direction = 'in')`,
        last_confirmed_at: sql<unknown>`(select max(c.finished_at) from ${deviceCommands} c
          where c.barrier_id = b.id and c.status = 'confirmed')`,
        open_commands: sql<number | string>`(select count(*) from ${deviceCommands} c
          where c.barrier_id = b.id and c.status in ('queued', 'sent'))`,
        oldest_open_at: sql<unknown>`oldest.created_at`,
        oldest_open_attempts: sql<number | string>`coalesce(oldest.attempts, 0)`,
        consecutive_failures: sql<number | string>`(select count(*) from ${deviceCommands} c
          where c.barrier_id = b.id and c.status = 'failed' and c.attempts > 0 and ${notProbe}
            and c.id > coalesce((select max(k.id) from ${deviceCommands} k
                                 where k.barrier_id = b.id and k.status = 'confirmed'), 0))`,
        last_failure_reason: sql<string | null>`(select case when c.status = 'failed' then c.last_error end
          from ${deviceCommands} c
          where c.barrier_id = b.id and c.status in ('confirmed', 'failed') and c.attempts > 0 and ${notProbe}
          order by c.id desc limit 1)`,
        unrecognised_count: sql<number | string>`(select count(*) from ${deviceMessages} m
          where m.barrier_id = b.id and m.outcome = 'unrecognised')`,
        silent_since: sql<unknown>`(select min(c.sent_at) from ${deviceCommands} c
          where c.barrier_id = b.id and c.status in ('queued', 'sent', 'failed') and c.attempts > 0
            and ${notProbe} and c.id > coalesce((select max(k.id) from ${deviceCommands} k
                                 where k.barrier_id = b.id and k.status = 'confirmed'), 0))`,
        last_power: sql<'power_failure' | 'power_restored' | null>`(select m.outcome from ${deviceMessages} m
          where m.barrier_id = b.id and m.outcome in ('power_failure', 'power_restored')
          order by m.id desc limit 1)`,
        last_power_at: sql<unknown>`(select m.created_at from ${deviceMessages} m
          where m.barrier_id = b.id and m.outcome in ('power_failure', 'power_restored')
          order by m.id desc limit 1)`,
        device_model: sql<string | null>`(select x.device_model from ${barriers} x where x.id = b.id)`,
        alarms_today: sql<number | string>`(select count(*) from ${deviceMessages} m
          where m.barrier_id = b.id and m.outcome = 'alarm'
            and m.created_at > ${sql.placeholder('alarmsSince')}::timestamptz)`,
      })
      .from(sql`unnest(${sql.placeholder('ids')}::int[]) as b(id)
        left join lateral (
          select c.created_at, c.attempts from ${deviceCommands} c
          where c.barrier_id = b.id and c.status in ('queued', 'sent')
          order by c.id limit 1
        ) oldest on true`),
  );
}

/**
 * The figures of several barriers in one statement (a page of the administrator's barrier list, or one
 * barrier). Each figure is an index lookup on device_commands (barrier_id, status, id) or device_messages.
 */
export async function deviceFigures(
  executor: Executor,
  barrierIds: number[],
  now: Date,
): Promise<DeviceFigures[]> {
  if (barrierIds.length === 0) return [];
  const rows: FiguresRow[] = await figuresStatement(executor).execute({
    ids: barrierIds,
    alarmsSince: new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString(),
  });
  return rows.map((row) => {
    const lastReply = toDate(row.last_reply_at);
    const lastConfirmed = toDate(row.last_confirmed_at);
    // Replies from before the log existed are known only by the commands they confirmed.
    const lastReplyAt =
      lastReply && lastConfirmed
        ? new Date(Math.max(lastReply.getTime(), lastConfirmed.getTime()))
        : (lastReply ?? lastConfirmed);
    return {
      barrierId: Number(row.barrier_id),
      lastReplyAt,
      openCommands: Number(row.open_commands),
      oldestOpenAt: toDate(row.oldest_open_at),
      oldestOpenAttempts: Number(row.oldest_open_attempts),
      consecutiveFailures: Number(row.consecutive_failures),
      lastFailureReason: row.last_failure_reason,
      unrecognisedCount: Number(row.unrecognised_count),
      lastMessageInAt: lastReply,
      silentSince: toDate(row.silent_since),
      lastPower:
        row.last_power && row.last_power_at
          ? { outcome: row.last_power, at: toDate(row.last_power_at) ?? new Date(0) }
          : null,
      alarmsToday: Number(row.alarms_today),
      hasPassword:
        row.device_model !== null && isDeviceModel(row.device_model)
          ? getSheet(row.device_model).hasPassword
          : true,
    };
  });
}
