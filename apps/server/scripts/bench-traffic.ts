import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { currentOrNextOccurrence } from '@propusk/devices/access';
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { OutgoingSms, SentSms, SmsGateway } from '@propusk/sms/gateway';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { loadConfig } from '../src/config/config.ts';
import { applyMigrations, openDatabase, sendDbOf } from '../src/db/database.ts';
import { barriers, deviceSlots, phones, users } from '../src/db/schema.ts';
import { attachDeviceSimulators } from '../src/demo/simulator-registry.ts';
import { domainHooks } from '../src/domain-hooks.ts';
import { lockBarrier, syncBarrierDevice } from '../src/engine/plan/index.ts';
import {
  firstBarriersWithOpenCommands,
  nextReconcileAt,
  processBarrier,
  reconcileBarrier,
} from '../src/engine/send/index.ts';
import { ManualClock } from '../src/lib/clock.ts';
import type { Dependencies } from '../src/lib/dependencies.ts';
import { deviceWakeUp } from '../src/lib/device-wake.ts';
import { createMetrics } from '../src/lib/metrics.ts';
import { RateLimiter } from '../src/lib/rate-limiter.ts';
import { Secrets } from '../src/lib/secrets.ts';
import type { GatewayEntry } from '../src/lib/sms-gateway.ts';
import { receiveInboundSms } from '../src/modules/sms-inbound/service.ts';
import { commitToSmsLatency } from './bench-devices.ts';
import { databaseCpu, databaseTimings, percentile, withScratchDatabase } from './bench-lib.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Monday 2026-11-23 00:00 Moscow. */
const WEEK_START = new Date('2026-11-22T21:00:00.000Z');
/** Monday 09:00:30 Moscow: the 09:00 window ends have just queued their rewrites (a burst is draining). */
const BLOCK_AT = new Date(WEEK_START.getTime() + 9 * HOUR + 30_000);
/** The blocked user's slot: 09:00–10:00, in force at the block (so each barrier needs exactly one delete). */
const BLOCKED_SLOT = 5;
const BLOCKED_BARRIERS = 200;
const PHONES_PER_BARRIER = 5;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;

/** Slot s opens on weekdays for one hour from 07:00 + 30 min × (s − 1). */
function morningSchedule(slot: number) {
  const startMinutes = 7 * 60 + 30 * (slot - 1);
  const time = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const interval = [{ start_time: time(startMinutes), end_time: time(startMinutes + 60) }];
  return Object.fromEntries(WEEKDAYS.map((day) => [day, interval]));
}

class SimulatedGateway implements SmsGateway {
  readonly deduplicatesKeys = true;
  sent = 0;
  constructor(
    readonly name: string,
    private readonly inner: SmsGateway,
  ) {}
  async send(message: OutgoingSms): Promise<SentSms> {
    this.sent += 1;
    return this.inner.send(message);
  }
  balance() {
    return Promise.resolve(null);
  }
}

/** Barriers driven at once: one batch of the queue's sending transaction. */
const DRIVE_BATCH = 25;
/** Barriers read from the head of the queue's order at a time. */
const DRIVE_PAGE = DRIVE_BATCH;
/**
 * The clock's smallest step (ms), BENCH_TRAFFIC_STEP_MS: the worker wakes at each token; the bench jumps at
 * least this far, letting the tokens of the step gather, so a lateness is measured to within this step.
 */
const STEP_MS = Number(process.env.BENCH_TRAFFIC_STEP_MS ?? 5000);

/** Runs `work` over the items, `width` at a time. */
async function inChunks<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

