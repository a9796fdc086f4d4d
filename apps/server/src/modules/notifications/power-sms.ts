/**
 * «СМС при отключении питания» (issue 43, docs/decisions/0035): an administrator who chose it gets an SMS to
 * his own number when a unit of a barrier he owns or watches (the recipients of `power_lost`: the owner and
 * the staff holding `device.health`) loses power and no push would reach him: no device subscribed, or the
 * push of power loss turned off. It never waits for quiet hours (power is urgent).
 *
 * Each is decided in the dispatch's transaction and written to the SMS outbox (`power_sms_notices`); the
 * `power-sms` job sends it after commit. It is counted in the barrier's weekly SMS limit (its parts,
 * @propusk/devices/cost `messageSmsParts`; engine/budget/weekly-budget.ts counts the outbox's rows); when the limit
 * is spent it is not sent and the device log says so. One per outage (a unit repeating its alarm before the
 * power came back is the same outage) and at most POWER_SMS_PER_DAY per person and barrier in 24 hours
 * (flapping power): the next one is not sent and the device log says so.
 */
import { POWER_SMS_PER_DAY } from '@propusk/contracts/notifications';
import { messageSmsParts } from '@propusk/devices/cost';
import { and, count, eq, gt, inArray, lt, max } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { notificationEvents, powerSmsNotices, users } from '../../db/schema.ts';
import { fitsWeeklySmsBudget } from '../../engine/budget/index.ts';
import { insertDeviceMessages } from '../../engine/log/index.ts';
import { loadCommittedSms, lockBarrier } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { type Choices, wants } from './preferences.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_ADDRESS = 80;

/** Whether this person's power-loss notice goes by SMS: he chose it and no push of it would reach him. */
export function wantsPowerSms(choices: Choices & { powerSms?: boolean }, subscribedDevices: number): boolean {
  return choices.powerSms === true && (subscribedDevices === 0 || !wants(choices, 'power_lost'));
}

/** The SMS: the barrier's address, which the administrator knows; nothing else. */
export function powerSmsText(address: string): string {
  const where = address.length > MAX_ADDRESS ? `${address.slice(0, MAX_ADDRESS - 1)}…` : address;
  return `Пропало питание шлагбаума: ${where}`;
}

/** An earlier notice to this person of the same outage: after the barrier's last `power_restored` before it. */
async function toldOfThisOutage(
  tx: Executor,
  event: { id: number; barrierId: number },
  userId: number,
): Promise<boolean> {
  const [restored] = await tx
    .select({ id: max(notificationEvents.id) })
    .from(notificationEvents)
    .where(
      and(
        eq(notificationEvents.barrierId, event.barrierId),
        eq(notificationEvents.kind, 'power_restored'),
        lt(notificationEvents.id, event.id),
      ),
    );
  const [earlier] = await tx
    .select({ id: powerSmsNotices.id })
    .from(powerSmsNotices)
    .where(
      and(
        eq(powerSmsNotices.userId, userId),
        eq(powerSmsNotices.barrierId, event.barrierId),
        gt(powerSmsNotices.eventId, restored?.id ?? 0),
      ),
    )
    .limit(1);
  return earlier !== undefined;
}

async function sentWithinDay(tx: Executor, barrierId: number, userId: number, now: Date): Promise<number> {
  const [row] = await tx
    .select({ count: count() })
    .from(powerSmsNotices)
    .where(
      and(
        eq(powerSmsNotices.userId, userId),
        eq(powerSmsNotices.barrierId, barrierId),
        inArray(powerSmsNotices.status, ['queued', 'sent']),
        gt(powerSmsNotices.createdAt, new Date(now.getTime() - DAY_MS)),
      ),
    );
  return row?.count ?? 0;
}

/**
 * Decides the SMS of one `power_lost` event (with its barrier's address) for the people who chose it
 * (`userIds`, already filtered by `wantsPowerSms`), inside the dispatch's transaction; answers the notices to
 * send after commit.
 */
export async function planPowerSms(
  tx: Executor,
  deps: Pick<Dependencies, 'config'>,
  event: { id: number; barrierId: number; address: string },
  userIds: readonly number[],
  now: Date,
): Promise<number[]> {
  if (userIds.length === 0) return [];
  // The same lock as every change that spends the barrier's SMS: two checks never pass on one remainder.
  await lockBarrier(tx, event.barrierId);
  const text = powerSmsText(event.address);
  const sms = messageSmsParts(text);
  const queued: number[] = [];
  for (const userId of userIds) {
    if (await toldOfThisOutage(tx, event, userId)) continue;
    let reason: 'daily_limit' | 'over_weekly_limit' | null = null;
    if ((await sentWithinDay(tx, event.barrierId, userId, now)) >= POWER_SMS_PER_DAY) reason = 'daily_limit';
    else if (
      !(await fitsWeeklySmsBudget(tx, event.barrierId, sms, now, () =>
        loadCommittedSms(tx, deps, event.barrierId, now),
      ))
    )
      reason = 'over_weekly_limit';
    const [row] = await tx
      .insert(powerSmsNotices)
      .values({
        barrierId: event.barrierId,
        userId,
        eventId: event.id,
        status: reason ? 'skipped' : 'queued',
        reason,
        text,
        sms,
        createdAt: now,
      })
      .returning({ id: powerSmsNotices.id });
    if (!reason) queued.push(row!.id);
    else
      await insertDeviceMessages(tx, [
        {
          barrierId: event.barrierId,
          direction: 'notice',
          text,
          outcome: reason === 'daily_limit' ? 'notice_daily_limit' : 'notice_over_limit',
          createdAt: now,
        },
      ]);
  }
  return queued;
}

/**
 * Sends one queued notice to its administrator's number (the `power-sms` job): sent once (the gateway's key
 * is the notice's), logged in the device log; a gateway failure throws for the job queue to retry. A notice
 * already sent, skipped, or whose person is gone sends nothing.
 */
export async function sendPowerSms(
  deps: Pick<Dependencies, 'db' | 'clock' | 'sms' | 'metrics' | 'logger'>,
  noticeId: number,
): Promise<'sent' | 'nothing'> {
  const [notice] = await deps.db
    .select({
      id: powerSmsNotices.id,
      barrierId: powerSmsNotices.barrierId,
      status: powerSmsNotices.status,
      text: powerSmsNotices.text,
      phone: users.phone,
      deletedAt: users.deletedAt,
    })
    .from(powerSmsNotices)
    .innerJoin(users, eq(users.id, powerSmsNotices.userId))
    .where(eq(powerSmsNotices.id, noticeId));
  if (notice?.status !== 'queued' || notice.deletedAt !== null) return 'nothing';
  let providerId: string | null = null;
  try {
    const sent = await deps.sms.send({ to: notice.phone, text: notice.text, key: `power-sms-${notice.id}` });
    providerId = sent.providerId ?? null;
    deps.metrics.smsSent.inc({ provider: deps.sms.name, purpose: 'power_notice' });
  } catch (error) {
    deps.metrics.smsFailed.inc({ provider: deps.sms.name, purpose: 'power_notice' });
    deps.logger.warn(
      { barrierId: notice.barrierId, noticeId },
      'power notice SMS not accepted by the gateway',
    );
    throw error;
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(powerSmsNotices)
      .set({ status: 'sent', sentAt: now })
      .where(eq(powerSmsNotices.id, notice.id));
    await insertDeviceMessages(tx, [
      {
        barrierId: notice.barrierId,
        direction: 'notice',
        text: notice.text,
        outcome: 'notice_sent',
        providerId,
        createdAt: now,
      },
    ]);
  });
  return 'sent';
}
