import type { KeyedTurns } from './keyed-turns.ts';

/** What one item of a group came to: its value, or the error its caller gets. */
export type GroupOutcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

interface Waiting<Item, Result> {
  item: Item;
  resolve: (value: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Items that wait for the same key's turn (KeyedTurns) are handled together: `submit(key, item)` joins the
 * key's group that has not started yet, or opens one and queues it for the key's turn. When the turn comes the
 * group closes (later items open the next one) and `runGroup` gets its items in arrival order, returning one
 * outcome each. A `runGroup` that throws fails every item of its group with that error.
 *
 * Why (issue 31 part 8, decision 0027): a burst of phone adds to one barrier waited for the barrier's turn one
 * by one, each with its own transaction, lock and device plan; the adds that wait together now share one.
 */
export class KeyedGroups<Key, Item, Result> {
  private readonly open = new Map<Key, Waiting<Item, Result>[]>();

  constructor(
    private readonly turns: KeyedTurns<Key>,
    private readonly runGroup: (key: Key, items: Item[]) => Promise<GroupOutcome<Result>[]>,
    /** The most items one group takes; the next ones open a group of their own. */
    private readonly maxGroup = 64,
  ) {}

  submit(key: Key, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const waiting = this.open.get(key);
      if (waiting && waiting.length < this.maxGroup) {
        waiting.push({ item, resolve, reject });
        return;
      }
      const group: Waiting<Item, Result>[] = [{ item, resolve, reject }];
      this.open.set(key, group);
      void this.turns.run(key, () => this.start(key, group));
    });
  }

  private async start(key: Key, group: Waiting<Item, Result>[]): Promise<void> {
    // From here on nobody joins this group.
    if (this.open.get(key) === group) this.open.delete(key);
    let outcomes: GroupOutcome<Result>[];
    try {
      outcomes = await this.runGroup(
        key,
        group.map((waiting) => waiting.item),
      );
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    group.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (!outcome) waiting.reject(new Error('no outcome for a grouped item'));
      else if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }

  /** Keys with a group waiting to start (for tests). */
  get waiting(): number {
    return this.open.size;
  }
}

/** The outcome of one piece of work, caught. */
export async function outcomeOf<Result>(work: () => Promise<Result>): Promise<GroupOutcome<Result>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error };
  }
}
