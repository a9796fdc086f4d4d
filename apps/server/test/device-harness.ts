/**
 * Test helpers for the device queue: barriers and phones written straight to the database (the outbox
 * called as the domain calls it), simulated devices whose replies are delivered by hand, and a `run` that
 * drives a barrier's queue step by step (send, reply, next) without the pg-boss worker.
 */
import type { DemoSmsGateway } from '@propusk/sms/demo';
import type { OutgoingSms, SentSms, SmsGateway } from '@propusk/sms/gateway';
import { SmsGatewayError } from '@propusk/sms/gateway';
import { and, asc, eq } from 'drizzle-orm';
import { barrierLimits, barriers, deviceCommands, phones, type WeeklySchedule } from '../src/db/schema.ts';
import { attachDeviceSimulators, type SimulatorRegistry } from '../src/demo/simulator-registry.ts';
import { lockBarrier, syncBarrierDevice } from '../src/engine/plan/index.ts';
import type { ProcessResult } from '../src/engine/send/index.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

let devicePhoneCounter = 0;
export function nextDevicePhone(): string {
  devicePhoneCounter += 1;
  return `+7955${String(process.pid % 1000).padStart(3, '0')}${String(devicePhoneCounter).padStart(4, '0')}`;
}

/** A gateway in front of the demo one that can be switched off (refuses like a gateway that is down). */
export class SwitchableGateway implements SmsGateway {
  readonly name = 'switchable';
  isDown = false;
  /** When set, `send` never resolves: the process "dies" with the SMS not handed over. */
  hang = false;
  private onHang: (() => void) | undefined;
  constructor(readonly inner: SmsGateway) {}
  /** Resolves once a send has hung: the "dying" process has the SMS in hand, whatever the host's speed. */
  nextHang(): Promise<void> {
    return new Promise((resolve) => {
      this.onHang = resolve;
    });
  }
  send(message: OutgoingSms): Promise<SentSms> {
    if (this.hang) {
      this.onHang?.();
      this.onHang = undefined;
      return new Promise(() => {});
    }
    if (this.isDown) return Promise.reject(new SmsGatewayError('connection refused', true));
    return this.inner.send(message);
  }
  balance() {
    return this.inner.balance();
  }
}

export interface DeviceHarness {
  simulators: SimulatorRegistry;
  notified: number[];
  /** Delivers the replies the units sent (at most `limit`, oldest first). */
  deliverReplies(limit?: number): Promise<number>;
  /** Delivers the answers the units sent late (`simulators.deliverAs(id, { kind: 'late', … })`). */
  deliverLateReplies(): Promise<number>;
  /** Holds replies back: the device "never answers". */
  dropReplies(): Promise<number>;
  createBarrier(options: {
    ownerId: number;
    model?: string;
    password?: string | null;
    smsWeeklyLimit?: number | null;
    clockSetAt?: Date | null;
  }): Promise<{ id: number; devicePhone: string }>;
  addPhone(
    barrierId: number,
    options: {
      userId: number;
      number?: string;
      type?: 'primary' | 'permanent' | 'temporary' | 'schedule';
      start?: Date;
      end?: Date;
      schedule?: WeeklySchedule;
    },
  ): Promise<{ id: number; number: string; slot: number; queued: number }>;
  removePhone(barrierId: number, phoneId: number): Promise<number>;
  /** Sends, lets the device answer, and goes on until the queue is idle or waits for time to pass. */
  run(barrierId: number, options?: { answer?: boolean }): Promise<ProcessResult>;
  phone(phoneId: number): Promise<typeof phones.$inferSelect>;
  commands(barrierId: number): Promise<(typeof deviceCommands.$inferSelect)[]>;
  /** SMS texts sent to a device phone, in order. */
  smsTo(devicePhone: string): string[];
}

