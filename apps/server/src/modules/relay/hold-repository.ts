/**
 * Every query of the emergency hold-open (holds.ts): the `emergency_holds` and their barriers, the hold's relay
 * commands. No rule is decided here; the queries both jobs share are in repository.ts.
 */
import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { barriers, deviceCommands, emergencyHoldBarriers, emergencyHolds, users } from '../../db/schema.ts';
import { holdsPermissionSql } from '../barrier-policy/policy.ts';

export type HoldRow = typeof emergencyHolds.$inferSelect;

/** Barriers on which this administrator holds `relay.hold`: his own, and those he is given as staff. */
export async function barriersForHold(executor: Executor, adminId: number): Promise<number[]> {
  const rows = await executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(and(holdsPermissionSql(barriers.id, adminId, 'relay.hold'), isNull(barriers.deletedAt)))
    .orderBy(asc(barriers.id));
  return rows.map((row) => row.id);
}

export async function insertHold(
  executor: Executor,
  hold: { startedBy: number; reason: string; startedAt: Date },
): Promise<number | null> {
  const [row] = await executor.insert(emergencyHolds).values(hold).returning({ id: emergencyHolds.id });
  return row?.id ?? null;
}

export async function insertHoldBarrier(
  executor: Executor,
  member: { holdId: number; barrierId: number; refused: string | null; previousRelaySeconds: number | null },
): Promise<void> {
  await executor.insert(emergencyHoldBarriers).values(member);
}

export async function holdMembers(executor: Executor, holdId: number) {
  return executor
    .select()
    .from(emergencyHoldBarriers)
    .where(eq(emergencyHoldBarriers.holdId, holdId))
    .orderBy(asc(emergencyHoldBarriers.barrierId));
}

/** Locks the hold's row (a second end in parallel waits); when it ended, read under the lock. */
export async function lockHold(executor: Executor, holdId: number): Promise<Date | null | undefined> {
  await executor.execute(sql`select id from ${emergencyHolds} where id = ${holdId} for update`);
  const [current] = await executor
    .select({ endedAt: emergencyHolds.endedAt })
    .from(emergencyHolds)
    .where(eq(emergencyHolds.id, holdId));
  return current?.endedAt;
}

function holdCommandsOf(barrierId: number, holdId: number) {
  return and(
    eq(deviceCommands.barrierId, barrierId),
    eq(deviceCommands.kind, 'relay_hold'),
    sql`(${deviceCommands.payload}->>'hold_id')::int = ${holdId}`,
  );
}

/** Cancels the hold's commands of this barrier that have not left; the one in flight finishes. */
export async function cancelQueuedHoldCommands(
  executor: Executor,
  barrierId: number,
  holdId: number,
  now: Date,
): Promise<void> {
  await executor
    .update(deviceCommands)
    .set({ status: 'cancelled', finishedAt: now, nextAttemptAt: null })
    .where(and(holdCommandsOf(barrierId, holdId), eq(deviceCommands.status, 'queued')));
}

/** How many of the hold's commands of this barrier were sent at least once. */
export async function sentHoldCommands(
  executor: Executor,
  barrierId: number,
  holdId: number,
): Promise<number> {
  const [sent] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(deviceCommands)
    .where(and(holdCommandsOf(barrierId, holdId), sql`${deviceCommands.attempts} > 0`));
  return Number(sent?.count ?? 0);
}

export async function markHoldEnded(executor: Executor, holdId: number, adminId: number, now: Date) {
  await executor
    .update(emergencyHolds)
    .set({ endedAt: now, endedBy: adminId })
    .where(eq(emergencyHolds.id, holdId));
}

/** Holds an administrator may see: the ones he started, and those on a barrier he holds `relay.hold` on. */
function visibleHoldCondition(adminId: number) {
  return or(
    eq(emergencyHolds.startedBy, adminId),
    sql`exists (select 1 from ${emergencyHoldBarriers} hb join ${barriers} on ${barriers.id} = hb.barrier_id
      where hb.hold_id = ${emergencyHolds.id} and ${barriers.deletedAt} is null
      and ${holdsPermissionSql(barriers.id, adminId, 'relay.hold')})`,
  ) as SQL;
}

export async function findVisibleHold(
  executor: Executor,
  adminId: number,
  holdId: number,
): Promise<HoldRow | undefined> {
  const [hold] = await executor
    .select()
    .from(emergencyHolds)
    .where(and(eq(emergencyHolds.id, holdId), visibleHoldCondition(adminId)));
  return hold;
}

export async function countVisibleHolds(executor: Executor, adminId: number): Promise<number> {
  const [count] = await executor
    .select({ total: sql<number>`count(*)::int` })
    .from(emergencyHolds)
    .where(visibleHoldCondition(adminId));
  return Number(count?.total ?? 0);
}

const startedByUser = alias(users, 'started_by_user');
const endedByUser = alias(users, 'ended_by_user');

/**
 * A page of holds (one by id, or those the administrator may see), newest first, with their barriers and the
 * relay commands each hold sent to them.
 */
export async function loadHolds(
  executor: Executor,
  scope: { holdId: number } | { visibleTo: number },
  limit: number,
  offset: number,
) {
  const where =
    'holdId' in scope ? eq(emergencyHolds.id, scope.holdId) : visibleHoldCondition(scope.visibleTo);
  const holds = await executor
    .select({
      hold: emergencyHolds,
      startedByName: startedByUser.fullName,
      endedByName: endedByUser.fullName,
    })
    .from(emergencyHolds)
    .leftJoin(startedByUser, eq(startedByUser.id, emergencyHolds.startedBy))
    .leftJoin(endedByUser, eq(endedByUser.id, emergencyHolds.endedBy))
    .where(where)
    .orderBy(desc(emergencyHolds.id))
    .limit(limit)
    .offset(offset);
  if (holds.length === 0) return { holds, members: [], commands: [] };
  const ids = holds.map((row) => row.hold.id);
  const members = await executor
    .select({
      holdId: emergencyHoldBarriers.holdId,
      barrierId: emergencyHoldBarriers.barrierId,
      refused: emergencyHoldBarriers.refused,
      address: barriers.address,
    })
    .from(emergencyHoldBarriers)
    .innerJoin(barriers, eq(barriers.id, emergencyHoldBarriers.barrierId))
    .where(inArray(emergencyHoldBarriers.holdId, ids))
    .orderBy(asc(emergencyHoldBarriers.barrierId));
  const barrierIds = [...new Set(members.map((member) => member.barrierId))];
  const commands =
    barrierIds.length === 0
      ? []
      : await executor
          .select({
            barrierId: deviceCommands.barrierId,
            kind: deviceCommands.kind,
            payload: deviceCommands.payload,
            status: deviceCommands.status,
            attempts: deviceCommands.attempts,
            lastError: deviceCommands.lastError,
          })
          .from(deviceCommands)
          .where(
            and(
              inArray(deviceCommands.barrierId, barrierIds),
              inArray(deviceCommands.kind, ['relay_hold', 'relay_release']),
              sql`(${deviceCommands.payload}->>'hold_id')::int in (${sql.join(
                ids.map((id) => sql`${id}`),
                sql`, `,
              )})`,
            ),
          );
  return { holds, members, commands };
}
