/**
 * Issue 42 items 2, 3 and 6 over HTTP: a conformance run on simulated units that differ from their sheet.
 * The unit decides its clock's digit order by a call (the person answers «Открылось?»), the number form is
 * learnt from the read-back, the unit's own power texts are captured while the person cuts its supply, a unit
 * with fewer slots than its sheet is shown — and after learning, the engine keeps that unit's whitelist equal
 * to the database.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actions, barriers, deviceMessages, deviceSlots } from '../src/db/schema.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { createDeviceHarness, type DeviceHarness, settleQueue } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

interface StepView {
  key: string;
  state: string;
  verdict: string | null;
  learnt: string | null;
  note: string | null;
  asks: string | null;
  call_number: string | null;
  sent_text: string | null;
  captured: string[];
}

describe('conformance run on a unit that differs from its sheet', () => {
  let t: TestApp;
  let h: DeviceHarness;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    h = createDeviceHarness(t);
    owner = await createAdmin(t);
  });
  afterAll(() => t.close());

  const url = (id: number) => `/api/admin/barriers/${id}/conformance/`;
  const call = async (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.request({ method, url: path, token: owner.token, ...(payload ? { payload } : {}) });
  const runOf = async (id: number) => (await call('GET', url(id))).json().run;
  const stepsOf = async (id: number): Promise<Record<string, StepView>> =>
    Object.fromEntries(((await runOf(id)).steps as StepView[]).map((step) => [step.key, step]));
  const answer = async (id: number, value: string) => {
    const response = await call('POST', `${url(id)}answer/`, { answer: value });
    expect(response.statusCode, response.body).toBe(200);
    await settleQueue(t, h, id);
  };
  const profileOf = async (id: number) =>
    (await t.deps.db.select({ profile: barriers.deviceProfile }).from(barriers).where(eq(barriers.id, id)))[0]
      ?.profile;

  async function barrierWithUnit(resident = '+79035550101') {
    const barrier = await h.createBarrier({ ownerId: owner.id });
    await h.addPhone(barrier.id, { userId: owner.id, number: resident });
    await h.run(barrier.id);
    return barrier;
  }

  /** The unit's table and what the server believes it holds, slot → number. */
  async function unitAndDatabase(id: number) {
    const unit = (h.simulators.device(id)?.slots() ?? []).map((slot) => [slot.slot, slot.number]);
    const believed = (await t.deps.db.select().from(deviceSlots).where(eq(deviceSlots.barrierId, id))).map(
      (row) => [row.slot, row.number],
    );
    return { unit: unit.sort(), believed: believed.sort() };
  }

  it('settles the other clock order by the second call; the engine’s windows then open on that unit', async () => {
    const barrier = await barrierWithUnit();
    h.simulators.device(barrier.id)?.drift({ kind: 'differ', clockOrder: 'ddMMyyHHmm' });
    const plan = (await call('GET', url(barrier.id))).json().plan;
    expect(plan).toMatchObject({ has_call_step: true, call_sms: 4, call_refused: null });
    const started = await call('POST', url(barrier.id), { include_call: true });
    expect(started.statusCode, started.body).toBe(200);
    await settleQueue(t, h, barrier.id);
    // The run waits for the person: call from the test number (it is not on the barrier).
    let steps = await stepsOf(barrier.id);
    expect(steps.clock_try_call).toMatchObject({ state: 'sent', asks: 'call', call_number: owner.phone });
    expect(steps.clock_try_set?.sent_text).toMatch(/^\*{4}T\d{10}#$/);
    expect(h.simulators.call(barrier.id, owner.phone)).toBe(false);
    await answer(barrier.id, 'not_opened');
    steps = await stepsOf(barrier.id);
    expect(steps.clock_try_call?.verdict).toBe('not_opened');
    expect(steps.clock_retry_call).toMatchObject({ state: 'sent', asks: 'call' });
    // The other order: the idealfit form, `T` + ddMMyyHHmm without `#`.
    expect(steps.clock_retry_set?.sent_text).toMatch(/^\*{4}T\d{10}$/);
    expect(h.simulators.call(barrier.id, owner.phone)).toBe(true);
    await answer(barrier.id, 'opened');
    const run = await runOf(barrier.id);
    expect(run.status).toBe('finished');
    steps = await stepsOf(barrier.id);
    expect(steps.clock_retry_call).toMatchObject({
      verdict: 'different',
      learnt: 'Порядок цифр времени: день-месяц-год',
    });
    expect(await profileOf(barrier.id)).toEqual({ clock_order: 'ddMMyyHHmm' });
    const history = await t.deps.db
      .select({ newValue: actions.newValue })
      .from(actions)
      .where(and(eq(actions.barrierId, barrier.id), eq(actions.actionType, 'barrier_setting')));
    expect(history.map((row) => row.newValue)).toContainEqual(
      expect.objectContaining({ setting: 'device_profile', conformance_run: run.id }),
    );
    // The clock step after the trial was written in the learnt order: the unit's clock is right.
    expect(steps.set_clock?.sent_text).toMatch(/^\*{4}T\d{10}$/);

    // A guest's window written by the engine now opens for him on this unit, and the tables agree.
    const now = t.clock.now();
    const guest = await h.addPhone(barrier.id, {
      userId: owner.id,
      number: '+79035550102',
      type: 'temporary',
      start: new Date(now.getTime() - 60_000),
      end: new Date(now.getTime() + 3 * 60 * 60_000),
    });
    await settleQueue(t, h, barrier.id);
    expect((await h.phone(guest.id)).status).toBe('ok');
    expect(h.simulators.call(barrier.id, '+79035550102')).toBe(true);
    const { unit, believed } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(believed);
  });

  it('on a unit that reads the sheet order, the first call opens and the retry is not sent', async () => {
    const barrier = await barrierWithUnit('+79035550111');
    expect((await call('POST', url(barrier.id), { include_call: true })).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    expect(h.simulators.call(barrier.id, owner.phone)).toBe(true);
    await answer(barrier.id, 'opened');
    const run = await runOf(barrier.id);
    expect(run.status).toBe('finished');
    expect(run.all_confirmed).toBe(true);
    const steps = await stepsOf(barrier.id);
    expect(steps.clock_try_call?.verdict).toBe('opened');
    expect(steps.clock_retry_set?.state).toBe('skipped');
    expect(await profileOf(barrier.id)).toEqual({ clock_order: 'yyMMddHHmm' });
    // A «Да» now answers nothing.
    expect((await call('POST', `${url(barrier.id)}answer/`, { answer: 'opened' })).json().code).toBe(
      'conformance_not_running',
    );
  });

  it('stopped while it waits for the call: the test slot (the trial window) is still cleared', async () => {
    const barrier = await barrierWithUnit('+79035550171');
    expect((await call('POST', url(barrier.id), { include_call: true })).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    expect((await stepsOf(barrier.id)).clock_try_call?.asks).toBe('call');
    expect((await call('POST', `${url(barrier.id)}stop/`)).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    const run = await runOf(barrier.id);
    expect(run.status).toBe('stopped');
    const steps = await stepsOf(barrier.id);
    expect(steps.clock_try_call?.state).toBe('skipped');
    expect(steps.add?.state).toBe('skipped');
    expect(steps.delete?.state).toBe('done');
    expect(
      h.simulators
        .device(barrier.id)
        ?.slots()
        .map((slot) => slot.slot),
    ).toEqual([1]);
  });

  it('refuses a call number the barrier holds: it would open whatever the window', async () => {
    const barrier = await barrierWithUnit('+79035550121');
    const refused = await call('POST', url(barrier.id), { include_call: true, call_number: '+79035550121' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('conformance_call_number_in_use');
    const bad = await call('POST', url(barrier.id), { include_call: true, call_number: '89035550121' });
    expect(bad.statusCode).toBe(400);
  });

  it('learns the number form the read-back shows; later adds are written that way and confirmed', async () => {
    const barrier = await barrierWithUnit('+79035550131');
    h.simulators.device(barrier.id)?.drift({ kind: 'differ', numberFormat: '+7' });
    expect((await call('POST', url(barrier.id), {})).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    const steps = await stepsOf(barrier.id);
    expect(steps.read_added).toMatchObject({
      verdict: 'different',
      learnt: 'Формат номера: +7 и 10 цифр номера — международный формат',
    });
    expect(await profileOf(barrier.id)).toEqual({ number_format: '+7' });
    const added = await h.addPhone(barrier.id, { userId: owner.id, number: '+79035550132' });
    await settleQueue(t, h, barrier.id);
    expect((await h.phone(added.id)).status).toBe('ok');
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe(
      `1234A${String(added.slot).padStart(3, '0')}#+79035550132#`,
    );
    const { unit, believed } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(believed);
  });

  it('captures the unit’s own power texts while the person cuts the supply, and recognises them after', async () => {
    const barrier = await barrierWithUnit('+79035550141');
    const texts = { power_failure: 'AC OFF! Battery mode', power_restored: 'AC back, mains OK' };
    h.simulators.device(barrier.id)?.drift({ kind: 'differ', alarms: texts });
    expect((await call('POST', url(barrier.id), { include_power: true })).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    expect((await stepsOf(barrier.id)).power_cut).toMatchObject({ state: 'sent', asks: 'power' });
    // The unit sends its SMS to slot 1; here slot 1's SMS reach the server as from the gateway.
    for (const kind of ['power_failure', 'power_restored'] as const)
      for (const sms of h.simulators.device(barrier.id)?.raiseAlarm(kind) ?? [])
        await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: sms.text });
    expect((await stepsOf(barrier.id)).power_cut?.captured).toEqual([
      texts.power_failure,
      texts.power_restored,
    ]);
    await answer(barrier.id, 'power_done');
    const steps = await stepsOf(barrier.id);
    expect(steps.power_cut).toMatchObject({
      verdict: 'different',
      learnt: `${texts.power_failure}\n${texts.power_restored}`,
    });
    expect((await runOf(barrier.id)).status).toBe('finished');
    expect(await profileOf(barrier.id)).toEqual({
      alarms: { power_failure: [texts.power_failure], power_restored: [texts.power_restored] },
    });
    // From now on the unit's text is a power failure in the device log (not an unrecognised reply).
    const result = await receiveInboundSms(t.deps, { from: barrier.devicePhone, text: texts.power_failure });
    expect(JSON.stringify(result)).toContain('power_failure');
    const log = await t.deps.db
      .select({ outcome: deviceMessages.outcome })
      .from(deviceMessages)
      .where(eq(deviceMessages.barrierId, barrier.id));
    expect(log.map((row) => row.outcome)).toEqual(expect.arrayContaining(['captured', 'power_failure']));
  });

  it('a person who skips the power cut: nothing learnt, the run goes on', async () => {
    const barrier = await barrierWithUnit('+79035550151');
    expect((await call('POST', url(barrier.id), { include_power: true })).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    expect((await call('POST', `${url(barrier.id)}answer/`, { answer: 'opened' })).json().code).toBe(
      'conformance_not_asking',
    );
    await answer(barrier.id, 'skip');
    const run = await runOf(barrier.id);
    expect(run.status).toBe('finished');
    expect(run.all_confirmed).toBe(true);
    expect(await profileOf(barrier.id)).toBeNull();
  });

  it('shows a unit with fewer slots than its sheet: the add above its capacity is refused', async () => {
    const barrier = await barrierWithUnit('+79035550161');
    h.simulators.device(barrier.id)?.drift({ kind: 'differ', capacity: 200 });
    expect((await call('POST', url(barrier.id), {})).statusCode).toBe(200);
    await settleQueue(t, h, barrier.id);
    const steps = await stepsOf(barrier.id);
    expect(steps.add?.verdict).toBe('format_error');
    expect(steps.read_added?.note).toBe('Устройство не показывает тестовый номер в тестовой ячейке.');
    // Residents take the lowest slots: the engine keeps the unit equal to the database.
    const added = await h.addPhone(barrier.id, { userId: owner.id, number: '+79035550162' });
    await settleQueue(t, h, barrier.id);
    expect((await h.phone(added.id)).status).toBe('ok');
    const { unit, believed } = await unitAndDatabase(barrier.id);
    expect(unit).toEqual(believed);
  });
});
