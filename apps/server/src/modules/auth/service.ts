/**
 * Authentication: codes by SMS, their verification, login (with the administrator's password step),
 * refresh and logout (DESIGN.md section 3). Codes, passwords and tokens never reach a log line or a
 * response other than the one that issues them.
 */

import { verify } from '@node-rs/argon2';
import { AUTH_MESSAGES, type VerificationMode } from '@propusk/contracts/auth';
import { maskPhonesInText } from '@propusk/contracts/phone-mask';
import { signAccessToken } from '../../lib/access-token.ts';
import { withAccountAnswers } from '../../lib/account-answers.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import {
  badRequest,
  forbidden,
  HttpError,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../lib/errors.ts';
import { phoneLogKey } from '../../lib/log-privacy.ts';
import { judgePassword } from '../../lib/password-strength.ts';
import { randomCode, randomToken, sha256 } from '../../lib/secrets.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  assertCurrentPolicyVersion,
  isConsentRequired,
  recordConsentIn,
} from '../privacy/consent-service.ts';
import {
  assertCodeBudget,
  assertSmsPrefixAllowed,
  type BudgetShare,
  type GuestPassCodeSource,
} from './code-budget.ts';
import { loggedIn } from './login-hooks.ts';
import {
  claimCodeTry,
  countVerificationsSince,
  deleteAuthFailure,
  deleteAuthFailures,
  deleteOldPasswordSteps,
  deleteRetiredRefreshTokens,
  deleteVerification,
  findLatestVerification,
  findLiveUserByPhone,
  findRetiredRefreshToken,
  findSessionIdByAnyRefreshHash,
  insertAuthFailure,
  insertPasswordStep,
  insertUserIfMissing,
  insertVerification,
  lockPhoneCodes,
  lockPhoneFailures,
  lockSessionByRefreshHash,
  markVerified,
  requirePasswordChange,
  retireRefreshToken,
  revokeSession,
  rotateSession,
  spendPasswordStep,
  type UserRow,
} from './repository.ts';
import { issueSession, REFRESH_TOKEN_MS, sessionMaxAgeMs } from './sessions.ts';
import {
  assertCodeTriesOpen,
  assertPasswordStepOpen,
  assertVerified,
  CODE_DAY_MS,
  CODE_TTL_MS,
  type CodeMode,
  codeMatches,
  consumeVerification,
  hashCode,
  limitByIp,
  loadVerification,
  MAX_TRIES_PER_CODE,
  PASSWORD_STEP_SAME_ADDRESS_MS,
  PASSWORD_STEP_TTL_MS,
  RESEND_COOLDOWN_MS,
} from './verification.ts';

/** What the SMS says the code is for, so that nobody confirms an action he did not start. */
const CODE_PURPOSE: Record<CodeMode, string> = {
  login: 'для входа в Пропуск',
  reset_password: 'для сброса пароля в Пропуск',
  change_phone_old: 'для смены номера в Пропуск',
  change_phone_new: 'для смены номера в Пропуск',
  change_password: 'для смены пароля в Пропуск',
  delete_account: 'для удаления аккаунта в Пропуск',
  guest_pass: 'для гостевого пропуска в Пропуск',
};

export function codeSmsText(mode: CodeMode, code: string): string {
  return `Код ${CODE_PURPOSE[mode]}: ${code}. Никому не сообщайте его.`;
}

/** Modes that concern the logged-in user's own account. */
const OWN_ACCOUNT_MODES: readonly VerificationMode[] = [
  'change_phone_old',
  'change_password',
  'delete_account',
];
const ADMIN_MODES: readonly VerificationMode[] = ['reset_password', 'change_password'];

export const phoneInUseError = () =>
  new HttpError(400, 'phone_in_use', undefined, { phone: [AUTH_MESSAGES.phoneInUse] });

function assertNotBlocked(user: Pick<UserRow, 'isActive'> | undefined): void {
  if (user && !user.isActive) throw forbidden('user_blocked');
}

