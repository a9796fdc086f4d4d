/**
 * Guest passes by link (issue 14 part 5). A resident (user side) or an administrator with `phones.manage`
 * (admin side, for a resident of his choice or himself) makes a pass for a window of at most 24 hours. The
 * link carries a 32-byte random token; only its SHA-256 is stored, and the link is shown once.
 *
 * The pass counts against its resident's temporary-phone limits from its creation (`assertPhoneLimits`
 * counts open passes), so he cannot hand out more passes than he could add temporary numbers. The guest opens
 * the link without a login, asks for a code (the one code path with its budgets: `issueCode`), and redeems it:
 * in one transaction under the barrier's lock and the pass's row lock, the pass becomes `used` and the number a
 * temporary phone of the resident with the pass's window (phone-changes.ts, so limits, slot, history, expiry
 * and the outbox apply as for any temporary phone). On a model with time windows that is one SMS (the add with
 * its window); on a model without, the device worker adds the number at the window's start and deletes it at
 * its end (two SMS). Revoking a used pass takes the phone off at once through the same path.
 *
 * Every link that cannot be used (unknown, malformed, used, revoked, expired, its barrier deleted or its
 * resident gone from it) is answered alike: 410 `guest_pass_unavailable`.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  type AdminCreateGuestPassBody,
  type CreatedGuestPass,
  type CreateGuestPassBody,
  GUEST_PASS_MAX_LEAD_MS,
  GUEST_PASS_MAX_WINDOW_MS,
  GUEST_PASS_MESSAGES,
  GUEST_PASS_TOKEN_PATTERN,
  type GuestPass,
  type GuestPassStatus,
  type PublicGuestPass,
  type RedeemedGuestPass,
  type RedeemGuestPassBody,
} from '@propusk/contracts/guest-passes';
import { maskPhone } from '@propusk/contracts/phone-mask';
import { PHONE_MESSAGES, parseDateTimeInput } from '@propusk/contracts/phones';
import { loadCommittedSms, smsSpender } from '../../engine/budget/index.ts';
import { syncBarrierDevice } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { FieldError, forbidden, gone, notFound, tooManyRequests } from '../../lib/errors.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import { createSharedRateLimiter } from '../../lib/shared-rate-limiter.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import { issueCode, verifyCode } from '../auth/service.ts';
import { consumeVerification, limitByIp } from '../auth/verification.ts';
import {
  paginate,
  requireBarrierAccess,
  requireBarrierPermission,
  userHasAccess,
} from '../barrier-policy/policy.ts';
import { assertPhoneLimits } from '../phones/phone-admission.ts';
import {
  type Actor,
  addPhoneLocked,
  deactivatePhonesLocked,
  lockLiveBarrier,
} from '../phones/phone-changes.ts';
import type { GuestPassRow } from './repository.ts';
import * as repository from './repository.ts';

export type Side = 'user' | 'admin';

/** Calls of the public routes per address, and per link, within their windows (in memory, per process). */
export const GUEST_IP_LIMIT = 60;
export const GUEST_IP_WINDOW_MS = 60 * 1000;
export const GUEST_TOKEN_LIMIT = 30;
export const GUEST_TOKEN_WINDOW_MS = 60 * 60 * 1000;

/** The link's path in the web app; the client puts its own origin in front. */
export const guestPassPath = (token: string) => `/guest/${token}`;

const unavailable = () => gone('guest_pass_unavailable');
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

