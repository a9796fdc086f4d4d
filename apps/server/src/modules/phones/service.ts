/**
 * Phones on barriers (spec.md sections 4, 5, 7; DESIGN.md section 5), for users (their own phones on
 * barriers they have access to) and administrators (phones of users of their barriers). `side` says which.
 *
 * Every change locks the barrier, checks the limits, writes the phone and its action, and plans the device
 * commands in one transaction; the device worker is woken after commit.
 */

import {
  type AddPhoneBody,
  type AdminAddPhoneBody,
  PHONE_MESSAGES,
  type Phone,
  parseDateTimeInput,
  type UpdatePhoneBody,
  type WeeklyScheduleInput,
} from '@propusk/contracts/phones';
import type { Executor } from '../../db/database.ts';
import type { WeeklySchedule } from '../../db/schema.ts';
import { syncBarrierDevice } from '../../engine/outbox.ts';
import { loadCommittedSms } from '../../engine/weekly-budget.ts';
import { withAccountAnswers } from '../../lib/account-answers.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError, forbidden, HttpError, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { paginate, requireBarrierAccess, requireBarrierPermission } from '../barrier-policy/policy.ts';
import { createPhoneAdds, spenderOf } from './phone-adds.ts';
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

export type Side = 'user' | 'admin';

const phoneNotFound = () => notFound('phone_not_found');

export function toPhone(row: PhoneRow): Phone {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    type: row.type,
    status: row.status,
    is_active: row.isActive,
    barrier: row.barrierId,
    user: row.userId,
    start_time: apiDateTime(row.startTime),
    end_time: apiDateTime(row.endTime),
    schedule: row.schedule ?? null,
    created_at: apiDateTime(row.createdAt),
    updated_at: apiDateTime(row.updatedAt),
  };
}

/** Only the days that have intervals, each sorted by start. */
function normalizeSchedule(schedule: WeeklyScheduleInput): WeeklySchedule {
  const result: WeeklySchedule = {};
  for (const [day, intervals] of Object.entries(schedule) as [
    keyof WeeklySchedule,
    WeeklyScheduleInput['monday'],
  ][]) {
    if (intervals && intervals.length > 0) {
      result[day] = [...intervals].sort((a, b) => a.start_time.localeCompare(b.start_time));
    }
  }
  return result;
}

