import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

interface FakeDadata {
  url: string;
  requests: { authorization?: string; body: { query: string; count: number } }[];
  status: number;
  close(): Promise<void>;
}

/** A local stand-in for DaData's suggest API (POST /suggestions/api/4_1/rs/suggest/address). */
async function startFakeDadata(): Promise<FakeDadata> {
  const fake: Partial<FakeDadata> & { requests: FakeDadata['requests']; status: number } = {
    requests: [],
    status: 200,
  };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      if (request.url !== '/suggestions/api/4_1/rs/suggest/address' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as { query: string; count: number };
      fake.requests.push({ authorization: request.headers.authorization, body });
      if (fake.status !== 200) {
        response.writeHead(fake.status).end('{}');
        return;
      }
      const suggestions = Array.from({ length: 15 }, (_, index) => ({
        value: `г Москва, ${body.query}, д ${index + 1}`,
        unrestricted_value: 'ignored',
        data: { city: 'Москва' },
      }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ suggestions }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake as FakeDadata;
}

describe('address suggestions', () => {
  let dadata: FakeDadata;
  let online: TestApp;
  let offline: TestApp;
  beforeAll(async () => {
    dadata = await startFakeDadata();
    online = await createTestApp({ env: { DADATA_API_KEY: 'dadata-test-key', DADATA_URL: dadata.url } });
    offline = await createTestApp();
  });
  afterAll(async () => {
    await online.close();
    await offline.close();
    await dadata.close();
  });

  it('needs a login', async () => {
    const response = await offline.request({ method: 'GET', url: '/api/addresses/suggest/?query=Тверская' });
    expect(response.statusCode).toBe(401);
  });

  it('asks DaData with the key, returns at most `count` values, and caches the answer for 10 minutes', async () => {
    const user = await createUser(online);
    const url = `/api/addresses/suggest/?query=${encodeURIComponent('ул Тверская')}`;
    const first = await online.request({ method: 'GET', url, token: user.token });
    expect(first.statusCode).toBe(200);
    expect(first.json().suggestions).toHaveLength(10);
    expect(first.json().suggestions[0]).toEqual({ value: 'г Москва, ул Тверская, д 1' });
    expect(dadata.requests.at(-1)).toEqual({
      authorization: 'Token dadata-test-key',
      body: { query: 'ул Тверская', count: 10 },
    });

    const before = dadata.requests.length;
    await online.request({ method: 'GET', url, token: user.token });
    expect(dadata.requests.length).toBe(before);
    online.clock.advance(10 * 60 * 1000 + 1);
    await online.request({ method: 'GET', url, token: user.token });
    expect(dadata.requests.length).toBe(before + 1);

    const three = await online.request({ method: 'GET', url: `${url}&count=3`, token: user.token });
    expect(three.json().suggestions).toHaveLength(3);
  });

  it('falls back to the offline source when DaData fails', async () => {
    const user = await createUser(online);
    dadata.status = 503;
    const response = await online.request({
      method: 'GET',
      url: `/api/addresses/suggest/?query=${encodeURIComponent('Профсоюзная 5')}`,
      token: user.token,
    });
    dadata.status = 200;
    expect(response.statusCode).toBe(200);
    expect(response.json().suggestions.map((s: { value: string }) => s.value)).toContain(
      'г Москва, ул Профсоюзная, д 5',
    );
  });

  async function offlineValues(query: string, count?: number): Promise<string[]> {
    const user = await createUser(offline);
    const response = await offline.request({
      method: 'GET',
      url: `/api/addresses/suggest/?query=${encodeURIComponent(query)}${count ? `&count=${count}` : ''}`,
      token: user.token,
    });
    expect(response.statusCode).toBe(200);
    return response.json().suggestions.map((s: { value: string }) => s.value);
  }

  it('without a key offers bundled streets, never the typed text itself', async () => {
    const moscow = await offlineValues('Москва');
    expect(moscow.length).toBeGreaterThan(0);
    expect(moscow).not.toContain('Москва');
    for (const value of moscow) expect(value).toMatch(/^г Москва, /);

    expect(await offlineValues('тверская')).toContain('г Москва, ул Тверская');
    expect((await offlineValues('Невский'))[0]).toBe('г Санкт-Петербург, Невский пр-кт');
    expect(await offlineValues('фонтанки')).toContain('г Санкт-Петербург, наб реки Фонтанки');
    // A town inside the federal city keeps its name, as DaData writes it.
    expect(await offlineValues('колпино адмиралтейская')).toEqual([
      'г Санкт-Петербург, г Колпино, ул Адмиралтейская',
    ]);
  });

  it('knows Moscow streets beyond the former hand list, in DaData form, Zelenograd included', async () => {
    expect(await offlineValues('абрамцевская')).toContain('г Москва, ул Абрамцевская');
    expect(await offlineValues('дегунинская')).toEqual(['г Москва, ул Дегунинская']);
    expect((await offlineValues('маршала захарова 8'))[0]).toBe('г Москва, ул Маршала Захарова, д 8');
    // An adjective name puts the type after it, an ordinal goes first, as DaData writes them.
    expect(await offlineValues('саратовский')).toContain('г Москва, 1-й Саратовский проезд');
    expect((await offlineValues('шоссе энтузиастов'))[0]).toBe('г Москва, шоссе Энтузиастов');
    expect(await offlineValues('зеленоград алабушевская')).toEqual([
      'г Москва, г Зеленоград, ул Алабушевская',
    ]);
    const moscow = await offlineValues('москва', 10);
    expect(moscow).toHaveLength(10);
  });

  it('knows the streets of the last rows of data set 483 and its settlements inside Moscow', async () => {
    expect(await offlineValues('саломеи нерис')).toContain('г Москва, ул Саломеи Нерис');
    expect(await offlineValues('рублево новолучанская')).toEqual(['г Москва, п Рублево, ул Новолучанская']);
    // A person's name in the genitive keeps the type first: "аллея Жемчуговой", not "Жемчуговой аллея".
    expect(await offlineValues('жемчуговой')).toContain('г Москва, аллея Жемчуговой');
  });

  it('knows the streets that only data set 495 (housing repairs) names', async () => {
    expect(await offlineValues('хоромный')).toEqual(['г Москва, Хоромный туп']);
    expect(await offlineValues('кадашевская наб')).toContain('г Москва, Кадашевская наб');
  });

  it('knows the streets that only data set 490 (repairs of non-residential buildings) names', async () => {
    expect(await offlineValues('югорский')).toContain('г Москва, Югорский проезд');
  });

  it('knows the streets that only data set 447 (district engineering services) names', async () => {
    expect(await offlineValues('динамовская')).toContain('г Москва, ул Динамовская');
    expect(await offlineValues('завода серп')).toEqual(['г Москва, проезд Завода Серп и Молот']);
  });

  it('knows the streets that only data set 441 (city polyclinics) names', async () => {
    expect(await offlineValues('лиственничная')).toContain('г Москва, Лиственничная аллея');
    expect(await offlineValues('ленинские горы')).toEqual(['г Москва, ул Ленинские Горы']);
  });

  it('knows the streets that only data set 518 (specialised schools) names', async () => {
    expect(await offlineValues('челобитьевское')).toEqual(['г Москва, Челобитьевское шоссе']);
  });

  it('knows the streets that only data set 450 (seasonal cafés) names', async () => {
    expect(await offlineValues('якиманская наб')).toEqual(['г Москва, Якиманская наб']);
    expect(await offlineValues('старокалужское')).toContain('г Москва, Старокалужское шоссе');
  });

  it('matches whatever the case, ё or е, words in any order, and prefixes of words', async () => {
    // ул Тверская first; the Тверская-Ямская streets also start with the typed word.
    const tverskaya = await offlineValues('ТВЕРСКАЯ москва');
    expect(tverskaya[0]).toBe('г Москва, ул Тверская');
    expect(tverskaya).toContain('г Москва, ул 1-я Тверская-Ямская');
    expect(await offlineValues('москва тверская')).toEqual(tverskaya);
    expect(await offlineValues('академика королева')).toEqual(['г Москва, ул Академика Королёва']);
    expect(await offlineValues('Академика Королёва')).toEqual(['г Москва, ул Академика Королёва']);
    const nevsky = await offlineValues('невск петерб');
    expect(nevsky[0]).toBe('г Санкт-Петербург, Невский пр-кт');
    expect(nevsky).toContain('г Санкт-Петербург, г Колпино, ул Невская');
    expect(await offlineValues('спб невский')).toEqual(['г Санкт-Петербург, Невский пр-кт']);
  });

  it('ranks a street that starts with the typed word first, then the bigger city, then the city before its towns', async () => {
    const tverskaya = await offlineValues('тверская');
    expect(tverskaya.slice(0, 3)).toEqual([
      'г Москва, ул Тверская',
      'г Санкт-Петербург, ул Тверская',
      'г Санкт-Петербург, г Колпино, ул Тверская',
    ]);
    // "Арбат" starts the names of ул Арбат and Арбатская пл, and is only inside ул Новый Арбат.
    const arbat = await offlineValues('арбат');
    expect(arbat[0]).toBe('г Москва, ул Арбат');
    expect(arbat.indexOf('г Москва, Арбатская пл')).toBeGreaterThan(0);
    expect(arbat.indexOf('г Москва, ул Новый Арбат')).toBeGreaterThan(
      arbat.indexOf('г Москва, Арбатская пл'),
    );
  });

  it('keeps a trailing house number and respects `count`', async () => {
    const values = await offlineValues('арбат 12');
    expect(values[0]).toBe('г Москва, ул Арбат, д 12');
    expect(values).not.toContain('арбат 12');
    expect(await offlineValues('ул Остоженка, д 5')).toEqual(['г Москва, ул Остоженка, д 5']);
    expect(await offlineValues('ленина', 3)).toHaveLength(3);
    expect(await offlineValues('ленина')).toHaveLength(10);
  });

  it('answers an empty list when nothing matches', async () => {
    expect(await offlineValues('Несуществующая')).toEqual([]);
    expect(await offlineValues('qwerty 12')).toEqual([]);
  });

  it('refuses a missing query or a bad count with field errors', async () => {
    const user = await createUser(offline);
    const missing = await offline.request({
      method: 'GET',
      url: '/api/addresses/suggest/',
      token: user.token,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('query');
    const badCount = await offline.request({
      method: 'GET',
      url: '/api/addresses/suggest/?query=abc&count=500',
      token: user.token,
    });
    expect(badCount.statusCode).toBe(400);
    expect(badCount.json()).toHaveProperty('count');
  });
});
