/**
 * Guest passes by link (issue 14 part 5). A resident (user side) or an administrator with `phones.manage`
 * (admin side, for a resident of his choice or himself) makes a pass for a window of at most 24 hours. The
 * link carries a 32-byte random token; only its SHA-256 is stored, and the link is shown once.
 *
 * The pass counts against its resident's temporary-phone limits from its creation (`assertPhoneLimits`
 * counts open passes), so he cannot hand out more passes than he could add temporary numbers. The guest opens
 * the link without a login, asks for a code and redeems it (link-service.ts): the number becomes a temporary
 * phone of the resident with the pass's window. Revoking a used pass takes the phone off at once through the
 * same path (phone-changes.ts).
 */
import {
  type AdminCreateGuestPassBody,
  type CreatedGuestPass,
  type CreateGuestPassBody,
  GUEST_PASS_MAX_LEAD_MS,
  GUEST_PASS_MAX_WINDOW_MS,
  GUEST_PASS_MESSAGES,
  type GuestPass,
  type GuestPassStatus,
} from '@propusk/contracts/guest-passes';
import { maskPhone } from '@propusk/contracts/phone-mask';
import { PHONE_MESSAGES, parseDateTimeInput } from '@propusk/contracts/phones';
import { smsSpender } from '../../engine/budget/index.ts';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { FieldError, forbidden, notFound } from '../../lib/errors.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  paginate,
  requireBarrierAccess,
  requireBarrierPermission,
  userHasAccess,
} from '../barrier-policy/policy.ts';
import { assertPhoneLimits } from '../phones/phone-admission.ts';
import { type Actor, deactivatePhonesLocked, lockLiveBarrier } from '../phones/phone-changes.ts';
import type { GuestPassRow } from './repository.ts';
import * as repository from './repository.ts';

export type Side = 'user' | 'admin';

/** The link's path in the web app; the client puts its own origin in front. */
export const guestPassPath = (token: string) => `/guest/${token}`;

const passNotFound = () => notFound('guest_pass_not_found');

