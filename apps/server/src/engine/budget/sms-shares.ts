/**
 * Shares of a barrier's weekly SMS limit (issue 29 item 3, docs/decisions/0023). Each resident's own changes
 * and openings spend his share (`sms_resident_share`); all residents together never spend the owner's reserve
 * (`sms_owner_reserve`), so the owner's and his staff's changes and revocations are never refused because
 * residents spent theirs. Commands a resident caused carry his id (`device_commands.spent_by`); the rest
 * (owner, staff, the worker's own re-plans) are the reserve's. The total check (weekly-budget.ts
 * `assertWeeklySmsBudget`) still applies to everyone.
 *
 * A resident's timed phones (temporary, by schedule) cause SMS later, sent by the worker at their windows'
 * edges. What such a phone will cost over the coming week (`forecastPhoneSms`, the forecast the total check
 * uses) counts in the share of the resident whose own change made it (`phones.sms_paid_by`) from the moment
 * he makes it, and in the residents' pool: so a resident cannot commit the barrier to more SMS than his share
 * by adding schedules that cost nothing today.
 */
import { isDeviceModel } from '@propusk/devices/models';
import { forecastPhoneSms } from '@propusk/devices/weekly-sms';
import { and, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { barrierLimits, barrierStaff, barriers, deviceCommands, phones } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import { commandSmsSql } from './command-sms.ts';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Default reserve: this part of the limit, rounded up. */
export const DEFAULT_RESERVE_PART = 0.3;
/** Default share of one resident: this part of what residents may spend together, rounded up, at least 2. */
export const DEFAULT_SHARE_PART = 0.2;

export interface SmsShares {
  limit: number;
  reserve: number;
  /** What all residents together may spend: `limit - reserve`. */
  residentsPool: number;
  share: number;
}

/** The barrier's shares from its limits (null without a weekly limit): configured values or the defaults. */
export function smsShares(limits: {
  smsWeeklyLimit: number | null;
  smsResidentShare: number | null;
  smsOwnerReserve: number | null;
}): SmsShares | null {
  const limit = limits.smsWeeklyLimit;
  if (limit === null) return null;
  const reserve = Math.min(limit, limits.smsOwnerReserve ?? Math.ceil(limit * DEFAULT_RESERVE_PART));
  const residentsPool = limit - reserve;
  const share = Math.min(
    residentsPool,
    limits.smsResidentShare ?? Math.max(2, Math.ceil(residentsPool * DEFAULT_SHARE_PART)),
  );
  return { limit, reserve, residentsPool, share };
}

async function loadShares(executor: Executor, barrierId: number): Promise<SmsShares | null> {
  const [row] = await executor
    .select({
      smsWeeklyLimit: barrierLimits.smsWeeklyLimit,
      smsResidentShare: barrierLimits.smsResidentShare,
      smsOwnerReserve: barrierLimits.smsOwnerReserve,
    })
    .from(barrierLimits)
    .where(eq(barrierLimits.barrierId, barrierId));
  return row ? smsShares(row) : null;
}

/** SMS of the last seven days spent by residents: all of them, and `residentId`'s own. */
async function residentSpending(executor: Executor, barrierId: number, residentId: number | null, now: Date) {
  const [row] = await executor
    .select({
      residents: sql<number>`coalesce(sum(${commandSmsSql()}), 0)::int`,
      mine: sql<number>`coalesce(sum(${commandSmsSql()}) filter (where ${deviceCommands.spentBy} = ${residentId ?? -1}), 0)::int`,
    })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.barrierId, barrierId),
        isNotNull(deviceCommands.spentBy),
        inArray(deviceCommands.status, ['queued', 'sent', 'confirmed', 'failed']),
        gt(deviceCommands.createdAt, new Date(now.getTime() - WEEK_MS)),
      ),
    );
  return { residents: Number(row?.residents ?? 0), mine: Number(row?.mine ?? 0) };
}

/**
 * The SMS the residents' own timed phones are committed to over the coming week (the forecast of the total
 * check, phone by phone): all residents', and `residentId`'s.
 */
