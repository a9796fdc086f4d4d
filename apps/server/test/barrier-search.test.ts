/**
 * The barrier search by words (issue 12): every word of the query, punctuation, case, ё and abbreviations
 * aside, is a prefix of some word of the address, in any order — on the public list, the user's own list
 * and the administrator's list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createBarrier, grantAccess } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('barrier search by words', () => {
  let admin: TestUser;
  let viewer: TestUser;
  const target = 'г Москва, ул Тверская, д 7';
  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t, { fullName: 'Поисковый Администратор' });
    viewer = await createUser(t);
    const barrier = await createBarrier(t, admin, { address: target });
    await createBarrier(t, admin, { address: 'г Москва, ул Ленина, д 7' });
    await createBarrier(t, admin, { address: 'Санкт-Петербург, Невский пр-т, д. 28, корп. 2' });
    await createBarrier(t, admin, { address: 'г. Королёв, Ёлочная улица, дом 3' });
    await grantAccess(t, barrier, viewer);
  });

  const addresses = async (url: string, search: string, user: TestUser) => {
    const response = await t.request({
      method: 'GET',
      url: `${url}?page_size=100&address=${encodeURIComponent(search)}`,
      token: user.token,
    });
    expect(response.statusCode).toBe(200);
    return response.json().barriers.map((barrier: { address: string }) => barrier.address) as string[];
  };

  const finding = [
    'Тверская 7',
    'Тверская, 7',
    '7 тверская',
    'ул. Тверская д.7',
    'тверск',
    'УЛИЦА ТВЕРСКАЯ ДОМ 7',
  ];
  for (const [name, url, user] of [
    ['the public list', '/api/barriers/', () => viewer],
    ['the user’s own list', '/api/barriers/my/', () => viewer],
    ['the administrator’s list', '/api/admin/barriers/my/', () => admin],
  ] as const) {
    it(`${name} finds the address by words in any order, with or without abbreviations`, async () => {
      for (const search of finding) {
        expect(await addresses(url, search, user()), search).toEqual([target]);
      }
    });

    it(`${name} finds nothing when one word matches no word of the address`, async () => {
      expect(await addresses(url, 'Тверская 7 Ленина', user())).toEqual([]);
      expect(await addresses(url, 'верская', user())).toEqual([]);
      expect(await addresses(url, 'Тверская 8', user())).toEqual([]);
    });
  }

  it('forgives ё, hyphenated abbreviations and letters run into numbers', async () => {
    expect(await addresses('/api/barriers/', 'королев елочная', viewer)).toEqual([
      'г. Королёв, Ёлочная улица, дом 3',
    ]);
    expect(await addresses('/api/barriers/', 'ул ёлочн д3', viewer)).toEqual([
      'г. Королёв, Ёлочная улица, дом 3',
    ]);
    for (const search of ['проспект невский 28к2', 'невский пр 28 корпус 2', 'Невский пр-т, 28']) {
      expect(await addresses('/api/barriers/', search, viewer), search).toEqual([
        'Санкт-Петербург, Невский пр-т, д. 28, корп. 2',
      ]);
    }
  });
});
