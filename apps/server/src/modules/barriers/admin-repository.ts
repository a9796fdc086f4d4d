/**
 * SQL of an administrator's barriers: his list (his own and those he is staff on) with their dangers as
 * columns, and one of them as his screens show it.
 */
import type { BarrierListQuery } from '@propusk/contracts/barriers';
import { and, count, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { barrierStaff, barriers, users } from '../../db/schema.ts';
import {
  executeGuardedPage,
  guardKey,
  type SessionGuard,
  sessionLiveOrNull,
} from '../../db/session-guard.ts';
import { type BarrierRole, totalOfPage } from '../barrier-policy/policy.ts';

import { addressSearchAmongChosen, orderBy, pageValues, placeholders } from './barrier-columns.ts';

/**
 * Widened access in force on a barrier (issue 32 item 3), as columns of a statement over `barriers`: the last
 * access setting and the last relay-time setting sent (not cancelled; read backwards through
 * `device_commands_created_idx`), and the emergency hold running on it. A setting counts from the moment it is
 * queued: it may reach the device at any time after. Correlated sub-selects of the page's rows, which
 * PostgreSQL evaluates after the page's sort and limit (for the rows given out only).
 */
const lastSetting = (settings: string) =>
  // Written out with aliases: every column of a correlated subquery must name its table.
  sql.raw(`(select dc.payload from device_commands dc
      where dc.barrier_id = "barriers"."id" and dc.kind = 'setting' and dc.status <> 'cancelled'
        and dc.payload->>'setting' in (${settings})
      order by dc.created_at desc, dc.id desc limit 1)`);
const dangerColumns = {
  openToAll: sql<boolean>`coalesce(${lastSetting("'access_all', 'access_authorized'")}->>'setting' = 'access_all', false)`,
  relayAlwaysOn: sql<boolean>`coalesce(${lastSetting("'relay_time'")}->'params'->>'seconds' = '999', false)`,
  holdId: sql<number | null>`${sql.raw(`(select eh.id from emergency_hold_barriers ehb
          join emergency_holds eh on eh.id = ehb.hold_id
          where ehb.barrier_id = "barriers"."id" and eh.ended_at is null and ehb.refused is null
          order by eh.id desc limit 1)`)}`,
};
export type BarrierDangerColumns = {
  [Key in keyof typeof dangerColumns]: (typeof dangerColumns)[Key]['_']['type'];
};

/** The dangers of each barrier of `barrierIds` (a barrier card's), in one statement. */
export async function barrierDangers(executor: Executor, barrierIds: number[]) {
  if (barrierIds.length === 0) return [];
  // One named statement for every page size (the ids are one array parameter): sent as a plain query it was
  // planned at every call (0.4 ms, more than it takes to run).
  const statement = preparedStatement(executor, 'barriers.dangers', () =>
    executor
      .select({ id: barriers.id, ...dangerColumns })
      .from(barriers)
      .where(sql`${barriers.id} = any(${sql.placeholder('ids')}::int[])`),
  );
  return statement.execute({ ids: barrierIds });
}

const adminColumns = {
  id: barriers.id,
  address: barriers.address,
  ownerId: barriers.ownerId,
  ownerName: users.fullName,
  ownerPhone: users.phone,
  devicePhone: barriers.devicePhone,
  deviceModel: barriers.deviceModel,
  devicePhonesAmount: barriers.devicePhonesAmount,
  deviceGatewayNumber: barriers.deviceGatewayNumber,
  additionalInfo: barriers.additionalInfo,
  isPublic: barriers.isPublic,
  createdAt: barriers.createdAt,
  /** The viewer's role on the barrier: its owner, or his staff role (null: none, never in these reads). */
  myRole: sql<BarrierRole | null>`case when ${barriers.ownerId} = ${placeholders.viewerId} then 'owner' else (select ${barrierStaff.role}::text from ${barrierStaff} where ${barrierStaff.barrierId} = ${barriers.id} and ${barrierStaff.userId} = ${placeholders.viewerId}) end`,
  // Its dangers in the same statement (no statement of their own per page or barrier).
  ...dangerColumns,
};
export type AdminBarrierRow = Awaited<ReturnType<typeof findOwnedBarrierRow>>;

/**
 * The administrator's live barriers, his own and those he is staff on, and their total, in one statement (as
 * `listOwnBarriers`).
 */
export async function listOwnedBarriers(
  executor: Executor,
  ownerId: number,
  query: BarrierListQuery,
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const hasAddress = Boolean(query.address);
  const shape = hasAddress ? 'address' : 'all';
  const conditions = () =>
    and(
      // His own barriers and those he is staff on, each read through its index, then the barriers by their
      // ids (`= any(array(…))`: probes of the primary key). As `in (select … union all …)` the planner chose a
      // merge join walking the primary key from the first barrier until his turned up: 62 ms for the first
      // page of an administrator whose barriers are the newest of 100,000 (decision 0027, sixth session).
      // His own live ones come from barriers_owner_live_idx alone (index-only: the statement read 786
      // buffers for an administrator of 144 barriers, 588 so; journal of 2026-11-29, thirteenth session).
      sql`${barriers.id} = any(array(select ${barriers.id} from ${barriers} where ${barriers.ownerId} = ${placeholders.viewerId} and ${barriers.deletedAt} is null union all select ${barrierStaff.barrierId} from ${barrierStaff} where ${barrierStaff.userId} = ${placeholders.viewerId}))`,
      isNull(barriers.deletedAt),
      hasAddress ? addressSearchAmongChosen() : undefined,
    ) as SQL;
  const key = `barriers.ownedPage:${shape}${guardKey(guard)}:${query.ordering ?? 'id'}`;
  const page = preparedStatement(executor, key, () =>
    executor
      .select({
        ...adminColumns,
        total: sql<number>`(select count(*) from ${barriers} where ${conditions()})`.mapWith(Number),
        sessionLive: sessionLiveOrNull(guard),
      })
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(conditions())
      .orderBy(...orderBy(query.ordering))
      .limit(placeholders.limit)
      .offset(placeholders.offset),
  );
  const filter = { viewerId: ownerId, ...(hasAddress ? { address: query.address ?? '' } : {}) };
  const { rows, sessionLive } = await executeGuardedPage(page, filter, pageValues(query), guard);
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `barriers.ownedCount:${shape}`, () =>
      executor.select({ count: count() }).from(barriers).where(conditions()),
    );
    const [row] = await counted.execute(filter);
    return row?.count ?? 0;
  });
  return { rows, total, sessionLive };
}

/** A live barrier as the administrator `viewerId` sees it (his role on it included). */
export async function findOwnedBarrierRow(executor: Executor, barrierId: number, viewerId: number) {
  const statement = preparedStatement(executor, 'barriers.adminRow', () =>
    executor
      .select(adminColumns)
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(and(eq(barriers.id, sql.placeholder('barrierId')), isNull(barriers.deletedAt))),
  );
  const [row] = await statement.execute({ barrierId, viewerId });
  return row;
}
