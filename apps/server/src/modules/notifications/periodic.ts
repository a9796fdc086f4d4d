/**
 * The events nobody's change causes at one moment (issue 43), found by an hourly job (jobs/notifications.ts):
 * a resident's temporary access that ends within a day, a barrier's weekly SMS limit 80 % spent, a
 * resident's share of it used up. Each is told once (a day for the access, a week for the SMS), by looking
 * for its earlier event; each finding and its event row are written in one transaction. Old told events and
 * old power notices (power-sms.ts) go.
 */
import { and, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import {
  barrierLimits,
  barriers,
  deviceCommands,
  notificationEvents,
  phones,
  powerSmsNotices,
} from '../../db/schema.ts';
import { countCommandsThisWeek, smsShareSummary, usedAgainstLimit } from '../../engine/budget/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { type NotificationEvent, recordNotifications } from '../../lib/notification-outbox.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** Told events are kept this long (they only serve «told once» here), then deleted. */
const KEEP_MS = 30 * DAY_MS;

async function toldSince(
  executor: Executor,
  kind: string,
  since: Date,
  match: { barrierId: number; userId?: number; phoneId?: number },
): Promise<boolean> {
  const [row] = await executor
    .select({ id: notificationEvents.id })
    .from(notificationEvents)
    .where(
      and(
        eq(notificationEvents.kind, kind),
        eq(notificationEvents.barrierId, match.barrierId),
        gt(notificationEvents.createdAt, since),
        match.userId === undefined ? undefined : eq(notificationEvents.userId, match.userId),
        match.phoneId === undefined
          ? undefined
          : sql`${notificationEvents.params}->>'phone_id' = ${String(match.phoneId)}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function runNotificationChecks(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config'>,
): Promise<{ recorded: number }> {
  const now = deps.clock.now();
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  return deps.db.transaction(async (tx) => {
    const events: NotificationEvent[] = [];
    // Temporary access ending within a day (phones_temporary_end_idx).
    const ending = await tx
      .select({ id: phones.id, barrierId: phones.barrierId, userId: phones.userId })
      .from(phones)
      .where(
        and(
          eq(phones.isActive, true),
          eq(phones.type, 'temporary'),
          gt(phones.endTime, now),
          lte(phones.endTime, new Date(now.getTime() + DAY_MS)),
        ),
      );
    for (const phone of ending) {
      if (
        await toldSince(tx, 'access_ending', new Date(now.getTime() - DAY_MS), {
          barrierId: phone.barrierId,
          phoneId: phone.id,
        })
      )
        continue;
      events.push({
        kind: 'access_ending',
        barrierId: phone.barrierId,
        userId: phone.userId,
        params: { phone_id: phone.id },
      });
    }
    // Barriers with a weekly SMS limit.
    const limited = await tx
      .select({ barrierId: barrierLimits.barrierId, limit: barrierLimits.smsWeeklyLimit })
      .from(barrierLimits)
      .innerJoin(barriers, eq(barriers.id, barrierLimits.barrierId))
      .where(and(isNotNull(barrierLimits.smsWeeklyLimit), sql`${barriers.deletedAt} is null`));
    const weekAgo = new Date(now.getTime() - WEEK_MS);
    for (const { barrierId, limit } of limited) {
      if (!limit) continue;
      const usedTotal = await countCommandsThisWeek(tx, barrierId, now);
      const used = await usedAgainstLimit(tx, barrierId, now, usedTotal);
      if (used >= Math.ceil(limit * 0.8) && !(await toldSince(tx, 'sms_budget_80', weekAgo, { barrierId })))
        events.push({ kind: 'sms_budget_80', barrierId });
      // The residents who spent this week: is anything left of each one's share?
      const spenders = await tx
        .selectDistinct({ userId: deviceCommands.spentBy })
        .from(deviceCommands)
        .where(
          and(
            eq(deviceCommands.barrierId, barrierId),
            isNotNull(deviceCommands.spentBy),
            gt(deviceCommands.createdAt, weekAgo),
            inArray(deviceCommands.status, ['queued', 'sent', 'confirmed', 'failed']),
          ),
        );
      for (const { userId } of spenders) {
        if (userId === null) continue;
        const summary = await smsShareSummary(tx, barrierId, userId, now, usedTotal, offset);
        if (!summary || summary.share_left > 0) continue;
        if (await toldSince(tx, 'sms_share_used', weekAgo, { barrierId, userId })) continue;
        events.push({ kind: 'sms_share_used', barrierId, userId });
      }
    }
    await recordNotifications(tx, events);
    await tx
      .delete(notificationEvents)
      .where(
        and(
          isNotNull(notificationEvents.dispatchedAt),
          lte(notificationEvents.createdAt, new Date(now.getTime() - KEEP_MS)),
        ),
      );
    // Power notices count for a week (the limit) and a day (the day's three): a month is plenty.
    await tx.delete(powerSmsNotices).where(lte(powerSmsNotices.createdAt, new Date(now.getTime() - KEEP_MS)));
    return { recorded: events.length };
  });
}
