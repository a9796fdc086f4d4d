/**
 * Issue 30 item 8: several numbers in one SMS where the model allows it and its reply says how many the unit
 * took (TELL Gate Control 2.0: `PWD=…#TEL=…#TEL=…#`, "7 user(s) added"). A batch's reply confirms every
 * number it carried only when the count is theirs; a batch answered with fewer, or not at all, confirms none,
 * is sent again, and after its last attempt its numbers go one an SMS — the unit ends holding exactly what
 * the database says, and every count a person or the budget sees is the number of SMS sent.
 */
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

const TELL = 'TELL-GC20';

describe('batches: several numbers in one SMS (TELL)', () => {
  let h: DeviceHarness;
  let admin: TestUser;

  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  async function addSeven(barrierId: number) {
    const added = [];
    for (let index = 0; index < 7; index += 1) added.push(await h.addPhone(barrierId, { userId: admin.id }));
    return added;
  }

  it('sends 7 new numbers as one SMS, as the forecast said, and the unit holds exactly them', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: TELL, password: '1111' });
    const numbers = Array.from({ length: 7 }, () => nextPhone());
    const forecast = await forecastDeviceSync(t.deps.db, t.deps, barrier.id, permanentSpecs(numbers));
    expect(forecast.sms).toBe(1);

    const added = [];
    for (const number of numbers) added.push(await h.addPhone(barrier.id, { userId: admin.id, number }));
    await h.run(barrier.id);

    const sent = h.smsTo(barrier.devicePhone);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBe(`PWD=1111#${numbers.map((number) => `TEL=${number}#`).join('')}`);
    expect(sent[0]?.match(/TEL=/g)).toHaveLength(7);
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(1);
    expect(unitNumbers(t, h, barrier.id)).toEqual([...numbers].sort());
    for (const phone of added) expect((await h.phone(phone.id)).status).toBe('ok');
    const commands = await h.commands(barrier.id);
    expect(commands.filter((command) => command.status === 'confirmed')).toHaveLength(1);
    expect(commands.filter((command) => command.status === 'queued' || command.status === 'sent')).toEqual(
      [],
    );

    // A removal is one delete per number (no combined delete is documented), confirmed by the list read sent
    // right after it (its answer «User removed» names nothing, 0025): two SMS, as forecast; the unit follows.
    expect(await h.removePhone(barrier.id, added[0]!.id)).toBe(2);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(1)).toEqual([`PWD=1111#DEL=${numbers[0]}#`, 'PWD=1111#TEL?#']);
    expect((await h.commands(barrier.id)).at(-1)).toMatchObject({ kind: 'delete', status: 'confirmed' });
    expect(unitNumbers(t, h, barrier.id)).toEqual(numbers.slice(1).sort());
  });

  it('confirms none of a batch answered with fewer numbers than it carried, and converges on its retry', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: TELL, password: '1111' });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([`PWD=1111#TEL=${first.number}#`]);
    expect(h.simulators.drift(barrier.id, { kind: 'short_batch', keep: 3 })).toBe(true);
    const added = await addSeven(barrier.id);
    await h.run(barrier.id);

    // "3 user(s) added" for seven: nothing is confirmed, the phones still wait.
    expect(h.smsTo(barrier.devicePhone)).toHaveLength(2);
    expect(unitNumbers(t, h, barrier.id)).toHaveLength(1 + 3);
    const batch = (await h.commands(barrier.id)).at(-1);
    expect(batch?.status).toBe('sent');
    for (const phone of added) expect((await h.phone(phone.id)).status).toBe('pending');

    // The reply is overdue: the same batch again, whole this time, and the unit's count confirms it.
    await waitOutReply(t, h, barrier.id);
    const sent = h.smsTo(barrier.devicePhone);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toBe(sent[1]);
    expect(sent[2]?.match(/TEL=/g)).toHaveLength(7);
    expect(unitNumbers(t, h, barrier.id)).toEqual([first, ...added].map((phone) => phone.number).sort());
    for (const phone of added) expect((await h.phone(phone.id)).status).toBe('ok');
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(3);
  });

  it('sends the numbers of a batch that never got an answer one an SMS, and the unit ends as the database', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: TELL, password: '1111' });
    const added = await addSeven(barrier.id);
    const attempts = t.deps.config.DEVICE_MAX_ATTEMPTS;
    // Every attempt of the batch reaches the unit, and every answer is lost.
    await h.run(barrier.id, { answer: false });
    for (let attempt = 1; attempt < attempts; attempt += 1)
      await waitOutReply(t, h, barrier.id, { answer: false });
    // The last attempt's reply is overdue too: the batch fails, and its numbers are planned one an SMS.
    await waitOutReply(t, h, barrier.id);

    const sent = h.smsTo(barrier.devicePhone);
    expect(sent.slice(0, attempts).every((text) => text.match(/TEL=/g)?.length === 7)).toBe(true);
    // Then one SMS per number, each confirmed by its own "1 user(s) added".
    expect(sent.slice(attempts).sort()).toEqual(added.map((phone) => `PWD=1111#TEL=${phone.number}#`).sort());
    expect(unitNumbers(t, h, barrier.id)).toEqual(added.map((phone) => phone.number).sort());
    for (const phone of added) expect((await h.phone(phone.id)).status).toBe('ok');
    const commands = await h.commands(barrier.id);
    expect(commands.filter((command) => command.status === 'failed')).toHaveLength(1);
    expect(commands.filter((command) => command.status === 'confirmed')).toHaveLength(7);
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(attempts + 7);
  });

  it('counts a device check repair of several numbers as the one SMS it sends', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: TELL, password: '1111' });
    const added = [];
    for (let index = 0; index < 3; index += 1) added.push(await h.addPhone(barrier.id, { userId: admin.id }));
    await h.run(barrier.id);
    // The unit lost its numbers behind the server's back.
    expect(h.simulators.drift(barrier.id, { kind: 'factory_reset' })).toBe(true);
    const { check, repair: runRepair } = await checkDevice(t, h, barrier, admin);
    expect(check).toMatchObject({ status: 'ready', repair_sms: 1 });

    const repair = await runRepair();
    expect(repair).toHaveLength(1);
    expect(repair[0]?.match(/TEL=/g)).toHaveLength(3);
    expect(unitNumbers(t, h, barrier.id)).toEqual(added.map((phone) => phone.number).sort());
  });
});
