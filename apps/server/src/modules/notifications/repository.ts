/** The queries of notifications: subscriptions, preferences, the outbox's pending events, who hears them. */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  barrierStaff,
  barriers,
  notificationEvents,
  notificationPreferences,
  pushSubscriptions,
  users,
} from '../../db/schema.ts';
import { type BarrierPermission, staffRolesWith } from '../barrier-policy/policy.ts';

export type PreferencesRow = typeof notificationPreferences.$inferSelect;
export type SubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type EventRow = typeof notificationEvents.$inferSelect;

/** A device's subscription; the same endpoint subscribed again (another account on the phone) moves to him. */
export async function upsertSubscription(
  executor: Executor,
  row: { userId: number; endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await executor
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth },
    });
}

/**
 * Keeps a person's `keep` newest subscriptions and drops the rest (one statement): a browser that subscribes
 * again and again, or a script posting endpoints, cannot make every event a post to hundreds of addresses.
 */
export async function keepNewestSubscriptions(
  executor: Executor,
  userId: number,
  keep: number,
): Promise<void> {
  await executor.execute(sql`delete from ${pushSubscriptions}
    where ${pushSubscriptions.userId} = ${userId} and ${pushSubscriptions.id} not in (
      select id from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${userId}
      order by id desc limit ${keep})`);
}

export async function deleteSubscription(
  executor: Executor,
  userId: number,
  endpoint: string,
): Promise<void> {
  await executor
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

export async function deleteSubscriptionById(executor: Executor, id: number): Promise<void> {
  await executor.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function findSubscription(executor: Executor, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await executor.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row;
}

export async function markDelivered(executor: Executor, id: number, at: Date): Promise<void> {
  await executor.update(pushSubscriptions).set({ lastSuccessAt: at }).where(eq(pushSubscriptions.id, id));
}

export async function countSubscriptions(executor: Executor, userId: number): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return row?.count ?? 0;
}

export async function subscriptionsOf(executor: Executor, userIds: number[]): Promise<SubscriptionRow[]> {
  if (userIds.length === 0) return [];
  return executor.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));
}

export async function findPreferences(
  executor: Executor,
  userId: number,
): Promise<PreferencesRow | undefined> {
  const [row] = await executor
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return row;
}

export async function preferencesOf(executor: Executor, userIds: number[]): Promise<PreferencesRow[]> {
  if (userIds.length === 0) return [];
  return executor
    .select()
    .from(notificationPreferences)
    .where(inArray(notificationPreferences.userId, userIds));
}

export async function savePreferences(
  executor: Executor,
  row: Omit<PreferencesRow, 'updatedAt'>,
  now: Date,
): Promise<void> {
  await executor
    .insert(notificationPreferences)
    .values({ ...row, updatedAt: now })
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: {
        choices: row.choices,
        quietFrom: row.quietFrom,
        quietTo: row.quietTo,
        timeZone: row.timeZone,
        powerSms: row.powerSms,
        updatedAt: now,
      },
    });
}

/** The oldest pending events, locked for this dispatch (another process skips them). */
export async function claimPendingEvents(executor: Executor, limit: number): Promise<EventRow[]> {
  return executor
    .select()
    .from(notificationEvents)
    .where(isNull(notificationEvents.dispatchedAt))
    .orderBy(asc(notificationEvents.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markDispatched(executor: Executor, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await executor
    .update(notificationEvents)
    .set({ dispatchedAt: at })
    .where(inArray(notificationEvents.id, ids));
}

/** Events whose deliveries could not be queued: pending again. */
export async function markPending(executor: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await executor
    .update(notificationEvents)
    .set({ dispatchedAt: null })
    .where(inArray(notificationEvents.id, ids));
}

export async function liveBarriers(
  executor: Executor,
  ids: number[],
): Promise<Map<number, { id: number; address: string; ownerId: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: barriers.id, address: barriers.address, ownerId: barriers.ownerId })
    .from(barriers)
    .where(and(inArray(barriers.id, ids), isNull(barriers.deletedAt)));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The barrier's staff whose role holds `permission` (the owner is added by the caller). */
export async function staffWith(
  executor: Executor,
  barrierId: number,
  permission: BarrierPermission,
): Promise<number[]> {
  const roles = staffRolesWith(permission);
  if (roles.length === 0) return [];
  const rows = await executor
    .select({ userId: barrierStaff.userId })
    .from(barrierStaff)
    .where(and(eq(barrierStaff.barrierId, barrierId), inArray(barrierStaff.role, roles)));
  return rows.map((row) => row.userId);
}

/** Of these accounts, the live ones. */
export async function liveUsers(executor: Executor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
  return new Set(rows.map((row) => row.id));
}