/** DESIGN.md section 3, mode rules. */
function assertModeAllowed(
  mode: VerificationMode,
  user: UserRow | undefined,
  caller: AuthenticatedUser | null,
): void {
  if (mode === 'change_phone_new') {
    if (user) throw phoneInUseError();
    return;
  }
  if (mode === 'login') {
    assertNotBlocked(user);
    return;
  }
  // A code about one's own account: the spec's client asks for it without a login (issue 29 part 11), so
  // without one it is bounded exactly like a login code (the address's rate, the number's daily cap, the
  // server's budget) and only says what it is for; with a login it goes only to the caller's own phone.
  if (OWN_ACCOUNT_MODES.includes(mode) && caller && (!user || caller.id !== user.id)) {
    throw forbidden('not_own_phone');
  }
  if (!user) throw notFound('user_not_found');
  assertNotBlocked(user);
  if (ADMIN_MODES.includes(mode) && user.role !== 'admin') throw forbidden('admin_only');
  // An SMS code alone must not set an administrator's password (SIM swap): the operator does it (0012).
  if (mode === 'reset_password') throw forbidden('admin_password_reset_cli');
}

export async function requestCode(
  deps: Dependencies,
  input: { phone: string; mode: VerificationMode; ip: string; caller: AuthenticatedUser | null },
) {
  await limitByIp(deps.rateLimits.codeRequests, input.ip);
  assertSmsPrefixAllowed(deps, input.phone);
  const issue = async () => {
    const user = await findLiveUserByPhone(deps.db, input.phone);
    assertModeAllowed(input.mode, user, input.caller);
    return issueCode(deps, { ...input, share: budgetShareOf(user, input.caller) });
  };
  // A new number's code refused with `phone_in_use` tells that it has an account: within the caller's day
  // of such answers (account-answers.ts). Without a caller the mode is refused anyway.
  return input.mode === 'change_phone_new' && input.caller
    ? withAccountAnswers(deps, input.caller.id, issue)
    : issue();
}

/**
 * Which part of the hourly budget pays for a code (code-budget.ts): an administrator's codes (his number, or
 * he is the caller) never wait for it; an existing account's or a logged-in caller's use the whole budget;
 * anyone else only the public share.
 */
function budgetShareOf(user: UserRow | undefined, caller: AuthenticatedUser | null): BudgetShare {
  if (user?.role === 'admin' || caller?.role === 'admin') return 'admin';
  if (user || caller) return 'account';
  return 'public';
}

/**
 * Stores a code and texts it, within every budget of codes: the 60 s resend pause per number, the
 * daily cap per phone and the server's hourly budget. The caller has checked who may ask (mode rules, the
 * address's rate). Answers the verification token, never the code.
 */
