/**
 * The own profile (spec.md section 7 "Own profile") and the operator's account tools used by the CLI.
 * Every operation that needs a verification token checks it first (a clear refusal that leaves it usable)
 * and spends it inside the transaction of the change.
 */
import { hash } from '@node-rs/argon2';
import { AUTH_MESSAGES } from '@propusk/contracts/auth';
import { PROFILE_MESSAGES, type Profile, type UpdateProfileBody } from '@propusk/contracts/users';
import { smsSpender } from '../../engine/budget/index.ts';
import { lockBarrier, syncBarrierDevice } from '../../engine/plan/index.ts';
import { withAccountAnswers } from '../../lib/account-answers.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  isUniqueViolation,
  notFound,
  unauthorized,
} from '../../lib/errors.ts';
import { judgePassword } from '../../lib/password-strength.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  deleteAuthFailures,
  deletePasswordSteps,
  findLiveUserById,
  findLiveUserByPhone,
  insertAuthFailure,
  lockLiveUser,
  type UserRow,
} from '../auth/repository.ts';
import { phoneInUseError, verifyPassword } from '../auth/service.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import {
  assertPhoneBackoffOpen,
  assertVerified,
  consumeVerification,
  limitByIp,
} from '../auth/verification.ts';
import { movePrimaryPhoneLocked } from '../phones/phone-changes.ts';
import { consentState } from '../privacy/consent-service.ts';
import { takeUserOffBarriers } from './barrier-removal.ts';
import {
  countOwnedLiveBarriers,
  findLiveBarrierIdsWithPrimaryPhone,
  findOtherLiveUserIdByPhone,
  insertUser,
  updateUser,
} from './repository.ts';

function toProfile(user: UserRow): Profile {
  return {
    id: user.id,
    full_name: user.fullName,
    phone: user.phone,
    phone_privacy: user.phonePrivacy,
    role: user.role,
    is_active: user.isActive,
    password_change_required: user.passwordChangeRequired,
  };
}

async function loadCaller(deps: Dependencies, caller: AuthenticatedUser): Promise<UserRow> {
  const user = await findLiveUserById(deps.db, caller.id);
  if (!user) throw unauthorized();
  return user;
}

const hashPassword = (password: string) => hash(password);

/**
 * The own profile as the session check of this request read it (`authenticate` loads every profile field
 * and refuses a blocked account, with whether the account has consented to the current privacy policy: our
 * client shows its blocking consent screen on it, docs/decisions/0022), so this call makes no query of its own.
 */
export function getProfile(deps: Pick<Dependencies, 'config'>, caller: AuthenticatedUser): Profile {
  return {
    id: caller.id,
    full_name: caller.fullName,
    phone: caller.phone,
    phone_privacy: caller.phonePrivacy,
    role: caller.role,
    is_active: true,
    consent_required: !caller.consentedToCurrentPolicy,
    policy_version: deps.config.privacyPolicy.version,
    password_change_required: caller.passwordChangeRequired,
  };
}

export async function updateProfile(
  deps: Dependencies,
  caller: AuthenticatedUser,
  body: UpdateProfileBody,
): Promise<Profile> {
  await updateUser(
    deps.db,
    caller.id,
    {
      ...(body.full_name !== undefined ? { fullName: body.full_name === '' ? null : body.full_name } : {}),
      ...(body.phone_privacy !== undefined ? { phonePrivacy: body.phone_privacy } : {}),
    },
    deps.clock.now(),
  );
  return { ...toProfile(await loadCaller(deps, caller)), ...(await consentState(deps, caller.id)) };
}

/**
 * Deletes the caller's account: his numbers leave every device, his access and pending requests end, his
 * sessions are revoked and his phone number is free for a new account. An owner of live barriers is
 * refused (409): his barriers would be left without an administrator.
 */
export async function deleteAccount(
  deps: Dependencies,
  caller: AuthenticatedUser,
  input: { verificationToken: string },
): Promise<void> {
  const user = await loadCaller(deps, caller);
  const token = { token: input.verificationToken, phone: user.phone, mode: 'delete_account' as const };
  await assertVerified(deps.db, deps, token);
  const now = deps.clock.now();
  const touched = await deps.db.transaction(async (tx) => {
    if (!(await lockLiveUser(tx, user.id))) throw unauthorized();
    await consumeVerification(tx, deps, token);
    if ((await countOwnedLiveBarriers(tx, user.id)) > 0) throw conflict('owns_barriers');
    const barrierIds = await takeUserOffBarriers(tx, deps, user.id, 'user_deleted');
    await updateUser(tx, user.id, { deletedAt: now, passwordHash: null }, now);
    await deletePasswordSteps(tx, user.id);
    await revokeUserSessions(tx, user.id, now);
    return barrierIds;
  });
  if (touched.length > 0) deps.notifyDeviceCommands(touched);
  deps.logger.info({ userId: user.id }, 'account deleted');
}