const minutes = (ms: number) => `${(ms / MINUTE).toFixed(1)} min`;
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${minutes(percentile(sorted, 50))}, p99 ${minutes(percentile(sorted, 99))}, max ${minutes(percentile(sorted, 100))} (${sorted.length})`;
};

/** The plain reference of this run: one round trip, one committed insert, a fixed piece of CPU work. */
async function reference(url: string): Promise<string> {
  const { roundTrip, commit } = await databaseTimings(url, 50);
  const cpuStart = performance.now();
  let text = '';
  for (let index = 0; index < 200_000; index++) text = JSON.stringify({ index, text: text.slice(0, 20) });
  const cpu = performance.now() - cpuStart;
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  return `reference of this run: select 1 ${roundTrip.toFixed(2)} ms, committed insert ${commit.toFixed(2)} ms, 200k JSON.stringify ${cpu.toFixed(0)} ms; load average ${load}`;
}

export async function simulateWeek(barrierCount: number, days = 7): Promise<string[]> {
  return withScratchDatabase('propusk_bench_traffic', async (url) => {
    const directory = mkdtempSync(path.join(tmpdir(), 'propusk-bench-traffic-'));
    const handle = await openDatabase({
      databaseUrl: url,
      dataDir: directory,
      poolSize: 4,
      preparedStatements: true,
    });
    if (handle.kind !== 'postgres') throw new Error('The traffic bench runs on PostgreSQL.');
    try {
      await applyMigrations(handle);
      const config = loadConfig({ DATA_DIR: directory, LOG_LEVEL: 'silent', DATABASE_URL: url });
      // From Monday 05:00 (units in step, see below); the figures count from 06:00.
      const periodStart = WEEK_START.getTime() + 6 * HOUR;
      const clock = new ManualClock(new Date(WEEK_START.getTime() + 5 * HOUR));
      const demo = new DemoSmsGateway({ file: path.join(directory, 'sms.jsonl'), now: () => clock.now() });
      const simulated = [
        new SimulatedGateway('android', demo),
        new SimulatedGateway('android', demo),
        new SimulatedGateway('smsru', demo),
      ];
      const gateways: GatewayEntry[] = [
        { name: 'phone-1', gateway: simulated[0]!, ratePerMinute: 25, burst: 5 },
        { name: 'phone-2', gateway: simulated[1]!, ratePerMinute: 25, burst: 5 },
        { name: 'smsru', gateway: simulated[2]!, ratePerMinute: 60, burst: 10 },
      ];
      const windowMs = 600_000;
      const deps: Dependencies = {
        config,
        db: handle.db,
        sendDb: sendDbOf(handle),
        databaseKind: handle.kind,
        clock,
        secrets: new Secrets('propusk-bench-secret-key-0123456789abcdefghij'),
        sms: demo,
        smsGateways: gateways,
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
      const replies: (() => Promise<void>)[] = [];
      attachDeviceSimulators(demo, deps, (reply) => receiveInboundSms(deps, reply), {
        delayMs: 0,
        schedule: (run) => replies.push(run),
      });
      const deliver = async () => {
        while (replies.length > 0) await inChunks(replies.splice(0), 4, (run) => run());
      };

      // The fleet.
      const [owner] = await handle.db
        .insert(users)
        .values({ phone: '+79160000000', role: 'admin' })
        .returning({ id: users.id });
      const [blocked] = await handle.db
        .insert(users)
        .values({ phone: '+79169999999', role: 'user' })
        .returning({ id: users.id });
      const ownerId = owner?.id ?? 0;
      const barrierIds: number[] = new Array(barrierCount);
      const indexes = Array.from({ length: barrierCount }, (_, index) => index);
      await inChunks(indexes, 4, async (index) => {
        const [row] = await handle.db
          .insert(barriers)
          .values({
            ownerId,
            address: `bench ${index}`,
            devicePhone: `+7955${String(index).padStart(7, '0')}`,
            deviceModel: 'RTU5025',
            devicePasswordEncrypted: deps.secrets.encrypt('1234'),
            devicePhonesAmount: 999,
            deviceClockSetAt: clock.now(),
          })
          .returning({ id: barriers.id });
        const barrierId = row?.id ?? 0;
        barrierIds[index] = barrierId;
        await handle.db.transaction(async (tx) => {
          await lockBarrier(tx, barrierId);
          await tx.insert(phones).values(
            Array.from({ length: PHONES_PER_BARRIER }, (_, s) => ({
              barrierId,
              // The blocked user holds slot 5 (09:00–10:00) on the first 200 barriers.
              userId: s + 1 === BLOCKED_SLOT && index < BLOCKED_BARRIERS ? (blocked?.id ?? 0) : ownerId,
              phone:
                s + 1 === BLOCKED_SLOT && index < BLOCKED_BARRIERS
                  ? '+79169999999'
                  : `+7916${String(index * 10 + s).padStart(7, '0')}`,
              type: 'schedule' as const,
              slot: s + 1,
              schedule: morningSchedule(s + 1),
            })),
          );
          // The units start in step: each holds its phones with Monday's windows (what the first sync would
          // have written), so the figures are those of the running fleet, not of its first sync.
          await tx.insert(deviceSlots).values(
            Array.from({ length: PHONES_PER_BARRIER }, (_, s) => {
              const window = currentOrNextOccurrence(morningSchedule(s + 1), clock.now(), 180);
              return {
                barrierId,
                slot: s + 1,
                number:
                  s + 1 === BLOCKED_SLOT && index < BLOCKED_BARRIERS
                    ? '+79169999999'
                    : `+7916${String(index * 10 + s).padStart(7, '0')}`,
                windowStart: window?.start ?? null,
                windowEnd: window?.end ?? null,
                confirmedAt: clock.now(),
              };
            }),
          );
          await syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false });
        });
      });

      // The worker's reconcile wake-ups, by instant: the fleet's window edges fall on a few instants a day.
      const edges = new Map<number, number[]>();
      const wakeAt = (barrierId: number, at: number) => {
        const due = edges.get(at);
        if (due) due.push(barrierId);
        else edges.set(at, [barrierId]);
      };
      await inChunks(barrierIds, 4, async (barrierId) => {
        const next = await nextReconcileAt(deps, barrierId);
        if (next) wakeAt(barrierId, next.getTime());
      });

      // A production PostgreSQL vacuums and analyzes the queue's tables as they churn (autovacuum); this
      // machine's runs with autovacuum off, so the bench does it itself (without statistics the planner reads
      // the open commands' order by a scan of every open command).
      const autovacuum = (await handle.pool.query<{ autovacuum: string }>('show autovacuum')).rows[0]
        ?.autovacuum;
      const vacuumByHand = autovacuum !== 'on';
      let vacuumAt = 0;
      let sentSinceVacuum = 0;
      let vacuumMs = 0;
      const vacuum = async () => {
        const started = performance.now();
        await handle.pool.query(
          'vacuum analyze device_commands, device_slots, device_messages, inbound_sms, phones, barriers',
        );
        vacuumMs += performance.now() - started;
      };

      const databaseCpuUse = databaseCpu(handle.pool, new URL(url).pathname.slice(1));
      const weekEnd = periodStart + days * 24 * HOUR;
      let blockDone = false;
      let cpuStart: NodeJS.CpuUsage | null = null;
      let wallStart = 0;
      const bursts: { start: number; end: number | null; commands: number }[] = [];
      let openBefore = false;
      let commandsInWeek = 0;
      let progressAt = 0;
      const realStart = performance.now();

      for (;;) {
        const now = clock.now().getTime();
        if (now >= weekEnd) break;
        // As autovacuum would: after every 10,000 commands handed over (a tenth of the week's table, its
        // analyze threshold), and at least every 6 simulated hours.
        if (now >= vacuumAt || sentSinceVacuum >= 10_000) {
          if (cpuStart !== null) await databaseCpuUse.sample();
          if (vacuumByHand) await vacuum();
          vacuumAt = now + 6 * HOUR;
          sentSinceVacuum = 0;
        }
        if (process.env.BENCH_TRAFFIC_PROGRESS && now >= progressAt) {
          process.stderr.write(
            `${new Date(now).toISOString()} after ${((performance.now() - realStart) / 1000).toFixed(0)} s\n`,
          );
          progressAt = now + 6 * HOUR;
        }
        if (cpuStart === null && now >= periodStart) {
          await databaseCpuUse.start();
          cpuStart = process.cpuUsage();
          wallStart = performance.now();
        }
        // Window edges: the barriers re-planned (the worker's reconcile wake-ups), a few at a time.
        const dueReconciles: number[] = [];
        for (const [at, due] of edges)
          if (at <= now) {
            edges.delete(at);
            dueReconciles.push(...due);
          }
        await inChunks(dueReconciles, 4, async (barrierId) => {
          await reconcileBarrier(deps, barrierId);
          const next = await nextReconcileAt(deps, barrierId);
          if (next) wakeAt(barrierId, Math.max(next.getTime(), now + 1));
        });
        if (!blockDone && now >= BLOCK_AT.getTime()) {
          blockDone = true;
          for (const barrierId of barrierIds.slice(0, BLOCKED_BARRIERS)) {
            await handle.db.transaction(async (tx) => {
              await lockBarrier(tx, barrierId);
              await tx
                .update(phones)
                .set({ isActive: false, slot: null })
                .where(and(eq(phones.barrierId, barrierId), eq(phones.userId, blocked?.id ?? 0)));
              await syncBarrierDevice(tx, deps, barrierId, { enforceWeeklyLimit: false });
            });
          }
        }
        // Drive the barriers with open commands as the worker does: in the queue's priority order, a batch at
        // a time (the queue decides a batch in one transaction), until a token is refused.
        let tokenAt: number | null = null;
        for (let pass = 0; tokenAt === null; pass++) {
          // The head of the queue's order, a page at a time (the worker reads it so at every token).
          let page = await firstBarriersWithOpenCommands(handle.db, { limit: DRIVE_PAGE });
          if (pass === 0 && page.barrierIds.length > 0 && !openBefore)
            bursts.push({ start: now, end: null, commands: 0 });
          if (page.barrierIds.length === 0) {
            const last = bursts.at(-1);
            if (openBefore && last) last.end = now;
            openBefore = false;
            break;
          }
          openBefore = true;
          let sent = 0;
          const driven = new Set<number>();
          for (;;) {
            for (let start = 0; start < page.barrierIds.length && tokenAt === null; start += DRIVE_BATCH) {
              const batch = page.barrierIds.slice(start, start + DRIVE_BATCH);
              for (const barrierId of batch) driven.add(barrierId);
              const results = await Promise.all(batch.map((barrierId) => processBarrier(deps, barrierId)));
              for (const result of results) {
                if (result.state === 'sent') sent += 1;
                if (result.state === 'throttled')
                  tokenAt = Math.min(tokenAt ?? Number.POSITIVE_INFINITY, result.until.getTime());
              }
              await deliver();
            }
            if (tokenAt !== null || page.done) break;
            page = await firstBarriersWithOpenCommands(handle.db, {
              limit: DRIVE_PAGE,
              skip: driven,
              after: page.cursor ?? undefined,
            });
          }
          const burst = bursts.at(-1);
          if (burst) burst.commands += sent;
          sentSinceVacuum += sent;
          if (now >= periodStart) commandsInWeek += sent;
          // Nothing went (every barrier waits for its reply or a retry): the next event moves the clock.
          if (sent === 0) break;
        }
        const candidates = [weekEnd];
        if (tokenAt !== null) candidates.push(tokenAt);
        for (const at of edges.keys()) candidates.push(at);
        if (!blockDone) candidates.push(BLOCK_AT.getTime());
        const next = Math.max(now + STEP_MS, Math.min(...candidates));
        clock.set(new Date(next));
      }
      const cpu = process.cpuUsage(cpuStart ?? undefined);
      const databaseMicros = await databaseCpuUse.read();
      const wall = performance.now() - wallStart;

      // The figures, from the queue's own records.
      const rows = (
        await handle.pool.query<{
          kind: string;
          created_at: Date;
          handed_over_at: Date | null;
          window_start: string | null;
          attempts: number;
          gateway: string | null;
        }>(
          `select kind, created_at, handed_over_at, payload->'window'->>'start' as window_start, attempts, gateway
           from device_commands where handed_over_at is not null`,
        )
      ).rows;
      // An add handed a token while a revocation of another barrier was stored and still had none.
      const [overtaken] = (
        await handle.pool.query<{ n: number }>(
          `select count(*)::int as n from device_commands c
           where c.kind <> 'delete' and c.sent_at is not null and exists (
             select 1 from device_commands d
             where d.kind = 'delete' and d.barrier_id <> c.barrier_id
               and d.created_at <= c.sent_at and (d.sent_at is null or d.sent_at > c.sent_at))`,
        )
      ).rows;
      const addsWhileRevocationWaited = overtaken?.n ?? 0;
      const inWeek = rows.filter((row) => row.handed_over_at && row.handed_over_at.getTime() >= periodStart);
      const smsInWeek = inWeek.reduce((sum, row) => sum + row.attempts, 0);
      const byKind = new Map<string, number>();
      for (const row of inWeek) byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + 1);
      // The physical minimum: one SMS per window a unit must be told of in the week (each phone's next
      // weekday window is written when one ends: 5 a week, the last one for next Monday included), plus one
      // per revocation; the clock and the first sync are extra.
      const weekdays = Math.min(days, WEEKDAYS.length);
      const minimum = (barrierCount * PHONES_PER_BARRIER - BLOCKED_BARRIERS) * weekdays + BLOCKED_BARRIERS;
      const revocations = rows
        .filter((row) => row.kind === 'delete' && row.created_at.getTime() >= BLOCK_AT.getTime())
        .map((row) => (row.handed_over_at?.getTime() ?? Number.NaN) - row.created_at.getTime());
      const windowLateness = inWeek
        .filter((row) => row.window_start)
        .map((row) =>
          Math.max(0, (row.handed_over_at?.getTime() ?? 0) - new Date(row.window_start ?? 0).getTime()),
        );
      const late = windowLateness.filter((value) => value > 0).length;
      const weekBursts = bursts.filter((burst) => burst.start >= periodStart);
      const perGateway = gateways
        .map((entry) => `${entry.name} ${(entry.gateway as SimulatedGateway).sent}`)
        .join(', ');
      const wed = weekBursts.map((burst) => {
        const day = new Date(burst.start + 3 * HOUR).toISOString().slice(0, 16).replace('T', ' ');
        return `    ${day} Moscow: ${burst.commands} commands, drained in ${burst.end === null ? 'not drained' : minutes(burst.end - burst.start)}`;
      });
      const total = gateways.reduce((sum, entry) => sum + entry.ratePerMinute, 0);
      const scale = 10_000 / barrierCount;
      const mondayBurst = weekBursts[0];
      return [
        `Simulated ${days === 7 ? 'week (Monday 06:00 to the next Monday 06:00)' : `${days} day(s) from Monday 06:00, the morning bursts and the block (the week: BENCH_TRAFFIC_DAYS=7)`} on PostgreSQL: ${barrierCount} barriers × ${PHONES_PER_BARRIER} schedule phones (RTU5025), gateways phone-1 25/min burst 5, phone-2 25/min burst 5, smsru 60/min burst 10 (${total}/min in all), clock steps of at least ${STEP_MS / 1000} s${barrierCount === 10_000 ? '' : ` — scale ${barrierCount}/10,000`}`,
        `  SMS in the period: ${smsInWeek} (${[...byKind].map(([kind, n]) => `${kind} ${n}`).join(', ')}); physical minimum ${minimum} (one per window a unit must be told of: (${barrierCount}×${PHONES_PER_BARRIER} − ${BLOCKED_BARRIERS} blocked) phones × ${weekdays} weekday(s), + ${BLOCKED_BARRIERS} revocations): ${(smsInWeek / minimum).toFixed(3)}×`,
        `  handed to: ${perGateway}`,
        `  bursts (open commands from the first to none left), ${weekBursts.length}:`,
        ...wed,
        ...(mondayBurst && barrierCount !== 10_000
          ? [
              `  at 10,000 barriers a morning burst is ×${scale.toFixed(0)}: ~${Math.round(mondayBurst.commands * scale)} commands, ≥ ${minutes((mondayBurst.commands * scale * MINUTE) / total)} at ${total}/min (bound: the gateways' rate)`,
            ]
          : []),
        `  revocations (one user blocked on ${BLOCKED_BARRIERS} barriers on Monday 09:00:30, mid burst): lateness ${spread(revocations)}`,
        `  adds handed over while a revocation waited: ${addsWhileRevocationWaited}`,
        `  window starts: lateness ${spread(windowLateness)}; ${late} of ${windowLateness.length} written after their start`,
        `  PostgreSQL: autovacuum ${autovacuum}${vacuumByHand ? `; the bench vacuumed and analyzed the queue's tables after every 10,000 commands and every 6 simulated hours instead (${(vacuumMs / 1000).toFixed(1)} s of the wall time)` : ''}`,
        `  CPU per 1,000 commands: Node ${(((cpu.user + cpu.system) / 1000 / Math.max(1, commandsInWeek)) * 1000).toFixed(0)} ms + PostgreSQL ${((databaseMicros / 1000 / Math.max(1, commandsInWeek)) * 1000).toFixed(0)} ms (${commandsInWeek} commands, ${(wall / 1000).toFixed(1)} s wall for the period)`,
        `  ${await reference(url)}`,
      ];
    } finally {
      await handle.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
}

