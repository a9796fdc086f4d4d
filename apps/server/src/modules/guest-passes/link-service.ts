/**
 * A guest pass's link, used without a login (issue 14 part 5; the passes themselves: service.ts): the guest
 * opens it, asks for a code (the one code path with its budgets: `issueCode`) and redeems it. Redeeming runs
 * in one transaction under the barrier's lock and the pass's row lock: the pass becomes `used` and the number a
 * temporary phone of the resident with the pass's window (phone-changes.ts, so limits, slot, history, expiry
 * and the outbox apply as for any temporary phone). On a model with time windows that is one SMS (the add with
 * its window); on a model without, the device worker adds the number at the window's start and deletes it at
 * its end (two SMS).
 *
 * Every link that cannot be used (unknown, malformed, used, revoked, expired, its barrier deleted or its
 * resident gone from it) is answered alike: 410 `guest_pass_unavailable`.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  GUEST_PASS_TOKEN_PATTERN,
  type PublicGuestPass,
  type RedeemedGuestPass,
  type RedeemGuestPassBody,
} from '@propusk/contracts/guest-passes';
import { smsSpender } from '../../engine/budget/index.ts';
import { loadCommittedSms, syncBarrierDevice } from '../../engine/plan/index.ts';
import { apiDateTime } from '../../lib/api-dates.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { gone, tooManyRequests } from '../../lib/errors.ts';
import { recordNotification } from '../../lib/notification-outbox.ts';
import { sha256 } from '../../lib/secrets.ts';
import { createSharedRateLimiter, type SharedRateLimiter } from '../../lib/shared-rate-limiter.ts';
import { issueCode, verifyCode } from '../auth/service.ts';
import { consumeVerification, limitByIp } from '../auth/verification.ts';
import { userHasAccess } from '../barrier-policy/policy.ts';
import { type Actor, addPhoneLocked, lockLiveBarrier } from '../phones/phone-changes.ts';
import type { GuestPassRow } from './repository.ts';
import * as repository from './repository.ts';
import { passStatus } from './service.ts';

/** Calls of the public routes per address, and per link, within their windows (shared by every process). */
export const GUEST_IP_LIMIT = 60;
export const GUEST_IP_WINDOW_MS = 60 * 1000;
export const GUEST_TOKEN_LIMIT = 30;
export const GUEST_TOKEN_WINDOW_MS = 60 * 60 * 1000;

/** The public calls' budgets, per address and per link: built once with the routes, handed to each call. */
export interface GuestLinkLimits {
  byIp: SharedRateLimiter;
  byToken: SharedRateLimiter;
}

export function guestLinkLimits(deps: Pick<Dependencies, 'db' | 'clock'>): GuestLinkLimits {
  const now = () => deps.clock.now().getTime();
  return {
    byIp: createSharedRateLimiter(deps.db, {
      name: 'guest-pass-ip',
      limit: GUEST_IP_LIMIT,
      windowMs: GUEST_IP_WINDOW_MS,
      now,
    }),
    byToken: createSharedRateLimiter(deps.db, {
      name: 'guest-pass-link',
      limit: GUEST_TOKEN_LIMIT,
      windowMs: GUEST_TOKEN_WINDOW_MS,
      now,
    }),
  };
}

const unavailable = () => gone('guest_pass_unavailable');

/** Counts a public call against its budgets (a malformed link is never looked up); the link's hash. */
async function limitPublic(limits: GuestLinkLimits, token: string, ip: string): Promise<string> {
  await limitByIp(limits.byIp, ip);
  if (!GUEST_PASS_TOKEN_PATTERN.test(token)) throw unavailable();
  const tokenHash = sha256(token);
  const wait = await limits.byToken.hit(tokenHash);
  if (wait > 0) throw tooManyRequests('too_many_requests', wait);
  return tokenHash;
}

/** The key the guest who used a pass keeps to read the gate's number again (derived: nothing stored). */
const holderKey = (deps: Pick<Dependencies, 'secrets'>, passId: number, usedPhone: string) =>
  deps.secrets.hmac(`guest-pass-holder:${passId}:${usedPhone}`);

