/**
 * Changing and removing a phone (its name, its window, its weekly schedule), by its user or by an
 * administrator who manages the barrier's phones (`side`). Each change runs in its barrier's turn
 * (`barrierTurns`) and one transaction under the barrier's lock: the phone, its action, the device plan.
 */

import {
  PHONE_MESSAGES,
  type Phone,
  type UpdatePhoneBody,
  type WeeklyScheduleInput,
} from '@propusk/contracts/phones';
import type { Executor } from '../../db/database.ts';
import type { WeeklySchedule } from '../../db/schema.ts';
import { loadCommittedSms, syncBarrierDevice } from '../../engine/plan/index.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError, forbidden } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { spenderOf } from './phone-adds.ts';
import { assertScheduleIntervalLimit } from './phone-admission.ts';
import {
  type Actor,
  barrierTurns,
  deactivatePhonesLocked,
  type LockedBarrier,
  lockLiveBarrier,
  type PhoneRow,
  phoneSnapshot,
  recordPhoneAction,
} from './phone-changes.ts';
import { isTimedType } from './phone-types.ts';
import * as repository from './repository.ts';
import { findChangeablePhone, normalizeSchedule, parseWindow, type Side, toPhone } from './service.ts';

/** What the barrier's timed phones commit it to before a change (only read when it has an SMS limit). */
async function committedSmsBefore(
  deps: Dependencies,
  tx: Executor,
  barrier: LockedBarrier,
): Promise<number | undefined> {
  if (barrier.limits.smsWeeklyLimit === null) return undefined;
  return loadCommittedSms(tx, deps, barrier.id, deps.clock.now());
}

const actorOf = (side: Side, caller: AuthenticatedUser): Actor => ({ author: side, userId: caller.id });

/** Applies a change to an active phone under the barrier lock, with its action and device commands. */
async function changePhone(
  deps: Dependencies,
  side: Side,
  caller: AuthenticatedUser,
  phone: PhoneRow,
  values: Partial<PhoneRow>,
  reason: 'manual' | 'schedule_update',
  check?: (barrier: LockedBarrier) => void,
): Promise<Phone> {
  const transaction = () =>
    deps.db.transaction(async (tx) => {
      const barrier = await lockLiveBarrier(tx, phone.barrierId);
      const current = await repository.findPhone(tx, phone.id);
      if (!current?.phone.isActive) throw conflict('phone_deleted');
      check?.(barrier);
      const committedBefore = await committedSmsBefore(deps, tx, barrier);
      // Whoever changes a timed phone last pays its coming SMS: a resident his share, others the reserve.
      const spentBy = await spenderOf(tx, side, caller.id, barrier.id);
      const type = values.type ?? current.phone.type;
      const row = await repository.updatePhone(tx, phone.id, {
        ...values,
        smsPaidBy: isTimedType(type) ? spentBy : null,
        updatedAt: deps.clock.now(),
      });
      await recordPhoneAction(tx, deps.clock.now(), {
        barrierId: barrier.id,
        phone: row,
        actionType: 'update_phone',
        actor: actorOf(side, caller),
        reason,
        oldValue: phoneSnapshot(current.phone),
        newValue: phoneSnapshot(row),
      });
      // A schedule with more windows, or a longer window, may cost more SMS ahead even with none queued now.
      await syncBarrierDevice(tx, deps, barrier.id, {
        committedBefore,
        spentBy,
        weeklyLimit: barrier.limits.smsWeeklyLimit,
      });
      return (await repository.findPhone(tx, phone.id))?.phone ?? row;
    });
  const updated = await barrierTurns.run(phone.barrierId, transaction);
  deps.notifyDeviceCommands([phone.barrierId]);
  return toPhone(updated);
}

export async function updatePhone(
  deps: Dependencies,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
  body: UpdatePhoneBody,
): Promise<Phone> {
  const phone = await findChangeablePhone(deps, side, caller, phoneId);
  const values: Partial<PhoneRow> = {};
  if (body.name !== undefined) values.name = body.name;
  if (body.start_time || body.end_time) {
    if (phone.type !== 'temporary') throw new FieldError({ start_time: [PHONE_MESSAGES.noWindow] });
    const startText = body.start_time ?? phone.startTime?.toISOString();
    const endText = body.end_time ?? phone.endTime?.toISOString();
    if (!startText || !endText) throw new FieldError({ start_time: [PHONE_MESSAGES.timesRequired] });
    const window = parseWindow(deps, startText, endText);
    values.startTime = window.start;
    values.endTime = window.end;
  }
  return changePhone(deps, side, caller, phone, values, 'manual');
}

export async function removePhone(
  deps: Dependencies,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
): Promise<void> {
  const phone = await findChangeablePhone(deps, side, caller, phoneId);
  if (phone.type === 'primary') throw forbidden('primary_phone_cannot_be_deleted');
  const transaction = () =>
    deps.db.transaction(async (tx) => {
      const barrier = await lockLiveBarrier(tx, phone.barrierId);
      const removed = await deactivatePhonesLocked(
        tx,
        deps,
        barrier.id,
        { phoneId: phone.id },
        actorOf(side, caller),
        'manual',
      );
      if (removed.length === 0) throw conflict('phone_deleted');
      // Taking a number off is never refused; a resident's removal still counts in his share.
      const spentBy = await spenderOf(tx, side, caller.id, barrier.id);
      await syncBarrierDevice(tx, deps, barrier.id, {
        enforceWeeklyLimit: false,
        spentBy,
        weeklyLimit: barrier.limits.smsWeeklyLimit,
      });
    });
  await barrierTurns.run(phone.barrierId, transaction);
  deps.notifyDeviceCommands([phone.barrierId]);
}

export async function putPhoneSchedule(
  deps: Dependencies,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
  body: WeeklyScheduleInput,
): Promise<WeeklySchedule> {
  const phone = await findChangeablePhone(deps, side, caller, phoneId);
  if (phone.type !== 'schedule') throw conflict('phone_no_schedule');
  const schedule = normalizeSchedule(body);
  const updated = await changePhone(deps, side, caller, phone, { schedule }, 'schedule_update', (barrier) =>
    assertScheduleIntervalLimit(barrier, schedule),
  );
  return updated.schedule ?? {};
}