async function residentCommitments(
  executor: Executor,
  barrierId: number,
  residentId: number | null,
  now: Date,
  utcOffsetMinutes: number,
) {
  const rows = await executor
    .select({
      model: barriers.deviceModel,
      paidBy: phones.smsPaidBy,
      slot: phones.slot,
      number: phones.phone,
      kind: phones.type,
      start: phones.startTime,
      end: phones.endTime,
      schedule: phones.schedule,
    })
    .from(phones)
    .innerJoin(barriers, eq(barriers.id, phones.barrierId))
    .where(
      and(
        eq(phones.barrierId, barrierId),
        eq(phones.isActive, true),
        isNotNull(phones.smsPaidBy),
        inArray(phones.type, ['temporary', 'schedule']),
      ),
    );
  let residents = 0;
  let mine = 0;
  for (const row of rows) {
    if (!isDeviceModel(row.model)) continue;
    const sms = forecastPhoneSms(
      row.model,
      {
        slot: row.slot ?? 0,
        number: row.number,
        kind: row.kind,
        start: row.start,
        end: row.end,
        schedule: row.schedule,
      },
      now,
      utcOffsetMinutes,
    );
    residents += sms;
    if (row.paidBy === residentId) mine += sms;
  }
  return { residents, mine };
}

/** Spent in the last seven days plus committed over the coming week, as a resident's share counts them. */
async function residentLoad(
  executor: Executor,
  barrierId: number,
  residentId: number | null,
  now: Date,
  utcOffsetMinutes: number,
) {
  const spent = await residentSpending(executor, barrierId, residentId, now);
  const committed = await residentCommitments(executor, barrierId, residentId, now, utcOffsetMinutes);
  return { residents: spent.residents + committed.residents, mine: spent.mine + committed.mine };
}

/**
 * Who pays for a change made by `userId` on the barrier: his own id when he is a resident there, null when he
 * is its owner or staff (the reserve).
 */
export async function smsSpender(
  executor: Executor,
  barrierId: number,
  userId: number,
): Promise<number | null> {
  const [row] = await executor
    .select({
      isOwner: sql<boolean>`${barriers.ownerId} = ${userId}`,
      isStaff: sql<boolean>`exists (select 1 from ${barrierStaff} where ${barrierStaff.barrierId} = ${barriers.id} and ${barrierStaff.userId} = ${userId})`,
    })
    .from(barriers)
    .where(eq(barriers.id, barrierId));
  return row && (row.isOwner || row.isStaff) ? null : userId;
}

/**
 * 409 when `extra` more SMS by the resident would go over his share (`sms_resident_share_used`, with what is
 * left) or over what residents together may spend (`sms_residents_pool_used`). Nothing for a barrier without
 * a weekly limit.
 */
export async function assertResidentSmsShare(
  executor: Executor,
  barrierId: number,
  residentId: number,
  extra: number,
  now: Date,
  utcOffsetMinutes: number,
  options: { committedGrew?: boolean } = {},
): Promise<void> {
  if (extra <= 0 && !options.committedGrew) return;
  const shares = await loadShares(executor, barrierId);
  if (!shares) return;
  const spent = await residentLoad(executor, barrierId, residentId, now, utcOffsetMinutes);
  if (spent.mine + extra > shares.share)
    throw conflict('sms_resident_share_used', undefined, {
      share: shares.share,
      left: Math.max(0, shares.share - spent.mine),
    });
  if (spent.residents + extra > shares.residentsPool) throw conflict('sms_residents_pool_used');
}

/** What is left of each part this week, for the screens (null without a weekly limit). */
export async function smsShareSummary(
  executor: Executor,
  barrierId: number,
  residentId: number | null,
  now: Date,
  usedTotal: number,
  utcOffsetMinutes: number,
) {
  const shares = await loadShares(executor, barrierId);
  if (!shares) return null;
  const spent = await residentLoad(executor, barrierId, residentId, now, utcOffsetMinutes);
  const reserveSpent = usedTotal - (await residentSpending(executor, barrierId, null, now)).residents;
  return {
    limit: shares.limit,
    share: shares.share,
    reserve: shares.reserve,
    share_left: Math.max(0, Math.min(shares.share - spent.mine, shares.residentsPool - spent.residents)),
    residents_left: Math.max(0, shares.residentsPool - spent.residents),
    reserve_left: Math.max(0, shares.reserve - Math.max(0, reserveSpent)),
    total_left: Math.max(0, shares.limit - usedTotal),
  };
}

/**
 * The SMS of the last seven days as the weekly limit counts them: residents' spending beyond their part
 * (removals are never refused, so they may go over it) is not counted against the owner's reserve.
 */
export async function usedAgainstLimit(
  executor: Executor,
  barrierId: number,
  now: Date,
  usedTotal: number,
): Promise<number> {
  const shares = await loadShares(executor, barrierId);
  if (!shares) return usedTotal;
  const { residents } = await residentSpending(executor, barrierId, null, now);
  return usedTotal - Math.max(0, residents - shares.residentsPool);
}