/**
 * Twice: the simulated week at BENCH_TRAFFIC_BARRIERS (default the issue's 10,000) barriers × 5 schedule
 * phones over BENCH_TRAFFIC_DAYS (default 7: Monday 06:00 to the next Monday 06:00), then commit → SMS with 20
 * writers back to back and paced. A smaller fleet or fewer days (a quick look) print the same figures.
 */
export async function runTrafficBench(): Promise<void> {
  const count = (name: string, fallback: number, minimum: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < minimum)
      throw new Error(`${name} must be an integer ≥ ${minimum}.`);
    return value;
  };
  const barrierCount = count('BENCH_TRAFFIC_BARRIERS', 10_000, BLOCKED_BARRIERS);
  const days = count('BENCH_TRAFFIC_DAYS', 7, 1);
  const writes = count('BENCH_TRAFFIC_WRITES', 400, 20);
  for (const run of [1, 2]) {
    process.stdout.write(`\n-- device traffic, run ${run} of 2 --\n`);
    for (const line of await simulateWeek(barrierCount, days)) process.stdout.write(`${line}\n`);
    for (const line of await commitToSmsLatency(writes, 20)) process.stdout.write(`${line}\n`);
    for (const line of await commitToSmsLatency(writes / 2, 20, 2000)) process.stdout.write(`${line}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runTrafficBench().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? error}\n`);
      process.exit(1);
    },
  );
}
