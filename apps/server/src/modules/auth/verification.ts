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
import type { Limiter } from '../../lib/shared-rate-limiter.ts';
import {
  countAuthFailuresSince,
  findVerificationByTokenHash,
  markUsed,
  type VerificationRow,
} from './repository.ts';

/** The modes of the API's code requests, and the guest pass's code (sent only by its own public route). */
export type CodeMode = VerificationMode | 'guest_pass';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const RESEND_COOLDOWN_MS = 60 * 1000;
/** Tries per code, the right one included (DESIGN.md: at most 5 wrong tries). */
export const MAX_TRIES_PER_CODE = 5;
/** Wrong codes within an hour after which one address may not try this phone's codes any more. */
export const MAX_FAILURES_PER_ADDRESS_AND_PHONE = 10;
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** Wrong codes of a phone within the hour (from any address) before its backoff starts. */
export const FREE_CODE_FAILURES_PER_PHONE = 5;
export const CODE_BACKOFF_BASE_MS = 1000;
export const CODE_BACKOFF_MAX_MS = 60 * 1000;
export const FREE_PASSWORD_FAILURES = 5;
export const PASSWORD_BACKOFF_BASE_MS = 60 * 1000;
export const PASSWORD_BACKOFF_MAX_MS = 60 * 60 * 1000;
/** Wrong passwords older than this no longer add to the backoff. */
export const PASSWORD_FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;
export const CODE_DAY_MS = 24 * 60 * 60 * 1000;
export const CODE_BUDGET_WINDOW_MS = 60 * 60 * 1000;
/** How long a successful administrator password step allows a login with its nonce. */
export const PASSWORD_STEP_TTL_MS = 10 * 60 * 1000;
/** How long it allows a login without the nonce, from the address that made the step only. */
export const PASSWORD_STEP_SAME_ADDRESS_MS = 5 * 60 * 1000;

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
export async function limitByIp(limiter: Limiter, ip: string): Promise<void> {
  const wait = await limiter.hit(ip);
  if (wait > 0) throw tooManyRequests('too_many_requests', wait);
}

/**
 * The limits on wrong codes (docs/decisions/0012, issue 17): ten wrong codes within an hour from one address
 * lock that address out of this phone's codes until the oldest of them is an hour old; whoever else tries
 * (the owner from his own network) only meets the phone's short backoff: free for the first five wrong codes
 * of the hour, then 1 s after the newest one, doubling with each further one up to 60 s. So nobody can lock a
 * resident out for longer than a minute, and guessing stays bounded by 5 tries per code and the daily code cap.
 */
export async function assertCodeTriesOpen(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
  ip: string,
): Promise<void> {
  const now = deps.clock.now();
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const fromAddress = await countAuthFailuresSince(executor, phone, 'code', since, ip);
  if (fromAddress.count >= MAX_FAILURES_PER_ADDRESS_AND_PHONE) {
    const unlocksAt = (fromAddress.oldest ?? now).getTime() + FAILURE_WINDOW_MS;
    throw tooManyRequests('too_many_failures', (unlocksAt - now.getTime()) / 1000);
  }
  await assertPhoneBackoffOpen(executor, deps, phone);
}

/**
 * The two backoffs of wrong secrets, as data: how long failures are remembered, how many are free, and the
 * wait after the newest one (base, doubling with every further failure, capped).
 * - `code`: a phone's wrong SMS codes from any address (issue 17 part 1): 1 s after the 5th, up to 60 s.
 * - `password`: an administrator's password step (issue 17 part 3): 1 minute after the 5th, up to 1 hour. A
 *   right password clears the failures. Only the password step waits; codes and other users are untouched.
 */
const BACKOFFS = {
  code: {
    memoryMs: FAILURE_WINDOW_MS,
    free: FREE_CODE_FAILURES_PER_PHONE,
    baseMs: CODE_BACKOFF_BASE_MS,
    maxMs: CODE_BACKOFF_MAX_MS,
  },
  password: {
    memoryMs: PASSWORD_FAILURE_MEMORY_MS,
    free: FREE_PASSWORD_FAILURES,
    baseMs: PASSWORD_BACKOFF_BASE_MS,
    maxMs: PASSWORD_BACKOFF_MAX_MS,
  },
} as const;

/** The wait after the newest failure when there have been `failures` of them within the memory. */
function backoffMs(kind: keyof typeof BACKOFFS, failures: number): number {
  const policy = BACKOFFS[kind];
  if (failures < policy.free) return 0;
  return Math.min(policy.baseMs * 2 ** (failures - policy.free), policy.maxMs);
}

/** 429 `too_many_failures` (with Retry-After) while the phone's backoff of this kind is running. */
async function assertBackoffOpen(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
  kind: keyof typeof BACKOFFS,
): Promise<void> {
  const now = deps.clock.now();
  const { count, newest } = await countAuthFailuresSince(
    executor,
    phone,
    kind,
    new Date(now.getTime() - BACKOFFS[kind].memoryMs),
  );
  if (!newest) return;
  const waitMs = newest.getTime() + backoffMs(kind, count) - now.getTime();
  if (count >= BACKOFFS[kind].free && waitMs > 0) throw tooManyRequests('too_many_failures', waitMs / 1000);
}

/** The per-phone backoff of wrong codes from any address. */
export const assertPhoneBackoffOpen = (
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
): Promise<void> => assertBackoffOpen(executor, deps, phone, 'code');

/** The backoff of an administrator's password step. */
export const assertPasswordStepOpen = (
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
): Promise<void> => assertBackoffOpen(executor, deps, phone, 'password');

/**
 * The verification behind a token, checked against the phone and mode it must belong to. A token of
 * another phone or mode is answered exactly like an unknown one.
 */
export async function loadVerification(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  input: { token: string; phone: string; mode: CodeMode | null },
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
  input: { token: string; phone: string; mode: CodeMode },
): Promise<VerificationRow> {
  const row = await loadVerification(executor, deps, input);
  if (row.status !== 'verified') throw badRequest('verification_not_verified');
  return row;
}

/** Spends a verified token inside the caller's transaction. */
export async function consumeVerification(
  tx: Executor,
  deps: Pick<Dependencies, 'clock'>,
  input: { token: string; phone: string; mode: CodeMode },
): Promise<void> {
  const row = await loadVerification(tx, deps, input, { forUpdate: true });
  if (row.status !== 'verified') throw badRequest('verification_not_verified');
  if (!(await markUsed(tx, row.id, deps.clock.now()))) throw badRequest('verification_token_used');
}
