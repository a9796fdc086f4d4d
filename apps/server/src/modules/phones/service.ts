/**
 * Phones on barriers (spec.md sections 4, 5, 7; DESIGN.md section 5), for users (their own phones on
 * barriers they have access to) and administrators (phones of users of their barriers). `side` says which.
 * Here: the lists, one phone, adding one (phone-adds.ts groups the adds waiting for a barrier's turn);
 * changing and removing: change-service.ts.
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
  type WeeklyScheduleInput,
} from '@propusk/contracts/phones';
import type { WeeklySchedule } from '../../db/schema.ts';
import { withAccountAnswers } from '../../lib/account-answers.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { conflict, FieldError, forbidden, HttpError, notFound } from '../../lib/errors.ts';
import type { AuthenticatedUser, SessionInRead } from '../../plugins/authenticate.ts';
import { paginate, requireBarrierAccess, requireBarrierPermission } from '../barrier-policy/policy.ts';
import type { PhoneAdds } from './phone-adds.ts';
import type { PhoneRow } from './phone-changes.ts';
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
export function normalizeSchedule(schedule: WeeklyScheduleInput): WeeklySchedule {
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

/** start < end and end in the future, with the barrier's local time for texts without an offset. */
export function parseWindow(
  deps: Pick<Dependencies, 'clock' | 'config'>,
  startText: string,
  endText: string,
): { start: Date; end: Date } {
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const start = parseDateTimeInput(startText, offset);
  const end = parseDateTimeInput(endText, offset);
  if (!start) throw new FieldError({ start_time: [PHONE_MESSAGES.dateTimeFormat] });
  if (!end) throw new FieldError({ end_time: [PHONE_MESSAGES.dateTimeFormat] });
  if (start >= end) throw new FieldError({ start_time: [PHONE_MESSAGES.startBeforeEnd] });
  if (end <= deps.clock.now()) throw new FieldError({ end_time: [PHONE_MESSAGES.endInPast] });
  return { start, end };
}

/** The phone, if the caller may see it: his own (user side) or on a barrier where he manages phones (admin side). */
async function findVisiblePhone(
  deps: Pick<Dependencies, 'db'>,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
) {
  const found = await repository.findPhone(deps.db, phoneId);
  if (!found) throw phoneNotFound();
  if (side === 'user') {
    if (found.phone.userId !== caller.id) throw phoneNotFound();
  } else {
    // A barrier he holds nothing on hides its phones (404); a role without phones is 403.
    await requireBarrierPermission(deps.db, caller.id, found.phone.barrierId, 'phones.manage').catch(
      (error: unknown) => {
        throw error instanceof HttpError && error.statusCode === 404 ? phoneNotFound() : error;
      },
    );
  }
  return found.phone;
}

/** The phone, if the caller may change it now: visible, active, and (user side) he still has access. */
export async function findChangeablePhone(
  deps: Pick<Dependencies, 'db'>,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
) {
  const phone = await findVisiblePhone(deps, side, caller, phoneId);
  if (!phone.isActive) throw conflict('phone_deleted');
  if (side === 'user') await requireBarrierAccess(deps.db, caller.id, phone.barrierId);
  return phone;
}

export async function listMyPhones(
  deps: Pick<Dependencies, 'db'>,
  session: SessionInRead,
  barrierId: number,
  query: { page: number; page_size: number },
) {
  const callerId = session.userId;
  // The list is read as far as he may (repository.ts PhoneListReader): the check runs when it is empty.
  const { rows, total, sessionLive } = await repository.listActivePhones(
    deps.db,
    { barrierId, userId: callerId },
    { resident: callerId },
    query,
    session,
  );
  await session.settle(sessionLive);
  if (total === 0) await requireBarrierAccess(deps.db, callerId, barrierId);
  return paginate('phones', rows.map(toPhone), total, query);
}

export async function listBarrierPhones(
  deps: Pick<Dependencies, 'db'>,
  session: SessionInRead,
  barrierId: number,
  query: { page: number; page_size: number; user?: number | undefined },
) {
  const adminId = session.userId;
  const { rows, total, sessionLive } = await repository.listActivePhones(
    deps.db,
    { barrierId, userId: query.user },
    { administrator: adminId },
    query,
    session,
  );
  await session.settle(sessionLive);
  if (total === 0) await requireBarrierPermission(deps.db, adminId, barrierId, 'phones.manage');
  return paginate('phones', rows.map(toPhone), total, query);
}

export async function getPhone(
  deps: Pick<Dependencies, 'db'>,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
): Promise<Phone> {
  return toPhone(await findVisiblePhone(deps, side, caller, phoneId));
}

export async function getPhoneSchedule(
  deps: Pick<Dependencies, 'db'>,
  side: Side,
  caller: AuthenticatedUser,
  phoneId: number,
): Promise<WeeklySchedule> {
  const phone = await findVisiblePhone(deps, side, caller, phoneId);
  if (phone.type !== 'schedule') throw conflict('phone_no_schedule');
  return phone.schedule ?? {};
}

async function addPhone(
  deps: Dependencies,
  adds: PhoneAdds,
  side: Side,
  caller: AuthenticatedUser,
  barrierId: number,
  ownerUserId: number,
  body: AddPhoneBody,
): Promise<Phone> {
  const window =
    body.type === 'temporary' && body.start_time && body.end_time
      ? parseWindow(deps, body.start_time, body.end_time)
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

export async function addMyPhone(
  deps: Dependencies,
  adds: PhoneAdds,
  caller: AuthenticatedUser,
  barrierId: number,
  body: AddPhoneBody,
) {
  await requireBarrierAccess(deps.db, caller.id, barrierId);
  return addPhone(deps, adds, 'user', caller, barrierId, caller.id, body);
}

export async function addPhoneForUser(
  deps: Dependencies,
  adds: PhoneAdds,
  admin: AuthenticatedUser,
  barrierId: number,
  body: AdminAddPhoneBody,
) {
  await requireBarrierPermission(deps.db, admin.id, barrierId, 'phones.manage');
  // Whether the user is on the barrier is checked under its lock, with the phone's other rules (addPhone).
  return addPhone(deps, adds, 'admin', admin, barrierId, body.user, body);
}
