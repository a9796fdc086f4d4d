/**
 * Rate limits that hold across every server process (several processes behind one PostgreSQL, PgBouncer
 * included): a sliding log in `rate_limit_hits`, one row per allowed hit. A hit is one statement: it counts
 * the key's rows inside the window and inserts its own row only when that count is below the limit; a refused
 * hit writes nothing and answers the seconds until the oldest hit inside the window leaves it. No session
 * state and no lock beyond the statement: safe in PgBouncer's transaction mode. Two processes hitting the same
 * key in the same millisecond may both pass at the limit (a flood guard, not a ledger).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { rateLimitHits } from '../db/schema.ts';

/** A limiter: `hit` counts one for `key` and answers the seconds to wait (0: allowed). */
export interface Limiter {
  hit(key: string): Promise<number> | number;
}

export interface SharedRateLimiterOptions {
  /** The limiter's name, e.g. 'ip-auth-calls': keys of different limiters never meet. */
  name: string;
  /** Hits allowed within any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /** Milliseconds since the epoch (a test's clock). */
  now?: () => number;
  /** This limiter's expired rows are deleted after every this many hits of this process (default 500). */
  sweepEvery?: number;
}

export interface SharedRateLimiter extends Limiter {
  /**
   * `executor`: the caller's transaction when it holds one (the embedded database has a single connection, so
   * a statement outside an open transaction would wait for it); the hit is then undone if that transaction is.
   */
  hit(key: string, executor?: Executor): Promise<number>;
}

export function createSharedRateLimiter(db: Executor, options: SharedRateLimiterOptions): SharedRateLimiter {
  const { name, limit, windowMs } = options;
  if (!(limit >= 0) || !(windowMs > 0)) throw new Error(`Rate limiter ${name}: bad limit or window`);
  const now = options.now ?? Date.now;
  const sweepEvery = options.sweepEvery ?? 500;
  let hitsSinceSweep = 0;

  return {
    async hit(key: string, executor: Executor = db): Promise<number> {
      const at = now();
      const atText = new Date(at).toISOString();
      const since = new Date(at - windowMs).toISOString();
      const result = (await executor.execute(sql`
        with recent as (
          select count(*)::int as hits, min(${rateLimitHits.at}) as oldest
          from ${rateLimitHits}
          where ${rateLimitHits.bucket} = ${name} and ${rateLimitHits.key} = ${key}
            and ${rateLimitHits.at} > ${since}::timestamptz
        ), allowed as (
          insert into ${rateLimitHits} (bucket, key, at)
          select ${name}, ${key}, ${atText}::timestamptz from recent where hits < ${limit}
          returning 1
        )
        select (select count(*) from allowed)::int as allowed,
          (extract(epoch from (select oldest from recent)) * 1000)::float8 as oldest_ms`)) as unknown as {
        rows: { allowed: number; oldest_ms: number | string | null }[];
      };
      const row = result.rows[0];
      hitsSinceSweep += 1;
      if (hitsSinceSweep >= sweepEvery) {
        hitsSinceSweep = 0;
        await executor.execute(
          sql`delete from ${rateLimitHits} where ${rateLimitHits.bucket} = ${name} and ${rateLimitHits.at} <= ${since}::timestamptz`,
        );
      }
      if (Number(row?.allowed ?? 0) > 0) return 0;
      const oldest = row?.oldest_ms == null ? at : Number(row.oldest_ms);
      return Math.max(1, Math.ceil((oldest + windowMs - at) / 1000));
    },
  };
}

/** The per-IP limits of the unauthenticated calls (Dependencies.rateLimits), shared by every process. */
export function createPerIpLimits(
  db: Executor,
  config: {
    RATE_LIMIT_CODE_REQUESTS: number;
    RATE_LIMIT_AUTH_CALLS: number;
    RATE_LIMIT_WINDOW_SECONDS: number;
  },
  now?: () => number,
) {
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const limiter = (name: string, limit: number) =>
    createSharedRateLimiter(db, { name, limit, windowMs, now });
  return {
    codeRequests: limiter('ip-code-requests', config.RATE_LIMIT_CODE_REQUESTS),
    authCalls: limiter('ip-auth-calls', config.RATE_LIMIT_AUTH_CALLS),
    logs: limiter('ip-client-logs', CLIENT_LOG_PUSHES_PER_WINDOW),
  };
}

/** Client log pushes per address and window (the web client sends few; a flood fills the server's log). */
export const CLIENT_LOG_PUSHES_PER_WINDOW = 600;