export function createDeviceHarness(
  t: TestApp,
  options: { gateway?: DemoSmsGateway; manual?: boolean } = {},
): DeviceHarness {
  const demo = options.gateway ?? (t.deps.sms as DemoSmsGateway);
  const replies: (() => Promise<void>)[] = [];
  // Answers a unit sends late (ReplyDelivery 'late'): delivered only by `deliverLateReplies`.
  const lateReplies: (() => Promise<void>)[] = [];
  const notified: number[] = [];
  // manual (default): replies are delivered by hand and notifications only recorded; otherwise the real
  // worker and its simulators (startDeviceProcessing) do both.
  const manual = options.manual ?? true;
  const simulators: SimulatorRegistry = manual
    ? attachDeviceSimulators(demo, t.deps, (reply) => receiveInboundSms(t.deps, reply), {
        delayMs: 0,
        schedule: (run, _delayMs, meta) => (meta.late ? lateReplies : replies).push(run),
      })
    : {
        device: () => undefined,
        missNext: () => {},
        deliverAs: () => {},
        loseReplies: () => {},
        settled: async () => {},
        answerInFlight: async () => 0,
        drift: () => false,
        whitelist: () => null,
        call: () => null,
        relay: () => null,
        raiseAlarm: async () => null,
      };
  if (manual) t.deps.deviceWake.listen((ids) => notified.push(...ids));
  if (manual) t.deps.demoDevices = simulators;

  const harness: DeviceHarness = {
    simulators,
    notified,
    async deliverReplies(limit = Number.POSITIVE_INFINITY) {
      await simulators.settled();
      let count = 0;
      while (replies.length > 0 && count < limit) {
        await replies.shift()?.();
        count += 1;
      }
      return count;
    },
    async deliverLateReplies() {
      await simulators.settled();
      let count = 0;
      while (lateReplies.length > 0) {
        await lateReplies.shift()?.();
        count += 1;
      }
      return count;
    },
    async dropReplies() {
      await simulators.settled();
      const count = replies.length;
      replies.length = 0;
      return count;
    },
    async createBarrier({
      ownerId,
      model = 'RTU5025',
      password = '1234',
      smsWeeklyLimit = null,
      clockSetAt = null,
    }) {
      const devicePhone = nextDevicePhone();
      const [row] = await t.deps.db
        .insert(barriers)
        .values({
          ownerId,
          address: 'г. Москва, ул. Тестовая, д. 1',
          devicePhone,
          deviceModel: model,
          devicePasswordEncrypted: password === null ? null : t.deps.secrets.encrypt(password),
          devicePhonesAmount: 100,
          deviceClockSetAt: clockSetAt,
        })
        .returning({ id: barriers.id });
      if (!row) throw new Error('barrier not created');
      await t.deps.db.insert(barrierLimits).values({ barrierId: row.id, smsWeeklyLimit });
      return { id: row.id, devicePhone };
    },
    async addPhone(barrierId, options) {
      const number = options.number ?? nextPhone();
      return t.deps.db.transaction(async (tx) => {
        await lockBarrier(tx, barrierId);
        const taken = await tx
          .select({ slot: phones.slot })
          .from(phones)
          .where(and(eq(phones.barrierId, barrierId), eq(phones.isActive, true)));
        const used = new Set(taken.map((row) => row.slot));
        let slot = 1;
        while (used.has(slot)) slot += 1;
        const [row] = await tx
          .insert(phones)
          .values({
            barrierId,
            userId: options.userId,
            phone: number,
            type: options.type ?? 'permanent',
            slot,
            startTime: options.start ?? null,
            endTime: options.end ?? null,
            schedule: options.schedule ?? null,
          })
          .returning({ id: phones.id });
        const queued = await syncBarrierDevice(tx, t.deps, barrierId);
        return { id: row?.id ?? 0, number, slot, queued };
      });
    },
    async removePhone(barrierId, phoneId) {
      return t.deps.db.transaction(async (tx) => {
        await lockBarrier(tx, barrierId);
        await tx.update(phones).set({ isActive: false, slot: null }).where(eq(phones.id, phoneId));
        return syncBarrierDevice(tx, t.deps, barrierId);
      });
    },
    async run(barrierId, { answer = true } = {}) {
      for (;;) {
        const result = await processBarrier(t.deps, barrierId);
        if (result.state !== 'sent') return result;
        if (!answer) {
          await harness.dropReplies();
          return result;
        }
        if ((await harness.deliverReplies()) === 0) return result;
      }
    },
    async phone(phoneId) {
      const [row] = await t.deps.db.select().from(phones).where(eq(phones.id, phoneId));
      if (!row) throw new Error('no such phone');
      return row;
    },
    commands(barrierId) {
      return t.deps.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.barrierId, barrierId))
        .orderBy(asc(deviceCommands.id));
    },
    smsTo(devicePhone) {
      return t
        .sentSms()
        .filter((line) => line.to === devicePhone)
        .map((line) => line.text);
    },
  };
  return harness;
}

