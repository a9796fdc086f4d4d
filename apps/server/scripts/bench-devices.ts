import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PhoneSpec, WeeklySchedule } from '@propusk/devices/access';
import { countWeeklySms } from '@propusk/devices/weekly-sms';
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { OutgoingSms, SmsGateway } from '@propusk/sms/gateway';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig } from '../src/config/config.ts';
import { applyMigrations, openDatabase, sendDbOf } from '../src/db/database.ts';
import { barriers, phones, users } from '../src/db/schema.ts';
import { attachDeviceSimulators } from '../src/demo/simulator-registry.ts';
import { domainHooks } from '../src/domain-hooks.ts';
import { lockBarrier, syncBarrierDevice } from '../src/engine/plan/index.ts';
import { DeviceWorker } from '../src/jobs/device-worker.ts';
import { systemClock } from '../src/lib/clock.ts';
import type { Dependencies } from '../src/lib/dependencies.ts';
import { deviceWakeUp } from '../src/lib/device-wake.ts';
import { createMetrics } from '../src/lib/metrics.ts';
import { RateLimiter } from '../src/lib/rate-limiter.ts';
import { Secrets } from '../src/lib/secrets.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { databaseTimings, percentile, withScratchDatabase } from './bench-lib.ts';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** Monday 2026-11-23 00:00 Moscow. */
const WEEK_START = new Date('2026-11-22T21:00:00.000Z');

/** k intervals a week: spread over the days, 1 hour each, starting at 08:00, 10:00, … */
function scheduleWith(k: number): WeeklySchedule {
  const schedule: WeeklySchedule = {};
  for (let index = 0; index < k; index++) {
    const day = WEEKDAYS[index % 7]!;
    const hour = 8 + 2 * Math.floor(index / 7);
    const pad = (value: number) => String(value).padStart(2, '0');
    schedule[day] = [
      ...(schedule[day] ?? []),
      { start_time: `${pad(hour)}:00`, end_time: `${pad(hour + 1)}:00` },
    ];
  }
  return schedule;
}

function numberFor(index: number): string {
  return `+7916${String(index).padStart(7, '0')}`;
}

function smsPerWeekTable(): string[] {
  const lines = ['SMS per week for one barrier (steady state; the first sync of the device counted apart)'];
  lines.push('  phones                          RTU5025 (windows)   add at start + delete at end');
  for (const [count, k] of [
    [1, 5],
    [10, 5],
    [10, 14],
    [50, 14],
  ] as const) {
    const schedule = scheduleWith(k);
    const specs: PhoneSpec[] = Array.from({ length: count }, (_, index) => ({
      slot: index + 1,
      number: numberFor(index),
      kind: 'schedule',
      schedule,
    }));
    // Start one minute before the week so that the first occurrence counts inside it.
    const from = new Date(WEEK_START.getTime() - 60_000);
    const windows = countWeeklySms('RTU5025', specs, from);
    const plain = countWeeklySms('Telemetrica', specs, from);
    lines.push(
      `  ${`${count} schedule × ${k} intervals`.padEnd(31)} ${String(windows.total).padStart(6)} (+${windows.initial} first sync)   ${String(plain.total).padStart(6)}   (theory ${count} × ${k} = ${count * k} vs ${2 * count * k})`,
    );
  }
  for (const count of [1, 10, 100]) {
    // Temporary phones spread over the week, 3 hours each.
    const specs: PhoneSpec[] = Array.from({ length: count }, (_, index) => {
      const start = new Date(WEEK_START.getTime() + ((index * 7 * 24) / count) * 3_600_000 + 3_600_000);
      return {
        slot: index + 1,
        number: numberFor(index),
        kind: 'temporary',
        start,
        end: new Date(start.getTime() + 3 * 3_600_000),
      };
    });
    const from = new Date(WEEK_START.getTime() - 60_000);
    const windows = countWeeklySms('RTU5025', specs, from);
    const plain = countWeeklySms('Telemetrica', specs, from);
    lines.push(
      `  ${`${count} temporary`.padEnd(31)} ${String(windows.total + windows.initial).padStart(6)} (incl. clock)      ${String(plain.total + plain.initial).padStart(6)}`,
    );
  }
  return lines;
}

/** A gateway that notes when each SMS leaves, then hands it to the demo gateway (the simulators listen there). */
class TimingGateway implements SmsGateway {
  readonly name = 'timing';
  readonly leftAt = new Map<string, number>();
  constructor(private readonly inner: DemoSmsGateway) {}
  async send(message: OutgoingSms) {
    if (!this.leftAt.has(message.to)) this.leftAt.set(message.to, performance.now());
    return this.inner.send(message);
  }
  balance() {
    return Promise.resolve(null);
  }
}

/** One round trip and one durable commit on this database, to read the latency figures against. */
async function databaseBaseline(url: string): Promise<string> {
  const { roundTrip, commit } = await databaseTimings(url, 20);
  return `  (this database: select 1 takes ${roundTrip.toFixed(1)} ms, a committed insert ${commit.toFixed(1)} ms)`;
}

export async function commitToSmsLatency(
  changes: number,
  concurrency: number,
  paceMs = 0,
): Promise<string[]> {
  return withScratchDatabase('propusk_bench_devices', (url) =>
    measureLatency(url, changes, concurrency, paceMs),
  );
}

