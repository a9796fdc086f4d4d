/**
 * SQL of the barrier calls. A list is one page query, whatever the page size, with its total either in the
 * same statement (own barriers) or from a query whose answer the service keeps a few seconds (the count of
 * public barriers; the ids and total of an address search of them, whose pages are then read by id).
 * The list queries are prepared statements, one per shape (scope, address filter, ordering).
 */
import type { BarrierListQuery, BarrierOrdering } from '@propusk/contracts/barriers';
import type { PhonePrivacy } from '@propusk/contracts/common';
import type { LimitField, SmsShareField } from '@propusk/contracts/limits';
import {
  and,
  asc,
  count,
  desc,
  eq,
  isNotNull,
  isNull,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { preparedStatement } from '../../db/prepared.ts';
import {
  accessRequests,
  adminBlocks,
  barrierAccess,
  barrierLimits,
  barrierStaff,
  barriers,
  users,
} from '../../db/schema.ts';
import { guardKey, type SessionGuard, sessionLiveOrNull } from '../../db/session-guard.ts';
import { type BarrierRole, pageOffset, totalOfPage } from '../barrier-policy/policy.ts';
import { closedBarriersColumn, toClosedBarriers } from './closed-barriers.ts';

function orderBy(ordering: BarrierOrdering | undefined): SQL[] {
  switch (ordering) {
    case 'address':
      return [asc(barriers.address), asc(barriers.id)];
    case '-address':
      return [desc(barriers.address), desc(barriers.id)];
    case 'created_at':
      return [asc(barriers.createdAt), asc(barriers.id)];
    case '-created_at':
      return [desc(barriers.createdAt), desc(barriers.id)];
    case '-id':
      return [desc(barriers.id)];
    default:
      return [asc(barriers.id)];
  }
}

/** The same orderings over the columns of the `matches` subquery of an address search. */
function matchesOrderBy(ordering: BarrierOrdering | undefined): SQL {
  switch (ordering) {
    case 'address':
      return sql.raw('matches.address asc, matches.id asc');
    case '-address':
      return sql.raw('matches.address desc, matches.id desc');
    case 'created_at':
      return sql.raw('matches.created_at asc, matches.id asc');
    case '-created_at':
      return sql.raw('matches.created_at desc, matches.id desc');
    case '-id':
      return sql.raw('matches.id desc');
    default:
      return sql.raw('matches.id asc');
  }
}

const placeholders = {
  viewerId: sql.placeholder('viewerId'),
  address: sql.placeholder('address'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
};
const pageValues = (query: { page: number; page_size: number }) => ({
  limit: query.page_size,
  offset: pageOffset(query),
});

/** The owner's columns: of `users` joined, or of a sub-select of them (listPublicBarriersByIds). */
interface OwnerColumns {
  fullName: SQLWrapper;
  phone: SQLWrapper;
  phonePrivacy: SQLWrapper;
}

const summaryColumns = (viewerId: number | Placeholder, owner: OwnerColumns = users) => ({
  id: barriers.id,
  address: barriers.address,
  additionalInfo: barriers.additionalInfo,
  isPublic: barriers.isPublic,
  ownerId: barriers.ownerId,
  ownerName: sql<string | null>`${owner.fullName}`,
  ownerPhone: sql<string>`${owner.phone}`,
  ownerPrivacy: sql<PhonePrivacy>`${owner.phonePrivacy}`,
  /** Given out only to a viewer with access or the owner (service.ts `toSummary`). */
  devicePhone: barriers.devicePhone,
  hasAccess: sql<boolean>`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${viewerId})`,
  // At most one pending request per user and barrier (access_requests_one_pending, which serves this probe).
  pendingInitiator: sql<
    'user' | 'admin' | null
  >`(select ${accessRequests.initiator} from ${accessRequests} where ${accessRequests.userId} = ${viewerId} and ${accessRequests.barrierId} = ${barriers.id} and ${accessRequests.status} = 'pending')`,
});

/**
 * The address search (placeholder `address`): every word of it is a prefix of some word of the address, in
 * any order, punctuation, case, ё and abbreviations aside (migration 0011; served by barriers_search_vector_idx).
 */
const addressSearch = () => sql`${barriers.searchVector} @@ ${searchQuery()}`;

/**
 * The search text made a tsquery once per statement: a sub-select is computed once (an InitPlan), where the
 * function called with a parameter (as in a prepared statement's generic plan) would be called again for
 * every row it checks (~1 ms each).
 */
const searchQuery = () => sql`(select barrier_search_query(${placeholders.address}))`;

/**
 * The same search among a few barriers already chosen by an index (a user's access rows, an administrator's
 * barriers). `is true` is not an index condition: the generic plan of the statement, made without the search
 * text, might otherwise read the search index for every barrier matching it instead of checking the user's
 * few barriers.
 */
const addressSearchAmongChosen = () => sql`(${barriers.searchVector} @@ ${searchQuery()}) is true`;

/** Live public barriers, optionally those whose address matches the search (placeholder `address`, addressSearch). */
function publicConditions(hasAddress: boolean): SQL {
  return and(
    isNull(barriers.deletedAt),
    // A literal condition, not `= $1`: a generic plan can then prove the partial index barriers_public_live_idx.
    sql`${barriers.isPublic}`,
    hasAddress ? addressSearch() : undefined,
  ) as SQL;
}

/**
 * The live public barriers whose address matches the search (placeholder `address`, addressSearch), as the derived
 * table `matches` (id, address, created_at). A subquery with OFFSET is planned on its own, never merged into
 * the query that orders it: its plan is the search index, whatever order the list asks for.
 */
const addressMatches = () =>
  sql`(select ${barriers.id} as id, ${barriers.address} as address, ${barriers.createdAt} as created_at from ${barriers} where ${publicConditions(true)} offset 0) as matches`;

function publicPageStatement(
  executor: Executor,
  hasAddress: boolean,
  ordering: BarrierOrdering | undefined,
  guard: SessionGuard | undefined,
) {
  const key = `barriers.publicPage:${hasAddress ? 'address' : 'all'}${guardKey(guard)}:${ordering ?? 'id'}`;
  return preparedStatement(executor, key, () => {
    const page = executor
      .select({ ...summaryColumns(placeholders.viewerId), sessionLive: sessionLiveOrNull(guard) })
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId));
    if (!hasAddress) {
      return page
        .where(publicConditions(false))
        .orderBy(...orderBy(ordering))
        .limit(placeholders.limit)
        .offset(placeholders.offset);
    }
    // A page of an address search past the ids the service keeps (searchPublicBarrierIds). Left to itself,
    // the planner may answer `… order by address limit 5` by walking the address b-tree and filtering every
    // public barrier until it has a page (9.6 ms at 100,000 barriers), where taking the ~900 matches of the
    // search index (addressMatches) and sorting them costs a few ms; only the page's rows are joined with
    // their owners. The cost is bounded by the number of matches, not by the table.
    return page
      .where(
        sql`${barriers.id} in (select matches.id from ${addressMatches()} order by ${matchesOrderBy(ordering)} limit ${placeholders.limit} offset ${placeholders.offset})`,
      )
      .orderBy(...orderBy(ordering));
  });
}

