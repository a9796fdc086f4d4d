/**
 * Answers that tell that an account exists (issue 40 item 4, docs/decisions/0030): a phone add refused with
 * `phone_of_other_account`, a number change or its code refused with `phone_in_use`. Each such answer counts
 * against a budget of ACCOUNT_ANSWERS_PER_DAY per caller (a sliding 24 hours in `rate_limit_hits`, held across
 * every process). Once it is spent, every call that could give such an answer is refused with 429
 * `account_answers_limit` and `retry_after` *before* anything about the number is read, whatever the number:
 * the 429 itself then tells nothing of it.
 */
import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import { preparedStatement } from '../db/prepared.ts';
import { rateLimitHits } from '../db/schema.ts';
import type { Dependencies } from './dependencies.ts';
import { HttpError, tooManyRequests } from './errors.ts';
import { createSharedRateLimiter, type SharedRateLimiter } from './shared-rate-limiter.ts';

const DAY_MS = 24 * 60 * 60_000;
const BUCKET = 'account-answers';
/** The answers that tell that a number has an account. */
const ACCOUNT_ANSWERS = new Set(['phone_of_other_account', 'phone_in_use']);

const limiters = new WeakMap<Dependencies, SharedRateLimiter>();

function limiterOf(deps: Pick<Dependencies, 'db' | 'config' | 'clock'>): SharedRateLimiter {
  let limiter = limiters.get(deps as Dependencies);
  if (!limiter) {
    limiter = createSharedRateLimiter(deps.db, {
      name: BUCKET,
      limit: deps.config.ACCOUNT_ANSWERS_PER_DAY,
      windowMs: DAY_MS,
      now: () => deps.clock.now().getTime(),
    });
    limiters.set(deps as Dependencies, limiter);
  }
  return limiter;
}

const keyOf = (userId: number) => `user:${userId}`;

/** 429 `account_answers_limit` when the caller's day of such answers is spent (counts nothing). */
export async function assertAccountAnswersLeft(
  deps: Pick<Dependencies, 'db' | 'config' | 'clock'>,
  userId: number,
): Promise<void> {
  const now = deps.clock.now().getTime();
  // Prepared (db/prepared.ts): every phone add and number change asks it first.
  const statement = preparedStatement(deps.db, 'accountAnswers.left', () =>
    deps.db
      .select({ hits: count(), oldest: min(rateLimitHits.at) })
      .from(rateLimitHits)
      .where(
        and(
          eq(rateLimitHits.bucket, BUCKET),
          eq(rateLimitHits.key, sql.placeholder('key')),
          gt(rateLimitHits.at, sql`${sql.placeholder('since')}::timestamptz`),
        ),
      ),
  );
  const [row] = await statement.execute({
    key: keyOf(userId),
    since: new Date(now - DAY_MS).toISOString(),
  });
  if (!row || Number(row.hits) < deps.config.ACCOUNT_ANSWERS_PER_DAY) return;
  const oldest = row.oldest ? new Date(row.oldest).getTime() : now;
  throw tooManyRequests('account_answers_limit', (oldest + DAY_MS - now) / 1000);
}

/**
 * Runs `call` for `userId` within his budget: refused first when it is spent; an account answer it gives is
 * counted (outside the call's transaction, which its refusal rolled back) and given.
 */
export async function withAccountAnswers<T>(
  deps: Pick<Dependencies, 'db' | 'config' | 'clock'>,
  userId: number,
  call: () => Promise<T>,
): Promise<T> {
  await assertAccountAnswersLeft(deps, userId);
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError && ACCOUNT_ANSWERS.has(error.code))
      await limiterOf(deps).hit(keyOf(userId));
    throw error;
  }
}
