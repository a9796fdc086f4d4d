/**
 * Ids are PostgreSQL integers (1 to 2147483647). Every id the API takes, in a path, a query string or a body,
 * is checked against that range by the one shared schema (contracts' common.ts) and answered 400 on its field,
 * never passed to the database to fail there as a 500 (issue 17, part 6). The routes are walked from the
 * app's own OpenAPI document, so a new route is walked too; the ids of its query and body are found by the
 * shared schema's marks, and a field named like an id that does not use it fails here.
 */
import { readFileSync } from 'node:fs';
import { ID_MESSAGE, MAX_ID } from '@propusk/contracts/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPhone, createBarrier, grantAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface JsonSchema {
  type?: string;
  pattern?: string;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
}
interface Operation {
  parameters?: { in: 'path' | 'query' | 'header'; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface Route {
  method: Method;
  /** As the OpenAPI document writes it: `/api/phones/{id}/`. */
  path: string;
  pathIds: string[];
  queryIds: string[];
  bodyIds: string[];
  hasBody: boolean;
}

/** Out of range, or not an id at all; in JSON bodies the same, written as JSON numbers. */
const BAD_IDS = ['2147483648', '99999999999999999999', '-1', '0', '1.5'];
/** Also refused in a path or a query string: what `Number()` would take for a number. */
const BAD_TEXT_IDS = ['abc', '1e3', '0x10', '%201', '1%2C2', '12345678901234567890123456789'];

const isPathOrQueryId = (schema: JsonSchema) => schema.type === 'string' && schema.pattern === '^\\d{1,10}$';
const isBodyId = (schema: JsonSchema) => schema.type === 'integer' && schema.maximum === MAX_ID;
/** Names that hold an id wherever they appear (a body's `phone` is a number, not an id). */
const ID_NAME = /^(id|user|barrier|.*_id|[a-z]+Id)$/;
/** Path parameters that are not ids: a guest pass link's random token. */
const NOT_ID_PATH_PARAMETERS = new Set(['token']);

function routesOf(document: { paths: Record<string, Record<string, Operation>> }): Route[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
      .map(([method, operation]) => {
        const parameters = operation.parameters ?? [];
        const body = operation.requestBody?.content?.['application/json']?.schema;
        return {
          method: method.toUpperCase() as Method,
          path,
          pathIds: parameters
            .filter((p) => p.in === 'path' && !NOT_ID_PATH_PARAMETERS.has(p.name))
            .map((p) => p.name),
          queryIds: parameters
            .filter((p) => p.in === 'query' && isPathOrQueryId(p.schema))
            .map((p) => p.name),
          bodyIds: Object.entries(body?.properties ?? {})
            .filter(([, schema]) => isBodyId(schema))
            .map(([name]) => name),
          hasBody: body !== undefined,
        };
      }),
  );
}

describe('ids beyond the database range', () => {
  let admin: TestUser;
  let member: TestUser;
  let barrier: TestBarrier;
  let phoneId: number;
  let routes: Route[];

  // With the simulator on, so that its demo routes are walked too.
  const t = useTestApp({ env: { DEVICE_SIM: 'on' } });
  beforeAll(async () => {
    admin = await createAdmin(t);
    barrier = await createBarrier(t, admin);
    member = await createUser(t);
    await grantAccess(t, barrier, member);
    phoneId = (await addPhone(t, member, barrier.id)).json().id;
    routes = routesOf(t.app.swagger() as never);
  });

  /** A real id for a path position that is not under test (only the barrier's users route has two). */
  const realId = (name: string) => String(name === 'userId' ? member.id : barrier.id);

  const url = (route: Route, pathValues: Record<string, string>, query = '') =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name] ?? realId(name)) + query;

  /** A guest pass's window within the test clock's day (it starts at 2026-11-21T09:00Z). */
  const guestWindow = { start: '2026-11-21T10:00:00Z', end: '2026-11-21T12:00:00Z' };