/**
 * The scene of the device tests that go through the product API: an owner, his RTU5025 barrier (device
 * password 2580) and one user with access, every command sent and confirmed by the simulated device.
 */
export async function createDeviceScene(t: TestApp): Promise<{
  h: DeviceHarness;
  owner: TestUser;
  barrier: TestBarrier;
  user: TestUser;
}> {
  const h = createDeviceHarness(t);
  const owner = await createAdmin(t, { fullName: 'Владелец' });
  const barrier = await createBarrier(t, owner, { device_password: '2580' });
  const user = await createUserWithAccess(t, barrier);
  await h.run(barrier.id);
  return { h, owner, barrier, user };
}

/** The numbers the barrier's simulated unit lets in now, sorted. */
export function unitNumbers(t: TestApp, h: DeviceHarness, barrierId: number): string[] {
  return (h.simulators.device(barrierId)?.whitelist(t.clock.now()) ?? []).map((entry) => entry.number).sort();
}

/**
 * The reply of the command in flight is overdue: the engine sets its retry (after its pause) or fails it; the
 * clock then passes the pause and the queue runs again.
 */
export async function waitOutReply(
  t: TestApp,
  h: DeviceHarness,
  barrierId: number,
  options: { answer?: boolean } = {},
): Promise<void> {
  t.clock.advance(t.deps.config.DEVICE_REPLY_TIMEOUT_MS + 1);
  await h.run(barrierId, options);
  const retries = (await h.commands(barrierId))
    .filter((command) => command.status === 'queued' && command.nextAttemptAt !== null)
    .map((command) => command.nextAttemptAt!.getTime());
  if (retries.length > 0) {
    t.clock.set(new Date(Math.max(t.clock.now().getTime(), Math.min(...retries)) + 1));
    await h.run(barrierId, options);
  }
}

/** Sends and answers until the barrier's queue is idle, letting reply timeouts and retry pauses pass as they come. */
export async function settleQueue(t: TestApp, h: DeviceHarness, barrierId: number): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    const result = await h.run(barrierId);
    if (result.state === 'idle') return;
    t.clock.advance(result.state === 'waiting' ? result.until.getTime() - t.clock.now().getTime() + 1 : 1000);
  }
  throw new Error('the queue did not settle');
}

/** Permanent phones not written yet, slots 1…n (the outbox's forecast of adding them). */
export function permanentSpecs(numbers: readonly string[]) {
  return numbers.map((number, index) => ({
    id: -1 - index,
    slot: index + 1,
    number,
    kind: 'permanent' as const,
    start: null,
    end: null,
    schedule: null,
  }));
}

/**
 * «Проверить устройство» through the API, run until read: the check as the screen gets it. `repair()` then
 * asks for the repair and returns the SMS it sent to the unit.
 */
export async function checkDevice(
  t: TestApp,
  h: DeviceHarness,
  barrier: { id: number; devicePhone: string },
  user: TestUser,
) {
  const url = `/api/admin/barriers/${barrier.id}/device-check/`;
  const started = await t.request({ method: 'POST', url, token: user.token, payload: {} });
  if (started.statusCode !== 201) throw new Error(`device check not started: ${started.statusCode}`);
  await h.run(barrier.id);
  const check = (await t.request({ method: 'GET', url, token: user.token })).json().check;
  const repair = async () => {
    const before = h.smsTo(barrier.devicePhone).length;
    await t.request({ method: 'POST', url: `${url}repair/`, token: user.token });
    await h.run(barrier.id);
    return h.smsTo(barrier.devicePhone).slice(before);
  };
  return { check, repair };
}
