/**
 * Address searches of the public list, bounded (issue 29 part 8, docs/decisions/0024):
 * - a per-user limit of SEARCHES_PER_MINUTE on the searches that reach the database (a search answered from
 *   the service's few-seconds cache costs nothing and is not counted), kept by the shared limiter so it holds
 *   across server processes; over it: 429 `too_many_searches` with `retry_after`;
 * - a `statement_timeout` of SEARCH_STATEMENT_TIMEOUT for the search's query, set with `SET LOCAL` inside the
 *   search's own transaction (ends with it: safe behind PgBouncer in transaction mode, no session state); a
 *   query cancelled by it (57014) answers 503 `search_timeout`, never a 500.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import type { Dependencies } from '../../lib/dependencies.ts';
import { HttpError, tooManyRequests } from '../../lib/errors.ts';
import { createSharedRateLimiter } from '../../lib/shared-rate-limiter.ts';

/** Searches reaching the database per user and minute: two a second for a whole minute, far above typing. */
export const SEARCHES_PER_MINUTE = 120;
/** The longest a search's query may run (the seeded 100,000 barriers answer in a few ms). */
export const SEARCH_STATEMENT_TIMEOUT = '3s';

const QUERY_CANCELED = '57014';

/** 429 `too_many_searches` for `userId` (whose budget it was: a search shared by several users names him). */
export class SearchLimited extends HttpError {
  constructor(
    readonly userId: number,
    waitSeconds: number,
  ) {
    const refusal = tooManyRequests('too_many_searches', waitSeconds);
    super(refusal.statusCode, refusal.code, undefined, refusal.extra);
  }
}

function isQueryCanceled(error: unknown): boolean {
  const candidate = (error as { cause?: unknown })?.cause ?? error;
  return (candidate as { code?: string })?.code === QUERY_CANCELED;
}

export function createSearchBounds(deps: Dependencies, options: { statementTimeout?: string } = {}) {
  const timeout = options.statementTimeout ?? SEARCH_STATEMENT_TIMEOUT;
  if (!/^\d+(ms|s)$/.test(timeout)) throw new Error(`Bad search statement timeout: ${timeout}`);
  const setLocalTimeout = sql.raw(`set local statement_timeout = '${timeout}'`);
  const limiter = createSharedRateLimiter(deps.db, {
    name: 'user-searches',
    limit: SEARCHES_PER_MINUTE,
    windowMs: 60_000,
    now: () => deps.clock.now().getTime(),
  });
  return {
    /** Counts one search of this user that reaches the database; 429 when his minute's budget is spent. */
    async limit(userId: number): Promise<void> {
      const waitSeconds = await limiter.hit(`user:${userId}`);
      if (waitSeconds > 0) throw new SearchLimited(userId, waitSeconds);
    },
    /** Runs `search` in a transaction whose statements may take at most the timeout each. */
    async run<T>(search: (executor: Executor) => Promise<T>): Promise<T> {
      try {
        return await deps.db.transaction(async (tx) => {
          await tx.execute(setLocalTimeout);
          return search(tx);
        });
      } catch (error) {
        if (isQueryCanceled(error)) throw new HttpError(503, 'search_timeout');
        throw error;
      }
    },
  };
}
