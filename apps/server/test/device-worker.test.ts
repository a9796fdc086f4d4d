/**
 * The real worker (pg-boss on the test database, PGlite or PostgreSQL) with the demo provider and its
 * simulated devices answering through the inbound service: a commit wakes it, the command reaches the
 * device, the reply confirms it; a worker stopped and started again takes up what was left.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { barriers } from '../src/db/schema.ts';
import { CRON_QUEUE_POLLING_SECONDS, SWEEP_QUEUE } from '../src/jobs/device-worker.ts';
import { NOTIFICATION_CHECKS_QUEUE } from '../src/jobs/notifications.ts';
import { PHONE_EXPIRY_QUEUE } from '../src/jobs/phone-expiry.ts';
import { RETENTION_QUEUE } from '../src/jobs/retention.ts';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';
import { waitFor } from './wait-for.ts';

describe('device worker (pg-boss)', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp({
    env: { DEVICE_SIM_DELAY_MS: '0' },
    configure: (deps) => {
      deps.clock = systemClock;
    },
  });
  beforeAll(async () => {
    h = createDeviceHarness(t, { manual: false });
    admin = await createAdmin(t);
  });

  it('sends every command after commit, one at a time, and the simulator replies confirm them', async () => {
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
    try {
      const barrier = await h.createBarrier({ ownerId: admin.id, password: '7777' });
      const first = await h.addPhone(barrier.id, { userId: admin.id });
      const second = await h.addPhone(barrier.id, { userId: admin.id });
      t.deps.notifyDeviceCommands([barrier.id]);
      await waitFor(
        () => h.commands(barrier.id),
        (rows) => rows.every((row) => row.status === 'confirmed'),
      );
      expect(h.smsTo(barrier.devicePhone)).toEqual([
        `7777A001#0007${first.number.slice(2)}#`,
        `7777A002#0007${second.number.slice(2)}#`,
      ]);
      expect((await h.phone(first.id)).status).toBe('ok');
      expect((await h.phone(second.id)).status).toBe('ok');
    } finally {
      await processing.stop();
    }
  });

  it('takes up the commands left open by a stopped worker when a new one starts', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    // Committed while no worker runs (the process was down): the start-up sweep finds it.
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
    try {
      await waitFor(
        () => h.phone(phone.id),
        (row) => row.status === 'ok',
      );
      expect(h.smsTo(barrier.devicePhone)).toEqual([`1234A001#0007${phone.number.slice(2)}#`]);
    } finally {
      await processing.stop();
    }
  });
});

// Its own app: each started worker attaches simulators to the demo gateway, and two sets of simulators
// would both answer (a drifted unit and an undrifted copy of it).
describe('device worker and periodic audits', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp({
    env: { DEVICE_SIM_DELAY_MS: '0' },
    configure: (deps) => {
      deps.clock = systemClock;
    },
  });
  beforeAll(async () => {
    h = createDeviceHarness(t, { manual: false });
    admin = await createAdmin(t);
  });

  it('starts a due device audit from its sweep, and the audit repairs a unit that drifted', async () => {
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
    try {
      const barrier = await h.createBarrier({ ownerId: admin.id });
      const phone = await h.addPhone(barrier.id, { userId: admin.id });
      t.deps.notifyDeviceCommands([barrier.id]);
      await waitFor(
        () => h.phone(phone.id),
        (row) => row.status === 'ok',
      );
      const changed = processing.simulators?.drift(barrier.id, {
        kind: 'manual_add',
        slot: 5,
        number: '+79990000055',
      });
      expect(changed).toBe(true);
      await t.deps.db.update(barriers).set({ deviceAuditDays: 7 }).where(eq(barriers.id, barrier.id));
      await processing.worker.sweep();
      await waitFor(
        async () => processing.simulators?.whitelist(barrier.id) ?? [],
        (entries) => entries.length === 1,
      );
      expect(processing.simulators?.whitelist(barrier.id)).toEqual([{ slot: 1, number: phone.number }]);
      expect(h.smsTo(barrier.devicePhone).slice(1)).toEqual(['1234AL001#010#', '1234A005##']);
    } finally {
      await processing.stop();
    }
  });

  it(
    'takes a job of each cron-filled queue (sweep, expiry, retention, notification checks) within its ten seconds',
    async () => {
      const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: false });
      try {
        // What pg-boss's cron does at its minute: a job on the queue, which this process's worker polls for.
        type Boss = {
          send(queue: string): Promise<string | null>;
          getJobById(queue: string, id: string): Promise<{ state: string } | null>;
        };
        const boss = (processing.worker as unknown as { boss: Boss }).boss;
        const queues = [SWEEP_QUEUE, PHONE_EXPIRY_QUEUE, RETENTION_QUEUE, NOTIFICATION_CHECKS_QUEUE];
        const sent = await Promise.all(queues.map(async (queue) => ({ queue, id: await boss.send(queue) })));
        const states = () =>
          Promise.all(sent.map(async ({ queue, id }) => (await boss.getJobById(queue, id ?? ''))?.state));
        const within = (CRON_QUEUE_POLLING_SECONDS + 5) * 1000;
        expect(await waitFor(states, (all) => all.every((state) => state === 'completed'), within)).toEqual(
          queues.map(() => 'completed'),
        );
      } finally {
        await processing.stop();
      }
    },
    (CRON_QUEUE_POLLING_SECONDS + 20) * 1000,
  );
});
