import { describe, expect, it } from 'vitest';
import { KeyedTurns } from './keyed-turns.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedTurns', () => {
  it('runs the work of one key one at a time, in arrival order, even when one fails', async () => {
    const turns = new KeyedTurns<number>();
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string, fails = false) =>
      turns.run(7, async () => {
        running += 1;
        most = Math.max(most, running);
        events.push(`start ${name}`);
        await tick();
        events.push(`end ${name}`);
        running -= 1;
        if (fails) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([job('a'), job('b', true), job('c')]);
    expect(most).toBe(1);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(turns.size).toBe(0);
  });

  it('lets different keys run at the same time', async () => {
    const turns = new KeyedTurns<number>();
    let running = 0;
    let most = 0;
    const job = (key: number) =>
      turns.run(key, async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
      });
    await Promise.all([job(1), job(2), job(3)]);
    expect(most).toBe(3);
  });
});