  /** A body each route accepts, so that only the id decides the answer (a route with a body needs one here). */
  const validBodies = (): Record<string, object> => ({
    'POST /api/admin/barriers/{id}/settings/': { setting: 'no-such-setting' },
    'POST /api/barriers/{id}/open/': {},
    'POST /api/admin/barriers/{id}/open/': {},
    'POST /api/admin/barriers/{id}/device-check/': {},
    'PUT /api/admin/barriers/{id}/device-check/audit/': { every_days: null },
    'PUT /api/admin/barriers/{id}/device-profile/': {},
    'POST /api/admin/barriers/{id}/device-profile/import/': { file: '{}' },
    'POST /api/admin/barriers/{id}/conformance/': {},
    'POST /api/admin/barriers/{id}/conformance/answer/': { answer: 'skip' },
    'POST /api/demo/devices/{id}/call/': { from: '+79990000000' },
    'POST /api/demo/devices/{id}/drift/': { kind: 'factory_reset' },
    'POST /api/demo/devices/{id}/power/': { event: 'alarm' },
    'POST /api/admin/barriers/{id}/device-check/alarm-layout/': { expected_sms: 0 },
    'PATCH /api/admin/barriers/{id}/': { is_public: true },
    'PATCH /api/admin/barriers/{id}/limits/': { sms_weekly_limit: null },
    'POST /api/admin/barriers/{id}/staff/': { phone: nextPhone(), role: 'operator' },
    'PATCH /api/admin/barriers/{id}/staff/{userId}/': { role: 'operator' },
    'PATCH /api/access_requests/{id}/': { hidden_for_user: true },
    'PATCH /api/admin/access_requests/{id}/': { hidden_for_user: true },
    'POST /api/access_requests/': { user: admin.id, barrier: barrier.id },
    'POST /api/admin/access_requests/': { user: member.id, barrier: barrier.id },
    'POST /api/admin/phone_invitations/': { barrier: barrier.id, phone: nextPhone() },
    'PATCH /api/admin/users/{id}/block/': { reason: 'Причина' },
    'POST /api/barriers/{id}/phones/': { phone: nextPhone(), name: 'Гость', type: 'permanent' },
    'POST /api/admin/barriers/{id}/phones/': {
      phone: nextPhone(),
      name: 'Гость',
      type: 'permanent',
      user: member.id,
    },
    'POST /api/barriers/{id}/guest-passes/': guestWindow,
    'POST /api/admin/barriers/{id}/guest-passes/': { ...guestWindow, user: member.id },
    'PATCH /api/phones/{id}/': { name: 'Новое имя' },
    'PATCH /api/admin/phones/{id}/': { name: 'Новое имя' },
    'PUT /api/phones/{id}/schedule/': { monday: [{ start_time: '08:00', end_time: '12:00' }] },
    'PUT /api/admin/phones/{id}/schedule/': { monday: [{ start_time: '08:00', end_time: '12:00' }] },
    // A whole model an operator defines (docs/devices/PROFILE-FORMAT.md, version 2).
    'PUT /api/admin/device-models/{id}/': {
      file: readFileSync(
        new URL('../../../docs/devices/examples/defined-model.json', import.meta.url),
        'utf8',
      ),
    },
  });

  /**
   * Where the largest id is refused before any lookup, by a rule of its own: a user asks only for himself
   * (403), and a phone is added only for a user of the barrier (400 on `user`).
   */
  const EXPECTED_FOR_LARGEST: Record<string, number> = {
    'POST /api/access_requests/ body user': 403,
    'POST /api/admin/barriers/{id}/phones/ body user': 400,
    'POST /api/admin/barriers/{id}/guest-passes/ body user': 400,
  };

  const call = (route: Route, target: string, payload?: object) =>
    t.request({
      method: route.method,
      url: target,
      token: admin.token,
      ...(payload !== undefined ? { payload } : route.hasBody ? { payload: {} } : {}),
    });

