/**
 * Issue 30 item 8: a model that documents no reply to a change (RTU5024/RTU5035 hash-style firmware,
 * `confirmation: 'read_back'`) has each change confirmed by reading its slot back: the change, then
 * `{pwd}#TEL{slot}?`, and the command is confirmed only when the answer shows the slot holding what the change
 * wrote. A change the unit never heard, or a read whose answer is lost, is sent again; every SMS count (the
 * forecast, the week's SMS) counts the change and its read.
 */
import { isAvailableDeviceModel } from '@propusk/devices/models';
import { beforeAll, describe, expect, it } from 'vitest';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { forecastDeviceSync } from '../src/engine/plan/index.ts';
import {
  checkDevice,
  createDeviceHarness,
  type DeviceHarness,
  permanentSpecs,
  unitNumbers,
  waitOutReply,
} from './device-harness.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const HASH = 'RTU5024-HASH';
/** A number as the hash-style firmware writes it (00 + country code, RTU5024 hash manual p. 7). */
const onUnit = (number: string) => `007${number.slice(2)}`;

describe('read-back confirmation (RTU5024 hash-style firmware)', () => {
  let h: DeviceHarness;
  let admin: TestUser;

  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('is offered on the barrier form', () => {
    expect(isAvailableDeviceModel(HASH)).toBe(true);
  });

  it('adds and deletes with a read after each change, as many SMS as the forecast said', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: HASH, password: '2580' });
    const numbers = [nextPhone(), nextPhone()];
    const forecast = await forecastDeviceSync(t.deps.db, t.deps, barrier.id, permanentSpecs(numbers));
    expect(forecast.sms).toBe(4);

    const first = await h.addPhone(barrier.id, { userId: admin.id, number: numbers[0] });
    const second = await h.addPhone(barrier.id, { userId: admin.id, number: numbers[1] });
    expect(first.queued + second.queued).toBe(4);
    await h.run(barrier.id);

    expect(h.smsTo(barrier.devicePhone)).toEqual([
      `2580#TEL${onUnit(numbers[0]!)}#001#`,
      '2580#TEL001?',
      `2580#TEL${onUnit(numbers[1]!)}#002#`,
      '2580#TEL002?',
    ]);
    expect(unitNumbers(t, h, barrier.id)).toEqual([...numbers].sort());
    expect((await h.phone(first.id)).status).toBe('ok');
    expect((await h.phone(second.id)).status).toBe('ok');
    expect((await h.commands(barrier.id)).map((command) => command.status)).toEqual([
      'confirmed',
      'confirmed',
    ]);
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(4);

    await h.removePhone(barrier.id, first.id);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(4)).toEqual(['2580#TEL#001#', '2580#TEL001?']);
    expect(unitNumbers(t, h, barrier.id)).toEqual([numbers[1]]);
    expect((await h.commands(barrier.id)).at(-1)?.status).toBe('confirmed');
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(6);
  });

  it('does not confirm a change the unit never heard: the read shows the slot empty, the change is sent again', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: HASH, password: '2580' });
    const seed = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(unitNumbers(t, h, barrier.id)).toEqual([seed.number]);

    h.simulators.missNext(barrier.id, 1);
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    // The add was lost on the way; the read answers "002: Empty": nothing is confirmed.
    expect(h.smsTo(barrier.devicePhone).slice(2)).toEqual([
      `2580#TEL${onUnit(phone.number)}#002#`,
      '2580#TEL002?',
    ]);
    expect(unitNumbers(t, h, barrier.id)).toEqual([seed.number]);
    expect((await h.commands(barrier.id)).at(-1)?.status).toBe('sent');
    expect((await h.phone(phone.id)).status).toBe('pending');

    await waitOutReply(t, h, barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(4)).toEqual([
      `2580#TEL${onUnit(phone.number)}#002#`,
      '2580#TEL002?',
    ]);
    expect(unitNumbers(t, h, barrier.id)).toEqual([seed.number, phone.number].sort());
    expect((await h.phone(phone.id)).status).toBe('ok');
    expect((await h.commands(barrier.id)).at(-1)?.status).toBe('confirmed');
    // Two attempts of the add, each the change and its read, and the first phone's two.
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(6);
  });

  it('counts a device check repair as the change and its read', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: HASH, password: '2580' });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    const second = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(h.simulators.drift(barrier.id, { kind: 'wipe_slot', slot: 1 })).toBe(true);
    const { check, repair: runRepair } = await checkDevice(t, h, barrier, admin);
    expect(check).toMatchObject({ status: 'ready', repair_sms: 2 });

    const repair = await runRepair();
    expect(repair).toEqual([`2580#TEL${onUnit(first.number)}#001#`, '2580#TEL001?']);
    expect(unitNumbers(t, h, barrier.id)).toEqual([first.number, second.number].sort());
  });
});
