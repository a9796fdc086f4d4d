/**
 * Issue 40 item 1: one request cannot stop the server. 100,000 characters of several shapes go over HTTP (a real
 * listening server, `fetch`) to every human-text field, search, phone, code and an import cell; each is refused
 * with a 4xx within 50 ms, and `/api/health/` keeps answering beside each one. Each request is timed in the test
 * from send to answer, and one of up to ten tries must be within 50 ms: a busy machine stalls the whole process now
 * and then (health is then as late as the long request), while a rule that reads the whole value delays every
 * try (20,000 letters took 2.4 s). Over HTTP the bound is 50 ms or three times the same route's answer to a short
 * value (an import: an ordinary file) timed in the same rounds, whichever is more: a loaded CI once missed 50 ms at
 * the best of ten tries (54 ms for a name, 62–84 ms for an import cell).
 * Before the fix the clean-text rule read the whole value before its length bound and backtracked on it: 20,000
 * letters took 2.4 s, 100,000 letters minutes, and every other request (health included) waited.
 */
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPhone, createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { csvFile, multipart } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';

const LENGTH = 100_000;
const SHAPES: readonly (readonly [string, string])[] = [
  ['one letter repeated', 'a'.repeat(LENGTH)],
  ['one Cyrillic letter repeated', 'я'.repeat(LENGTH)],
  ['«ab-» repeated', 'ab-'.repeat(LENGTH / 3 + 1).slice(0, LENGTH)],
  ['letters and digits alternating', 'a1'.repeat(LENGTH / 2)],
  ['«a.» repeated', 'a.'.repeat(LENGTH / 2)],
];
const LIMIT_MS = 50;
const TRIES = 10;

interface Target {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** The path, or the path with the value in its query string. */
  url: (value: string) => string;
  body?: (value: string) => unknown;
  token?: () => string;
}