export async function issueCode(
  deps: Dependencies,
  input: {
    phone: string;
    mode: CodeMode;
    ip: string;
    share: BudgetShare;
    guestPass?: GuestPassCodeSource | undefined;
  },
) {
  const { phone, mode } = input;
  assertSmsPrefixAllowed(deps, phone);
  const now = deps.clock.now();
  const token = randomToken();
  const tokenHash = sha256(token);
  const code = randomCode();
  const verificationId = await deps.db.transaction(async (tx) => {
    await lockPhoneCodes(tx, phone);
    // The 60 s resend pause is the number's (per mode), whatever the address: a new address does not skip it
    // (issue 40 item 4); someone else's request holds the owner back a minute at most, and the daily cap per
    // number bounds the day.
    const latest = await findLatestVerification(tx, phone, mode);
    if (latest) {
      const waitMs = latest.createdAt.getTime() + RESEND_COOLDOWN_MS - now.getTime();
      if (waitMs > 0) throw tooManyRequests('code_already_sent', waitMs / 1000);
    }
    const today = await countVerificationsSince(tx, phone, new Date(now.getTime() - CODE_DAY_MS));
    if (today.count >= deps.config.CODES_PER_PHONE_PER_DAY) {
      const waitMs = (today.oldest ?? now).getTime() + CODE_DAY_MS - now.getTime();
      throw tooManyRequests('daily_code_limit', waitMs / 1000);
    }
    await assertCodeBudget(tx, deps, { share: input.share, mode, guestPass: input.guestPass, now });
    return insertVerification(tx, {
      phone,
      mode,
      codeHash: hashCode(deps, tokenHash, code),
      tokenHash,
      requestedIp: input.ip,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      budgetShare: input.share,
      guestPassId: input.guestPass?.id ?? null,
    });
  });

  try {
    await deps.sms.send({ to: phone, text: codeSmsText(mode, code) });
    deps.metrics.smsSent.inc({ provider: deps.sms.name, purpose: 'code' });
  } catch (error) {
    deps.metrics.smsFailed.inc({ provider: deps.sms.name, purpose: 'code' });
    // Without the SMS the code is useless: forget it, so that the cooldown does not hold the user back.
    await deleteVerification(deps.db, verificationId);
    const reason = maskPhonesInText(String((error as Error)?.message ?? error).replaceAll(code, '******'));
    deps.logger.error(
      { phoneKey: phoneLogKey(deps.secrets, phone), mode, reason },
      'verification code SMS was not sent',
    );
    throw new HttpError(503, 'sms_failed');
  }
  deps.logger.info({ phoneKey: phoneLogKey(deps.secrets, phone), mode }, 'verification code sent');
  return {
    verification_token: token,
    detail: AUTH_MESSAGES.codeSent,
    retry_after: Math.ceil(RESEND_COOLDOWN_MS / 1000),
  };
}

export async function verifyCode(
  deps: Dependencies,
  input: { phone: string; code: string; verificationToken: string; ip: string },
) {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const { phone, ip } = input;
  const row = await loadVerification(deps.db, deps, { token: input.verificationToken, phone, mode: null });
  const account = row.mode === 'change_phone_new' ? undefined : await findLiveUserByPhone(deps.db, phone);
  assertNotBlocked(account);

  // The try is counted before the code is compared (issue 17 part 2): per code every try counts (5 in all,
  // the right one included), per address and phone the try is recorded as a failure and taken back if the
  // code matches. Both happen under the phone's lock, so no number of parallel calls compares more than the
  // stated tries. A dead code answers so even during the backoff (the backoff's 429 rolls the claim back).
  const now = deps.clock.now();
  const { failureId, attemptsLeft } = await deps.db.transaction(async (tx) => {
    await lockPhoneFailures(tx, phone);
    const left = await claimCodeTry(tx, row.id, MAX_TRIES_PER_CODE);
    if (left === null) throw badRequest('code_attempts_exhausted');
    await assertCodeTriesOpen(tx, deps, phone, ip);
    return { failureId: await insertAuthFailure(tx, phone, 'code', now, ip), attemptsLeft: left };
  });
  if (!codeMatches(deps, row, input.code)) {
    deps.logger.info(
      { phoneKey: phoneLogKey(deps.secrets, phone), mode: row.mode },
      'wrong verification code',
    );
    // The person sees how many tries this code has left (issue 32 item 6); 0: ask for a new code.
    throw badRequest('invalid_code', undefined, { attempts_left: attemptsLeft });
  }
  await deleteAuthFailure(deps.db, failureId);
  if (row.status === 'sent') await markVerified(deps.db, row.id, now);
  if (row.mode !== 'login') return { message: AUTH_MESSAGES.codeVerified };
  // The person has just proven the number: our client shows the policy before the login when this account has
  // not consented to its current version (or there is no account yet: it is made only with the consent).
  return {
    message: AUTH_MESSAGES.codeVerified,
    consent_required: await isConsentRequired(deps, deps.db, account?.id),
    policy_version: deps.config.privacyPolicy.version,
  };
}

