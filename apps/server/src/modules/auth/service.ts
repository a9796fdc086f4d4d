/**
 * Authentication: codes by SMS, their verification, login (with the administrator's password step),
 * refresh and logout (DESIGN.md section 3). Codes, passwords and tokens never reach a log line or a
 * response other than the one that issues them.
 */
import { verify } from '@node-rs/argon2';
import { AUTH_MESSAGES, type VerificationMode } from '@propusk/contracts/auth';
import { signAccessToken } from '../../lib/access-token.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import {
  badRequest,
  forbidden,
  HttpError,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../lib/errors.ts';
import { randomCode, randomToken, sha256 } from '../../lib/secrets.ts';
import type { AuthenticatedUser } from '../../plugins/authenticate.ts';
import {
  claimCodeTry,
  countAllVerificationsSince,
  countVerificationsSince,
  deleteAuthFailure,
  deleteAuthFailures,
  deleteVerification,
  findLatestVerification,
  findLiveUserByPhone,
  findSessionByRefreshHash,
  insertAuthFailure,
  insertUserIfMissing,
  insertVerification,
  lockCodeBudget,
  lockPhoneCodes,
  lockPhoneFailures,
  markVerified,
  revokeSession,
  setPasswordVerifiedAt,
  slideSession,
  type UserRow,
} from './repository.ts';
import { issueSession, REFRESH_TOKEN_MS } from './sessions.ts';
import {
  assertPasswordStepOpen,
  assertPhoneNotLocked,
  assertVerified,
  CODE_BUDGET_WINDOW_MS,
  CODE_DAY_MS,
  CODE_TTL_MS,
  codeMatches,
  consumeVerification,
  hashCode,
  limitByIp,
  loadVerification,
  MAX_TRIES_PER_CODE,
  PASSWORD_STEP_TTL_MS,
  RESEND_COOLDOWN_MS,
} from './verification.ts';

/** What the SMS says the code is for, so that nobody confirms an action he did not start. */
const CODE_PURPOSE: Record<VerificationMode, string> = {
  login: 'для входа в Пропуск',
  reset_password: 'для сброса пароля в Пропуск',
  change_phone_old: 'для смены номера в Пропуск',
  change_phone_new: 'для смены номера в Пропуск',
  change_password: 'для смены пароля в Пропуск',
  delete_account: 'для удаления аккаунта в Пропуск',
};

export function codeSmsText(mode: VerificationMode, code: string): string {
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
  // A code about one's own account goes only to the caller's own phone (issue 17 part 4): without a login
  // nobody can make the server text another person's number in these modes.
  if (OWN_ACCOUNT_MODES.includes(mode)) {
    if (!caller) throw unauthorized();
    if (!user || caller.id !== user.id) throw forbidden('not_own_phone');
  }
  if (!user) throw notFound('user_not_found');
  assertNotBlocked(user);
  if (ADMIN_MODES.includes(mode) && user.role !== 'admin') throw forbidden('admin_only');
}

