/**
 * Results that are costly to compute and may be a few seconds old: `total_count` of the public barrier list
 * counts ~90,000 rows at the seeded scale (~10 ms of PostgreSQL CPU), on every page of every user; an
 * address search of the public list matches and sorts hundreds to tens of thousands of barriers.
 *
 * - An entry lives `ttlMs` (on the monotonic clock: this is about CPU, not about the business clock).
 * - Concurrent misses of one key share one computation, so a burst of requests computes once.
 * - `invalidate()` drops everything at once; the process calls it after committing a change that moves a
 *   result, so its own changes show on the next request. A computation that was running when `invalidate()`
 *   was called still answers the requests that were already waiting on it, but is not kept. Changes made by another
 *   process (several servers on one PostgreSQL) show within `ttlMs`.
 * - At most `maxEntries` keys (the oldest goes first), so that many different searches cannot grow it.
 */
export class ResultCache<Value> {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<Value> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether `key` has a live entry (computed or being computed): `get` would not compute. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiresAt > this.now();
  }

  get(key: string, compute: () => Promise<Value>): Promise<Value> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) return entry.value;
    if (entry) this.entries.delete(key);

    const value = compute();
    const fresh = { expiresAt: now + this.ttlMs, value };
    this.entries.set(key, fresh);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // A failed computation is not kept: the next request tries again.
    value.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return value;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
