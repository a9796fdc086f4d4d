/**
 * Device settings over HTTP: the settings of the barrier's model, sending one (history row, command), and
 * a password change that updates the stored password once the device confirms it.
 */
import { errorCodeText } from '@propusk/contracts/error-texts';
import { maskSecrets } from '@propusk/devices/mask';
import { previewSetting } from '@propusk/devices/settings';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions, barriers, deviceCommands } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('device settings', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it("lists the model's settings keyed by id, without the device password among the params", async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '9371' });
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: admin.token,
    });
    expect(response.statusCode).toBe(200);
    const { settings } = response.json();
    expect(settings.change_password).toEqual({
      name: 'Смена пароля',
      description: expect.any(String),
      template: '{pwd}P{new_password}',
      params: [{ key: 'new_password', name: 'Новый пароль', description: 'Ровно 4 цифры', example: '5678' }],
    });
    for (const setting of Object.values(settings) as { params: { key: string }[] }[]) {
      expect(setting.params.map((param) => param.key)).not.toContain('pwd');
    }
    expect(JSON.stringify(response.json())).not.toContain('9371');
  });

  it('is for the owner only', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const other = await createAdmin(t);
    const user = await createUser(t);
    const url = `/api/admin/barriers/${barrier.id}/settings/`;
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url, token: user.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url, token: other.token })).statusCode).toBe(404);
    const post = await t.request({
      method: 'POST',
      url,
      token: other.token,
      payload: { setting: 'open', params: {} },
    });
    expect(post.statusCode).toBe(404);
    expect(await h.commands(barrier.id)).toEqual([]);
  });

  it('refuses missing or invalid params, naming them, and stores nothing', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const url = `/api/admin/barriers/${barrier.id}/settings/`;
    const missing = await t.request({
      method: 'POST',
      url,
      token: admin.token,
      payload: { setting: 'query_range', params: { from: '001' } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      detail: 'Missing params: to.',
      code: 'setting_params_missing',
      missing: ['to'],
    });
    const invalid = await t.request({
      method: 'POST',
      url,
      token: admin.token,
      payload: { setting: 'change_password', params: { new_password: '12ab' } },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().detail).toContain('new_password');
    expect(invalid.json().code).toBe('setting_params_invalid');
    // The parameter's own message is Russian, and is what the screen shows.
    expect(invalid.json().params.new_password).toMatch(/[А-Яа-я]/);
    expect(errorCodeText(invalid.json())).toBe(invalid.json().params.new_password);
    const unknown = await t.request({
      method: 'POST',
      url,
      token: admin.token,
      payload: { setting: 'nope' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(await h.commands(barrier.id)).toEqual([]);
  });

  it('sends a setting: history entry, the exact SMS, the reply confirms it', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: admin.token,
      payload: { setting: 'relay_time', params: { seconds: '30' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ detail: 'Setting relay_time queued.', command_id: expect.any(Number) });
    expect(h.notified).toContain(barrier.id);
    const [action] = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    expect(action).toMatchObject({
      actionType: 'barrier_setting',
      author: 'admin',
      authorUserId: admin.id,
      reason: 'manual',
      newValue: { setting: 'relay_time', params: { seconds: '030' } },
    });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual(['1234GOT030#']);
    expect(h.simulators.device(barrier.id)?.state().relaySeconds).toBe(30);
    const [command] = await h.commands(barrier.id);
    expect(command).toMatchObject({ kind: 'setting', status: 'confirmed', reply: 'Set Success!' });
  });

  it("follows a sent setting to the device's answer; the preview is the sent SMS with the password masked", async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '4821' });
    const send = async (setting: string, params: Record<string, string>) => {
      const response = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/settings/`,
        token: admin.token,
        payload: { setting, params },
      });
      expect(response.statusCode).toBe(200);
      return response.json().command_id as number;
    };
    const status = async (commandId: number, token = admin.token) =>
      t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/settings/commands/${commandId}/`,
        token,
      });
    const first = await send('relay_time', { seconds: '50' });
    expect((await status(first)).json()).toEqual({
      command_id: first,
      setting: 'relay_time',
      state: 'sent',
      failure: null,
    });
    await h.run(barrier.id);
    const sms = h.smsTo(barrier.devicePhone);
    expect(sms).toEqual(['4821GOT050#']);
    // What the settings screen showed before sending: the same text, the password masked as in the log.
    expect(previewSetting('RTU5025', 'relay_time', { seconds: '50' }).text).toBe('****GOT050#');
    expect(maskSecrets(sms[0] ?? '', ['4821'])).toBe('****GOT050#');
    expect((await status(first)).json()).toMatchObject({ state: 'confirmed', failure: null });

    // The device now holds another password than the server: it refuses, and the screen can say why.
    await t.deps.db
      .update(barriers)
      .set({ devicePasswordEncrypted: t.deps.secrets.encrypt('1111') })
      .where(eq(barriers.id, barrier.id));
    const second = await send('open', {});
    await h.run(barrier.id);
    expect((await status(second)).json()).toMatchObject({ state: 'failed', failure: 'wrong_password' });

    const other = await createAdmin(t);
    expect((await status(first, other.token)).statusCode).toBe(404);
    const missing = await status(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('setting_command_not_found');
  });

  it('stores the new device password only when the device confirms the change, never in clear', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '1234' });
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: admin.token,
      payload: { setting: 'change_password', params: { new_password: '5678' } },
    });
    expect(response.statusCode).toBe(200);
    const stored = async () => {
      const [row] = await t.deps.db.select().from(barriers).where(eq(barriers.id, barrier.id));
      return t.deps.secrets.decrypt(row?.devicePasswordEncrypted ?? '');
    };
    expect(await stored()).toBe('1234');
    const rows = await t.deps.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.barrierId, barrier.id)));
    const history = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    expect(JSON.stringify(rows)).not.toContain('5678');
    expect(JSON.stringify(history)).not.toContain('5678');

    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual(['1234P5678']);
    expect(await stored()).toBe('5678');

    // The next command carries the new password, and the device accepts it.
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe(`5678A001#0007${phone.number.slice(2)}#`);
    expect((await h.phone(phone.id)).status).toBe('ok');
  });

  it('counts settings against the weekly SMS limit', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, smsWeeklyLimit: 1 });
    const url = `/api/admin/barriers/${barrier.id}/settings/`;
    const payload = { setting: 'open', params: {} };
    expect((await t.request({ method: 'POST', url, token: admin.token, payload })).statusCode).toBe(200);
    const refused = await t.request({ method: 'POST', url, token: admin.token, payload });
    expect(refused.statusCode).toBe(409);
    expect(await h.commands(barrier.id)).toHaveLength(1);
  });
});