/**
 * Moves the caller to a new number: the account, and his primary phone on every barrier
 * (`movePrimaryPhoneLocked`: same slot, an `update_phone` action, the device commands). His own extra phone
 * with the new number on a barrier is removed (it would duplicate the primary); another user's phone with
 * that number refuses the change (409).
 */
export async function changePhone(
  deps: Dependencies,
  caller: AuthenticatedUser,
  input: { newPhone: string; oldVerificationToken: string; newVerificationToken: string },
): Promise<{ phone: string }> {
  const user = await loadCaller(deps, caller);
  const { newPhone } = input;
  if (newPhone === user.phone) throw badRequest('same_phone');
  // `phone_in_use` tells that the number has an account: within his day of such answers (account-answers.ts).
  return withAccountAnswers(deps, user.id, () => movePhone(deps, user, input));
}

async function movePhone(
  deps: Dependencies,
  user: UserRow,
  input: { newPhone: string; oldVerificationToken: string; newVerificationToken: string },
): Promise<{ phone: string }> {
  const { newPhone } = input;
  if (await findLiveUserByPhone(deps.db, newPhone)) throw phoneInUseError();
  const oldToken = {
    token: input.oldVerificationToken,
    phone: user.phone,
    mode: 'change_phone_old' as const,
  };
  const newToken = { token: input.newVerificationToken, phone: newPhone, mode: 'change_phone_new' as const };
  await assertVerified(deps.db, deps, oldToken);
  await assertVerified(deps.db, deps, newToken);

  const now = deps.clock.now();
  let touched: number[];
  try {
    touched = await deps.db.transaction(async (tx) => {
      const locked = await lockLiveUser(tx, user.id);
      if (!locked) throw unauthorized();
      await consumeVerification(tx, deps, { ...oldToken, phone: locked.phone });
      await consumeVerification(tx, deps, newToken);
      if (await findOtherLiveUserIdByPhone(tx, newPhone, user.id)) throw phoneInUseError();
      await updateUser(tx, user.id, { phone: newPhone }, now);

      const barrierIds = await findLiveBarrierIdsWithPrimaryPhone(tx, user.id);
      const actor = { author: 'user' as const, userId: user.id };
      for (const barrierId of barrierIds) {
        await lockBarrier(tx, barrierId);
        const outcome = await movePrimaryPhoneLocked(tx, deps, barrierId, user.id, newPhone, actor);
        if (outcome === 'taken') throw conflict('phone_on_own_barrier');
      }
      const synced: number[] = [];
      for (const barrierId of barrierIds) {
        // His own change: a resident's share pays for it (refused over it, the whole change with it); on his
        // own or staffed barriers the reserve does (docs/decisions/0030).
        const spentBy = await smsSpender(tx, barrierId, user.id);
        if ((await syncBarrierDevice(tx, deps, barrierId, { spentBy })) > 0) synced.push(barrierId);
      }
      return synced;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_phone_live_unique')) throw phoneInUseError();
    throw error;
  }
  if (touched.length > 0) deps.notifyDeviceCommands(touched);
  deps.logger.info({ userId: user.id }, 'phone number changed');
  return { phone: newPhone };
}

/** 400 `password_too_weak` on `field` unless the password meets the rule (lib/password-strength.ts). */
function assertPasswordAllowed(
  password: string,
  user: { phone: string; fullName: string | null },
  field: string,
): void {
  if (judgePassword(password, [user.phone, user.fullName]) === 'ok') return;
  throw new HttpError(400, 'password_too_weak', undefined, { [field]: [AUTH_MESSAGES.passwordTooWeak] });
}

/**
 * An administrator's password change. Ends his other sessions and keeps the one that made the change (ASVS
 * 3.3.3; the spec's client goes on with it after the change).
 */
export async function changePassword(
  deps: Dependencies,
  caller: AuthenticatedUser,
  input: { oldPassword: string; newPassword: string; verificationToken: string },
): Promise<{ message: string }> {
  const user = await loadCaller(deps, caller);
  if (user.role !== 'admin') throw forbidden('admin_only');
  assertPasswordAllowed(input.newPassword, user, 'new_password');
  await assertPhoneBackoffOpen(deps.db, deps, user.phone);
  const token = { token: input.verificationToken, phone: user.phone, mode: 'change_password' as const };
  await assertVerified(deps.db, deps, token);
  const isCorrect =
    user.passwordHash !== null && (await verifyPassword(user.passwordHash, input.oldPassword));
  const now = deps.clock.now();
  if (!isCorrect) {
    await insertAuthFailure(deps.db, user.phone, 'password', now);
    throw new HttpError(400, 'wrong_old_password', undefined, {
      old_password: [PROFILE_MESSAGES.wrongOldPassword],
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    if (!(await lockLiveUser(tx, user.id))) throw unauthorized();
    await consumeVerification(tx, deps, token);
    await updateUser(tx, user.id, { passwordHash, passwordChangeRequired: false }, now);
    await deletePasswordSteps(tx, user.id);
    await revokeUserSessions(tx, user.id, now, { keep: caller.sessionId });
  });
  deps.logger.info({ userId: user.id }, 'password changed: his other sessions ended');
  return { message: PROFILE_MESSAGES.passwordChanged };
}

/**
 * `PATCH /api/users/me/password/reset/`. Only administrators have passwords, and an SMS code alone must not
 * set one (a SIM swap would give the account away): the operator sets it with `npm run cli -- set-password`
 * (docs/decisions/0012). The call answers why, for every account, before the token is looked at.
 */
export async function resetPassword(
  deps: Dependencies,
  input: { phone: string; newPassword: string; verificationToken: string; ip: string },
): Promise<{ message: string }> {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const user = await findLiveUserByPhone(deps.db, input.phone);
  if (!user) throw notFound('user_not_found');
  if (!user.isActive) throw forbidden('user_blocked');
  if (user.role !== 'admin') throw forbidden('admin_only');
  deps.logger.info({ userId: user.id }, 'password reset by SMS refused: the operator sets it');
  throw forbidden('admin_password_reset_cli');
}

/**
 * The operator sets the password of an existing administrator (CLI `set-password`): all his sessions and
 * password steps end. Not an administrator (or no such account) is refused; `create-admin` makes one.
 */
export async function setAdminPassword(
  deps: Dependencies,
  input: { phone: string; password: string },
): Promise<{ id: number }> {
  const user = await findLiveUserByPhone(deps.db, input.phone);
  if (!user) throw notFound('user_not_found');
  if (user.role !== 'admin') throw forbidden('admin_only');
  assertPasswordAllowed(input.password, user, 'password');
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (!(await lockLiveUser(tx, user.id))) throw notFound('user_not_found');
    await updateUser(tx, user.id, { passwordHash, passwordChangeRequired: false }, now);
    await deletePasswordSteps(tx, user.id);
    await deleteAuthFailures(tx, user.phone, 'password');
    await revokeUserSessions(tx, user.id, now);
  });
  deps.logger.info({ userId: user.id }, 'password set by the operator');
  return { id: user.id };
}

// The operator's tools (CLI). Only the CLI makes administrators.

/**
 * A new administrator's number is shown to the residents of his barriers only (issue 41): «Виден всем» put an
 * owner's personal mobile before any logged-in person. He widens it on his profile if he wants.
 */
const NEW_ADMIN_PHONE_PRIVACY = 'protected' as const;

export async function createOrPromoteAdmin(
  deps: Dependencies,
  input: { phone: string; password: string; fullName?: string | undefined },
): Promise<{ id: number; created: boolean }> {
  assertPasswordAllowed(input.password, { phone: input.phone, fullName: input.fullName ?? null }, 'password');
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const existing = await findLiveUserByPhone(tx, input.phone);
    if (existing) {
      await updateUser(
        tx,
        existing.id,
        {
          role: 'admin',
          // A resident made an administrator: his number shown to his residents only (below); an
          // administrator set up again keeps his own choice.
          ...(existing.role === 'admin' ? {} : { phonePrivacy: NEW_ADMIN_PHONE_PRIVACY }),
          passwordHash,
          passwordChangeRequired: false,
          ...(input.fullName !== undefined ? { fullName: input.fullName } : {}),
        },
        now,
      );
      return { id: existing.id, created: false };
    }
    const id = await insertUser(
      tx,
      {
        phone: input.phone,
        fullName: input.fullName ?? null,
        role: 'admin',
        passwordHash,
        phonePrivacy: NEW_ADMIN_PHONE_PRIVACY,
      },
      now,
    );
    return { id, created: true };
  });
}

