/**
 * The look-ups by number of an administrator (issue 28 part 2): the exact-phone user search, the invitation by
 * number and staff by phone share one budget of ADMIN_LOOKUPS_PER_HOUR per administrator, a sliding window
 * kept in the database (lib/shared-rate-limiter.ts), so it holds across every server process. With every
 * answer alike they tell nothing of a number; the budget keeps a loop over numbers slow besides. Over it:
 * 429 `lookup_limit` with `retry_after`.
 */
import type { Dependencies } from '../../lib/dependencies.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { createSharedRateLimiter, type SharedRateLimiter } from '../../lib/shared-rate-limiter.ts';

const HOUR_MS = 60 * 60_000;
const limiters = new WeakMap<Dependencies, SharedRateLimiter>();

function limiterOf(deps: Dependencies): SharedRateLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = createSharedRateLimiter(deps.db, {
      name: 'admin-lookups',
      limit: deps.config.ADMIN_LOOKUPS_PER_HOUR,
      windowMs: HOUR_MS,
      now: () => deps.clock.now().getTime(),
    });
    limiters.set(deps, limiter);
  }
  return limiter;
}

/** Counts one look-up of this administrator; 429 when his hour's budget is spent. */
export async function limitLookup(deps: Dependencies, adminId: number): Promise<void> {
  const waitSeconds = await limiterOf(deps).hit(`admin:${adminId}`);
  if (waitSeconds > 0) throw tooManyRequests('lookup_limit', waitSeconds);
}
