/**
 * How a barrier reads to whoever asks: the resident's summary (the owner's phone as his privacy allows, the
 * gate's number only to those it opens for), the administrator's view with its device's state and widened
 * access, and the limits with what is left of the weekly SMS limit.
 */

import type { AdminBarrier, BarrierDanger, BarrierSummary } from '@propusk/contracts/barriers';
import type { Limits } from '@propusk/contracts/limits';
import type { Executor } from '../../db/database.ts';
import { countCommandsThisWeek, smsShareSummary, smsSpender } from '../../engine/budget/index.ts';
import { type DeviceSummary, deviceSummaries } from '../../engine/log/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { visibleOwnerPhone } from '../barrier-policy/policy.ts';
import * as adminRepository from './admin-repository.ts';
import type { BarrierSummaryRow } from './public-repository.ts';
import * as repository from './repository.ts';

export function toSummary(row: BarrierSummaryRow, viewerId: number): BarrierSummary {
  const isOwner = row.ownerId === viewerId;
  const hasAccess = Boolean(row.hasAccess);
  return {
    id: row.id,
    address: row.address,
    additional_info: row.additionalInfo,
    is_public: row.isPublic,
    owner: {
      id: row.ownerId,
      full_name: row.ownerName,
      phone: visibleOwnerPhone(
        { phone: row.ownerPhone, phonePrivacy: row.ownerPrivacy },
        { isOwner, hasAccess },
      ),
    },
    // The gate's number to call (issue 32 item 4): only a viewer the device opens for, or its owner.
    device_phone: hasAccess || isOwner ? row.devicePhone : null,
    has_access: hasAccess,
    pending_request:
      row.pendingInitiator === 'user' ? 'outgoing' : row.pendingInitiator === 'admin' ? 'incoming' : null,
  };
}

type DangerRow = adminRepository.BarrierDangerColumns;

export function dangersOf(row: DangerRow | undefined): BarrierDanger[] {
  if (!row) return [];
  const found: BarrierDanger[] = [];
  if (row.openToAll) found.push('open_to_all');
  if (row.relayAlwaysOn) found.push('relay_always_on');
  if (row.holdId !== null) found.push('emergency_hold');
  return found;
}

/** Widened access of each barrier of a page, by id (one statement). */
export async function dangersByBarrier(executor: Executor, ids: number[]): Promise<Map<number, DangerRow>> {
  const rows = await adminRepository.barrierDangers(executor, ids);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The administrator's view of a barrier: its row carries its dangers (repository.ts `dangerColumns`). */
export function toAdminBarrier(
  row: NonNullable<adminRepository.AdminBarrierRow>,
  device: DeviceSummary = { state: 'ok', power: null, powerSince: null },
): AdminBarrier {
  return {
    id: row.id,
    address: row.address,
    owner: { id: row.ownerId, full_name: row.ownerName, phone: row.ownerPhone },
    device_phone: row.devicePhone,
    device_model: row.deviceModel,
    device_phones_amount: row.devicePhonesAmount,
    additional_info: row.additionalInfo,
    is_public: row.isPublic,
    created_at: apiDateTime(row.createdAt),
    device_state: device.state,
    device_power: device.power,
    device_power_since: apiDateTime(device.powerSince),
    device_gateway_number: row.deviceGatewayNumber,
    my_role: row.myRole ?? 'owner',
    dangers: dangersOf(row),
    emergency_hold_id: row.holdId ?? null,
  };
}

/** The administrator's view of a barrier, with its device's state. */
export async function adminBarrierView(
  deps: Dependencies,
  row: NonNullable<adminRepository.AdminBarrierRow>,
): Promise<AdminBarrier> {
  const states = await deviceSummaries(deps.db, deps, [row.id]);
  return toAdminBarrier(row, states.get(row.id));
}

export function toLimits(
  row: Awaited<ReturnType<typeof repository.findLimits>>,
  smsBudget: Limits['sms_budget'] = null,
): Limits {
  return {
    user_phone_limit: row?.userPhoneLimit ?? null,
    user_temp_phone_limit: row?.userTempPhoneLimit ?? null,
    global_temp_phone_limit: row?.globalTempPhoneLimit ?? null,
    user_schedule_phone_limit: row?.userSchedulePhoneLimit ?? null,
    global_schedule_phone_limit: row?.globalSchedulePhoneLimit ?? null,
    schedule_interval_limit: row?.scheduleIntervalLimit ?? null,
    sms_weekly_limit: row?.smsWeeklyLimit ?? null,
    sms_resident_share: row?.smsResidentShare ?? null,
    sms_owner_reserve: row?.smsOwnerReserve ?? null,
    sms_budget: smsBudget,
  };
}

/**
 * A barrier's limits with what is left of the weekly SMS limit (sms-shares.ts): `userId`'s own share when he
 * is a resident there; null for the owner's and staff's view (reserve and residents' total).
 */
export async function limitsWithBudget(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config'>,
  barrierId: number,
  userId: number | null,
): Promise<Limits> {
  const { db } = deps;
  const row = await repository.findLimits(db, barrierId);
  const now = deps.clock.now();
  const residentId = userId === null ? null : await smsSpender(db, barrierId, userId);
  const used = await countCommandsThisWeek(db, barrierId, now);
  const budget = await smsShareSummary(
    db,
    barrierId,
    residentId,
    now,
    used,
    deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
  );
  return toLimits(row, budget);
}