export async function login(
  deps: Dependencies,
  input: {
    phone: string;
    verificationToken: string;
    passwordNonce?: string | undefined;
    /** The privacy policy version accepted on our client; absent from the spec's client (0022). */
    consentVersion?: string | undefined;
    ip: string;
  },
) {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const { phone } = input;
  const token = { token: input.verificationToken, phone, mode: 'login' as const };
  assertNotBlocked(await findLiveUserByPhone(deps.db, phone));
  await assertVerified(deps.db, deps, token);
  // Refused before anything is written, so that the token stays usable for a login with the current version.
  if (input.consentVersion !== undefined) assertCurrentPolicyVersion(deps, input.consentVersion);
  const now = deps.clock.now();

  const result = await deps.db.transaction(async (tx) => {
    await consumeVerification(tx, deps, token);
    // The lock an invitation by number takes (access-requests/phone-invitation-service.ts): an invitation is
    // either made before this account (and claimed here) or sees the account and invites it the ordinary way.
    await lockPhoneCodes(tx, phone);
    const user = await insertUserIfMissing(tx, phone, now);
    assertNotBlocked(user);
    // What other domains do at a login (auth/login-hooks.ts): invitations waiting for this number become
    // ordinary invitations of the (new) account.
    await loggedIn(deps, tx, { phone, userId: user.id }, now);
    // Consent belongs to the account from its first row (docs/decisions/0022).
    if (input.consentVersion !== undefined) {
      await recordConsentIn(tx, deps, { userId: user.id, version: input.consentVersion, now });
    }
    // An administrator's login spends one password step bound to this login (docs/decisions/0012): the one of
    // the nonce it sends, or, for a client that sends none, one made from this same address within 5 minutes.
    // A refusal rolls the transaction back, so the verification token stays usable.
    if (user.role === 'admin') {
      const spent = await spendPasswordStep(tx, {
        userId: user.id,
        nonceHash: input.passwordNonce === undefined ? null : sha256(input.passwordNonce),
        ip: input.ip,
        now,
        sameAddressSince: new Date(now.getTime() - PASSWORD_STEP_SAME_ADDRESS_MS),
      });
      if (!spent) throw forbidden('password_required');
    }
    return { userId: user.id, tokens: await issueSession(deps, tx, user.id) };
  });
  // Housekeeping after the answer's work: rows no login can use any more.
  await deleteOldPasswordSteps(deps.db, now);
  await deleteRetiredRefreshTokens(deps.db, new Date(now.getTime() - sessionMaxAgeMs(deps.config)));
  deps.logger.info({ userId: result.userId }, 'logged in');
  return result.tokens;
}

export async function verifyAdminPassword(
  deps: Dependencies,
  input: { phone: string; password: string; ip: string },
) {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const { phone } = input;
  const user = await findLiveUserByPhone(deps.db, phone);
  assertNotBlocked(user);
  // Only an administrator has a password step, so only his failures are counted (issue 17 part 3): guesses
  // against an ordinary user's number lock nothing. They still spend the address's budget.
  if (user?.role !== 'admin' || user.passwordHash === null) {
    deps.logger.info({ phoneKey: phoneLogKey(deps.secrets, phone) }, 'password step for a phone without one');
    throw badRequest('invalid_credentials');
  }
  const passwordHash = user.passwordHash;
  const now = deps.clock.now();
  const failureId = await deps.db.transaction(async (tx) => {
    await lockPhoneFailures(tx, phone);
    await assertPasswordStepOpen(tx, deps, phone);
    // Recorded before the slow comparison, so that parallel guesses wait their turn in the backoff.
    return insertAuthFailure(tx, phone, 'password', now);
  });
  if (!(await verifyPassword(passwordHash, input.password))) {
    deps.logger.info({ phoneKey: phoneLogKey(deps.secrets, phone) }, 'wrong administrator password');
    throw badRequest('invalid_credentials');
  }
  const nonce = randomToken();
  // The one moment the server sees the password: one that no longer meets the rule (issue 29 part 9) must be
  // replaced before the administrator area opens again.
  const passwordChangeRequired =
    user.passwordChangeRequired || judgePassword(input.password, [user.phone, user.fullName]) !== 'ok';
  await deps.db.transaction(async (tx) => {
    if (passwordChangeRequired && !user.passwordChangeRequired) await requirePasswordChange(tx, user.id);
    await deleteAuthFailure(tx, failureId);
    await deleteAuthFailures(tx, phone, 'password');
    await insertPasswordStep(tx, {
      userId: user.id,
      nonceHash: sha256(nonce),
      ip: input.ip,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_STEP_TTL_MS),
    });
  });
  return {
    message: AUTH_MESSAGES.passwordVerified,
    password_nonce: nonce,
    password_change_required: passwordChangeRequired,
  };
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await verify(hash, password);
  } catch {
    return false;
  }
}

