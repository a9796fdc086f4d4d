/**
 * Verification tokens and the limits around codes (DESIGN.md section 3). A token goes sent → verified → used
 * and expires 10 minutes after it was issued, whatever its state. Any operation that needs one calls
 * `consumeVerification` inside its own transaction: if the operation then fails, the transaction rolls back
 * and the token stays usable; only a call that succeeds spends it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { VerificationMode } from '@propusk/contracts/auth';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { badRequest, gone, tooManyRequests } from '../../lib/errors.ts';
import { sha256 } from '../../lib/secrets.ts';
import {
  countAuthFailuresSince,
  findVerificationByTokenHash,
  markUsed,
  type VerificationRow,
} from './repository.ts';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const RESEND_COOLDOWN_MS = 60 * 1000;
/** Tries per code, the right one included (DESIGN.md: at most 5 wrong tries). */
export const MAX_TRIES_PER_CODE = 5;
export const MAX_FAILURES_PER_PHONE = 10;
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;
export const FREE_PASSWORD_FAILURES = 5;
export const PASSWORD_BACKOFF_BASE_MS = 60 * 1000;
export const PASSWORD_BACKOFF_MAX_MS = 60 * 60 * 1000;
/** Wrong passwords older than this no longer add to the backoff. */
export const PASSWORD_FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;
export const CODE_DAY_MS = 24 * 60 * 60 * 1000;
export const CODE_BUDGET_WINDOW_MS = 60 * 60 * 1000;
/** How long a successful administrator password step allows a login. */
export const PASSWORD_STEP_TTL_MS = 10 * 60 * 1000;

/** The keyed hash of a code, bound to its token so that one code cannot serve another verification. */
export function hashCode(deps: Pick<Dependencies, 'secrets'>, tokenHash: string, code: string): string {
  return deps.secrets.hmac(`code:${tokenHash}:${code}`);
}

export function codeMatches(
  deps: Pick<Dependencies, 'secrets'>,
  row: VerificationRow,
  code: string,
): boolean {
  const expected = Buffer.from(row.codeHash);
  const actual = Buffer.from(hashCode(deps, row.tokenHash, code));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Per-IP limit of an unauthenticated call: 429 once the address is over its budget. */
export function limitByIp(limiter: { hit(key: string): number }, ip: string): void {
  const wait = limiter.hit(ip);
  if (wait > 0) throw tooManyRequests('too_many_requests', wait);
}

/**
 * 429 once a phone has had 10 wrong codes within the last hour. Wrong passwords do not count here: they
 * only slow down the password step of an administrator (`assertPasswordStepOpen`).
 */
export async function assertPhoneNotLocked(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
): Promise<void> {
  const now = deps.clock.now();
  const { count, oldest } = await countAuthFailuresSince(
    executor,
    phone,
    'code',
    new Date(now.getTime() - FAILURE_WINDOW_MS),
  );
  if (count >= MAX_FAILURES_PER_PHONE) {
    const unlocksAt = (oldest ?? now).getTime() + FAILURE_WINDOW_MS;
    throw tooManyRequests('too_many_failures', (unlocksAt - now.getTime()) / 1000);
  }
}

/**
 * Backoff of an administrator's password step (issue 17 part 3): free for the first 5 wrong passwords, then
 * each try waits 1 minute after the last wrong one, doubling with every further failure up to 1 hour. A
 * right password clears the failures. Only the password step waits; codes and other users are untouched.
 */
export async function assertPasswordStepOpen(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
): Promise<void> {
  const now = deps.clock.now();
  const { count, newest } = await countAuthFailuresSince(
    executor,
    phone,
    'password',
    new Date(now.getTime() - PASSWORD_FAILURE_MEMORY_MS),
  );
  if (count < FREE_PASSWORD_FAILURES || !newest) return;
  const backoffMs = Math.min(
    PASSWORD_BACKOFF_BASE_MS * 2 ** (count - FREE_PASSWORD_FAILURES),
    PASSWORD_BACKOFF_MAX_MS,
  );
  const waitMs = newest.getTime() + backoffMs - now.getTime();
  if (waitMs > 0) throw tooManyRequests('too_many_failures', waitMs / 1000);
}

/**
 * The verification behind a token, checked against the phone and mode it must belong to. A token of
 * another phone or mode is answered exactly like an unknown one.
 */
export async function loadVerification(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  input: { token: string; phone: string; mode: VerificationMode | null },
  options: { forUpdate?: boolean } = {},
): Promise<VerificationRow> {
  const row = await findVerificationByTokenHash(executor, sha256(input.token), options);
  if (!row || row.phone !== input.phone || (input.mode !== null && row.mode !== input.mode)) {
    throw badRequest('verification_token_invalid');
  }
  if (deps.clock.now().getTime() >= row.expiresAt.getTime()) throw gone('verification_expired');
  if (row.status === 'used') throw badRequest('verification_token_used');
  return row;
}

/** Checks that a token is verified and still usable, without spending it. */
export async function assertVerified(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  input: { token: string; phone: string; mode: VerificationMode },
): Promise<VerificationRow> {
  const row = await loadVerification(executor, deps, input);
  if (row.status !== 'verified') throw badRequest('verification_not_verified');
  return row;
}

/** Spends a verified token inside the caller's transaction. */
export async function consumeVerification(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  input: { token: string; phone: string; mode: VerificationMode },
): Promise<void> {
  const row = await loadVerification(tx, deps, input, { forUpdate: true });
  if (row.status !== 'verified') throw badRequest('verification_not_verified');
  if (!(await markUsed(tx, row.id, deps.clock.now()))) throw badRequest('verification_token_used');
}
