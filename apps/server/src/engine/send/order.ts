/**
 * The order across barriers: which barriers the worker and the sweep look at, in the order their commands go
 * to the gateway (read from the front of `device_commands_open_order_idx`), and when a barrier's desired
 * whitelist next changes by itself.
 */
import { nextChangeAt } from '@propusk/devices/access';
import { isDeviceModel } from '@propusk/devices/models';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barriers, commandDueSql, commandRankSql, deviceCommands, phones } from '../../db/schema.ts';
import type { QueueDeps } from '../plan/index.ts';
import {
  type JsonTuples,
  loadModelAndSpecs,
  lockBarrier,
  phoneSpecsOf,
  phoneTupleSql,
  syncBarrierDevice,
} from '../plan/index.ts';
import { arrayLiteral } from './gateway-rate.ts';

/** Re-plans a barrier at a moment its desired whitelist may have changed by itself (a window opened or closed). */
export async function reconcileBarrier(
  deps: Pick<QueueDeps, 'db' | 'clock' | 'config'>,
  barrierId: number,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await lockBarrier(tx, barrierId);
    return syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false });
  });
}

/**
 * Barriers the periodic sweep looks at: an open command, or phones whose access depends on time. In the
 * order the sweep hands their commands to the gateway (it drives one barrier after the other): a barrier
 * with a command that takes access away first, then the others; within each, the soonest deadline (a
 * window's start, else when the command was stored); then barrier id.
 * A barrier's own commands keep the planner's order (deletes, clock, adds by deadline), which keeps the
 * commands that depend on each other (a slot emptied, then written) in sequence.
 */
export async function barriersNeedingAttention(executor: Executor): Promise<number[]> {
  const withOpen = await barriersWithOpenCommands(executor);
  const timed = await executor
    .selectDistinct({ barrierId: phones.barrierId })
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(
      and(
        eq(phones.isActive, true),
        inArray(phones.type, ['temporary', 'schedule']),
        isNull(barriers.deletedAt),
      ),
    );
  const timedOnly = timed.map((row) => row.barrierId).sort((a, b) => a - b);
  return [...new Set([...withOpen, ...timedOnly])];
}

/** The queue's order across barriers (db/schema.ts: the same expressions as its index). */
const rankOfCommand = commandRankSql(deviceCommands.kind);
const dueOfCommand = commandDueSql(deviceCommands.dueAt, deviceCommands.createdAt);

/** Where a read of the order stopped (the last command entry read), to go on from there. */
export interface OpenOrderCursor {
  rank: number;
  /** The deadline as PostgreSQL wrote it (text): exact, where a JS Date would drop the microseconds. */
  due: string;
  barrierId: number;
}

/**
 * The first `limit` barriers with an open command in the queue's order (`barriersNeedingAttention`), read
 * from the front of the order's index: a barrier with a command that takes access away first (an emergency
 * hold before a revocation), then the others; within each, the soonest deadline (a window's start, else when
 * the command was stored); then barrier id. Only `among` when given; `skip` (barriers already handed out)
 * left out. Reads a few index entries per barrier, whatever the number of open commands elsewhere, so the
 * worker can ask for the head of the order at every send token. `done`: no barrier is left after these.
 */
export async function firstBarriersWithOpenCommands(
  executor: Executor,
  options: { limit: number; among?: readonly number[]; skip?: ReadonlySet<number>; after?: OpenOrderCursor },
): Promise<{ barrierIds: number[]; cursor: OpenOrderCursor | null; done: boolean }> {
  const found: number[] = [];
  const seen = new Set(options.skip ?? []);
  let cursor = options.after ?? null;
  // Several entries per barrier are common (a barrier's plan); read a few pages' worth at once.
  const pageSize = Math.min(5000, Math.max(64, options.limit * 4));
  for (;;) {
    const page = (await executor.execute(sql`
      select ${deviceCommands.barrierId} as barrier_id, ${rankOfCommand} as rank, ${dueOfCommand}::text as due
      from ${deviceCommands}
      where ${deviceCommands.status} in ('queued', 'sent')
        ${options.among ? sql`and ${deviceCommands.barrierId} = any(${arrayLiteral([...options.among])}::int[])` : sql``}
        ${cursor ? sql`and (${rankOfCommand}, ${dueOfCommand}, ${deviceCommands.barrierId}) > (${cursor.rank}, ${cursor.due}::timestamptz, ${cursor.barrierId})` : sql``}
      order by rank, ${dueOfCommand}, barrier_id
      limit ${pageSize}`)) as unknown as {
      rows: { barrier_id: number | string; rank: number | string; due: string }[];
    };
    for (const row of page.rows) {
      const barrierId = Number(row.barrier_id);
      cursor = { rank: Number(row.rank), due: row.due, barrierId };
      if (seen.has(barrierId)) continue;
      seen.add(barrierId);
      found.push(barrierId);
      if (found.length >= options.limit) return { barrierIds: found, cursor, done: false };
    }
    if (page.rows.length < pageSize) return { barrierIds: found, cursor, done: true };
  }
}

/** Every barrier with an open command, in the order of `barriersNeedingAttention`. */
export async function barriersWithOpenCommands(executor: Executor): Promise<number[]> {
  const { barrierIds } = await firstBarriersWithOpenCommands(executor, { limit: Number.POSITIVE_INFINITY });
  return barrierIds;
}

/**
 * SQL: the active timed phones (temporary, by schedule) with a slot of the barrier whose id is `barrierId`, as
 * one json column: all `nextChangeAt` looks at (a permanent entry never changes by itself). Read with the
 * barrier's row in the sending transaction (send-batcher.ts), so the worker needs no read of its own for it.
 */
export const timedPhonesJsonSql = (
  barrierId: unknown,
) => sql`(select coalesce(json_agg(${phoneTupleSql(sql`p`)}), '[]')
  from ${phones} p where p.barrier_id = ${barrierId} and p.is_active and p.slot is not null
    and p.type in ('temporary', 'schedule'))`;

/** When a barrier's desired whitelist next changes by itself, from its model and `timedPhonesJsonSql`. */
export function reconcileAtOf(
  deps: Pick<QueueDeps, 'config'>,
  model: string,
  timedPhones: unknown,
  now: Date,
): Date | null {
  if (!isDeviceModel(model)) return null;
  const specs = phoneSpecsOf((timedPhones ?? []) as JsonTuples);
  if (specs.length === 0) return null;
  return nextChangeAt(model, specs, now, deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES);
}

/** When the barrier's desired whitelist next changes by itself (null: never). */
export async function nextReconcileAt(
  deps: Pick<QueueDeps, 'db' | 'clock' | 'config'>,
  barrierId: number,
): Promise<Date | null> {
  const found = await loadModelAndSpecs(deps.db, barrierId);
  if (!found || !isDeviceModel(found.model)) return null;
  return nextChangeAt(found.model, found.specs, deps.clock.now(), deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES);
}
