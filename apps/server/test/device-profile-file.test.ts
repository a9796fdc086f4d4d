/**
 * Profiles are data (issue 42 item 5): a profile learnt by a conformance run on one server, exported as a
 * file and imported onto a barrier on another server, yields the same forms there, and that server's engine
 * confirms a resident's add by the unit's own text. A bad file changes nothing; the password never leaves.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions, barriers } from '../src/db/schema.ts';
import { exportDeviceProfileOf, importDeviceProfileOnto } from '../src/modules/device-checks/profile-file.ts';
import { createDeviceHarness, type DeviceHarness, settleQueue } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

const UNIT_TEXT = 'User {slot} added: {number}';

describe('device profile file between two servers', () => {
  const first = useTestApp();
  const second = useTestApp();
  let h1: DeviceHarness;
  let h2: DeviceHarness;
  let owner1: TestUser;
  let owner2: TestUser;
  beforeAll(async () => {
    h1 = createDeviceHarness(first);
    h2 = createDeviceHarness(second);
    owner1 = await createAdmin(first);
    owner2 = await createAdmin(second);
  });

  const profileUrl = (id: number) => `/api/admin/barriers/${id}/device-profile/`;

  /** A barrier whose simulated unit answers an add in its own words. */
  async function differingUnit(h: DeviceHarness, owner: TestUser) {
    const barrier = await h.createBarrier({ ownerId: owner.id, password: '5831' });
    await h.addPhone(barrier.id, { userId: owner.id, number: '+79035550001' });
    await h.run(barrier.id);
    h.simulators
      .device(barrier.id)
      ?.drift({ kind: 'differ', replies: { add: UNIT_TEXT, addWindow: UNIT_TEXT } });
    return barrier;
  }

  it('a profile exported on one server and imported on another yields the same forms, and the engine uses them', async () => {
    // First server: a conformance run learns the unit's text.
    const source = await differingUnit(h1, owner1);
    const started = await first.request({
      method: 'POST',
      url: `/api/admin/barriers/${source.id}/conformance/`,
      token: owner1.token,
      payload: {},
    });
    expect(started.statusCode, started.body).toBe(200);
    await settleQueue(first, h1, source.id);

    const exported = await first.request({
      method: 'GET',
      url: `${profileUrl(source.id)}export/`,
      token: owner1.token,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-disposition']).toContain('propusk-profile-RTU5025-');
    const file = exported.json();
    expect(file).toMatchObject({ format: 'propusk-device-profile', version: 1, model: 'RTU5025' });
    expect(file.replies.add[0]).toMatchObject({ template: UNIT_TEXT, learnt: true });
    expect(file.verified).toHaveLength(1);
    expect(file.verified[0]).toMatchObject({ model: 'RTU5025', all_confirmed: false });
    expect(file.verified[0].steps).toContainEqual({ key: 'add', verdict: 'different' });
    // The device password never leaves the server.
    expect(exported.body).not.toContain('5831');
    expect(exported.body).toContain('{pwd}');

    // Second server: a unit that answers the same way; the file imported onto its barrier.
    const target = await differingUnit(h2, owner2);
    const imported = await second.request({
      method: 'POST',
      url: `${profileUrl(target.id)}import/`,
      token: owner2.token,
      payload: { file: exported.body },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ model: 'RTU5025', verified: 1 });

    // The profile reads equal on both servers.
    const read = async (t: TestApp, id: number, token: string) =>
      (await t.request({ method: 'GET', url: profileUrl(id), token })).json().profile;
    expect(await read(second, target.id, owner2.token)).toEqual(await read(first, source.id, owner1.token));
    expect(await read(second, target.id, owner2.token)).toEqual({
      replies: { add: [UNIT_TEXT], add_window: [UNIT_TEXT] },
    });
    // Its own export shows the same forms.
    const again = (
      await second.request({ method: 'GET', url: `${profileUrl(target.id)}export/`, token: owner2.token })
    ).json();
    expect(again.forms).toEqual(file.forms);
    expect(again.replies).toEqual(file.replies);

    // The second server's engine confirms a resident's add by the unit's text.
    const added = await h2.addPhone(target.id, { userId: owner2.id, number: '+79035550002' });
    await settleQueue(second, h2, target.id);
    expect((await h2.phone(added.id)).status).toBe('ok');
    expect(
      h2.simulators
        .device(target.id)
        ?.slots()
        .map((slot) => slot.number),
    ).toContain('+79035550002');

    // The history says where it came from.
    const history = await second.deps.db
      .select({ value: actions.newValue })
      .from(actions)
      .where(and(eq(actions.barrierId, target.id), eq(actions.actionType, 'barrier_setting')));
    expect(history.map((row) => row.value)).toContainEqual(
      expect.objectContaining({
        setting: 'device_profile',
        imported: expect.objectContaining({ verified_runs: 1 }),
      }),
    );
  });

  it('the command line moves a profile the same way (the history author is the system)', async () => {
    const source = await h1.createBarrier({ ownerId: owner1.id });
    const set = await first.request({
      method: 'PUT',
      url: profileUrl(source.id),
      token: owner1.token,
      payload: { number_format: '+7', replies: { delete: ['User {slot} deleted'] } },
    });
    expect(set.statusCode, set.body).toBe(200);
    const file = await exportDeviceProfileOf(first.deps, source.id);
    expect(file.source.kind).toBe('barrier');
    const target = await h2.createBarrier({ ownerId: owner2.id });
    const result = await importDeviceProfileOnto(second.deps, target.id, JSON.stringify(file));
    expect(result.profile).toEqual({ number_format: '+7', replies: { delete: ['User {slot} deleted'] } });
    const [history] = await second.deps.db
      .select({ author: actions.author, value: actions.newValue })
      .from(actions)
      .where(and(eq(actions.barrierId, target.id), eq(actions.actionType, 'barrier_setting')));
    expect(history).toMatchObject({ author: 'system', value: { setting: 'device_profile' } });
    await expect(importDeviceProfileOnto(second.deps, 999_999, JSON.stringify(file))).rejects.toMatchObject({
      code: 'barrier_not_found',
    });
  });

  it('a bad file changes nothing and is told in Russian; a stranger gets nothing', async () => {
    const barrier = await h2.createBarrier({ ownerId: owner2.id });
    const post = (file: string, token = owner2.token) =>
      second.request({ method: 'POST', url: `${profileUrl(barrier.id)}import/`, token, payload: { file } });
    const newer = await post(JSON.stringify({ format: 'propusk-device-profile', version: 7 }));
    expect(newer.statusCode).toBe(400);
    expect(newer.json()).toMatchObject({
      code: 'device_profile_file_invalid',
      problems: ['Неизвестная версия файла профиля: 7. Этот сервер читает версию 1.'],
    });
    const huge = await post('x'.repeat(100 * 1024));
    expect(huge.json().problems).toEqual(['Файл профиля слишком большой: не больше 64 КБ.']);
    const [row] = await second.deps.db
      .select({ profile: barriers.deviceProfile })
      .from(barriers)
      .where(eq(barriers.id, barrier.id));
    expect(row?.profile).toBeNull();

    const stranger = await createAdmin(second);
    expect((await post('{}', stranger.token)).statusCode).toBe(404);
    expect(
      (
        await second.request({
          method: 'GET',
          url: `${profileUrl(barrier.id)}export/`,
          token: stranger.token,
        })
      ).statusCode,
    ).toBe(404);
  });
});