const publicView = (pass: GuestPassRow, address: string): PublicGuestPass => ({
  address,
  start: apiDateTime(pass.startTime) ?? '',
  end: apiDateTime(pass.endTime) ?? '',
  used: false,
  device_phone: null,
});

/**
 * A used pass whose window is not over, its resident still on the barrier: the link still opens for the
 * guest (issue 32 item 4), the gate's number only with his holder key. Anything else: the dead link's answer.
 */
async function heldPass(
  deps: Pick<Dependencies, 'db' | 'clock' | 'secrets'>,
  found: NonNullable<Awaited<ReturnType<typeof repository.findGuestPassByTokenHash>>>,
  key: string | undefined,
): Promise<PublicGuestPass> {
  const { pass } = found;
  if (pass.endTime.getTime() <= deps.clock.now().getTime()) throw unavailable();
  if (!(await userHasAccess(deps.db, pass.barrierId, pass.forUser))) throw unavailable();
  const expected = pass.usedPhone === null ? null : Buffer.from(holderKey(deps, pass.id, pass.usedPhone));
  const given = Buffer.from(key ?? '');
  const isHolder = expected !== null && expected.length === given.length && timingSafeEqual(expected, given);
  return {
    ...publicView(pass, found.address),
    used: true,
    device_phone: isHolder ? found.devicePhone : null,
  };
}

/** The pass of a link, if it can still be used; else the one answer for every dead link. */
async function usablePass(deps: Pick<Dependencies, 'db' | 'clock'>, tokenHash: string) {
  const found = await repository.findGuestPassByTokenHash(deps.db, tokenHash);
  if (!found || passStatus(found.pass, deps.clock.now()) !== 'created') throw unavailable();
  // A resident who left the barrier (or was removed) takes his passes with him: no code is sent for them.
  if (!(await userHasAccess(deps.db, found.pass.barrierId, found.pass.forUser))) throw unavailable();
  return found;
}

/** `holder`: the key a guest got when he used the pass (GUEST_PASS_HOLDER_HEADER). */
export async function viewGuestPass(
  deps: Pick<Dependencies, 'db' | 'clock' | 'secrets'>,
  limits: GuestLinkLimits,
  token: string,
  ip: string,
  holder?: string,
): Promise<PublicGuestPass> {
  const tokenHash = await limitPublic(limits, token, ip);
  const found = await repository.findGuestPassByTokenHash(deps.db, tokenHash);
  if (found?.pass.status === 'used') return heldPass(deps, found, holder);
  const { pass, address } = await usablePass(deps, tokenHash);
  return publicView(pass, address);
}

export async function requestGuestPassCode(
  deps: Dependencies,
  limits: GuestLinkLimits,
  token: string,
  phone: string,
  ip: string,
) {
  const tokenHash = await limitPublic(limits, token, ip);
  const { pass } = await usablePass(deps, tokenHash);
  await limitByIp(deps.rateLimits.codeRequests, ip);
  // A guest link is public: its codes spend the public share, capped per pass and per resident a day.
  return issueCode(deps, {
    phone,
    mode: 'guest_pass',
    ip,
    share: 'public',
    guestPass: { id: pass.id, forUser: pass.forUser },
  });
}

export async function redeemGuestPass(
  deps: Dependencies,
  limits: GuestLinkLimits,
  token: string,
  body: RedeemGuestPassBody,
  ip: string,
): Promise<RedeemedGuestPass> {
  const tokenHash = await limitPublic(limits, token, ip);
  const found = await usablePass(deps, tokenHash);
  // The code's tries, backoffs and address locks are those of every code (verification.ts).
  await verifyCode(deps, {
    phone: body.phone,
    code: body.code,
    verificationToken: body.verification_token,
    ip,
  });
  const barrierId = found.pass.barrierId;
  const pass = await deps.db.transaction(async (tx) => {
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
      barrier.limits.smsWeeklyLimit === null ? undefined : await loadCommittedSms(tx, deps, barrier.id, now);
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
    holder_key: holderKey(deps, pass.id, body.phone),
  };
}