export function createGuestPassService(deps: Dependencies) {
  const { db } = deps;
  const offset = deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES;
  const nowMs = () => deps.clock.now().getTime();
  const byIp = createSharedRateLimiter(db, {
    name: 'guest-pass-ip',
    limit: GUEST_IP_LIMIT,
    windowMs: GUEST_IP_WINDOW_MS,
    now: nowMs,
  });
  const byToken = createSharedRateLimiter(db, {
    name: 'guest-pass-link',
    limit: GUEST_TOKEN_LIMIT,
    windowMs: GUEST_TOKEN_WINDOW_MS,
    now: nowMs,
  });

  /** start < end, end in the future, at most 24 hours long, starting within 30 days. */
  function parseWindow(body: CreateGuestPassBody): { start: Date; end: Date } {
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
  async function authorize(side: Side, caller: AuthenticatedUser, barrierId: number): Promise<void> {
    if (side === 'user') await requireBarrierAccess(db, caller.id, barrierId);
    else await requireBarrierPermission(db, caller.id, barrierId, 'phones.manage');
  }

  /** The public calls' budgets: per address, and per link (a malformed link is never looked up). */
  async function limitPublic(token: string, ip: string): Promise<string> {
    await limitByIp(byIp, ip);
    if (!GUEST_PASS_TOKEN_PATTERN.test(token)) throw unavailable();
    const tokenHash = sha256(token);
    const wait = await byToken.hit(tokenHash);
    if (wait > 0) throw tooManyRequests('too_many_requests', wait);
    return tokenHash;
  }

  /** The key the guest who used a pass keeps to read the gate's number again (derived: nothing stored). */
  const holderKey = (passId: number, usedPhone: string) =>
    deps.secrets.hmac(`guest-pass-holder:${passId}:${usedPhone}`);

  /**
   * A used pass whose window is not over, its resident still on the barrier: the link still opens for the
   * guest (issue 32 item 4), the gate's number only with his holder key. Anything else: the dead link's answer.
   */
  async function heldPass(
    found: NonNullable<Awaited<ReturnType<typeof repository.findGuestPassByTokenHash>>>,
    key: string | undefined,
  ): Promise<PublicGuestPass> {
    const { pass } = found;
    if (pass.endTime.getTime() <= deps.clock.now().getTime()) throw unavailable();
    if (!(await userHasAccess(db, pass.barrierId, pass.forUser))) throw unavailable();
    const expected = pass.usedPhone === null ? null : Buffer.from(holderKey(pass.id, pass.usedPhone));
    const given = Buffer.from(key ?? '');
    const isHolder =
      expected !== null && expected.length === given.length && timingSafeEqual(expected, given);
    return {
      ...publicView(pass, found.address),
      used: true,
      device_phone: isHolder ? found.devicePhone : null,
    };
  }

  /** The pass of a link, if it can still be used; else the one answer for every dead link. */
  async function usablePass(tokenHash: string) {
    const found = await repository.findGuestPassByTokenHash(db, tokenHash);
    if (!found || passStatus(found.pass, deps.clock.now()) !== 'created') throw unavailable();
    // A resident who left the barrier (or was removed) takes his passes with him: no code is sent for them.
    if (!(await userHasAccess(db, found.pass.barrierId, found.pass.forUser))) throw unavailable();
    return found;
  }

  const publicView = (pass: GuestPassRow, address: string): PublicGuestPass => ({
    address,
    start: apiDateTime(pass.startTime) ?? '',
    end: apiDateTime(pass.endTime) ?? '',
    used: false,
    device_phone: null,
  });

  /** A pass just written, as the list shows it. */
  async function answered(passId: number): Promise<GuestPass> {
    const found = await repository.findGuestPassWithPeople(db, passId);
    if (!found) throw passNotFound();
    return toGuestPass(found, deps.clock.now());
  }

  return {
    async create(
      side: Side,
      caller: AuthenticatedUser,
      barrierId: number,
      body: CreateGuestPassBody | AdminCreateGuestPassBody,
    ): Promise<CreatedGuestPass> {
      await authorize(side, caller, barrierId);
      const forUser = side === 'admin' && 'user' in body && body.user ? body.user : caller.id;
      const window = parseWindow(body);
      const token = randomToken(32);
      const row = await db.transaction(async (tx) => {
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
      return { ...(await answered(row.id)), token, url: guestPassPath(token) };
    },

    async list(
      side: Side,
      caller: AuthenticatedUser,
      barrierId: number,
      query: { page: number; page_size: number },
    ) {
      await authorize(side, caller, barrierId);
      const { rows, total } = await repository.listGuestPasses(
        db,
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
    },

    /** Ends a pass: an unused link stops working; a used one's number is taken off the device at once. */
    async revoke(
      side: Side,
      caller: AuthenticatedUser,
      barrierId: number,
      passId: number,
    ): Promise<GuestPass> {
      await authorize(side, caller, barrierId);
      const row = await db.transaction(async (tx) => {
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
      return answered(row.id);
    },

    /** `holder`: the key a guest got when he used the pass (GUEST_PASS_HOLDER_HEADER). */
    async view(token: string, ip: string, holder?: string): Promise<PublicGuestPass> {
      const tokenHash = await limitPublic(token, ip);
      const found = await repository.findGuestPassByTokenHash(db, tokenHash);
      if (found?.pass.status === 'used') return heldPass(found, holder);
      const { pass, address } = await usablePass(tokenHash);
      return publicView(pass, address);
    },

    async requestCode(token: string, phone: string, ip: string) {
      const tokenHash = await limitPublic(token, ip);
      const { pass } = await usablePass(tokenHash);
      await limitByIp(deps.rateLimits.codeRequests, ip);
      // A guest link is public: its codes spend the public share, capped per pass and per resident a day.
      return issueCode(deps, {
        phone,
        mode: 'guest_pass',
        ip,
        share: 'public',
        guestPass: { id: pass.id, forUser: pass.forUser },
      });
    },

    async redeem(token: string, body: RedeemGuestPassBody, ip: string): Promise<RedeemedGuestPass> {
      const tokenHash = await limitPublic(token, ip);
      const found = await usablePass(tokenHash);
      // The code's tries, backoffs and address locks are those of every code (verification.ts).
      await verifyCode(deps, {
        phone: body.phone,
        code: body.code,
        verificationToken: body.verification_token,
        ip,
      });
      const barrierId = found.pass.barrierId;
      const pass = await db.transaction(async (tx) => {
        // The barrier first, then the pass: the order every change here takes, so two redeems queue up.
        const barrier = await lockLiveBarrier(tx, barrierId).catch(() => {
          throw unavailable();
        });
        const current = await repository.findGuestPass(tx, found.pass.id, { forUpdate: true });
        const now = deps.clock.now();
        if (!current || passStatus(current, now) !== 'created') throw unavailable();
        if (!(await userHasAccess(tx, barrier.id, current.forUser))) throw unavailable();
        await consumeVerification(tx, deps, {
          token: body.verification_token,
          phone: body.phone,
          mode: 'guest_pass',
        });
        // Used before the phone is added, so that this pass no longer holds a place in the limits.
        await repository.updateGuestPass(tx, current.id, {
          status: 'used',
          usedPhone: body.phone,
          usedAt: now,
        });
        const committedBefore =
          barrier.limits.smsWeeklyLimit === null
            ? undefined
            : await loadCommittedSms(tx, deps, barrier.id, now);
        const actor: Actor =
          current.createdBy === current.forUser
            ? { author: 'user', userId: current.forUser }
            : { author: 'admin', userId: current.createdBy };
        // A resident's own pass spends his share of the weekly SMS limit (sms-shares.ts), now and for the
        // SMS its window will cost later (`phones.sms_paid_by`, as for a temporary number he adds himself);
        // an administrator's pass for him is the reserve's.
        const spentBy =
          current.createdBy === current.forUser ? await smsSpender(tx, barrier.id, current.forUser) : null;
        const phone = await addPhoneLocked(
          tx,
          deps,
          barrier,
          {
            userId: current.forUser,
            number: body.phone,
            name: current.note || 'Гость',
            type: 'temporary',
            startTime: current.startTime,
            endTime: current.endTime,
            schedule: null,
            smsPaidBy: spentBy,
          },
          actor,
          'guest_pass',
        );
        await syncBarrierDevice(tx, deps, barrier.id, { committedBefore, spentBy });
        // The resident hears that his guest used the pass (issue 43).
        await recordNotification(tx, {
          kind: 'guest_pass_used',
          barrierId: barrier.id,
          userId: current.forUser,
        });
        return repository.updateGuestPass(tx, current.id, { phoneId: phone.id });
      });
      deps.notifyDeviceCommands([barrierId]);
      deps.logger.info({ barrierId, passId: pass.id }, 'guest pass used');
      return {
        ...publicView(pass, found.address),
        used: true,
        device_phone: found.devicePhone,
        phone: body.phone,
        holder_key: holderKey(pass.id, body.phone),
      };
    },
  };
}