describe('100,000 characters in any field', () => {
  let base: string;
  let owner: TestUser;
  let resident: TestUser;
  let barrier: TestBarrier;
  let phoneId: number;

  const t = useTestApp();
  beforeAll(async () => {
    owner = await createAdmin(t, { fullName: 'Владелец' });
    barrier = await createBarrier(t, owner);
    resident = await createUserWithAccess(t, barrier, 'Житель');
    const added = await addPhone(t, resident, barrier.id, { name: 'Няня' });
    expect(added.statusCode, added.body).toBe(201);
    phoneId = added.json().id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  const hourFromNow = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();
  const targets = (): Target[] => [
    {
      name: 'full name',
      method: 'PATCH',
      url: () => '/api/users/me/',
      body: (full_name) => ({ full_name }),
      token: () => resident.token,
    },
    {
      name: 'phone name (added)',
      method: 'POST',
      url: () => `/api/barriers/${barrier.id}/phones/`,
      body: (name) => ({ phone: nextPhone(), name, type: 'permanent' }),
      token: () => resident.token,
    },
    {
      name: 'phone name (renamed)',
      method: 'PATCH',
      url: () => `/api/phones/${phoneId}/`,
      body: (name) => ({ name }),
      token: () => resident.token,
    },
    {
      name: 'barrier address',
      method: 'POST',
      url: () => '/api/admin/barriers/',
      body: (address) => ({
        address,
        device_phone: nextPhone(),
        device_model: 'RTU5025',
        device_password: '1234',
        device_phones_amount: 100,
      }),
      token: () => owner.token,
    },
    {
      name: 'barrier note',
      method: 'PATCH',
      url: () => `/api/admin/barriers/${barrier.id}/`,
      body: (additional_info) => ({ additional_info }),
      token: () => owner.token,
    },
    {
      name: 'block reason',
      method: 'PATCH',
      url: () => `/api/admin/users/${resident.id}/block/`,
      body: (reason) => ({ reason }),
      token: () => owner.token,
    },
    {
      name: 'hold reason',
      method: 'POST',
      url: () => '/api/admin/emergency-holds/',
      body: (reason) => ({ barrier_ids: [barrier.id], reason }),
      token: () => owner.token,
    },
    {
      name: 'guest-pass note',
      method: 'POST',
      url: () => `/api/barriers/${barrier.id}/guest-passes/`,
      body: (note) => ({ start: hourFromNow(0), end: hourFromNow(3), note }),
      token: () => resident.token,
    },
    {
      name: 'user search by phone',
      method: 'POST',
      url: () => '/api/admin/users/search/',
      body: (phone) => ({ phone }),
      token: () => owner.token,
    },
    {
      name: 'phone of a code request',
      method: 'POST',
      url: () => '/api/auth/codes/',
      body: (phone) => ({ phone, mode: 'login' }),
    },
    {
      name: 'code',
      method: 'PATCH',
      url: () => '/api/auth/codes/verify/',
      body: (code) => ({ phone: '+79001234567', code, verification_token: 'x' }),
    },
    {
      name: 'users search (query string)',
      method: 'GET',
      url: (search) => `/api/admin/barriers/${barrier.id}/users/?search=${encodeURIComponent(search)}`,
      token: () => owner.token,
    },
    {
      name: 'address search of the public list (query string)',
      method: 'GET',
      url: (address) => `/api/barriers/?address=${encodeURIComponent(address)}`,
      token: () => resident.token,
    },
    {
      name: 'address suggestions (query string)',
      method: 'GET',
      url: (query) => `/api/addresses/suggest/?query=${encodeURIComponent(query)}`,
      token: () => owner.token,
    },
  ];

  /** Sends over HTTP and times the answer; `/api/health/` is asked at the same moment. */
  async function send(init: {
    method: string;
    path: string;
    body?: string | Uint8Array;
    headers?: Record<string, string>;
  }) {
    const started = performance.now();
    const health = fetch(`${base}/api/health/`).then(async (response) => ({
      status: response.status,
      ms: performance.now() - started,
    }));
    const response = await fetch(`${base}${init.path}`, {
      method: init.method,
      body: init.body,
      headers: init.headers,
    });
    const text = await response.text();
    const ms = performance.now() - started;
    return { status: response.status, text, ms, health: await health };
  }

  function request(target: Target, value: string) {
    const headers: Record<string, string> = {};
    if (target.token) headers.authorization = `Bearer ${target.token()}`;
    if (target.body) headers['content-type'] = 'application/json';
    return send({
      method: target.method,
      path: target.url(value),
      body: target.body ? JSON.stringify(target.body(value)) : undefined,
      headers,
    });
  }

  /**
   * Up to TRIES tries, until one answers within its bound: every answer a 4xx with health answering beside it;
   * the fastest time is returned. The bound is LIMIT_MS or, with a `reference` (the same route with a short
   * value, timed in the same rounds), three times the reference's fastest when that is more: a loaded CI once
   * took 54 ms at best for a name (a rule that reads the whole value takes seconds).
   */
  async function fastestTry(
    target: string,
    attempt: () => ReturnType<typeof send>,
    reference?: () => ReturnType<typeof send>,
  ) {
    let fastest = Number.POSITIVE_INFINITY;
    let fastestReference = Number.POSITIVE_INFINITY;
    const bound = () => (reference ? Math.max(LIMIT_MS, 3 * fastestReference) : LIMIT_MS);
    let last: Awaited<ReturnType<typeof send>> | undefined;
    for (let round = 0; round < TRIES && fastest >= bound(); round += 1) {
      if (reference) fastestReference = Math.min(fastestReference, (await reference()).ms);
      last = await attempt();
      expect(last.status, `${target}: ${last.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(last.status, target).toBeLessThan(500);
      expect(last.health.status, target).toBe(200);
      fastest = Math.min(fastest, last.ms);
    }
    return { fastest, bound: bound(), last: last as Awaited<ReturnType<typeof send>> };
  }

  it.each(SHAPES)(
    'refuses %s in every field within 50 ms (or 3× a short value), health answering',
    async (_shape, value) => {
      for (const target of targets()) {
        // A short value first (a bidi override: no field takes it, a search finds nothing): the route's first
        // request compiles its schemas, which is not what is timed.
        const warm = await request(target, '\u202e');
        if (target.method !== 'GET')
          expect(warm.status, `${target.name}: ${warm.text.slice(0, 200)}`).toBe(400);
        const { fastest, bound } = await fastestTry(
          target.name,
          () => request(target, value),
          () => request(target, '\u202e'),
        );
        expect(fastest, `${target.name}: ${fastest.toFixed(1)} ms`).toBeLessThan(bound);
      }
    },
  );

  it.each(SHAPES)(
    'refuses %s in the query strings at the schema too (as much as an HTTP request line carries)',
    async (_shape, value) => {
      // Over HTTP a 100,000-character query string is refused by Node's header limit (431, 16 KB) before the app
      // reads it; the longest that can reach the app is ~16,000 characters, sent here through the app's own entry
      // (inject), where the schema's length bound refuses it.
      const reachable = value.slice(0, 16_000);
      for (const target of targets().filter((each) => each.method === 'GET')) {
        let fastest = Number.POSITIVE_INFINITY;
        for (let round = 0; round < TRIES && fastest >= LIMIT_MS; round += 1) {
          const started = performance.now();
          const response = await t.request({
            method: 'GET',
            url: target.url(reachable),
            token: target.token?.(),
          });
          fastest = Math.min(fastest, performance.now() - started);
          expect(response.statusCode, `${target.name}: ${response.body.slice(0, 200)}`).toBe(400);
        }
        expect(fastest, `${target.name}: ${fastest.toFixed(1)} ms`).toBeLessThan(LIMIT_MS);
      }
    },
  );

  it.each(SHAPES)(
    'refuses an import file with %s in a cell within 50 ms (or 3× an ordinary file), naming its line',
    async (_shape, value) => {
      const path = `/api/admin/barriers/${barrier.id}/import/preview/`;
      const preview = (file: Buffer) => {
        const { payload, headers } = multipart(file);
        return send({
          method: 'POST',
          path,
          body: new Uint8Array(payload),
          headers: { ...headers, authorization: `Bearer ${owner.token}` },
        });
      };
      const long = csvFile([
        [nextPhone(), 'Иван', 'кв. 1', 'Основной', '', '', ''],
        [nextPhone(), value, 'кв. 2', 'Основной', '', '', ''],
      ]);
      const ordinary = csvFile([[nextPhone(), 'Иван', 'кв. 1', '', '', '', '']]);
      // Warm the route (multipart parsing, the reader) with an ordinary file first.
      const warm = await preview(ordinary);
      expect(warm.status, warm.text.slice(0, 200)).toBe(200);
      // The import's route does more than a field's (multipart, the reader, the administrator's checks), and under a
      // loaded CI its best of ten once took 62–84 ms: its bound is 50 ms or three times an ordinary file's preview
      // timed in the same rounds, whichever is more. A rule that reads the whole cell first takes seconds.
      let fastestOrdinary = Number.POSITIVE_INFINITY;
      const { fastest, bound } = await fastestTry(
        'import',
        async () => {
          const refused = await preview(long);
          expect(refused.status, refused.text.slice(0, 200)).toBe(400);
          expect(JSON.parse(refused.text)).toMatchObject({ code: 'import_cell_too_long', line: 3 });
          return refused;
        },
        async () => {
          const reference = await preview(ordinary);
          expect(reference.status, reference.text.slice(0, 200)).toBe(200);
          fastestOrdinary = Math.min(fastestOrdinary, reference.ms);
          return reference;
        },
      );
      expect(
        fastest,
        `${fastest.toFixed(1)} ms (an ordinary file: ${fastestOrdinary.toFixed(1)} ms)`,
      ).toBeLessThan(bound);
    },
  );

  it('changed nothing, and the server still answers', async () => {
    const me = await t.request({ method: 'GET', url: '/api/users/me/', token: resident.token });
    expect(me.json().full_name).toBe('Житель');
    const health = await fetch(`${base}/api/health/`);
    expect(health.status).toBe(200);
  });
});
