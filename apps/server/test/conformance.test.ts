/**
 * «Проверка устройства по модели» (issue 42) over HTTP with simulated units: a run sends each form of the
 * model once through the outbox, judges each reply, learns a text of the unit's own into the barrier's
 * profile (and the engine confirms with it from then on), stops and cleans up, and leaves the unit as it
 * began.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barriers, deviceMessages, deviceSlots } from '../src/db/schema.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { createDeviceHarness, type DeviceHarness, settleQueue } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

describe('conformance run', () => {
  let t: TestApp;
  let h: DeviceHarness;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    h = createDeviceHarness(t);
    // A number of its own: the factory's hold the worker's pid, which can spell the password (device-log.test.ts).
    owner = await createAdmin(t, { phone: '+79005550101' });
  });
  afterAll(() => t.close());

  const url = (id: number) => `/api/admin/barriers/${id}/conformance/`;
  const call = async (method: 'GET' | 'POST', path: string, payload?: object, user = owner) =>
    t.request({ method, url: path, token: user.token, ...(payload ? { payload } : {}) });

  /** A barrier whose unit already heard from the server (one resident in slot 1). */
  async function barrierWithUnit() {
    const barrier = await h.createBarrier({ ownerId: owner.id });
    await h.addPhone(barrier.id, { userId: owner.id, number: '+79035550001' });
    await h.run(barrier.id);
    return barrier;
  }

  it('shows the plan, runs every form once, and ends with every form confirmed on a conforming unit', async () => {
    const barrier = await barrierWithUnit();
    const before = await call('GET', url(barrier.id));
    expect(before.statusCode, before.body).toBe(200);
    const { plan } = before.json();
    expect(plan).toMatchObject({
      available: true,
      slot: 999,
      test_number: owner.phone,
      sms: 7,
      sms_with_password: 8,
      has_password_step: true,
    });
    expect(plan.skipped.map((skip: { form: string }) => skip.form)).toEqual(['Время открытия']);

    const started = await call('POST', url(barrier.id), { include_password: true });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().run.steps[0]).toMatchObject({ key: 'read_before', state: 'sent' });
    expect((await call('POST', url(barrier.id), {})).json().code).toBe('conformance_running');
    const sentBefore = h.smsTo(barrier.devicePhone).length;
    await settleQueue(t, h, barrier.id);

    const { run } = (await call('GET', url(barrier.id))).json();
    expect(run.status).toBe('finished');
    expect(run.all_confirmed).toBe(true);
    expect(run.steps.map((step: { verdict: string }) => step.verdict)).toEqual(Array(8).fill('as_sheet'));
    // Each form once, the password masked in what the screen shows.
    const sent = h.smsTo(barrier.devicePhone).slice(sentBefore);
    expect(sent).toEqual([
      '1234AL999#999#',
      `1234A999#0007${owner.phone.slice(2)}#`,
      '1234AL999#999#',
      expect.stringMatching(/^1234A999#0007\d{10}#\d{10}#\d{10}#$/),
      expect.stringMatching(/^1234T\d{10}#$/),
      '1234P1234',
      '1234A999##',
      '1234AL999#999#',
    ]);
    expect(run.steps[1].sent_text).not.toContain('1234');
    // The password step's answer names the password: shown as the device log keeps it, masked.
    expect(run.steps[5].reply).toMatch(/^Password changed to /);
    expect(run.steps[5].reply).not.toContain('1234');
    // The unit ends as it began: the resident only; the server believes the same.
    expect(
      h.simulators
        .device(barrier.id)
        ?.slots()
        .map((slot) => slot.slot),
    ).toEqual([1]);
    const believed = await t.deps.db.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrier.id));
    expect(believed.map((row) => row.slot)).toEqual([1]);
    // The device log shows every step.
    const log = await t.deps.db.select().from(deviceMessages).where(eq(deviceMessages.barrierId, barrier.id));
    const outgoing = log.filter((row) => row.direction === 'out').map((row) => row.text);
    expect(outgoing.slice(-8)).toEqual(run.steps.map((step: { sent_text: string }) => step.sent_text));
    expect(log.filter((row) => row.direction === 'in').length).toBeGreaterThanOrEqual(9);
  });

  it('finds a unit that answers in its own words and is silent to the clock, learns the text, and the engine confirms with it', async () => {
    const barrier = await barrierWithUnit();
    h.simulators.device(barrier.id)?.drift({
      kind: 'differ',
      replies: { add: 'User {slot} added: {number}', addWindow: 'User {slot} added: {number}' },
      silent: ['setClock'],
    });
    expect((await call('POST', url(barrier.id), {})).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    const { run } = (await call('GET', url(barrier.id))).json();
    const byKey = Object.fromEntries(run.steps.map((step: { key: string }) => [step.key, step]));
    expect(run.status).toBe('finished');
    expect(run.all_confirmed).toBe(false);
    expect(byKey.add).toMatchObject({
      verdict: 'different',
      reply: expect.stringMatching(/^User 999 added: 0007\d{10}$/),
      learnt: 'User {slot} added: {number}',
    });
    // The windowed add is a form of its own: learnt as such.
    expect(byKey.add_window).toMatchObject({ verdict: 'different', learnt: 'User {slot} added: {number}' });
    expect(byKey.set_clock).toMatchObject({ verdict: 'no_answer', reply: null });
    expect(byKey.delete.verdict).toBe('as_sheet');
    const [stored] = await t.deps.db
      .select({ profile: barriers.deviceProfile })
      .from(barriers)
      .where(eq(barriers.id, barrier.id));
    expect(stored?.profile).toEqual({
      replies: { add: ['User {slot} added: {number}'], add_window: ['User {slot} added: {number}'] },
    });

    // From now on a resident's add is confirmed by the unit's text: the unit and the database agree.
    const added = await h.addPhone(barrier.id, { userId: owner.id, number: '+79035550002' });
    await settleQueue(t, h, barrier.id);
    expect((await h.phone(added.id)).status).toBe('ok');
    const unit = (h.simulators.device(barrier.id)?.slots() ?? []).map((slot) => [slot.slot, slot.number]);
    const believed = (
      await t.deps.db.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrier.id))
    ).map((row) => [row.slot, row.number]);
    expect(unit.sort()).toEqual(believed.sort());
    expect(unit).toContainEqual([added.slot, '+79035550002']);
  });

  it('stops at any step and still deletes the test number', async () => {
    const barrier = await barrierWithUnit();
    await call('POST', url(barrier.id), {});
    // The first read answered, then the person stops while the add is on its way.
    await processBarrier(t.deps, barrier.id);
    await h.deliverReplies();
    await processBarrier(t.deps, barrier.id);
    const stopped = await call('POST', `${url(barrier.id)}stop/`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    await settleQueue(t, h, barrier.id);
    const { run } = (await call('GET', url(barrier.id))).json();
    expect(run.status).toBe('stopped');
    expect(run.steps.find((step: { key: string }) => step.key === 'delete').state).toBe('done');
    expect(run.steps.find((step: { key: string }) => step.key === 'set_clock').state).toBe('skipped');
    expect(
      h.simulators
        .device(barrier.id)
        ?.slots()
        .map((slot) => slot.slot),
    ).toEqual([1]);
    expect((await call('POST', `${url(barrier.id)}stop/`)).json().code).toBe('conformance_not_running');
  });

  it('is the owner’s or a manager’s: another administrator gets nothing', async () => {
    const barrier = await barrierWithUnit();
    const stranger = await createAdmin(t);
    expect((await call('GET', url(barrier.id), undefined, stranger)).statusCode).toBe(404);
    expect((await call('POST', url(barrier.id), {}, stranger)).statusCode).toBe(404);
  });
});
