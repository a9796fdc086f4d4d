import { describe, expect, it } from 'vitest';
import { KeyedGroups, outcomeOf } from './keyed-groups.ts';
import { KeyedTurns } from './keyed-turns.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedGroups', () => {
  it('hands the items that waited for a key’s turn to one run, in arrival order, each with its own answer', async () => {
    const turns = new KeyedTurns<number>();
    const runs: string[][] = [];
    const groups = new KeyedGroups<number, string, string>(turns, async (_key, items) => {
      runs.push(items);
      await tick();
      return items.map((item) =>
        item.startsWith('bad')
          ? { ok: false, error: new Error(item) }
          : { ok: true, value: item.toUpperCase() },
      );
    });
    const first = groups.submit(1, 'a');
    await Promise.resolve();
    // 'a' has started alone; these wait for its turn and go together.
    const later = ['b', 'bad-c', 'd'].map((item) => groups.submit(1, item));
    const results = await Promise.allSettled([first, ...later]);
    expect(runs).toEqual([['a'], ['b', 'bad-c', 'd']]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : 'rejected'))).toEqual([
      'A',
      'B',
      'rejected',
      'D',
    ]);
    // The turn ends once its run has answered every item.
    await tick();
    expect(groups.waiting).toBe(0);
    expect(turns.size).toBe(0);
  });

  it('keeps keys apart, caps a group, and fails a whole group when its run throws', async () => {
    const turns = new KeyedTurns<number>();
    const runs: [number, string[]][] = [];
    const groups = new KeyedGroups<number, string, string>(
      turns,
      async (key, items) => {
        runs.push([key, items]);
        await tick();
        if (key === 2) throw new Error('down');
        return items.map((item) => ({ ok: true, value: item }));
      },
      2,
    );
    const results = await Promise.allSettled([
      groups.submit(1, 'a'),
      groups.submit(1, 'b'),
      groups.submit(1, 'c'),
      groups.submit(2, 'x'),
    ]);
    expect(runs).toEqual([
      [1, ['a', 'b']],
      [2, ['x']],
      [1, ['c']],
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
  });

  it('outcomeOf catches', async () => {
    expect(await outcomeOf(async () => 1)).toEqual({ ok: true, value: 1 });
    const failed = await outcomeOf(async () => {
      throw new Error('no');
    });
    expect(failed.ok).toBe(false);
  });
});