/** `expired` is not stored: a pass nobody used is expired once its link's time is over. */
export function passStatus(row: GuestPassRow, now: Date): GuestPassStatus {
  if (row.status === 'created' && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return row.status as GuestPassStatus;
}

/** A pass as lists show it, with its resident and its maker named (their numbers masked). */
export function toGuestPass(found: repository.GuestPassListRow, now: Date): GuestPass {
  const row = found.pass;
  return {
    id: row.id,
    barrier: row.barrierId,
    user: row.forUser,
    user_full_name: found.forName || null,
    user_phone: maskPhone(found.forPhone),
    created_by: row.createdBy,
    created_by_full_name: row.createdBy === null ? null : found.makerName || null,
    created_by_phone:
      row.createdBy === null || found.makerPhone === null ? null : maskPhone(found.makerPhone),
    note: row.note,
    start: apiDateTime(row.startTime) ?? '',
    end: apiDateTime(row.endTime) ?? '',
    expires_at: apiDateTime(row.expiresAt) ?? '',
    status: passStatus(row, now),
    used_phone: row.usedPhone,
    phone: row.phoneId,
    used_at: apiDateTime(row.usedAt),
    revoked_at: apiDateTime(row.revokedAt),
    created_at: apiDateTime(row.createdAt) ?? '',
  };
}

/** start < end, end in the future, at most 24 hours long, starting within 30 days. */
function parseWindow(deps: Pick<Dependencies, 'clock' | 'config'>, body: CreateGuestPassBody) {
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const start = parseDateTimeInput(body.start, offset);
  const end = parseDateTimeInput(body.end, offset);
  if (!start) throw new FieldError({ start: [GUEST_PASS_MESSAGES.dateTimeFormat] });
  if (!end) throw new FieldError({ end: [GUEST_PASS_MESSAGES.dateTimeFormat] });
  const now = deps.clock.now().getTime();
  if (start >= end) throw new FieldError({ start: [GUEST_PASS_MESSAGES.startBeforeEnd] });
  if (end.getTime() <= now) throw new FieldError({ end: [GUEST_PASS_MESSAGES.endInPast] });
  if (end.getTime() - start.getTime() > GUEST_PASS_MAX_WINDOW_MS) {
    throw new FieldError({ end: [GUEST_PASS_MESSAGES.windowTooLong] });
  }
  if (start.getTime() - now > GUEST_PASS_MAX_LEAD_MS) {
    throw new FieldError({ start: [GUEST_PASS_MESSAGES.startTooFar] });
  }
  return { start, end };
}

/** Who may act on the barrier's passes: a resident with access, or an administrator with `phones.manage`. */
async function authorize(
  deps: Pick<Dependencies, 'db'>,
  side: Side,
  caller: AuthenticatedUser,
  barrierId: number,
): Promise<void> {
  if (side === 'user') await requireBarrierAccess(deps.db, caller.id, barrierId);
  else await requireBarrierPermission(deps.db, caller.id, barrierId, 'phones.manage');
}

/** A pass just written, as the list shows it. */
async function answered(deps: Pick<Dependencies, 'db' | 'clock'>, passId: number): Promise<GuestPass> {
  const found = await repository.findGuestPassWithPeople(deps.db, passId);
  if (!found) throw passNotFound();
  return toGuestPass(found, deps.clock.now());
}

export async function createGuestPass(
  deps: Pick<Dependencies, 'db' | 'clock' | 'config' | 'logger'>,
  side: Side,
  caller: AuthenticatedUser,
  barrierId: number,
  body: CreateGuestPassBody | AdminCreateGuestPassBody,
): Promise<CreatedGuestPass> {
  await authorize(deps, side, caller, barrierId);
  const forUser = side === 'admin' && 'user' in body && body.user ? body.user : caller.id;
  const window = parseWindow(deps, body);
  const token = randomToken(32);
  const row = await deps.db.transaction(async (tx) => {
    const barrier = await lockLiveBarrier(tx, barrierId);
    if (!(await userHasAccess(tx, barrier.id, forUser))) {
      if (side === 'admin') throw new FieldError({ user: [PHONE_MESSAGES.userHasNoAccess] });
      throw forbidden('barrier_no_access');
    }
    const now = deps.clock.now();
    // The pass holds a temporary phone's place from now on: refused when the resident has none left.
    await assertPhoneLimits(tx, now, barrier, { userId: forUser, type: 'temporary', number: null });
    return repository.insertGuestPass(tx, {
      barrierId: barrier.id,
      createdBy: caller.id,
      forUser,
      tokenHash: sha256(token),
      note: body.note ?? '',
      startTime: window.start,
      endTime: window.end,
      expiresAt: window.end,
      status: 'created',
      createdAt: now,
    });
  });
  deps.logger.info({ barrierId, passId: row.id, userId: caller.id }, 'guest pass created');
  return { ...(await answered(deps, row.id)), token, url: guestPassPath(token) };
}

export async function listGuestPasses(
  deps: Pick<Dependencies, 'db' | 'clock'>,
  side: Side,
  caller: AuthenticatedUser,
  barrierId: number,
  query: { page: number; page_size: number },
) {
  await authorize(deps, side, caller, barrierId);
  const { rows, total } = await repository.listGuestPasses(
    deps.db,
    side === 'user' ? { barrierId, forUser: caller.id } : { barrierId },
    query,
  );
  const now = deps.clock.now();
  return paginate(
    'guest_passes',
    rows.map((row) => toGuestPass(row, now)),
    total,
    query,
  );
}

/** Ends a pass: an unused link stops working; a used one's number is taken off the device at once. */
export async function revokeGuestPass(
  deps: Dependencies,
  side: Side,
  caller: AuthenticatedUser,
  barrierId: number,
  passId: number,
): Promise<GuestPass> {
  await authorize(deps, side, caller, barrierId);
  const row = await deps.db.transaction(async (tx) => {
    const barrier = await lockLiveBarrier(tx, barrierId);
    const pass = await repository.findGuestPass(tx, passId, { forUpdate: true });
    if (!pass || pass.barrierId !== barrier.id || (side === 'user' && pass.forUser !== caller.id)) {
      throw passNotFound();
    }
    if (pass.status === 'revoked') return pass;
    const now = deps.clock.now();
    if (pass.status === 'used' && pass.phoneId !== null) {
      const actor: Actor = { author: side, userId: caller.id };
      const removed = await deactivatePhonesLocked(
        tx,
        deps,
        barrier.id,
        { phoneId: pass.phoneId },
        actor,
        'guest_pass',
      );
      // Taking a number off never waits for the SMS budget; a resident's own revocation is counted to him.
      if (removed.length > 0) {
        const spentBy = side === 'user' ? await smsSpender(tx, barrier.id, caller.id) : null;
        await syncBarrierDevice(tx, deps, barrier.id, { enforceWeeklyLimit: false, spentBy });
      }
    }
    return repository.updateGuestPass(tx, pass.id, { status: 'revoked', revokedAt: now });
  });
  deps.notifyDeviceCommands([barrierId]);
  return answered(deps, row.id);
}