export type BarrierSummaryRow = Omit<Awaited<ReturnType<typeof listPublicBarriers>>[number], 'sessionLive'>;

/** A page of live public barriers, with their owner and whether the viewer has access. */
export async function listPublicBarriers(
  executor: Executor,
  viewerId: number,
  query: BarrierListQuery,
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const hasAddress = Boolean(query.address);
  return publicPageStatement(executor, hasAddress, query.ordering, guard).execute({
    viewerId,
    ...pageValues(query),
    ...(hasAddress ? { address: query.address ?? '' } : {}),
    ...guard?.guardValues,
  });
}

/**
 * The first `limit` ids of the live public barriers whose address matches the search, in the order
 * of the list, and how many match in all: one pass over the trigram matches (the page is a top-N sort of
 * them, the total a window count over the same rows). The service keeps the answer a few seconds, so that
 * the pages of a search, and the same search made by many users, are served by primary key.
 */
export async function searchPublicBarrierIds(
  executor: Executor,
  address: string,
  ordering: BarrierOrdering | undefined,
  limit: number,
): Promise<{ ids: number[]; total: number }> {
  const statement = preparedStatement(executor, `barriers.publicSearch:${ordering ?? 'id'}`, () =>
    executor
      .select({
        id: sql<number>`matches.id`.mapWith(Number),
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(addressMatches())
      .orderBy(matchesOrderBy(ordering))
      .limit(placeholders.limit),
  );
  const rows = await statement.execute({ address, limit });
  return { ids: rows.map((row) => row.id), total: rows[0]?.total ?? 0 };
}

/**
 * The live public barriers of `ids` (a page of `searchPublicBarrierIds`), in the list's order: a barrier
 * that another process deleted or made private since the search was kept is left out.
 */
export async function listPublicBarriersByIds(
  executor: Executor,
  viewerId: number,
  ids: number[],
  ordering: BarrierOrdering | undefined,
) {
  if (ids.length === 0) return [];
  const statement = preparedStatement(executor, `barriers.publicByIds:${ordering ?? 'id'}`, () => {
    // The owner of each of the page's few barriers by his primary key. As a plain join, the generic plan
    // (made without the ids) merge-joined `users` in id order up to the page's largest owner id: 0.40 ms
    // against 0.18 (a lateral sub-select with a limit is not pulled up into a join).
    const owner = executor
      .select({ fullName: users.fullName, phone: users.phone, phonePrivacy: users.phonePrivacy })
      .from(users)
      .where(eq(users.id, barriers.ownerId))
      .limit(1)
      .as('owner');
    return executor
      .select(summaryColumns(placeholders.viewerId, owner))
      .from(barriers)
      .innerJoinLateral(owner, sql`true`)
      .where(and(publicConditions(false), sql`${barriers.id} = any(${sql.placeholder('ids')})`))
      .orderBy(...orderBy(ordering));
  });
  return statement.execute({ viewerId, ids });
}

/** How many live public barriers there are (an address search has its total from searchPublicBarrierIds). */
export async function countPublicBarriers(executor: Executor) {
  const statement = preparedStatement(executor, 'barriers.publicCount', () =>
    executor.select({ count: count() }).from(barriers).where(publicConditions(false)),
  );
  const [row] = await statement.execute({});
  return row?.count ?? 0;
}

/** Live barriers the viewer (placeholder `viewerId`) has access to, optionally matching the address search. */
function ownConditions(hasAddress: boolean): SQL {
  return and(
    isNull(barriers.deletedAt),
    sql`exists (select 1 from ${barrierAccess} where ${barrierAccess.barrierId} = ${barriers.id} and ${barrierAccess.userId} = ${placeholders.viewerId})`,
    hasAddress ? addressSearchAmongChosen() : undefined,
  ) as SQL;
}

/**
 * A page of the live barriers the viewer has access to, and their total in the same statement (totalOfPage).
 * With `withClosed`, the same statement also reads the barriers his administrators closed to him
 * (closed-barriers.ts): `closed` is undefined when the page had no row to carry them.
 */
export async function listOwnBarriers(
  executor: Executor,
  viewerId: number,
  query: BarrierListQuery,
  withClosed = false,
  /** The caller's session, checked by the page's own statement (db/session-guard.ts). */
  guard?: SessionGuard,
) {
  const hasAddress = Boolean(query.address);
  const shape = `${hasAddress ? 'address' : 'all'}${withClosed ? '+closed' : ''}${guardKey(guard)}`;
  const page = preparedStatement(executor, `barriers.ownPage:${shape}:${query.ordering ?? 'id'}`, () =>
    executor
      .select({
        ...summaryColumns(placeholders.viewerId),
        total: sql<number>`(select count(*) from ${barriers} where ${ownConditions(hasAddress)})`.mapWith(
          Number,
        ),
        closed: withClosed ? closedBarriersColumn(placeholders.viewerId) : sql<null>`null`,
        sessionLive: sessionLiveOrNull(guard),
      })
      .from(barriers)
      .innerJoin(users, eq(users.id, barriers.ownerId))
      .where(ownConditions(hasAddress))
      .orderBy(...orderBy(query.ordering))
      .limit(placeholders.limit)
      .offset(placeholders.offset),
  );
  const filter = { viewerId, ...(hasAddress ? { address: query.address ?? '' } : {}) };
  const rows = await page.execute({ ...filter, ...pageValues(query), ...guard?.guardValues });
  const sessionLive = rows[0]?.sessionLive ?? undefined;
  const total = await totalOfPage(rows, query, async () => {
    const counted = preparedStatement(executor, `barriers.ownCount:${shape.replace(/\+live:.*/, '')}`, () =>
      executor.select({ count: count() }).from(barriers).where(ownConditions(hasAddress)),
    );
    const [row] = await counted.execute(filter);
    return row?.count ?? 0;
  });
  const closed = withClosed && rows[0] ? toClosedBarriers(rows[0].closed ?? []) : undefined;
  return { rows, total, closed, sessionLive };
}

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
      sql`${barriers.id} = any(array(select ${barriers.id} from ${barriers} where ${barriers.ownerId} = ${placeholders.viewerId} union all select ${barrierStaff.barrierId} from ${barrierStaff} where ${barrierStaff.userId} = ${placeholders.viewerId}))`,
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
  const rows = await page.execute({ ...filter, ...pageValues(query), ...guard?.guardValues });
  const sessionLive = rows[0]?.sessionLive ?? undefined;
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

export async function findBarrierCard(executor: Executor, barrierId: number, viewerId: number) {
  const [row] = await executor
    .select({
      ...summaryColumns(viewerId),
      devicePhone: barriers.devicePhone,
      deviceModel: barriers.deviceModel,
      devicePhonesAmount: barriers.devicePhonesAmount,
      // The owner's own block of the viewer (DESIGN.md section 4), so the card can say why he has no access.
      blockReason: sql<
        string | null
      >`(select ${adminBlocks.reason} from ${adminBlocks} where ${adminBlocks.adminId} = ${barriers.ownerId} and ${adminBlocks.userId} = ${viewerId})`,
    })
    .from(barriers)
    .innerJoin(users, eq(users.id, barriers.ownerId))
    .where(and(eq(barriers.id, barrierId), isNull(barriers.deletedAt)));
  return row;
}

export async function findOwner(executor: Executor, userId: number) {
  const [row] = await executor
    .select({ id: users.id, phone: users.phone })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return row;
}

export async function insertBarrier(executor: Executor, values: typeof barriers.$inferInsert) {
  const [row] = await executor.insert(barriers).values(values).returning({ id: barriers.id });
  if (!row) throw new Error('barrier not inserted');
  await executor
    .insert(barrierLimits)
    .values({ barrierId: row.id, updatedAt: values.createdAt ?? new Date() });
  return row.id;
}

export async function updateBarrier(
  executor: Executor,
  barrierId: number,
  values: Partial<typeof barriers.$inferInsert>,
) {
  await executor.update(barriers).set(values).where(eq(barriers.id, barrierId));
}

/** Soft-deletes the barrier: access rows go, pending requests are cancelled, history stays. */
export async function markBarrierDeleted(executor: Executor, barrierId: number, now: Date) {
  await executor.update(barriers).set({ deletedAt: now, updatedAt: now }).where(eq(barriers.id, barrierId));
  await executor.delete(barrierAccess).where(eq(barrierAccess.barrierId, barrierId));
  await executor
    .update(accessRequests)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(accessRequests.barrierId, barrierId), eq(accessRequests.status, 'pending')));
}

