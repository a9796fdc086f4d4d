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

/** 429 once a phone has had 10 wrong codes or passwords within the last hour. */
export async function assertPhoneNotLocked(
  executor: Executor,
  deps: Pick<Dependencies, 'clock'>,
  phone: string,
): Promise<void> {
  const now = deps.clock.now();
  const { count, oldest } = await countAuthFailuresSince(
    executor,
    phone,
    new Date(now.getTime() - FAILURE_WINDOW_MS),
  );
  if (count >= MAX_FAILURES_PER_PHONE) {
    const unlocksAt = (oldest ?? now).getTime() + FAILURE_WINDOW_MS;
    throw tooManyRequests('too_many_failures', (unlocksAt - now.getTime()) / 1000);
  }
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
