/**
 * Every query of the gate's relay but the holds' own (hold-repository.ts): the `gate_openings` rows, the relay's
 * device commands and history entries, what both jobs (openings.ts, holds.ts) read. No rule is decided here.
 */
import { and, desc, eq, gte, inArray, isNull, like, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  actions,
  barriers,
  deviceCommands,
  emergencyHoldBarriers,
  emergencyHolds,
  gateOpenings,
  users,
} from '../../db/schema.ts';
import type { RelayPayload } from '../../engine/plan/index.ts';

/** A barrier row as the policy checks give it (no search vector). */
export type BarrierRow = Omit<typeof barriers.$inferSelect, 'searchVector'>;

// ---- Shared ----

/**
 * The relay time (seconds) the unit has as far as we know: the last relay-time command that may have reached it
 * (sent at least once), if it was confirmed; a hold's GOT999 counts as 999. Null: never set through us, or the
 * last one is not confirmed (the unit may have either value).
 */
export async function knownRelaySeconds(executor: Executor, barrierId: number): Promise<number | null> {
  const [row] = await executor
    .select({ payload: deviceCommands.payload, status: deviceCommands.status })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.kind, ['setting', 'relay_hold', 'relay_release']),
        sql`${deviceCommands.payload}->>'setting' = 'relay_time'`,
        sql`${deviceCommands.attempts} > 0`,
      ),
    )
    .orderBy(desc(deviceCommands.id))
    .limit(1);
  if (row?.status !== 'confirmed') return null;
  const value = Number((row.payload as RelayPayload).params?.seconds);
  return Number.isInteger(value) ? value : null;
}

/** The hold (not ended, the barrier not refused) that holds this barrier open now, if any. */
export async function activeHoldOn(executor: Executor, barrierId: number): Promise<number | null> {
  const [row] = await executor
    .select({ id: emergencyHolds.id })
    .from(emergencyHoldBarriers)
    .innerJoin(emergencyHolds, eq(emergencyHolds.id, emergencyHoldBarriers.holdId))
    .where(
      and(
        eq(emergencyHoldBarriers.barrierId, barrierId),
        isNull(emergencyHolds.endedAt),
        isNull(emergencyHoldBarriers.refused),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

export interface RelayCommand {
  barrierId: number;
  kind: 'relay_open' | 'relay_open_off' | 'relay_hold' | 'relay_release';
  spentBy?: number | null;
  payload: RelayPayload;
  createdAt: Date;
  nextAttemptAt?: Date;
}

/** Queues one relay command; its id. */
export async function queueRelayCommand(executor: Executor, command: RelayCommand): Promise<number | null> {
  const [row] = await executor.insert(deviceCommands).values(command).returning({ id: deviceCommands.id });
  return row?.id ?? null;
}

/** The barrier's history entry of a relay action (an opening, a hold started or ended). */
export async function recordGateAction(
  executor: Executor,
  entry: {
    barrierId: number;
    author: 'user' | 'admin';
    authorUserId: number;
    reason: string;
    newValue: Record<string, unknown>;
    createdAt: Date;
  },
): Promise<void> {
  await executor.insert(actions).values({ ...entry, actionType: 'barrier_setting' });
}

export async function findBarrier(executor: Executor, barrierId: number): Promise<BarrierRow | undefined> {
  const [barrier] = await executor.select().from(barriers).where(eq(barriers.id, barrierId));
  return barrier;
}

// ---- Openings ----

export async function insertOpening(
  executor: Executor,
  opening: {
    barrierId: number;
    userId: number;
    via: 'app' | 'admin';
    requestedAt: Date;
    status: 'sent' | 'failed';
    failure?: string;
  },
): Promise<number | null> {
  const [row] = await executor.insert(gateOpenings).values(opening).returning({ id: gateOpenings.id });
  return row?.id ?? null;
}

export async function setOpeningCommand(
  executor: Executor,
  openingId: number,
  commandId: number | null,
): Promise<void> {
  await executor.update(gateOpenings).set({ commandId }).where(eq(gateOpenings.id, openingId));
}

export interface OpeningRow {
  id: number;
  barrierId: number;
  userId: number | null;
  userName: string | null;
  userPhone: string | null;
  via: string;
  requestedAt: Date;
  status: string;
  failure: string | null;
  confirmedAt: Date | null;
}

/** Which openings a list shows; the phone filters are digits of the opener's number. */
export type OpeningFilter = { openingId: number } | OpeningListFilter;
export interface OpeningListFilter {
  barrierId: number;
  userId?: number | undefined;
  phoneContains?: string | undefined;
  phoneEndsWith?: string | undefined;
  status?: string | undefined;
  from?: Date | null;
  to?: Date | null;
}

function openingWhere(filter: OpeningFilter): SQL {
  if ('openingId' in filter) return and(eq(gateOpenings.id, filter.openingId)) as SQL;
  const conditions: SQL[] = [eq(gateOpenings.barrierId, filter.barrierId)];
  if (filter.userId !== undefined) conditions.push(eq(gateOpenings.userId, filter.userId));
  if (filter.phoneContains) conditions.push(like(users.phone, `%${filter.phoneContains}%`));
  if (filter.phoneEndsWith) conditions.push(like(users.phone, `%${filter.phoneEndsWith}`));
  if (filter.status) conditions.push(eq(gateOpenings.status, filter.status));
  if (filter.from) conditions.push(gte(gateOpenings.requestedAt, filter.from));
  if (filter.to) conditions.push(lte(gateOpenings.requestedAt, filter.to));
  return and(...conditions) as SQL;
}

/** A page of openings with the opener's name and number, newest first. */
export async function loadOpenings(
  executor: Executor,
  filter: OpeningFilter,
  limit: number,
  offset: number,
): Promise<OpeningRow[]> {
  return executor
    .select({
      id: gateOpenings.id,
      barrierId: gateOpenings.barrierId,
      userId: gateOpenings.userId,
      userName: users.fullName,
      userPhone: users.phone,
      via: gateOpenings.via,
      requestedAt: gateOpenings.requestedAt,
      status: gateOpenings.status,
      failure: gateOpenings.failure,
      confirmedAt: gateOpenings.confirmedAt,
    })
    .from(gateOpenings)
    .leftJoin(users, eq(users.id, gateOpenings.userId))
    .where(openingWhere(filter))
    .orderBy(desc(gateOpenings.requestedAt), desc(gateOpenings.id))
    .limit(limit)
    .offset(offset);
}

export async function countOpenings(executor: Executor, filter: OpeningFilter): Promise<number> {
  const [count] = await executor
    .select({ total: sql<number>`count(*)::int` })
    .from(gateOpenings)
    .leftJoin(users, eq(users.id, gateOpenings.userId))
    .where(openingWhere(filter));
  return Number(count?.total ?? 0);
}