async function measureLatency(url: string, changes: number, concurrency: number, paceMs: number) {
  const directory = mkdtempSync(path.join(tmpdir(), 'propusk-bench-devices-'));
  const handle = await openDatabase({
    databaseUrl: url,
    dataDir: directory,
    poolSize: 20,
    preparedStatements: true,
  });
  try {
    await applyMigrations(handle);
    // The queue's own path is measured here, not the gateway's rate: the bucket never runs dry.
    const config = loadConfig({
      DATA_DIR: directory,
      LOG_LEVEL: 'silent',
      DATABASE_URL: url,
      SMS_RATE_PER_MINUTE: '100000',
      SMS_RATE_BURST: '100000',
    });
    const demo = new DemoSmsGateway({ file: path.join(directory, 'sms.jsonl') });
    const timing = new TimingGateway(demo);
    const windowMs = 600_000;
    const deps: Dependencies = {
      config,
      db: handle.db,
      sendDb: sendDbOf(handle),
      databaseKind: handle.kind,
      clock: systemClock,
      secrets: new Secrets('propusk-bench-secret-key-0123456789abcdefghij'),
      sms: timing,
      logger: pino({ level: 'silent' }),
      metrics: createMetrics(),
      rateLimits: {
        codeRequests: new RateLimiter(1000, windowMs),
        authCalls: new RateLimiter(1000, windowMs),
        logs: new RateLimiter(1000, windowMs),
      },
      ...domainHooks(),
      ...deviceWakeUp(),
    };
    // It listens to the dependencies' wake-up: a change's commands wake it at once.
    const worker = await DeviceWorker.start(deps, handle, { sweepCron: null });
    attachDeviceSimulators(demo, deps, (reply) => receiveInboundSms(deps, reply), { delayMs: 0 });

    const [owner] = await handle.db
      .insert(users)
      .values({ phone: '+79160000000', role: 'admin' })
      .returning({ id: users.id });
    const ownerId = owner?.id ?? 0;
    const targets: { barrierId: number; devicePhone: string }[] = [];
    for (let index = 0; index <= changes; index++) {
      const devicePhone = `+7955${String(index).padStart(7, '0')}`;
      const [row] = await handle.db
        .insert(barriers)
        .values({
          ownerId,
          address: `bench ${index}`,
          devicePhone,
          deviceModel: 'RTU5025',
          devicePasswordEncrypted: deps.secrets.encrypt('1234'),
          devicePhonesAmount: 999,
        })
        .returning({ id: barriers.id });
      targets.push({ barrierId: row?.id ?? 0, devicePhone });
    }

    const committedAt = new Map<string, number>();
    const change = async (index: number, target: { barrierId: number; devicePhone: string }) => {
      await handle.db.transaction(async (tx) => {
        await lockBarrier(tx, target.barrierId);
        await tx.insert(phones).values({
          barrierId: target.barrierId,
          userId: ownerId,
          phone: numberFor(index),
          type: 'permanent',
          slot: 1,
        });
        await syncBarrierDevice(tx, deps, target.barrierId);
      });
    };
    // Warm-up, not measured: the first send of a process opens its connections and writes the buckets.
    const warmUp = targets.pop();
    if (warmUp) {
      await change(changes, warmUp);
      deps.notifyDeviceCommands([warmUp.barrierId]);
      const until = Date.now() + 10_000;
      while (!timing.leftAt.has(warmUp.devicePhone) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await worker.idle();
      timing.leftAt.delete(warmUp.devicePhone);
    }
    let next = 0;
    const runOne = async () => {
      for (;;) {
        const index = next++;
        const target = targets[index];
        if (!target) return;
        await change(index, target);
        committedAt.set(target.devicePhone, performance.now());
        deps.notifyDeviceCommands([target.barrierId]);
        if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, runOne));
    const deadline = Date.now() + 60_000;
    while (timing.leftAt.size < changes && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await worker.idle();
    const elapsed = performance.now() - started;
    const latencies = [...committedAt]
      .map(([phone, at]) => (timing.leftAt.get(phone) ?? Number.NaN) - at)
      .filter((value) => Number.isFinite(value))
      .map((value) => Math.max(0, value))
      .sort((a, b) => a - b);
    if (handle.kind !== 'postgres') throw new Error('The latency bench runs on PostgreSQL.');
    const countConfirmed = async () =>
      (
        (await handle.pool.query("select count(*)::int as n from device_commands where status = 'confirmed'"))
          .rows[0] as { n: number }
      ).n;
    const settle = Date.now() + 10_000;
    while ((await countConfirmed()) < changes + 1 && Date.now() < settle)
      await new Promise((r) => setTimeout(r, 50));
    const confirmed = { n: await countConfirmed() };
    const okPhones = await handle.db
      .select({ id: phones.id })
      .from(phones)
      .where(and(eq(phones.status, 'ok')));
    await worker.stop();
    return [
      `Commit → SMS leaving on PostgreSQL (${changes} changes, ${concurrency} concurrent writers${paceMs > 0 ? `, each one change every ${paceMs} ms` : ', back to back'}, real worker):`,
      `  p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${percentile(latencies, 100).toFixed(1)} ms; ${latencies.length}/${changes} sent`,
      `  ${confirmed?.n ?? 0} commands confirmed by the simulated devices, ${okPhones.length} phones ok (with the warm-up change before the measured ones), ${(elapsed / 1000).toFixed(1)} s in all`,
      await databaseBaseline(url),
    ];
  } finally {
    await handle.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function runDeviceBench(): Promise<void> {
  for (const line of smsPerWeekTable()) process.stdout.write(`${line}\n`);
  process.stdout.write('\n');
  for (const [changes, writers] of [
    [200, 1],
    [500, 20],
  ] as const) {
    for (const line of await commitToSmsLatency(changes, writers)) process.stdout.write(`${line}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDeviceBench().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? error}\n`);
      process.exit(1);
    },
  );
}
