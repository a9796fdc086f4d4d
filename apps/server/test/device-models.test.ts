/**
 * Models an operator defines (issue 42 item 4) over HTTP: a definition is checked (Russian problems naming
 * the field), stored per administrator, put on his own barrier only; the engine sends its forms to a
 * simulated unit that plays the definition and keeps the unit's whitelist equal to the database; a
 * conformance run on the barrier verifies it, and a change of the model makes it unverified again.
 */
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phones } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness, settleQueue, unitNumbers } from './device-harness.ts';
import { addPhone, createBarrier, createUserWithAccess } from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const exampleText = readFileSync(
  new URL('../../../docs/devices/examples/defined-model.json', import.meta.url),
  'utf8',
);
const example = JSON.parse(exampleText).definition;

describe('models an operator defines', () => {
  let t: TestApp;
  let h: DeviceHarness;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    h = createDeviceHarness(t);
    owner = await createAdmin(t);
    stranger = await createAdmin(t);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, user = owner) =>
    t.request({ method, url, token: user.token, ...(payload ? { payload } : {}) });

  it('refuses a definition with Russian problems naming the field, and stores nothing', async () => {
    const bad = structuredClone(example);
    bad.forms.add.template = '{pwd}#ADD#{slot}#{phone}#';
    bad.capacity = 5000;
    const response = await call('POST', '/api/admin/device-models/', { definition: bad });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'device_model_invalid',
      problems: ['Ёмкость: не больше 2000 номеров.'],
    });
    const long = structuredClone(example);
    long.forms.open.template = `{pwd}#OPEN#${'Ж'.repeat(70)}`;
    const tooLong = await call('POST', '/api/admin/device-models/', { definition: long });
    expect(tooLong.json().problems).toEqual([expect.stringMatching(/^Открытие: команда длиннее одной СМС/)]);
    const unknown = structuredClone(example);
    unknown.forms.add.template = '{pwd}#ADD#{slot}#{phone}#';
    expect(
      (await call('POST', '/api/admin/device-models/', { definition: unknown })).json().problems,
    ).toEqual([
      expect.stringContaining('Команда записи номера: неизвестный параметр {phone}'),
      expect.stringContaining('Команда записи номера: нет параметра {number} (номер)'),
    ]);
    expect((await call('GET', '/api/admin/device-models/')).json().models).toEqual([]);
  });

  it('puts his model on his barrier only; the engine sends its forms and the unit holds what the database holds', async () => {
    const created = await call('POST', '/api/admin/device-models/', { file: exampleText });
    expect(created.statusCode, created.body).toBe(200);
    const model = created.json();
    expect(model).toMatchObject({ model: `defined:${model.id}`, name: 'GSM-модуль (пример)', barriers: 0 });
    expect((await call('GET', '/api/admin/device-models/', undefined, stranger)).json().models).toEqual([]);

    // Another administrator cannot use it, change it or read it.
    const refused = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/',
      token: stranger.token,
      payload: {
        address: 'г. Москва, ул. Чужая, д. 1',
        device_phone: '+79035557001',
        device_model: model.model,
        device_password: '1234',
        device_phones_amount: 10,
        additional_info: '',
        is_public: true,
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(
      (await call('PUT', `/api/admin/device-models/${model.id}/`, { definition: example }, stranger))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/admin/device-models/${model.id}/export/`, undefined, stranger)).statusCode,
    ).toBe(404);
    // Capacity is the model's.
    const overCapacity = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/',
      token: owner.token,
      payload: {
        address: 'г. Москва, ул. Своя, д. 2',
        device_phone: '+79035557002',
        device_model: model.model,
        device_password: '1234',
        device_phones_amount: 201,
        additional_info: '',
        is_public: true,
      },
    });
    expect(overCapacity.statusCode).toBe(400);

    const barrier = await createBarrier(t, owner, { device_model: model.model, device_phones_amount: 50 });
    const status = await call('GET', `/api/admin/barriers/${barrier.id}/device-model/`);
    expect(status.json()).toEqual({ defined: true, name: 'GSM-модуль (пример)', verified: false });
    expect((await call('DELETE', `/api/admin/device-models/${model.id}/`)).json().code).toBe(
      'device_model_in_use',
    );

    // A resident's phone: the engine renders the defined add, the simulated unit plays it.
    const user = await createUserWithAccess(t, barrier);
    const added = await addPhone(t, user, barrier.id, { phone: '+79161234567' });
    expect(added.statusCode, added.body).toBe(201);
    await settleQueue(t, h, barrier.id);
    const sent = h.smsTo(barrier.device_phone);
    expect(sent).toEqual(expect.arrayContaining([expect.stringMatching(/^1234#ADD#\d{3}#\+79161234567#$/)]));
    const stored = await t.deps.db
      .select({ phone: phones.phone })
      .from(phones)
      .where(and(eq(phones.barrierId, barrier.id), eq(phones.isActive, true)));
    const believed = stored.map((row) => row.phone).sort();
    expect(believed).toContain('+79161234567');
    expect(unitNumbers(t, h, barrier.id)).toEqual(believed);

    // The conformance run plans from the definition and, every form confirmed, verifies the barrier.
    const plan = (await call('GET', `/api/admin/barriers/${barrier.id}/conformance/`)).json().plan;
    expect(plan).toMatchObject({ available: true, slot: 200 });
    expect((await call('POST', `/api/admin/barriers/${barrier.id}/conformance/`, {})).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    const { run } = (await call('GET', `/api/admin/barriers/${barrier.id}/conformance/`)).json();
    expect(run).toMatchObject({ status: 'finished', all_confirmed: true });
    expect(h.smsTo(barrier.device_phone)).toEqual(
      expect.arrayContaining(['1234#READ#200#', `1234#ADD#200#${owner.phone}#`, '1234#DEL#200#']),
    );
    expect((await call('GET', `/api/admin/barriers/${barrier.id}/device-model/`)).json().verified).toBe(true);
    // The unit ends as it began.
    expect(unitNumbers(t, h, barrier.id)).toEqual(believed);

    // A change of its forms: the barrier is unverified again until a new run.
    t.clock.advance(1000);
    const changed = structuredClone(example);
    changed.replies.add = ['Added {slot}', ...changed.replies.add];
    const put = await call('PUT', `/api/admin/device-models/${model.id}/`, { definition: changed });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('GET', `/api/admin/barriers/${barrier.id}/device-model/`)).json().verified).toBe(
      false,
    );
  });

  it('exports a model as the profile file version 2 that imports back as the same definition', async () => {
    const { models } = (await call('GET', '/api/admin/device-models/')).json();
    const exported = await call('GET', `/api/admin/device-models/${models[0].id}/export/`);
    expect(exported.statusCode).toBe(200);
    const { file } = exported.json();
    expect(file).toMatchObject({ format: 'propusk-device-profile', version: 2, model: 'defined' });
    expect(JSON.stringify(file)).not.toContain('password_encrypted');
    file.definition.name = 'Копия';
    const imported = await call(
      'POST',
      '/api/admin/device-models/',
      { file: JSON.stringify(file) },
      stranger,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().definition).toEqual({ ...models[0].definition, name: 'Копия' });
    // The same name twice is refused for one administrator.
    const again = await call('POST', '/api/admin/device-models/', { file: JSON.stringify(file) }, stranger);
    expect(again.json().code).toBe('device_model_name_taken');
    // Deleted once no barrier uses it.
    expect(
      (await call('DELETE', `/api/admin/device-models/${imported.json().id}/`, undefined, stranger))
        .statusCode,
    ).toBe(200);
  });
});