  it('finds every id: each path parameter, the query filters and the body fields, all by the shared schema', () => {
    const pathIds = routes.flatMap((route) =>
      route.pathIds.map((name) => `${route.method} ${route.path} ${name}`),
    );
    expect(pathIds.length).toBeGreaterThan(40);
    const document = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (NOT_ID_PATH_PARAMETERS.has(parameter.name)) continue;
          if (parameter.in === 'path' || ID_NAME.test(parameter.name)) {
            expect(isPathOrQueryId(parameter.schema), `${method} ${path} ${parameter.name}`).toBe(true);
          }
        }
        const properties = operation.requestBody?.content?.['application/json']?.schema?.properties ?? {};
        for (const [name, schema] of Object.entries(properties)) {
          if (ID_NAME.test(name)) expect(isBodyId(schema), `${method} ${path} ${name}`).toBe(true);
        }
      }
    }
    const queryIds = routes.flatMap((route) =>
      route.queryIds.map((name) => `${route.method} ${route.path} ${name}`),
    );
    expect(queryIds).toEqual(
      expect.arrayContaining([
        'GET /api/admin/barriers/{id}/phones/my/ user',
        'GET /api/admin/barriers/{barrier_id}/actions/ user',
      ]),
    );
    const bodyIds = routes.flatMap((route) =>
      route.bodyIds.map((name) => `${route.method} ${route.path} ${name}`),
    );
    expect(bodyIds).toEqual(
      expect.arrayContaining([
        'POST /api/access_requests/ user',
        'POST /api/access_requests/ barrier',
        'POST /api/admin/access_requests/ barrier',
        'POST /api/admin/barriers/{id}/phones/ user',
      ]),
    );
  });

  it('answers 400 on the field for an id out of range or not an id, in every path position', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const name of route.pathIds) {
        for (const bad of [...BAD_IDS, ...BAD_TEXT_IDS]) {
          const response = await call(
            route,
            url(route, { [name]: bad }),
            validBodies()[`${route.method} ${route.path}`],
          );
          const fields = response.json();
          if (response.statusCode !== 400 || fields[name]?.[0] !== ID_MESSAGE) {
            failures.push(
              `${route.method} ${route.path} ${name}=${bad}: ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Hundreds of requests (every path id of every route × every bad id): seconds on a quiet host, past the
    // 30 s default once beside CI's journeys. A limit against a hang, not a speed check.
  }, 120_000);

  it('answers 400 on the field for a bad id in a query filter', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const name of route.queryIds) {
        for (const bad of [...BAD_IDS, ...BAD_TEXT_IDS]) {
          const response = await call(route, url(route, {}, `?${name}=${bad}`));
          if (response.statusCode !== 400 || response.json()[name]?.[0] !== ID_MESSAGE) {
            failures.push(
              `${route.method} ${route.path} ?${name}=${bad}: ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 400 on the field for a bad id in a body', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const body = validBodies()[`${route.method} ${route.path}`] ?? {};
      for (const name of route.bodyIds) {
        for (const bad of BAD_IDS) {
          const response = await t.request({
            method: route.method,
            url: url(route, {}),
            token: admin.token,
            headers: { 'content-type': 'application/json' },
            // The number as written, digits and all (a JavaScript number would round the long one).
            payload: JSON.stringify({ ...body, [name]: 0 }).replace(`"${name}":0`, `"${name}":${bad}`),
          });
          if (response.statusCode !== 400 || response.json()[name]?.[0] !== ID_MESSAGE) {
            failures.push(
              `${route.method} ${route.path} ${name}=${bad}: ${response.statusCode} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 404 for the largest id, which names no row, wherever it is (a query filter: an empty list)', async () => {
    const failures: string[] = [];
    const largest = String(MAX_ID);
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const body = validBodies()[key];
      if (route.hasBody && body === undefined && route.pathIds.length + route.bodyIds.length > 0) {
        failures.push(`${key}: no valid body in validBodies()`);
        continue;
      }
      const cases: { label: string; target: string; payload?: object; expected: number }[] = [
        ...route.pathIds.map((name) => ({
          label: name,
          target: url(route, { [name]: largest }),
          ...(body ? { payload: body } : {}),
          expected: 404,
        })),
        ...route.queryIds.map((name) => ({
          label: `?${name}`,
          target: url(route, {}, `?${name}=${largest}`),
          expected: 200,
        })),
        ...route.bodyIds.map((name) => ({
          label: `body ${name}`,
          target: url(route, {}),
          payload: { ...body, [name]: MAX_ID },
          expected: 404,
        })),
      ];
      for (const { label, target, payload, expected } of cases) {
        const response = await call(route, target, payload);
        if (response.statusCode !== (EXPECTED_FOR_LARGEST[`${key} ${label}`] ?? expected)) {
          failures.push(`${key} ${label}: ${response.statusCode} ${response.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The phone the fixtures added is still there: nothing above touched a real row by mistake.
    const phone = await t.request({ method: 'GET', url: `/api/phones/${phoneId}/`, token: member.token });
    expect(phone.statusCode).toBe(200);
  });
});
