import type { SmsGateway } from '@propusk/sms/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from './clock.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Secrets } from './secrets.ts';

/** What services need from the outside world, built once in main.ts (or a test) and passed down. */
export interface Dependencies {
  config: Config;
  db: Database;
  databaseKind: 'postgres' | 'pglite';
  clock: Clock;
  secrets: Secrets;
  sms: SmsGateway;
  logger: FastifyBaseLogger;
  rateLimits: {
    /** Code requests per IP. */
    codeRequests: RateLimiter;
    /** Any unauthenticated auth call per IP. */
    authCalls: RateLimiter;
    /** Client log pushes per IP. */
    logs: RateLimiter;
  };
  /** Called after a transaction that wrote device commands has committed (wakes the device worker). */
  notifyDeviceCommands: (barrierIds: number[]) => void;
}