export async function requestCode(
  deps: Dependencies,
  input: { phone: string; mode: VerificationMode; ip: string; caller: AuthenticatedUser | null },
) {
  limitByIp(deps.rateLimits.codeRequests, input.ip);
  const { phone, mode } = input;
  assertModeAllowed(mode, await findLiveUserByPhone(deps.db, phone), input.caller);

  const now = deps.clock.now();
  const token = randomToken();
  const tokenHash = sha256(token);
  const code = randomCode();
  const verificationId = await deps.db.transaction(async (tx) => {
    await lockPhoneCodes(tx, phone);
    // The 60 s resend pause is per address and phone: someone else asking for codes to this number does
    // not hold its owner back; the daily cap per number bounds what all of them together can send.
    const latest = await findLatestVerification(tx, phone, mode, input.ip);
    if (latest) {
      const waitMs = latest.createdAt.getTime() + RESEND_COOLDOWN_MS - now.getTime();
      if (waitMs > 0) throw tooManyRequests('code_already_sent', waitMs / 1000);
    }
    const today = await countVerificationsSince(tx, phone, new Date(now.getTime() - CODE_DAY_MS));
    if (today.count >= deps.config.CODES_PER_PHONE_PER_DAY) {
      const waitMs = (today.oldest ?? now).getTime() + CODE_DAY_MS - now.getTime();
      throw tooManyRequests('daily_code_limit', waitMs / 1000);
    }
    await lockCodeBudget(tx);
    const hour = await countAllVerificationsSince(tx, new Date(now.getTime() - CODE_BUDGET_WINDOW_MS));
    if (hour.count >= deps.config.SMS_CODE_BUDGET_PER_HOUR) {
      deps.metrics.smsCodesRefusedByBudget.inc();
      // No phone in this line: it is an alert about the whole server, read by whoever watches the logs.
      deps.logger.warn(
        { budget: deps.config.SMS_CODE_BUDGET_PER_HOUR, mode },
        'hourly SMS budget for codes is spent: code refused',
      );
      const waitMs = (hour.oldest ?? now).getTime() + CODE_BUDGET_WINDOW_MS - now.getTime();
      throw tooManyRequests('sms_budget_exhausted', waitMs / 1000);
    }
    return insertVerification(tx, {
      phone,
      mode,
      codeHash: hashCode(deps, tokenHash, code),
      tokenHash,
      requestedIp: input.ip,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
  });

  try {
    await deps.sms.send({ to: phone, text: codeSmsText(mode, code) });
    deps.metrics.smsSent.inc({ provider: deps.sms.name, purpose: 'code' });
  } catch (error) {
    deps.metrics.smsFailed.inc({ provider: deps.sms.name, purpose: 'code' });
    // Without the SMS the code is useless: forget it, so that the cooldown does not hold the user back.
    await deleteVerification(deps.db, verificationId);
    const reason = String((error as Error)?.message ?? error).replaceAll(code, '******');
    deps.logger.error({ phone, mode, reason }, 'verification code SMS was not sent');
    throw new HttpError(503, 'sms_failed');
  }
  deps.logger.info({ phone, mode }, 'verification code sent');
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
  limitByIp(deps.rateLimits.authCalls, input.ip);
  const { phone } = input;
  await assertPhoneNotLocked(deps.db, deps, phone);
  const row = await loadVerification(deps.db, deps, { token: input.verificationToken, phone, mode: null });
  if (row.mode !== 'change_phone_new') assertNotBlocked(await findLiveUserByPhone(deps.db, phone));

  // The try is counted before the code is compared (issue 17 part 2): per code every try counts (5 in all,
  // the right one included), per phone the try is recorded as a failure and taken back if the code matches.
  // Both happen under the phone's lock, so no number of parallel calls compares more than the stated tries.
  const now = deps.clock.now();
  const failureId = await deps.db.transaction(async (tx) => {
    await lockPhoneFailures(tx, phone);
    await assertPhoneNotLocked(tx, deps, phone);
    if (!(await claimCodeTry(tx, row.id, MAX_TRIES_PER_CODE))) throw badRequest('code_attempts_exhausted');
    return insertAuthFailure(tx, phone, 'code', now);
  });
  if (!codeMatches(deps, row, input.code)) {
    deps.logger.info({ phone, mode: row.mode }, 'wrong verification code');
    throw badRequest('invalid_code');
  }
  await deleteAuthFailure(deps.db, failureId);
  if (row.status === 'sent') await markVerified(deps.db, row.id, now);
  return { message: AUTH_MESSAGES.codeVerified };
}

function hasFreshPasswordStep(user: UserRow, now: Date): boolean {
  return (
    user.passwordVerifiedAt !== null &&
    now.getTime() - user.passwordVerifiedAt.getTime() <= PASSWORD_STEP_TTL_MS
  );
}

export async function login(
  deps: Dependencies,
  input: { phone: string; verificationToken: string; ip: string },
) {
  limitByIp(deps.rateLimits.authCalls, input.ip);
  const { phone } = input;
  const token = { token: input.verificationToken, phone, mode: 'login' as const };
  const existing = await findLiveUserByPhone(deps.db, phone);
  assertNotBlocked(existing);
  await assertVerified(deps.db, deps, token);
  const now = deps.clock.now();
  if (existing?.role === 'admin' && !hasFreshPasswordStep(existing, now)) {
    throw forbidden('password_required');
  }

  const result = await deps.db.transaction(async (tx) => {
    await consumeVerification(tx, deps, token);
    const user = await insertUserIfMissing(tx, phone, now);
    assertNotBlocked(user);
    if (user.role === 'admin') {
      if (!hasFreshPasswordStep(user, now)) throw forbidden('password_required');
      // One password step opens one login.
      await setPasswordVerifiedAt(tx, user.id, null);
    }
    return { userId: user.id, tokens: await issueSession(deps, tx, user.id) };
  });
  deps.logger.info({ userId: result.userId }, 'logged in');
  return result.tokens;
}

export async function verifyAdminPassword(
  deps: Dependencies,
  input: { phone: string; password: string; ip: string },
) {
  limitByIp(deps.rateLimits.authCalls, input.ip);
  const { phone } = input;
  const user = await findLiveUserByPhone(deps.db, phone);
  assertNotBlocked(user);
  // Only an administrator has a password step, so only his failures are counted (issue 17 part 3): guesses
  // against an ordinary user's number lock nothing. They still spend the address's budget.
  if (user?.role !== 'admin' || user.passwordHash === null) {
    deps.logger.info({ phone }, 'password step for a phone without one');
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
    deps.logger.info({ phone }, 'wrong administrator password');
    throw badRequest('invalid_credentials');
  }
  await deps.db.transaction(async (tx) => {
    await deleteAuthFailure(tx, failureId);
    await deleteAuthFailures(tx, phone, 'password');
    await setPasswordVerifiedAt(tx, user.id, now);
  });
  return { message: AUTH_MESSAGES.passwordVerified };
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await verify(hash, password);
  } catch {
    return false;
  }
}

export async function refreshAccessToken(deps: Dependencies, input: { refresh: string; ip: string }) {
  limitByIp(deps.rateLimits.authCalls, input.ip);
  const now = deps.clock.now();
  const session = await findSessionByRefreshHash(deps.db, sha256(input.refresh));
  if (
    !session ||
    session.revokedAt !== null ||
    session.userDeletedAt !== null ||
    session.expiresAt.getTime() <= now.getTime()
  ) {
    throw unauthorized('refresh_invalid');
  }
  assertNotBlocked({ isActive: session.userIsActive });
  await slideSession(deps.db, session.id, now, new Date(now.getTime() + REFRESH_TOKEN_MS));
  const access = await signAccessToken(
    deps.secrets.jwtKey,
    { userId: session.userId, sessionId: session.id },
    now,
  );
  return { access };
}

/** Ends the session of a refresh token. Idempotent: an unknown or spent token is not an error. */
export async function logout(deps: Dependencies, input: { refresh: string; ip: string }): Promise<void> {
  limitByIp(deps.rateLimits.authCalls, input.ip);
  const session = await findSessionByRefreshHash(deps.db, sha256(input.refresh));
  if (session) await revokeSession(deps.db, session.id, deps.clock.now());
}

export async function checkAdmin(deps: Dependencies, input: { phone: string; ip: string }) {
  limitByIp(deps.rateLimits.authCalls, input.ip);
  const user = await findLiveUserByPhone(deps.db, input.phone);
  return { is_admin: user?.role === 'admin' && user.isActive };
}
