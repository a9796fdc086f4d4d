/**
 * Password changes cannot strand a unit (issue 30 item 4, docs/decisions/0025): a password change whose
 * answer is lost, and a unit whose reset button put its factory password back. Each test plays the field
 * behaviour on the simulated unit and ends with the unit's whitelist equal to the database, the stored
 * password equal to the unit's, and the health telling the truth.
 */
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions, barriers, deviceCommands, deviceMessages, phones } from '../src/db/schema.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { createDeviceHarness, type DeviceHarness, settleQueue } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('password changes that cannot strand a unit', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  const unitAndDatabase = async (barrierId: number) => {
    const unit = (h.simulators.whitelist(barrierId) ?? []).map((entry) => entry.number).sort();
    const rows = await t.deps.db
      .select({ phone: phones.phone })
      .from(phones)
      .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true)));
    return { unit, database: rows.map((row) => row.phone).sort() };
  };
  const passwords = async (barrierId: number) => {
    const [row] = await t.deps.db.select().from(barriers).where(eq(barriers.id, barrierId));
    const open = (value: string | null | undefined) => (value ? t.deps.secrets.decrypt(value) : null);
    return {
      stored: open(row?.devicePasswordEncrypted),
      pending: open(row?.devicePasswordPendingEncrypted),
      // Never in clear in the row.
      raw: [
        row?.devicePasswordEncrypted,
        row?.devicePasswordPendingEncrypted,
        row?.devicePasswordPreviousEncrypted,
      ],
    };
  };
  const health = async (barrierId: number) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrierId}/device-health/`,
      token: admin.token,
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { state: string }).state;
  };
  const settle = (barrierId: number) => settleQueue(t, h, barrierId);

  it('probes with the new password when a change’s answer is lost, adopts it, and delivers what waited', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    await settle(barrier.id);

    const sent = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: admin.token,
      payload: { setting: 'change_password', params: { new_password: '5678' } },
    });
    expect(sent.statusCode).toBe(200);
    const changeId = sent.json().command_id as number;
    const before = await passwords(barrier.id);
    expect(before).toMatchObject({ stored: '1234', pending: '5678' });
    expect(before.raw.join(' ')).not.toContain('5678');

    // The unit makes the change, its answer never arrives (King Pigeon RTU5023–5029 manual v2.5, p. 8, note 6).
    h.simulators.deliverAs(barrier.id, { kind: 'lost', count: 1 });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent', commandId: changeId });
    expect(await h.dropReplies()).toBe(0);
    expect(h.simulators.device(barrier.id)?.state().password).toBe('5678');
    const added = await h.addPhone(barrier.id, { userId: admin.id });

    // The change goes unanswered: one read with the pending password goes ahead of everything else, of two
    // slots no command of the last day named (slot 1's add was answered today: a second delivery of its
    // answer must not be taken for the probe's).
    t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe('5678AL002#003#');
    expect(await h.deliverReplies()).toBe(1);

    expect(await passwords(barrier.id)).toMatchObject({ stored: '5678', pending: null });
    const [change] = await t.deps.db.select().from(deviceCommands).where(eq(deviceCommands.id, changeId));
    expect(change?.status).toBe('confirmed');
    await settle(barrier.id);

    // The add that waited went out with the adopted password, once; nothing was written with the old one after.
    const texts = h.smsTo(barrier.devicePhone);
    expect(
      texts.filter((text) => text.startsWith('5678A') && text.includes(added.number.slice(2))),
    ).toHaveLength(1);
    expect(texts.slice(texts.indexOf('5678AL002#003#')).some((text) => text.startsWith('1234'))).toBe(false);
    const [phone] = await t.deps.db.select().from(phones).where(eq(phones.id, added.id));
    expect(phone?.status).toBe('ok');
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect(await health(barrier.id)).toBe('ok');
    // The log never shows either password.
    const logged = await t.deps.db
      .select({ text: deviceMessages.text })
      .from(deviceMessages)
      .where(eq(deviceMessages.barrierId, barrier.id))
      .orderBy(asc(deviceMessages.id));
    // The phone numbers' own digits (a test number may hold 5678) are set aside first.
    const withoutNumbers = logged.map((row) => (row.text ?? '').replace(/\d{10,}/g, '<номер>'));
    expect(withoutNumbers.join('\n')).not.toMatch(/5678|1234P/);
  });

  // A probe's answer must never be another command's late answer: that would adopt a password the unit does
  // not hold. The probe reads slots no command of the last day names (docs/decisions/0025, session audit30).
  it.each([
    { model: 'RTU5025', late: 'a device check’s read', probe: '1234AL011#012#' },
    { model: 'RTU5024-HASH', late: 'an add’s read of slot 1', probe: '1234#TEL002?' },
  ])(
    'on $model, $late answered late while a probe is out is not taken for the probe’s answer',
    async ({ model, probe }) => {
      const barrier = await h.createBarrier({ ownerId: admin.id, model });
      if (model === 'RTU5025') await h.addPhone(barrier.id, { userId: admin.id });
      await settle(barrier.id);
      const changed = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/settings/`,
        token: admin.token,
        payload: { setting: 'change_password', params: { new_password: '5678' } },
      });
      expect(changed.statusCode).toBe(200);
      await settle(barrier.id);
      expect(await passwords(barrier.id)).toMatchObject({ stored: '5678', pending: null });

      // The unit answers with 5678, but its answers arrive late (back in coverage after the timeout).
      h.simulators.deliverAs(barrier.id, { kind: 'late', delayMs: 10 * 60_000 });
      if (model === 'RTU5025') {
        const started = await t.request({
          method: 'POST',
          url: `/api/admin/barriers/${barrier.id}/device-check/`,
          token: admin.token,
          payload: {},
        });
        expect(started.statusCode).toBe(201);
      } else {
        await h.addPhone(barrier.id, { userId: admin.id });
      }
      expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
      // Unanswered: one read with the previous password (1234) goes first; the unit ignores it (note 7).
      t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
      expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
      expect(h.smsTo(barrier.devicePhone).at(-1)).toBe(probe);
      // Now the 5678 answer arrives: it is that command's, the password stays 5678.
      expect(await h.deliverLateReplies()).toBeGreaterThan(0);
      expect(await passwords(barrier.id)).toMatchObject({ stored: '5678', pending: null });

      h.simulators.deliverAs(barrier.id, null);
      await settle(barrier.id);
      expect(await passwords(barrier.id)).toMatchObject({ stored: '5678' });
      expect(h.simulators.device(barrier.id)?.state().password).toBe('5678');
      const { unit, database } = await unitAndDatabase(barrier.id);
      expect(unit).toEqual(database);
      expect(unit).toHaveLength(1);
      expect(await health(barrier.id)).toBe('ok');
    },
  );

  it('sends no probe when no other password is known: a silent unit stays «не отвечает»', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id, { answer: false });
    t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await processBarrier(t.deps, barrier.id);
    const kinds = await t.deps.db
      .select({ kind: deviceCommands.kind })
      .from(deviceCommands)
      .where(eq(deviceCommands.barrierId, barrier.id));
    expect(kinds.map((row) => row.kind)).not.toContain('password_probe');
  });

  it('after «устройство сброшено к заводским настройкам» speaks 1234, sets the password back and repairs the whitelist', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '4321' });
    const kept = await h.addPhone(barrier.id, { userId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    await settle(barrier.id);

    // The reset button: the factory password again, the numbers kept.
    expect(h.simulators.drift(barrier.id, { kind: 'password_reset' })).toBe(true);
    expect(h.simulators.device(barrier.id)?.state().password).toBe('1234');
    const late = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const [refused] = await t.deps.db.select().from(phones).where(eq(phones.id, late.id));
    expect(refused?.status).toBe('error');
    expect(await health(barrier.id)).toBe('wrong_password');

    const declared = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/device-check/factory-reset/`,
      token: admin.token,
    });
    expect(declared.statusCode).toBe(200);
    expect(declared.json()).toMatchObject({
      password_command_id: expect.any(Number),
      check: { status: 'reading' },
    });
    await settle(barrier.id);

    expect(h.smsTo(barrier.devicePhone)).toContain('1234P4321');
    expect(h.simulators.device(barrier.id)?.state().password).toBe('4321');
    expect(await passwords(barrier.id)).toMatchObject({ stored: '4321', pending: null });
    const check = (
      await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/device-check/`,
        token: admin.token,
      })
    ).json().check;
    expect(['ready', 'repaired']).toContain(check.status);
    const { unit, database } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(database);
    expect(unit).toContain(kept.number);
    expect(unit).toContain(late.number);
    expect(await health(barrier.id)).toBe('ok');
    // In the barrier's history (shown as «Устройство сброшено к заводским настройкам»), no password in it.
    const written = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    const declaration = written.find(
      (row) => (row.newValue as { setting?: string } | null)?.setting === 'device_factory_reset',
    );
    expect(declaration?.authorUserId).toBe(admin.id);
    expect(JSON.stringify(written.map((row) => row.newValue))).not.toMatch(/4321|1234/);
  });

  it('refuses the declaration for a model whose factory password no source gives, in Russian', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'ESIM120', password: '1111' });
    const declared = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/device-check/factory-reset/`,
      token: admin.token,
    });
    expect(declared.statusCode).toBe(400);
    expect(declared.json()).toMatchObject({ code: 'device_factory_password_unknown' });
  });
});