export async function findLimits(executor: Executor, barrierId: number) {
  const [row] = await executor.select().from(barrierLimits).where(eq(barrierLimits.barrierId, barrierId));
  return row;
}

const limitColumns: Record<LimitField | SmsShareField, keyof typeof barrierLimits.$inferInsert> = {
  sms_resident_share: 'smsResidentShare',
  sms_owner_reserve: 'smsOwnerReserve',
  user_phone_limit: 'userPhoneLimit',
  user_temp_phone_limit: 'userTempPhoneLimit',
  global_temp_phone_limit: 'globalTempPhoneLimit',
  user_schedule_phone_limit: 'userSchedulePhoneLimit',
  global_schedule_phone_limit: 'globalSchedulePhoneLimit',
  schedule_interval_limit: 'scheduleIntervalLimit',
  sms_weekly_limit: 'smsWeeklyLimit',
};

export async function upsertLimits(
  executor: Executor,
  barrierId: number,
  changes: Partial<Record<LimitField | SmsShareField, number | null>>,
  now: Date,
) {
  const values: Record<string, number | null | Date> = { updatedAt: now };
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined) values[limitColumns[field as LimitField | SmsShareField]] = value;
  }
  await executor
    .insert(barrierLimits)
    .values({ barrierId, ...values })
    .onConflictDoUpdate({ target: barrierLimits.barrierId, set: values });
}

/**
 * A live barrier whose unit confirmed a command holds this device number (issue 40 item 4, decision 0030).
 * Serialised per number by a transaction lock, so that two creations cannot both read "free" past a
 * confirmation being written.
 */
export async function devicePhoneConfirmedElsewhere(tx: Executor, devicePhone: string): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`device-phone:${devicePhone}`}))`);
  const [row] = await tx
    .select({ id: barriers.id })
    .from(barriers)
    .where(
      and(
        eq(barriers.devicePhone, devicePhone),
        isNull(barriers.deletedAt),
        isNotNull(barriers.deviceConfirmedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}
