/**
 * Faults: the SMS gateway down for a while, the process killed in the middle of a command, a device that
 * never answers, two server processes on one database. Driven step by step with the manual clock; the
 * last test runs two real workers (pg-boss) side by side.
 */
import type { DemoSmsGateway } from '@propusk/sms/demo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { systemClock } from '../src/lib/clock.ts';
import type { Dependencies } from '../src/lib/dependencies.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { createDeviceHarness, type DeviceHarness, SwitchableGateway } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { namedStatementsInTests, useTestApp } from './test-app.ts';

/** A number as the RTU sheet writes it (the production form `0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;
const SECOND = 1000;

describe('device queue under faults', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  let gateway: SwitchableGateway;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    gateway = new SwitchableGateway(t.deps.sms);
    t.deps.sms = gateway;
    admin = await createAdmin(t);
  });

  it('loses nothing while the gateway is down and sends everything once it is back', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phones = [
      await h.addPhone(barrier.id, { userId: admin.id }),
      await h.addPhone(barrier.id, { userId: admin.id }),
      await h.addPhone(barrier.id, { userId: admin.id }),
    ];
    gateway.isDown = true;
    for (let round = 0; round < 5; round++) {
      const result = await h.run(barrier.id);
      expect(result.state === 'gateway_failed' || result.state === 'waiting').toBe(true);
      t.clock.advance(30 * SECOND);
    }
    expect(h.smsTo(barrier.devicePhone)).toEqual([]);
    const waiting = await h.commands(barrier.id);
    expect(waiting.map((row) => [row.status, row.attempts])).toEqual([
      ['queued', 0],
      ['queued', 0],
      ['queued', 0],
    ]);
    expect((await h.phone(phones[0]!.id)).status).toBe('pending');

    gateway.isDown = false;
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone)).toEqual(
      phones.map((p, i) => `1234A00${i + 1}#${digits(p.number)}#`),
    );
    for (const phone of phones) expect((await h.phone(phone.id)).status).toBe('ok');
  });

  it('resumes after the process was killed before the SMS left: nothing is sent twice', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phones = [
      await h.addPhone(barrier.id, { userId: admin.id }),
      await h.addPhone(barrier.id, { userId: admin.id }),
    ];
    gateway.hang = true;
    const hung = gateway.nextHang();
    void processBarrier(t.deps, barrier.id); // never settles: the process "dies" here
    await hung;
    gateway.hang = false;
    // Another process, before the reply timeout: the command counts as in flight, nothing is sent.
    expect((await h.run(barrier.id)).state).toBe('waiting');
    t.clock.advance(t.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await h.run(barrier.id);
    t.clock.advance(60 * SECOND);
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone)).toEqual(
      phones.map((p, i) => `1234A00${i + 1}#${digits(p.number)}#`),
    );
    for (const phone of phones) expect((await h.phone(phone.id)).status).toBe('ok');
  });

  it('resumes after the process was killed after the SMS left: only the one in flight is sent again', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phones = [
      await h.addPhone(barrier.id, { userId: admin.id }),
      await h.addPhone(barrier.id, { userId: admin.id }),
    ];
    // The SMS left and the device acted, but the process died before the reply was handled.
    await h.run(barrier.id, { answer: false });
    t.clock.advance(t.config.DEVICE_REPLY_TIMEOUT_MS + 1);
    await h.run(barrier.id);
    t.clock.advance(60 * SECOND);
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    const [first, second] = phones.map((p, i) => `1234A00${i + 1}#${digits(p!.number)}#`);
    expect(h.smsTo(barrier.devicePhone)).toEqual([first, first, second]);
    const commands = await h.commands(barrier.id);
    expect(commands.map((row) => [row.status, row.attempts])).toEqual([
      ['confirmed', 2],
      ['confirmed', 1],
    ]);
  });

  it('marks a phone error when its device never answers, and an administrator can retry it', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    const text = `1234A001#${digits(phone.number)}#`;
    for (let step = 0; step < 20; step++) {
      await h.run(barrier.id, { answer: false });
      t.clock.advance(30 * SECOND);
    }
    expect(h.smsTo(barrier.devicePhone)).toEqual([text, text, text]);
    expect((await h.phone(phone.id)).status).toBe('error');
    expect((await h.commands(barrier.id)).map((row) => [row.status, row.attempts])).toEqual([['failed', 3]]);
    // Nothing more is sent by itself, even by a later re-plan of the barrier.
    const other = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([text, text, text, `1234A002#${digits(other.number)}#`]);

    // The manual clock ran past the access token's 15 minutes: log in again.
    const { access_token: token } = await issueSession(t.deps, t.deps.db, admin.id);
    const denied = await t.request({ method: 'POST', url: `/api/admin/phones/${other.id}/retry/`, token });
    expect(denied.statusCode).toBe(409);
    const stranger = await createAdmin(t);
    const hidden = await t.request({
      method: 'POST',
      url: `/api/admin/phones/${phone.id}/retry/`,
      token: stranger.token,
    });
    expect(hidden.statusCode).toBe(404);

    const retried = await t.request({ method: 'POST', url: `/api/admin/phones/${phone.id}/retry/`, token });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ id: phone.id, status: 'pending' });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe(text);
    expect((await h.phone(phone.id)).status).toBe('ok');
  });
});

describe('two server processes on one database', () => {
  let second: DatabaseHandle | null = null;
  let admin: TestUser;
  const t = useTestApp({
    env: { DEVICE_SIM_DELAY_MS: '0' },
    configure: (deps) => {
      deps.clock = systemClock;
    },
  });
  beforeAll(async () => {
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await second?.close();
  });

  it('sends each command once when two workers drive the same barriers', async () => {
    const h = createDeviceHarness(t, { manual: false });
    // On PostgreSQL the second "process" has its own pool; PGlite can only be shared by one process.
    if (t.handle.kind === 'postgres') {
      second = await openDatabase({
        databaseUrl: (t.handle.pool as unknown as { options: { connectionString: string } }).options
          .connectionString,
        dataDir: t.config.dataDir,
        poolSize: 5,
        preparedStatements: namedStatementsInTests,
      });
    }
    const otherHandle: DatabaseHandle = second ?? t.handle;
    const otherDeps: Dependencies = { ...t.deps, db: otherHandle.db, notifyDeviceCommands: () => {} };
    const one = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
    const two = await startDeviceProcessing(otherDeps, otherHandle, { sweepCron: null, simulate: false });
    try {
      const barriers = [];
      for (let index = 0; index < 4; index++) {
        const barrier = await h.createBarrier({ ownerId: admin.id });
        const phones = [];
        for (let count = 0; count < 3; count++)
          phones.push(await h.addPhone(barrier.id, { userId: admin.id }));
        barriers.push({ barrier, phones });
      }
      for (const { barrier } of barriers) {
        void one.worker.kick(barrier.id);
        void two.worker.kick(barrier.id);
      }
      const deadline = Date.now() + 50_000;
      for (;;) {
        const all = (await Promise.all(barriers.map(({ barrier }) => h.commands(barrier.id)))).flat();
        if (all.every((row) => row.status === 'confirmed')) break;
        if (Date.now() > deadline) throw new Error('commands were not all confirmed');
        for (const { barrier } of barriers) void two.worker.kick(barrier.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (const { barrier, phones } of barriers) {
        expect(h.smsTo(barrier.devicePhone)).toEqual(
          phones.map((p, i) => `1234A00${i + 1}#${digits(p.number)}#`),
        );
      }
    } finally {
      await one.stop();
      await two.stop();
    }
    expect((t.deps.sms as DemoSmsGateway).name).toBe('demo');
  }, 60_000);
});