/**
 * Blocks an account platform-wide: every call of his is refused, his sessions end, his numbers leave every
 * device (reason `barrier_exit`) and his access to other owners' barriers ends.
 */
export async function blockAccount(
  deps: Dependencies,
  input: { phone: string; reason: string },
): Promise<{ id: number }> {
  const user = await findLiveUserByPhone(deps.db, input.phone);
  if (!user) throw notFound('user_not_found');
  const now = deps.clock.now();
  const touched = await deps.db.transaction(async (tx) => {
    if (!(await lockLiveUser(tx, user.id))) throw notFound('user_not_found');
    await updateUser(tx, user.id, { isActive: false, blockReason: input.reason }, now);
    await deletePasswordSteps(tx, user.id);
    await revokeUserSessions(tx, user.id, now);
    return takeUserOffBarriers(tx, deps, user.id, 'barrier_exit');
  });
  if (touched.length > 0) deps.notifyDeviceCommands(touched);
  deps.logger.info({ userId: user.id }, 'account blocked platform-wide');
  return { id: user.id };
}

/** Lifts a platform-wide block. Restores nothing else: access must be granted again. */
export async function unblockAccount(deps: Dependencies, input: { phone: string }): Promise<{ id: number }> {
  const user = await findLiveUserByPhone(deps.db, input.phone);
  if (!user) throw notFound('user_not_found');
  await updateUser(deps.db, user.id, { isActive: true, blockReason: null }, deps.clock.now());
  deps.logger.info({ userId: user.id }, 'account unblocked');
  return { id: user.id };
}
