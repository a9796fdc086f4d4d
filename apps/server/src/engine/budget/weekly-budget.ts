/**
 * The barrier's weekly SMS limit (`sms_weekly_limit`): the SMS of the last seven days, what its timed phones
 * are committed to over the coming week, and the check that refuses a change made by a person over the limit
 * (a resident's own share: sms-shares.ts).
 */

import type { PhoneSpec } from '@propusk/devices/access';
import type { DeviceModel } from '@propusk/devices/models';
import { forecastCommittedSms } from '@propusk/devices/weekly-sms';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierLimits, deviceCommands, powerSmsNotices } from '../../db/schema.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict } from '../../lib/errors.ts';
import { commandSmsSql } from './command-sms.ts';
import { usedAgainstLimit } from './sms-shares.ts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * SMS sent or queued for this barrier in the 7 days before `now`: its device's commands (retries count) and
 * the power notices to its administrators (power_sms_notices, docs/decisions/0035).
 */
export async function countCommandsThisWeek(
  executor: Executor,
  barrierId: number,
  now: Date,
): Promise<number> {
  const since = new Date(now.getTime() - WEEK_MS);
  const notices = executor
    .select({ sms: sql`coalesce(sum(${powerSmsNotices.sms}), 0)` })
    .from(powerSmsNotices)
    .where(
      and(
        eq(powerSmsNotices.barrierId, barrierId),
        inArray(powerSmsNotices.status, ['queued', 'sent']),
        gt(powerSmsNotices.createdAt, since),
      ),
    );
  const [row] = await executor
    .select({ count: sql<number>`(coalesce(sum(${commandSmsSql()}), 0) + (${notices}))::int` })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        inArray(deviceCommands.status, ['queued', 'sent', 'confirmed', 'failed']),
        gt(deviceCommands.createdAt, since),
      ),
    );
  return row?.count ?? 0;
}

/**
 * What the barrier's timed phones commit its device to over the coming week (weekly-sms.ts), from its model,
 * phones and clock as the plan reads them (plan/ `loadCommittedSms` reads them for a caller that has not).
 */
export function committedSms(
  deps: Pick<Dependencies, 'config'>,
  now: Date,
  source: { model: DeviceModel; specs: readonly PhoneSpec[]; clockSetAt: Date | null },
): number {
  return forecastCommittedSms(
    source.model,
    source.specs,
    now,
    source.clockSetAt,
    deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
  ).total;
}

/**
 * The SMS the barrier's timed phones commit it to (`committedSms`), or how to read them (plan/
 * `loadCommittedSms`): read only for a barrier with a weekly limit.
 */
export type CommittedSms = number | (() => Promise<number>);

/** The barrier's `sms_weekly_limit` (null: none). */
export async function loadWeeklyLimit(executor: Executor, barrierId: number): Promise<number | null> {
  const [limits] = await executor
    .select({ smsWeeklyLimit: barrierLimits.smsWeeklyLimit })
    .from(barrierLimits)
    .where(eq(barrierLimits.barrierId, barrierId));
  return limits?.smsWeeklyLimit ?? null;
}

/**
 * 409 when `extra` more SMS would take the barrier over its weekly limit: the SMS of the last seven days,
 * plus `extra`, plus what its timed phones are committed to over the coming week (`committed`), must stay
 * within `sms_weekly_limit`. Counting the committed SMS is what keeps a change by a person from spending the
 * SMS that accepted phones' windows will need.
 */
export async function assertWeeklySmsBudget(
  executor: Executor,
  barrierId: number,
  extra: number,
  now: Date,
  committed: CommittedSms,
): Promise<void> {
  if (!(await fitsWeeklySmsBudget(executor, barrierId, extra, now, committed)))
    throw conflict('sms_weekly_limit');
}

/** Whether `extra` more SMS keep the barrier within its weekly limit (the rule of `assertWeeklySmsBudget`). */
export async function fitsWeeklySmsBudget(
  executor: Executor,
  barrierId: number,
  extra: number,
  now: Date,
  committed: CommittedSms,
): Promise<boolean> {
  const limit = await loadWeeklyLimit(executor, barrierId);
  if (limit === null) return true;
  const used = await usedAgainstLimit(
    executor,
    barrierId,
    now,
    await countCommandsThisWeek(executor, barrierId, now),
  );
  const ahead = typeof committed === 'number' ? committed : await committed();
  return used + extra + ahead <= limit;
}
