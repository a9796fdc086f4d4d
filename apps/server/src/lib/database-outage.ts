/**
 * The database being unreachable, as one event with a start and an end (issue 31 part 5, docs/decisions/0027).
 *
 * The first failed query that is a connection failure (refused, reset, terminated, PostgreSQL shutting down or
 * starting) opens the outage: one error line. From then on API calls answer 503 `service_unavailable` with
 * `Retry-After` at once, without waiting on the pool, and nothing more is logged per request; a probe asks the
 * database `select 1` every second, and its first answer closes the outage: one line with how long it lasted
 * and how many calls were refused. Any other error (a bad query, a constraint) is not an outage.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';

/** Seconds a client is told to wait (`Retry-After`) while the database is unreachable. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
const PROBE_INTERVAL_MS = 1_000;

/** SQLSTATE classes and codes of a lost or refused connection (PostgreSQL appendix A). */
const CONNECTION_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|server closed the connection unexpectedly/i;

/**
 * The error in the chain (drizzle wraps the driver's as `cause`) that says the database is unreachable, or
 * undefined when it is another failure.
 */
function connectionFailure(error: unknown): { code?: unknown; message?: unknown } | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const found = current as { code?: unknown; message?: unknown; errors?: unknown };
    const { code, message, errors } = found;
    if (typeof code === 'string' && (CONNECTION_SQLSTATES.has(code) || CONNECTION_ERRNOS.has(code)))
      return found;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return found;
    // A refused connection to a name with several addresses is an AggregateError of ECONNREFUSED.
    if (Array.isArray(errors)) {
      const inner = errors.map(connectionFailure).find(Boolean);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isConnectionFailure = (error: unknown): boolean => connectionFailure(error) !== undefined;

/** The JSON text of a 503 (sent as text: a route's response schema need not declare it). */
export const SERVICE_UNAVAILABLE_BODY = JSON.stringify({
  detail: 'The service is temporarily unavailable. Try again later.',
  code: 'service_unavailable',
});

export class DatabaseOutage {
  private startedAt: number | null = null;
  private refused = 0;
  private probe: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
    private readonly probeIntervalMs = PROBE_INTERVAL_MS,
  ) {}

  get down(): boolean {
    return this.startedAt !== null;
  }

  /** A call answered 503 because of the outage (counted for the closing line). */
  countRefused(): void {
    this.refused += 1;
  }

  /**
   * Tells about a failed query; true when it was the database being unreachable (the outage is open after
   * the call; its first such failure wrote the one line).
   */
  noteFailure(error: unknown): boolean {
    const failure = connectionFailure(error);
    if (!failure) return false;
    if (this.startedAt !== null || this.stopped) return true;
    this.startedAt = this.now();
    this.refused = 0;
    // The driver's own error (`connect ECONNREFUSED 127.0.0.1:5432`), never drizzle's wrapper with the SQL.
    const { code, message } = failure;
    this.logger.error(
      { code, reason: typeof message === 'string' ? message.slice(0, 200) : undefined },
      'database unreachable: API calls answer 503 until it is back',
    );
    this.probe = setInterval(() => void this.check(), this.probeIntervalMs);
    this.probe.unref();
    return true;
  }

  /** One probe: the outage ends at the first answer. Exposed for the tests. */
  async check(): Promise<boolean> {
    try {
      await this.db.execute(sql`select 1`);
    } catch {
      return false;
    }
    this.end();
    return true;
  }

  private end(): void {
    if (this.startedAt === null) return;
    const ms = this.now() - this.startedAt;
    this.startedAt = null;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.logger.info({ ms, refused: this.refused }, 'database reachable again');
  }

  stop(): void {
    this.stopped = true;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }
}
