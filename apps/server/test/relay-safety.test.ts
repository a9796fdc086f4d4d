/**
 * Issue 16 part 4: a relay-time or relay on/off setting is refused while the barrier's command dialect is not
 * known (an RTU5024 may run either firmware, and `000` is a 0.5 s pulse in one and "stay on" in the other);
 * nothing reaches the device. A device check that the unit answered in the sheet's language makes it known.
 */
import { ERROR_CODE_TEXTS } from '@propusk/contracts/error-texts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('relay settings need a known command dialect', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, token: admin.token, ...(payload ? { payload } : {}) });

  const settingActions = async (barrierId: number) =>
    t.deps.db
      .select()
      .from(actions)
      .where(and(eq(actions.barrierId, barrierId), eq(actions.actionType, 'barrier_setting')));

  it('refuses relay time and relay on/off on an RTU5024 never checked, and queues nothing', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'RTU5024' });
    const url = `/api/admin/barriers/${barrier.id}/settings/`;
    for (const [setting, params] of [
      ['relay_time', { seconds: '000' }],
      ['open', {}],
      ['close', {}],
    ] as const) {
      const response = await call('POST', url, { setting, params });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'relay_dialect_unknown', setting });
    }
    expect(ERROR_CODE_TEXTS.relay_dialect_unknown).toMatch(/может оставить шлагбаум открытым/);
    await h.run(barrier.id);
    expect(await h.commands(barrier.id)).toEqual([]);
    expect(h.smsTo(barrier.devicePhone)).toEqual([]);
    expect(await settingActions(barrier.id)).toEqual([]);

    // A setting that does not move the relay is still sent.
    const query = await call('POST', url, { setting: 'query_slot', params: { slot: '001' } });
    expect(query.statusCode, query.body).toBe(200);

    const listed = (await call('GET', url)).json();
    expect(listed.unavailable).toEqual({
      relay_time: { code: 'relay_dialect_unknown' },
      open: { code: 'relay_dialect_unknown' },
      close: { code: 'relay_dialect_unknown' },
    });
  });

  it('accepts them once a device check found the unit answering in the sheet’s language', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'RTU5024' });
    const started = await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {});
    expect(started.statusCode, started.body).toBe(201);
    await h.run(barrier.id);
    const check = (await call('GET', `/api/admin/barriers/${barrier.id}/device-check/`)).json().check;
    expect(check.status).toBe('ready');

    const url = `/api/admin/barriers/${barrier.id}/settings/`;
    expect((await call('GET', url)).json().unavailable).toEqual({});
    const sentBefore = h.smsTo(barrier.devicePhone).length;
    const response = await call('POST', url, { setting: 'relay_time', params: { seconds: '30' } });
    expect(response.statusCode, response.body).toBe(200);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(sentBefore)).toEqual(['1234GOT030#']);
    expect((await settingActions(barrier.id)).map((row) => row.newValue)).toContainEqual({
      setting: 'relay_time',
      params: { seconds: '030' },
    });
  });

  it('does not count a check the unit never answered', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'RTU5024' });
    await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {});
    await h.run(barrier.id, { answer: false });
    const response = await call('POST', `/api/admin/barriers/${barrier.id}/settings/`, {
      setting: 'open',
      params: {},
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('relay_dialect_unknown');
  });

  it('sends relay time to an RTU5025, whose only documented firmware is its sheet', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'RTU5025' });
    const url = `/api/admin/barriers/${barrier.id}/settings/`;
    expect((await call('GET', url)).json().unavailable).toEqual({});
    const response = await call('POST', url, { setting: 'relay_time', params: { seconds: '0' } });
    expect(response.statusCode, response.body).toBe(200);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual(['1234GOT000#']);
  });
});
