/**
 * Who may spend the server's hourly code budget (`SMS_CODE_BUDGET_PER_HOUR`, issue 29 part 4,
 * docs/decisions/0024). Every code belongs to one share:
 * - `public`: whoever asks without an account behind him (a login of an unknown number, a guest link's code, a
 *   new number asked for without a login). It may spend the budget minus `SMS_CODE_ACCOUNT_RESERVE_PERCENT`;
 * - `account`: an existing account (its login, its own-account codes, or a logged-in caller). It may spend the
 *   whole budget, so the reserve is always there for it;
 * - `admin`: an administrator's codes. Counted, never refused by the budget: a stranger cannot lock the
 *   operator's staff out (their numbers' daily cap and the address limits still hold).
 * Guest-link codes also have caps of their own per pass and per resident per day, and every code goes only to
 * numbers in `SMS_ALLOWED_PREFIXES` (premium-rate numbers abroad are not ours to pay for).
 */
import { AUTH_MESSAGES } from '@propusk/contracts/auth';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { HttpError, tooManyRequests } from '../../lib/errors.ts';
import {
  countAllVerificationsSince,
  countGuestPassCodesSince,
  countPublicVerificationsSince,
  countResidentGuestCodesSince,
  lockCodeBudget,
} from './repository.ts';
import { CODE_BUDGET_WINDOW_MS, CODE_DAY_MS } from './verification.ts';

export type BudgetShare = 'public' | 'account' | 'admin';

/** The guest pass a guest code is asked for through. */
export interface GuestPassCodeSource {
  id: number;
  forUser: number;
}

/** 400 on the phone field when a number is outside the allowed prefixes; nothing is stored or sent. */
export function assertSmsPrefixAllowed(deps: Pick<Dependencies, 'config'>, phone: string): void {
  const prefixes = deps.config.SMS_ALLOWED_PREFIXES;
  if (prefixes.some((prefix) => phone.startsWith(prefix))) return;
  throw new HttpError(400, 'phone_prefix_not_allowed', AUTH_MESSAGES.phonePrefixNotAllowed(prefixes), {
    allowed_prefixes: prefixes,
  });
}

/** How many codes of the hour the public share may spend. */
export function publicShareLimit(config: Dependencies['config']): number {
  const budget = config.SMS_CODE_BUDGET_PER_HOUR;
  return Math.floor((budget * (100 - config.SMS_CODE_ACCOUNT_RESERVE_PERCENT)) / 100);
}

/**
 * Refuses (429) a code its share may not spend now. Runs inside the code's transaction, under the budget's
 * lock, so parallel requests cannot both take the last place.
 */
export async function assertCodeBudget(
  tx: Executor,
  deps: Dependencies,
  input: { share: BudgetShare; mode: string; guestPass?: GuestPassCodeSource | undefined; now: Date },
): Promise<void> {
  const { now, share } = input;
  await lockCodeBudget(tx);
  if (input.guestPass) {
    const daySince = new Date(now.getTime() - CODE_DAY_MS);
    const perPass = await countGuestPassCodesSince(tx, input.guestPass.id, daySince);
    if (perPass.count >= deps.config.GUEST_PASS_CODES_PER_PASS_PER_DAY) {
      throw tooManyRequests('guest_pass_code_limit', waitMs(perPass.oldest, CODE_DAY_MS, now) / 1000);
    }
    const perResident = await countResidentGuestCodesSince(tx, input.guestPass.forUser, daySince);
    if (perResident.count >= deps.config.GUEST_PASS_CODES_PER_RESIDENT_PER_DAY) {
      throw tooManyRequests(
        'guest_pass_resident_code_limit',
        waitMs(perResident.oldest, CODE_DAY_MS, now) / 1000,
      );
    }
  }
  if (share === 'admin') return;
  const hourSince = new Date(now.getTime() - CODE_BUDGET_WINDOW_MS);
  const hour = await countAllVerificationsSince(tx, hourSince);
  let refusedBy: { count: number; oldest: Date | null } | null =
    hour.count >= deps.config.SMS_CODE_BUDGET_PER_HOUR ? hour : null;
  if (!refusedBy && share === 'public') {
    const publicHour = await countPublicVerificationsSince(tx, hourSince);
    if (publicHour.count >= publicShareLimit(deps.config)) refusedBy = publicHour;
  }
  if (!refusedBy) return;
  deps.metrics.smsCodesRefusedByBudget.inc();
  // No phone in this line: it is an alert about the whole server, read by whoever watches the logs.
  deps.logger.warn(
    { budget: deps.config.SMS_CODE_BUDGET_PER_HOUR, share, mode: input.mode },
    share === 'public'
      ? 'public share of the hourly SMS budget for codes is spent: code refused'
      : 'hourly SMS budget for codes is spent: code refused',
  );
  throw tooManyRequests('sms_budget_exhausted', waitMs(refusedBy.oldest, CODE_BUDGET_WINDOW_MS, now) / 1000);
}

function waitMs(oldest: Date | null, windowMs: number, now: Date): number {
  return (oldest ?? now).getTime() + windowMs - now.getTime();
}
