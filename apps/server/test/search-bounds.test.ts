/** Issue 29 part 8: an address search has at most 8 words (a clear 400), and word order does not matter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBarrier } from './domain-factories.ts';
import { createAdmin, createUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

describe('address search bounds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const search = (token: string, address: string) =>
    t.request({ method: 'GET', url: `/api/barriers/?address=${encodeURIComponent(address)}`, token });

  it('refuses more than 8 words with a clear 400 and finds the same barriers in any word order', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner, { address: 'г Москва, ул Берёзовая, д 12' });
    const user = await createUser(t);
    const nine = await search(user.token, 'а б в г д е ж з и');
    expect(nine.statusCode).toBe(400);
    expect(nine.json()).toEqual({ address: ['Enter at most 8 words.'] });
    const forward = await search(user.token, 'Москва Берёзовая 12');
    const backward = await search(user.token, '12 берёзовая москва');
    expect(forward.statusCode).toBe(200);
    expect(forward.json().barriers.map((item: { id: number }) => item.id)).toContain(barrier.id);
    expect(backward.json().barriers.map((item: { id: number }) => item.id)).toEqual(
      forward.json().barriers.map((item: { id: number }) => item.id),
    );
  });
});