export function createPhoneService(deps: Dependencies) {
  const { db } = deps;
  const adds = createPhoneAdds(deps);
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;

  /** start < end and end in the future, with the barrier's local time for texts without an offset. */
  function parseWindow(startText: string, endText: string): { start: Date; end: Date } {
    const start = parseDateTimeInput(startText, offset);
    const end = parseDateTimeInput(endText, offset);
    if (!start) throw new FieldError({ start_time: [PHONE_MESSAGES.dateTimeFormat] });
    if (!end) throw new FieldError({ end_time: [PHONE_MESSAGES.dateTimeFormat] });
    if (start >= end) throw new FieldError({ start_time: [PHONE_MESSAGES.startBeforeEnd] });
    if (end <= deps.clock.now()) throw new FieldError({ end_time: [PHONE_MESSAGES.endInPast] });
    return { start, end };
  }

  /** The phone, if the caller may see it: his own (user side) or on a barrier where he manages phones (admin side). */
  async function findVisiblePhone(side: Side, caller: AuthenticatedUser, phoneId: number) {
    const found = await repository.findPhone(db, phoneId);
    if (!found) throw phoneNotFound();
    if (side === 'user') {
      if (found.phone.userId !== caller.id) throw phoneNotFound();
    } else {
      // A barrier he holds nothing on hides its phones (404); a role without phones is 403.
      await requireBarrierPermission(db, caller.id, found.phone.barrierId, 'phones.manage').catch(
        (error: unknown) => {
          throw error instanceof HttpError && error.statusCode === 404 ? phoneNotFound() : error;
        },
      );
    }
    return found.phone;
  }

  /** The phone, if the caller may change it now: visible, active, and (user side) he still has access. */
  async function findChangeablePhone(side: Side, caller: AuthenticatedUser, phoneId: number) {
    const phone = await findVisiblePhone(side, caller, phoneId);
    if (!phone.isActive) throw conflict('phone_deleted');
    if (side === 'user') await requireBarrierAccess(db, caller.id, phone.barrierId);
    return phone;
  }

  /** What the barrier's timed phones commit it to before a change (only read when it has an SMS limit). */
  async function committedSmsBefore(tx: Executor, barrier: LockedBarrier): Promise<number | undefined> {
    if (barrier.limits.smsWeeklyLimit === null) return undefined;
    return loadCommittedSms(tx, deps, barrier.id, deps.clock.now());
  }

  const actorOf = (side: Side, caller: AuthenticatedUser): Actor => ({ author: side, userId: caller.id });

  async function add(
    side: Side,
    caller: AuthenticatedUser,
    barrierId: number,
    ownerUserId: number,
    body: AddPhoneBody,
  ): Promise<Phone> {
    const window =
      body.type === 'temporary' && body.start_time && body.end_time
        ? parseWindow(body.start_time, body.end_time)
        : null;
    const schedule = body.type === 'schedule' && body.schedule ? normalizeSchedule(body.schedule) : null;
    // Its refusal may tell that the number has an account: within the caller's day of such answers.
    const row = await withAccountAnswers(deps, caller.id, () =>
      adds.add(barrierId, {
        side,
        callerId: caller.id,
        phone: {
          userId: ownerUserId,
          number: body.phone,
          name: body.name,
          type: body.type,
          startTime: window?.start ?? null,
          endTime: window?.end ?? null,
          schedule,
        },
        // Access may have been lost between the check and the lock (leave, removal, block).
        noAccess: () =>
          side === 'admin'
            ? new FieldError({ user: [PHONE_MESSAGES.userHasNoAccess] })
            : forbidden('user_not_on_barrier'),
      }),
    );
    return toPhone(row);
  }

  /** Applies a change to an active phone under the barrier lock, with its action and device commands. */
  async function change(
    side: Side,
    caller: AuthenticatedUser,
    phone: PhoneRow,
    values: Partial<PhoneRow>,
    reason: 'manual' | 'schedule_update',
    check?: (barrier: Awaited<ReturnType<typeof lockLiveBarrier>>) => void,
  ): Promise<Phone> {
    const transaction = () =>
      db.transaction(async (tx) => {
        const barrier = await lockLiveBarrier(tx, phone.barrierId);
        const current = await repository.findPhone(tx, phone.id);
        if (!current?.phone.isActive) throw conflict('phone_deleted');
        check?.(barrier);
        const committedBefore = await committedSmsBefore(tx, barrier);
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

  return {
    async listMine(caller: AuthenticatedUser, barrierId: number, query: { page: number; page_size: number }) {
      // The list is read as far as he may (repository.ts PhoneListReader): the check runs when it is empty.
      const { rows, total } = await repository.listActivePhones(
        db,
        { barrierId, userId: caller.id },
        { resident: caller.id },
        query,
      );
      if (total === 0) await requireBarrierAccess(db, caller.id, barrierId);
      return paginate('phones', rows.map(toPhone), total, query);
    },

    async listForAdmin(
      admin: AuthenticatedUser,
      barrierId: number,
      query: { page: number; page_size: number; user?: number | undefined },
    ) {
      const { rows, total } = await repository.listActivePhones(
        db,
        { barrierId, userId: query.user },
        { administrator: admin.id },
        query,
      );
      if (total === 0) await requireBarrierPermission(db, admin.id, barrierId, 'phones.manage');
      return paginate('phones', rows.map(toPhone), total, query);
    },

    async addOwn(caller: AuthenticatedUser, barrierId: number, body: AddPhoneBody) {
      await requireBarrierAccess(db, caller.id, barrierId);
      return add('user', caller, barrierId, caller.id, body);
    },

    async addForUser(admin: AuthenticatedUser, barrierId: number, body: AdminAddPhoneBody) {
      await requireBarrierPermission(db, admin.id, barrierId, 'phones.manage');
      // Whether the user is on the barrier is checked under its lock, with the phone's other rules (add).
      return add('admin', admin, barrierId, body.user, body);
    },

    async get(side: Side, caller: AuthenticatedUser, phoneId: number): Promise<Phone> {
      return toPhone(await findVisiblePhone(side, caller, phoneId));
    },

    async update(
      side: Side,
      caller: AuthenticatedUser,
      phoneId: number,
      body: UpdatePhoneBody,
    ): Promise<Phone> {
      const phone = await findChangeablePhone(side, caller, phoneId);
      const values: Partial<PhoneRow> = {};
      if (body.name !== undefined) values.name = body.name;
      if (body.start_time || body.end_time) {
        if (phone.type !== 'temporary') throw new FieldError({ start_time: [PHONE_MESSAGES.noWindow] });
        const startText = body.start_time ?? phone.startTime?.toISOString();
        const endText = body.end_time ?? phone.endTime?.toISOString();
        if (!startText || !endText) throw new FieldError({ start_time: [PHONE_MESSAGES.timesRequired] });
        const window = parseWindow(startText, endText);
        values.startTime = window.start;
        values.endTime = window.end;
      }
      return change(side, caller, phone, values, 'manual');
    },

    async remove(side: Side, caller: AuthenticatedUser, phoneId: number): Promise<void> {
      const phone = await findChangeablePhone(side, caller, phoneId);
      if (phone.type === 'primary') throw forbidden('primary_phone_cannot_be_deleted');
      const transaction = () =>
        db.transaction(async (tx) => {
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
    },

    async getSchedule(side: Side, caller: AuthenticatedUser, phoneId: number): Promise<WeeklySchedule> {
      const phone = await findVisiblePhone(side, caller, phoneId);
      if (phone.type !== 'schedule') throw conflict('phone_no_schedule');
      return phone.schedule ?? {};
    },

    async putSchedule(
      side: Side,
      caller: AuthenticatedUser,
      phoneId: number,
      body: WeeklyScheduleInput,
    ): Promise<WeeklySchedule> {
      const phone = await findChangeablePhone(side, caller, phoneId);
      if (phone.type !== 'schedule') throw conflict('phone_no_schedule');
      const schedule = normalizeSchedule(body);
      const updated = await change(side, caller, phone, { schedule }, 'schedule_update', (barrier) =>
        assertScheduleIntervalLimit(barrier, schedule),
      );
      return updated.schedule ?? {};
    },
  };
}
