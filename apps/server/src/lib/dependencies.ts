import type { DeviceDrift } from '@propusk/devices/simulator';
import type { SmsGateway } from '@propusk/sms/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from './clock.ts';
import type { DatabaseOutage } from './database-outage.ts';
import type { DeviceWake } from './device-wake.ts';
import type { Metrics } from './metrics.ts';
import type { Secrets } from './secrets.ts';
import type { Limiter } from './shared-rate-limiter.ts';
import type { GatewayEntry } from './sms-gateway.ts';

/** What services need from the outside world, built once in main.ts (or a test) and passed down. */
export interface Dependencies {
  config: Config;
  db: Database;
  /**
   * Connections of the device worker's sending transactions only (PostgreSQL, 4 of them): a send
   * never waits behind the requests for a connection. Absent: `db` (the embedded database has one).
   */
  sendDb?: Database | undefined;
  databaseKind: 'postgres' | 'pglite';
  clock: Clock;
  secrets: Secrets;
  /** SMS_PROVIDER's gateway: codes, balance, and device commands when SMS_GATEWAYS is unset. */
  sms: SmsGateway;
  /** SMS_GATEWAYS: the gateways device commands spread over (engine/send/gateway-rate.ts). */
  smsGateways?: GatewayEntry[] | undefined;
  logger: FastifyBaseLogger;
  /** This app's Prometheus instruments (its own registry), counted by the services, served by GET /metrics. */
  metrics: Metrics;
  /** Per-IP limits: shared by every process (lib/shared-rate-limiter.ts) in main.ts, in memory in tests. */
  rateLimits: {
    /** Code requests per IP. */
    codeRequests: Limiter;
    /** Any unauthenticated auth call per IP. */
    authCalls: Limiter;
    /** Client log pushes per IP. */
    logs: Limiter;
  };
  /**
   * Called after a transaction that wrote device commands has committed: `deviceWake.notify`, built with it
   * (lib/device-wake.ts `deviceWakeUp`); a test may put its own in its place to see what is woken.
   */
  notifyDeviceCommands: (barrierIds: number[]) => void;
  /** The device worker's wake-up: each worker started on these dependencies listens to it (jobs/device-worker.ts). */
  deviceWake: DeviceWake;
  // The engine's hooks (`engineHooks`) are declared by src/engine/hooks.ts and auth's (`loginHooks`) by
  // modules/auth/login-hooks.ts: this file, beneath both, cannot name their types. Both are built with the rest
  // (src/domain-hooks.ts).
  /**
   * The demo provider's simulated devices (SMS_PROVIDER=demo, DEVICE_SIM=on), set once they are attached;
   * absent otherwise. Lets a demo or a browser journey make a unit drift and look at what it holds.
   */
  demoDevices?: DemoDevices | null;
  // --- deployment (issue 31, docs/decisions/0027) ---
  /** The database being unreachable, one event per outage (lib/database-outage.ts); made by buildApp when unset. */
  databaseOutage?: DatabaseOutage | undefined;
  /** The device worker's job queue, once started (startDeviceProcessing): GET /api/health/ready asks it. */
  jobQueue?: { running(): boolean } | undefined;
  // --- end deployment ---
  /**
   * Blocks of the event loop longer than this many milliseconds are logged with the routes in flight
   * (plugins/event-loop-watch.ts, issue 40 item 1); EVENT_LOOP_BLOCK_MS when unset, no watch when null (the test
   * apps, whose embedded database blocks on a loaded machine, unless a test turns it on).
   */
  eventLoopBlockMs?: number | null;
}

export interface DemoDevices {
  /** Changes a barrier's simulated unit behind the server's back; false when it has not heard from us yet. */
  drift(barrierId: number, change: DeviceDrift): boolean;
  /** The unit's next `count` answers never arrive (the unit still acts on what it hears). */
  loseReplies(barrierId: number, count: number): void;
  /** What the barrier's simulated unit lets in now (null: it has not heard from us yet). */
  whitelist(barrierId: number): { slot: number; number: string }[] | null;
  /** A call to the barrier's simulated unit from `from`: whether it opens (null: it has not heard from us yet). */
  call(barrierId: number, from: string): boolean | null;
  /** The barrier's simulated relay now (null: the unit has not heard from us yet). */
  relay(barrierId: number): { on: boolean; seconds: number | null; changes: number } | null;
  /**
   * The barrier's simulated unit loses or regains its supply (or raises another alarm) and sends its SMS to
   * the numbers in its recipient slots; those to the gateway's number (DEVICE_GATEWAY_PHONE) reach the server
   * as real inbound SMS. Null: the unit has not heard from us yet.
   */
  raiseAlarm(
    barrierId: number,
    kind: 'power_failure' | 'power_restored' | 'alarm',
  ): Promise<{ sent: number; toGateway: number } | null>;
}
