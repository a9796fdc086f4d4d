/**
 * Opening a gate from the app and the emergency hold-open (issue 16; docs/decisions/0019-relay.md).
 *
 * An opening: authorization (a user with access, or an administrator with `relay.open`), the relay must be
 * drivable (relayAvailability: 409 relay_dialect_unknown / relay_not_supported), no hold on the barrier
 * (409 emergency_hold_active: its DD would close the held gate), the per-user rate limit (429
 * too_many_openings: 1 per 30 s per barrier, 20 per hour), the barrier's weekly SMS limit (409
 * sms_weekly_limit), then in one transaction: the `gate_openings` row, its commands, its history entry.
 *
 * A hold: every chosen barrier the administrator holds `relay.hold` on ("all": every one), in one
 * transaction; a barrier whose relay cannot be driven is recorded as refused (shown, shouted), the others get
 * their commands at the head of their queue. Never refused by the SMS limit: it is life safety. Ending it
 * cancels what has not left and queues the end (DD, relay time restored) where anything was sent.
 */

import { maskPhone } from '@propusk/contracts/phone-mask';
import { parseDateTimeInput } from '@propusk/contracts/phones';
import {
  EMERGENCY_RULE,
  type EmergencyHold,
  type HoldBarrier,
  OPENING_TAP_WINDOW_MS,
  type Opening,
} from '@propusk/contracts/relay';
import { type DeviceModel, getSheet, isDeviceModel } from '@propusk/devices/models';
import {
  endSteps,
  holdSteps,
  openingSteps,
  type RelayAvailability,
  type RelayStep,
  relayAvailability,
} from '@propusk/devices/relay';
import { and, asc, desc, eq, gte, inArray, isNull, like, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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
import type { RelayPayload } from '../../engine/command-kinds.ts';
import { lockBarrier } from '../../engine/outbox.ts';
import { assertResidentSmsShare, smsSpender } from '../../engine/sms-shares.ts';
import { assertWeeklySmsBudget } from '../../engine/weekly-budget.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, conflict, gone, HttpError, notFound, tooManyRequests } from '../../lib/errors.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { createSharedRateLimiter, type SharedRateLimiter } from '../../lib/shared-rate-limiter.ts';
import {
  holdsPermissionSql,
  pageOffset,
  paginate,
  requireBarrierAccess,
  requireBarrierPermission,
  requireBarrierRole,
  roleHolds,
} from '../barrier-policy/policy.ts';
import { dialectEvidence } from '../device-settings/service.ts';
import { cancelPendingOpenings } from './commands.ts';

type Deps = Pick<Dependencies, 'db' | 'clock' | 'config' | 'notifyDeviceCommands'>;

/** Per-user limits of openings, shared by every server process (lib/shared-rate-limiter.ts). */
export const OPENING_LIMITS = {
  perBarrier: { count: 1, windowMs: 30_000 },
  perHour: { count: 20, windowMs: 3_600_000 },
};
const limiters = new WeakMap<object, { barrier: SharedRateLimiter; hour: SharedRateLimiter }>();
function openingLimiters(deps: Pick<Dependencies, 'clock' | 'db'>) {
  let found = limiters.get(deps);
  if (!found) {
    const now = () => deps.clock.now().getTime();
    const { perBarrier, perHour } = OPENING_LIMITS;
    found = {
      barrier: createSharedRateLimiter(deps.db, {
        name: 'openings-barrier',
        limit: perBarrier.count,
        windowMs: perBarrier.windowMs,
        now,
      }),
      hour: createSharedRateLimiter(deps.db, {
        name: 'openings-hour',
        limit: perHour.count,
        windowMs: perHour.windowMs,
        now,
      }),
    };
    limiters.set(deps, found);
  }
  return found;
}

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

async function activeHoldOn(executor: Executor, barrierId: number): Promise<number | null> {
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

type BarrierRow = typeof barriers.$inferSelect;

/** Whether the server may drive this barrier's relay now (model, dialect, password). */
async function relayCheck(
  executor: Executor,
  barrier: BarrierRow,
): Promise<RelayAvailability | { ok: false; code: 'device_password_not_set' | 'device_model_unknown' }> {
  if (!isDeviceModel(barrier.deviceModel)) return { ok: false, code: 'device_model_unknown' };
  const availability = relayAvailability(barrier.deviceModel, await dialectEvidence(executor, barrier.id));
  if (!availability.ok) return availability;
  if (getSheet(barrier.deviceModel).hasPassword && !barrier.devicePasswordEncrypted)
    return { ok: false, code: 'device_password_not_set' };
  return availability;
}

function stepPayload(step: RelayStep, extra: Partial<RelayPayload>): RelayPayload {
  return { setting: step.setting, params: step.params, ...extra };
}

// ---- Openings ----

/** Whether the tap (its time in the server's clock, sent by the client) is older than the window allows. */
function isLateTap(tappedAt: string | undefined, now: Date): boolean {
  if (tappedAt === undefined) return false;
  const tapped = Date.parse(tappedAt);
  return Number.isNaN(tapped) || now.getTime() - tapped > OPENING_TAP_WINDOW_MS;
}

export async function openGate(
  deps: Deps,
  userId: number,
  barrierId: number,
  via: 'app' | 'admin',
  tappedAt?: string,
): Promise<Opening> {
  const now = deps.clock.now();
  const late = isLateTap(tappedAt, now);
  const openingId = await deps.db.transaction(async (tx) => {
    const barrier =
      via === 'app'
        ? await requireBarrierAccess(tx, userId, barrierId)
        : await requireBarrierPermission(tx, userId, barrierId, 'relay.open');
    if (late) {
      // Held back on the way (a browser queue, a slow network): logged as not sent, nothing goes to the device.
      await tx
        .insert(gateOpenings)
        .values({ barrierId, userId, via, requestedAt: now, status: 'failed', failure: 'late' });
      return null;
    }
    await lockBarrier(tx, barrierId);
    const check = await relayCheck(tx, barrier);
    if (!check.ok) {
      if (check.code === 'device_password_not_set') throw badRequest(check.code);
      throw conflict(check.code);
    }
    if ((await activeHoldOn(tx, barrierId)) !== null) throw conflict('emergency_hold_active');
    const limits = openingLimiters(deps);
    const wait = Math.max(
      await limits.barrier.hit(`${userId}:${barrierId}`, tx),
      await limits.hour.hit(String(userId), tx),
    );
    if (wait > 0) throw tooManyRequests('too_many_openings', wait);
    const model = barrier.deviceModel as DeviceModel;
    const steps = openingSteps(model, await knownRelaySeconds(tx, barrierId));
    await assertWeeklySmsBudget(tx, deps, barrierId, steps.off ? 2 : 1, now);
    // A resident's opening spends his share of the weekly SMS limit (sms-shares.ts); staff's the reserve.
    const spentBy = await smsSpender(tx, barrierId, userId);
    if (spentBy !== null)
      await assertResidentSmsShare(
        tx,
        barrierId,
        spentBy,
        steps.off ? 2 : 1,
        now,
        deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
      );
    const [opening] = await tx
      .insert(gateOpenings)
      .values({ barrierId, userId, via, requestedAt: now, status: 'sent' })
      .returning({ id: gateOpenings.id });
    if (!opening) throw new Error('opening not stored');
    const [on] = await tx
      .insert(deviceCommands)
      .values({
        barrierId,
        kind: 'relay_open',
        spentBy,
        payload: stepPayload(steps.on, { opening_id: opening.id }),
        createdAt: now,
      })
      .returning({ id: deviceCommands.id });
    if (steps.off) {
      // Placeholder time: it is set to `afterSeconds` from the moment the CC is settled (commands.ts).
      await tx.insert(deviceCommands).values({
        barrierId,
        kind: 'relay_open_off',
        spentBy,
        payload: stepPayload(steps.off.step, {
          opening_id: opening.id,
          off_after_seconds: steps.off.afterSeconds,
        }),
        createdAt: now,
        nextAttemptAt: new Date(now.getTime() + 60 * 60_000),
      });
    }
    await tx
      .update(gateOpenings)
      .set({ commandId: on?.id ?? null })
      .where(eq(gateOpenings.id, opening.id));
    await tx.insert(actions).values({
      barrierId,
      actionType: 'barrier_setting',
      author: via === 'app' ? 'user' : 'admin',
      authorUserId: userId,
      reason: 'manual',
      newValue: { setting: 'gate_open', opening_id: opening.id, via },
      createdAt: now,
    });
    return opening.id;
  });
  if (openingId === null) throw gone('opening_too_late');
  deps.notifyDeviceCommands([barrierId]);
  const [view] = await loadOpenings(deps.db, and(eq(gateOpenings.id, openingId)) as SQL, 1, 0);
  if (!view) throw new Error('opening not found');
  return view;
}

async function loadOpenings(executor: Executor, where: SQL, limit: number, offset: number) {
  const rows = await executor
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
    .where(where)
    .orderBy(desc(gateOpenings.requestedAt), desc(gateOpenings.id))
    .limit(limit)
    .offset(offset);
  return rows.map(
    (row): Opening => ({
      id: row.id,
      barrier: row.barrierId,
      user: row.userId,
      user_name: row.userName ?? null,
      user_phone: row.userPhone ?? null,
      via: row.via as Opening['via'],
      requested_at: apiDateTime(row.requestedAt),
      status: row.status as Opening['status'],
      failure: row.failure,
      confirmed_at: apiDateTime(row.confirmedAt),
    }),
  );
}

export interface OpeningQuery {
  page: number;
  page_size: number;
  status?: 'sent' | 'confirmed' | 'failed' | undefined;
  phone?: string | undefined;
  user?: number | undefined;
  requested_from?: string | undefined;
  requested_to?: string | undefined;
}

export async function listOpenings(
  deps: Pick<Dependencies, 'db' | 'config'>,
  userId: number,
  barrierId: number,
  query: OpeningQuery,
  side: 'user' | 'admin',
) {
  // Issue 28 part 3: a role that does not manage phones (a dispatcher) reads the openers' numbers masked, and
  // his filter by number matches only the last four digits he can see (a substring would spell the rest).
  let readsPhones = true;
  if (side === 'user') await requireBarrierAccess(deps.db, userId, barrierId);
  else {
    const { role } = await requireBarrierRole(deps.db, userId, barrierId, 'relay.open');
    readsPhones = roleHolds(role, 'phones.manage');
  }
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const conditions: SQL[] = [eq(gateOpenings.barrierId, barrierId)];
  if (side === 'user') conditions.push(eq(gateOpenings.userId, userId));
  else {
    if (query.user !== undefined) conditions.push(eq(gateOpenings.userId, query.user));
    const digits = query.phone?.replace(/\D/g, '') ?? '';
    if (digits && readsPhones) conditions.push(like(users.phone, `%${digits}%`));
    else if (digits) conditions.push(like(users.phone, `%${digits.slice(-4)}`));
  }
  if (query.status) conditions.push(eq(gateOpenings.status, query.status));
  const from = query.requested_from ? parseDateTimeInput(query.requested_from, offset) : null;
  const to = query.requested_to ? parseDateTimeInput(query.requested_to, offset) : null;
  if (from) conditions.push(gte(gateOpenings.requestedAt, from));
  if (to) conditions.push(lte(gateOpenings.requestedAt, to));
  const where = and(...conditions) as SQL;
  const loaded = await loadOpenings(deps.db, where, query.page_size, pageOffset(query));
  const items = readsPhones
    ? loaded
    : loaded.map((item) => ({ ...item, user_phone: item.user_phone && maskPhone(item.user_phone) }));
  const [count] = await deps.db
    .select({ total: sql<number>`count(*)::int` })
    .from(gateOpenings)
    .leftJoin(users, eq(users.id, gateOpenings.userId))
    .where(where);
  return paginate('openings', items, Number(count?.total ?? 0), query);
}

// ---- Emergency holds ----

/** Barriers on which this administrator holds `relay.hold`: his own, and those he is given as staff. */
async function barriersForHold(executor: Executor, adminId: number): Promise<number[]> {
  const rows = await executor
    .select({ id: barriers.id })
    .from(barriers)
    .where(and(holdsPermissionSql(barriers.id, adminId, 'relay.hold'), isNull(barriers.deletedAt)))
    .orderBy(asc(barriers.id));
  return rows.map((row) => row.id);
}

export async function startHold(
  deps: Deps,
  adminId: number,
  body: { barrier_ids: 'all' | number[]; reason: string },
): Promise<EmergencyHold> {
  const now = deps.clock.now();
  const { holdId, held } = await deps.db.transaction(async (tx) => {
    const ids =
      body.barrier_ids === 'all'
        ? await barriersForHold(tx, adminId)
        : [...new Set(body.barrier_ids)].sort((a, b) => a - b);
    const chosen: { barrier: BarrierRow; refused: string | null }[] = [];
    for (const id of ids) {
      const barrier = await requireBarrierPermission(tx, adminId, id, 'relay.hold');
      await lockBarrier(tx, id);
      const check = await relayCheck(tx, barrier);
      chosen.push({ barrier, refused: check.ok ? null : check.code });
    }
    if (chosen.length === 0) throw conflict('no_barriers_to_hold');
    const firstRefusal = chosen.find((entry) => entry.refused !== null)?.refused;
    if (chosen.every((entry) => entry.refused !== null)) {
      // Nothing can be sent: the first reason, as a single barrier's opening would give it.
      if (firstRefusal === 'device_password_not_set') throw badRequest(firstRefusal);
      throw conflict((firstRefusal ?? 'no_barriers_to_hold') as 'relay_dialect_unknown');
    }
    const [hold] = await tx
      .insert(emergencyHolds)
      .values({ startedBy: adminId, reason: body.reason, startedAt: now })
      .returning({ id: emergencyHolds.id });
    if (!hold) throw new Error('hold not stored');
    const heldIds: number[] = [];
    for (const { barrier, refused } of chosen) {
      await tx.insert(emergencyHoldBarriers).values({
        holdId: hold.id,
        barrierId: barrier.id,
        refused,
        previousRelaySeconds: refused ? null : await knownRelaySeconds(tx, barrier.id),
      });
      await tx.insert(actions).values({
        barrierId: barrier.id,
        actionType: 'barrier_setting',
        author: 'admin',
        authorUserId: adminId,
        reason: body.reason,
        newValue: { setting: 'emergency_hold', hold_id: hold.id, refused },
        createdAt: now,
      });
      if (refused) continue;
      // The barrier's other administrators and dispatchers hear of it (issue 43).
      await recordNotification(tx, { kind: 'hold_started', barrierId: barrier.id, actorUserId: adminId });
      await cancelPendingOpenings(tx, barrier.id, now);
      for (const step of holdSteps(barrier.deviceModel as DeviceModel)) {
        await tx.insert(deviceCommands).values({
          barrierId: barrier.id,
          kind: 'relay_hold',
          payload: stepPayload(step, { hold_id: hold.id }),
          createdAt: now,
        });
      }
      heldIds.push(barrier.id);
    }
    return { holdId: hold.id, held: heldIds };
  });
  deps.notifyDeviceCommands(held);
  return getHold(deps, adminId, holdId);
}

export async function endHold(deps: Deps, adminId: number, holdId: number): Promise<EmergencyHold> {
  const now = deps.clock.now();
  const ending = await deps.db.transaction(async (tx) => {
    const hold = await requireVisibleHold(tx, adminId, holdId);
    const members = await tx
      .select()
      .from(emergencyHoldBarriers)
      .where(eq(emergencyHoldBarriers.holdId, holdId))
      .orderBy(asc(emergencyHoldBarriers.barrierId));
    for (const member of members) {
      await requireBarrierPermission(tx, adminId, member.barrierId, 'relay.hold').catch((error: unknown) => {
        // A barrier deleted during the hold is ended all the same (its commands were cancelled with it).
        if (error instanceof HttpError && error.statusCode === 404) return null;
        throw error;
      });
    }
    // Locked again after the check, so that a second end in parallel waits and then finds it ended.
    await tx.execute(sql`select id from ${emergencyHolds} where id = ${holdId} for update`);
    const [current] = await tx
      .select({ endedAt: emergencyHolds.endedAt })
      .from(emergencyHolds)
      .where(eq(emergencyHolds.id, hold.id));
    if (current?.endedAt) throw conflict('emergency_hold_ended');
    const notified: number[] = [];
    for (const member of members) {
      if (member.refused) continue;
      await lockBarrier(tx, member.barrierId);
      const [barrier] = await tx.select().from(barriers).where(eq(barriers.id, member.barrierId));
      if (!barrier || !isDeviceModel(barrier.deviceModel)) continue;
      const holdOfThis = and(
        eq(deviceCommands.barrierId, member.barrierId),
        eq(deviceCommands.kind, 'relay_hold'),
        sql`(${deviceCommands.payload}->>'hold_id')::int = ${holdId}`,
      );
      // What has not left is not sent; the command in flight finishes first (one command).
      await tx
        .update(deviceCommands)
        .set({ status: 'cancelled', finishedAt: now, nextAttemptAt: null })
        .where(and(holdOfThis, eq(deviceCommands.status, 'queued')));
      const [sent] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(deviceCommands)
        .where(and(holdOfThis, sql`${deviceCommands.attempts} > 0`));
      if (Number(sent?.count ?? 0) > 0) {
        const { steps } = endSteps(barrier.deviceModel, member.previousRelaySeconds);
        for (const step of steps) {
          await tx.insert(deviceCommands).values({
            barrierId: member.barrierId,
            kind: 'relay_release',
            payload: stepPayload(step, { hold_id: holdId }),
            createdAt: now,
          });
        }
        notified.push(member.barrierId);
      }
      await tx.insert(actions).values({
        barrierId: member.barrierId,
        actionType: 'barrier_setting',
        author: 'admin',
        authorUserId: adminId,
        reason: hold.reason,
        newValue: { setting: 'emergency_hold_end', hold_id: holdId },
        createdAt: now,
      });
      if (!member.refused)
        await recordNotification(tx, {
          kind: 'hold_ended',
          barrierId: member.barrierId,
          actorUserId: adminId,
        });
    }
    await tx
      .update(emergencyHolds)
      .set({ endedAt: now, endedBy: adminId })
      .where(eq(emergencyHolds.id, holdId));
    return notified;
  });
  deps.notifyDeviceCommands(ending);
  return getHold(deps, adminId, holdId);
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

async function requireVisibleHold(executor: Executor, adminId: number, holdId: number) {
  const [hold] = await executor
    .select()
    .from(emergencyHolds)
    .where(and(eq(emergencyHolds.id, holdId), visibleHoldCondition(adminId)));
  if (!hold) throw notFound('emergency_hold_not_found');
  return hold;
}

const startedByUser = alias(users, 'started_by_user');
const endedByUser = alias(users, 'ended_by_user');

async function holdViews(
  executor: Executor,
  where: SQL,
  limit: number,
  offset: number,
): Promise<EmergencyHold[]> {
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
  if (holds.length === 0) return [];
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
  return holds.map(({ hold, startedByName, endedByName }) => {
    const phase = hold.endedAt ? 'end' : 'hold';
    const kind = phase === 'hold' ? 'relay_hold' : 'relay_release';
    const rows = members
      .filter((member) => member.holdId === hold.id)
      .map((member): HoldBarrier => {
        const own = commands.filter(
          (command) =>
            command.barrierId === member.barrierId &&
            command.kind === kind &&
            command.status !== 'cancelled' &&
            (command.payload as RelayPayload).hold_id === hold.id,
        );
        const restore = own.find((command) => (command.payload as RelayPayload).setting === 'relay_time');
        const state: HoldBarrier['state'] = member.refused
          ? 'refused'
          : own.some((command) => command.status === 'failed')
            ? 'failed'
            : own.every((command) => command.status === 'confirmed')
              ? 'confirmed'
              : 'sent';
        return {
          barrier: member.barrierId,
          address: member.address,
          phase,
          state,
          refused: member.refused,
          retrying: own.some(
            (command) =>
              (command.status === 'queued' || command.status === 'sent') && command.lastError !== null,
          ),
          attempts: own.reduce((sum, command) => sum + command.attempts, 0),
          restored_relay_seconds:
            phase === 'end' && restore
              ? Number((restore.payload as RelayPayload).params.seconds ?? Number.NaN) || 0
              : null,
        };
      });
    return {
      id: hold.id,
      reason: hold.reason,
      rule: EMERGENCY_RULE,
      started_at: apiDateTime(hold.startedAt),
      started_by: hold.startedBy,
      started_by_name: startedByName ?? null,
      ended_at: apiDateTime(hold.endedAt),
      ended_by: hold.endedBy,
      ended_by_name: endedByName ?? null,
      barriers: rows,
    };
  });
}

export async function getHold(deps: Pick<Dependencies, 'db'>, adminId: number, holdId: number) {
  await requireVisibleHold(deps.db, adminId, holdId);
  const [view] = await holdViews(deps.db, eq(emergencyHolds.id, holdId), 1, 0);
  if (!view) throw notFound('emergency_hold_not_found');
  return view;
}

export async function listHolds(
  deps: Pick<Dependencies, 'db'>,
  adminId: number,
  query: { page: number; page_size: number },
) {
  const where = visibleHoldCondition(adminId);
  const items = await holdViews(deps.db, where, query.page_size, pageOffset(query));
  const [count] = await deps.db
    .select({ total: sql<number>`count(*)::int` })
    .from(emergencyHolds)
    .where(where);
  return paginate('holds', items, Number(count?.total ?? 0), query);
}
