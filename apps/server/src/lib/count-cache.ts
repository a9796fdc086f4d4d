/**
 * Counts that are costly to compute and may be a few seconds old: `total_count` of the public barrier list
 * counts ~90,000 rows at the seeded scale (~10 ms of PostgreSQL CPU), on every page of every user.
 *
 * - An entry lives `ttlMs` (on the monotonic clock: this is about CPU, not about the business clock).
 * - Concurrent misses of one key share one computation, so a burst of requests counts once.
 * - `invalidate()` drops everything at once; the process calls it after committing a change that moves a
 *   count, so its own changes show on the next request. A computation that was running when `invalidate()`
 *   was called still answers the requests that were already waiting on it, but is not kept. Changes made by another
 *   process (several servers on one PostgreSQL) show within `ttlMs`.
 * - At most `maxEntries` keys (the oldest goes first), so that many different searches cannot grow it.
 */
export class CountCache {
  private readonly entries = new Map<string, { expiresAt: number; count: Promise<number> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key: string, compute: () => Promise<number>): Promise<number> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) return entry.count;
    if (entry) this.entries.delete(key);

    const count = compute();
    const fresh = { expiresAt: now + this.ttlMs, count };
    this.entries.set(key, fresh);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // A failed count is not kept: the next request tries again.
    count.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return count;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