type RefreshOutcome =
  | { kind: 'invalid' }
  | { kind: 'blocked' }
  | { kind: 'reused'; sessionId: string; userId: number }
  | { kind: 'rotated'; sessionId: string; userId: number; refresh: string };

/**
 * A new access token and a new refresh token (rotation, docs/decisions/0012). The session accepts its current
 * refresh token and, while the current one has not been presented, the one it replaced (a client that keeps
 * its first token, as the spec's client does, or a lost response). Any token rotated out before that is
 * reuse: someone else holds a copy, so the whole session ends. A session also ends `SESSION_MAX_AGE_DAYS`
 * after its login, however often it is refreshed.
 */
export async function refreshAccessToken(deps: Dependencies, input: { refresh: string; ip: string }) {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const now = deps.clock.now();
  const presented = sha256(input.refresh);
  const outcome = await deps.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const session = await lockSessionByRefreshHash(tx, presented);
    if (!session) {
      const retired = await findRetiredRefreshToken(tx, presented);
      if (!retired) return { kind: 'invalid' };
      await revokeSession(tx, retired.sessionId, now);
      return { kind: 'reused', ...retired };
    }
    const endsAt = session.createdAt.getTime() + sessionMaxAgeMs(deps.config);
    if (
      session.revokedAt !== null ||
      session.userDeletedAt !== null ||
      session.expiresAt.getTime() <= now.getTime() ||
      endsAt <= now.getTime()
    ) {
      return { kind: 'invalid' };
    }
    if (!session.userIsActive) return { kind: 'blocked' };
    const refresh = randomToken();
    const isCurrent = session.refreshTokenHash === presented;
    // Presenting the current token retires the previous one; presenting the previous one retires the
    // current one, which nobody has used (else it would be the previous one by now).
    const retiring = isCurrent ? session.previousRefreshTokenHash : session.refreshTokenHash;
    if (retiring !== null) await retireRefreshToken(tx, retiring, session.id, now);
    await rotateSession(tx, session.id, {
      refreshTokenHash: sha256(refresh),
      previousRefreshTokenHash: presented,
      now,
      expiresAt: new Date(Math.min(now.getTime() + REFRESH_TOKEN_MS, endsAt)),
    });
    return { kind: 'rotated', sessionId: session.id, userId: session.userId, refresh };
  });
  if (outcome.kind === 'invalid') throw unauthorized('refresh_invalid');
  if (outcome.kind === 'blocked') throw forbidden('user_blocked');
  if (outcome.kind === 'reused') {
    // No token in this line: the session and the user are enough to follow it up.
    deps.logger.warn(
      { sessionId: outcome.sessionId, userId: outcome.userId, ip: input.ip },
      'refresh token reused: session revoked',
    );
    throw unauthorized('refresh_reused');
  }
  const access = await signAccessToken(
    deps.secrets.jwtKey,
    { userId: outcome.userId, sessionId: outcome.sessionId },
    now,
  );
  return { access, refresh: outcome.refresh };
}

/** Ends the session of a refresh token. Idempotent: an unknown or spent token is not an error. */
export async function logout(deps: Dependencies, input: { refresh: string; ip: string }): Promise<void> {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const sessionId = await findSessionIdByAnyRefreshHash(deps.db, sha256(input.refresh));
  if (sessionId) await revokeSession(deps.db, sessionId, deps.clock.now());
}

export async function checkAdmin(deps: Dependencies, input: { phone: string; ip: string }) {
  await limitByIp(deps.rateLimits.authCalls, input.ip);
  const user = await findLiveUserByPhone(deps.db, input.phone);
  return { is_admin: user?.role === 'admin' && user.isActive };
}
