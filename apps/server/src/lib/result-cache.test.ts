import { describe, expect, it } from 'vitest';
import { ResultCache } from './result-cache.ts';

function counter() {
  let calls = 0;
  let value = 10;
  return {
    compute: async () => {
      calls += 1;
      return value;
    },
    set: (next: number) => {
      value = next;
    },
    calls: () => calls,
  };
}

describe('ResultCache', () => {
  it('counts once for concurrent requests and keeps the count for its lifetime', async () => {
    let now = 0;
    const cache = new ResultCache<number>(5000, 10, () => now);
    const source = counter();
    const answers = await Promise.all([1, 2, 3].map(() => cache.get('all', source.compute)));
    expect(answers).toEqual([10, 10, 10]);
    expect(source.calls()).toBe(1);

    source.set(11);
    now = 4999;
    expect(await cache.get('all', source.compute)).toBe(10);
    now = 5000;
    expect(await cache.get('all', source.compute)).toBe(11);
    expect(source.calls()).toBe(2);
  });

  it('counts again after invalidate, and keys are apart', async () => {
    const cache = new ResultCache<number>(5000, 10, () => 0);
    const source = counter();
    expect(await cache.get('a', source.compute)).toBe(10);
    source.set(12);
    expect(await cache.get('b', source.compute)).toBe(12);
    expect(await cache.get('a', source.compute)).toBe(10);
    cache.invalidate();
    expect(await cache.get('a', source.compute)).toBe(12);
  });

  it('does not keep a count computed across an invalidation, nor a failure', async () => {
    const cache = new ResultCache<number>(5000, 10, () => 0);
    let release: (value: number) => void = () => {};
    const slow = cache.get('a', () => new Promise<number>((resolve) => (release = resolve)));
    cache.invalidate();
    release(1);
    expect(await slow).toBe(1);
    expect(await cache.get('a', async () => 2)).toBe(2);

    await expect(cache.get('b', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('b', async () => 3)).toBe(3);
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const cache = new ResultCache<number>(5000, 2, () => 0);
    const source = counter();
    await cache.get('a', source.compute);
    await cache.get('b', source.compute);
    await cache.get('c', source.compute);
    expect(source.calls()).toBe(3);
    await cache.get('c', source.compute);
    await cache.get('b', source.compute);
    expect(source.calls()).toBe(3);
    await cache.get('a', source.compute);
    expect(source.calls()).toBe(4);
  });
});
