/**
 * One at a time per key, in arrival order, inside this process: `run(key, work)` starts `work` once every
 * earlier `run` of the same key has settled. Different keys do not wait for each other.
 *
 * Why (issue 31 part 8, decision 0027): writes to one barrier take its row lock (`select … for no key update`) for
 * their whole transaction. Under a burst of phone adds to a few barriers, every waiting add held a pool
 * connection while PostgreSQL queued it behind the lock (pg_stat_statements: 95 % of PostgreSQL's time in
 * that statement, 63 ms on average), the pool ran dry and reads waited for a connection behind them. Waiting
 * here instead, before the transaction opens, costs no connection; the row lock still orders this process
 * against other processes and against the device engine.
 */
export class KeyedTurns<Key> {
  private readonly tails = new Map<Key, Promise<unknown>>();

  async run<Value>(key: Key, work: () => Promise<Value>): Promise<Value> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const settled = () => {};
    const mine = previous.then(work, work);
    // The next in line waits for this one to settle, whatever its outcome.
    const tail = mine.then(settled, settled);
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      // The last in line leaves no entry behind.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or waiting (for tests and metrics). */
  get size(): number {
    return this.tails.size;
  }
}
