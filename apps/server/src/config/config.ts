/**
 * Configuration: read once at start-up from the environment and validated. A bad value stops the process
 * with a message naming the variable (habit 6).
 */
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((v) => ['on', 'true', '1'].includes(v));
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must start with postgres:// or postgresql://' })
      .optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Key for JWTs, code hashes and the device-password cipher. Generated and kept in DATA_DIR when unset. */
    SECRET_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    SMS_PROVIDER: z.enum(['demo', 'android', 'smsru']).default('demo'),
    SMS_FILE: z.string().min(1).optional(),
    DEVICE_SIM: z.enum(['on', 'off']).default('on'),
    DEVICE_SIM_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    DEVICE_TIMEZONE_OFFSET_MINUTES: z.coerce.number().int().min(-720).max(840).default(180),
    INBOUND_SMS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    /** Bearer token of GET /metrics (Prometheus); unset: the route does not exist (404). */
    METRICS_TOKEN: z
      .string()
      .min(16, { error: 'must be at least 16 characters' })
      .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' })
      .optional(),
    ANDROID_SMS_URL: z.url().optional(),
    ANDROID_SMS_LOGIN: z.string().optional(),
    ANDROID_SMS_PASSWORD: z.string().optional(),
    SMSRU_API_ID: z.string().optional(),
    SMSRU_URL: z.url().default('https://sms.ru'),
    DADATA_API_KEY: z.string().optional(),
    DADATA_URL: z.url().default('https://suggestions.dadata.ru'),
    RATE_LIMIT_CODE_REQUESTS: positiveInt(60),
    RATE_LIMIT_AUTH_CALLS: positiveInt(300),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(600),
    /** Codes sent to one number within 24 hours, whoever asks (issue 17 parts 3, 4). */
    CODES_PER_PHONE_PER_DAY: positiveInt(10),
    /** Codes sent by the whole server within an hour: the ceiling of what SMS pumping can spend. */
    SMS_CODE_BUDGET_PER_HOUR: positiveInt(500),
    /** Invitations by number to people without an account, per administrator per hour (issue 14 part 2). */
    PHONE_INVITES_PER_ADMIN_PER_HOUR: positiveInt(20),
    /** The site's address, named in the SMS inviting a person without an account; unset: the app's name only. */
    SITE_URL: z.url().optional(),
    /** How many SMS the gateway sends a minute: the send-time estimate of a bulk import (send-estimate.ts). */
    SMS_RATE_PER_MINUTE: positiveInt(20),
    /**
     * Absolute lifetime of a session in days from its login, whatever its refreshes (the sliding lifetime is
     * 30 days): after it the user logs in again (docs/decisions/0012).
     */
    SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(90),
    DEVICE_REPLY_TIMEOUT_MS: positiveInt(120_000),
    DEVICE_MAX_ATTEMPTS: positiveInt(3),
    WEB_DIST_DIR: z.string().optional(),
    TRUST_PROXY: booleanFlag.default(false),
    /** Strict-Transport-Security max-age; 0 (the default) sends none. Set it only when the site is on HTTPS. */
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(63_072_000).default(0),
  })
  .superRefine((env, ctx) => {
    if (env.SMS_PROVIDER === 'android' && !env.ANDROID_SMS_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['ANDROID_SMS_URL'],
        message: 'is required when SMS_PROVIDER=android',
      });
    }
    if (env.SMS_PROVIDER === 'smsru' && !env.SMSRU_API_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMSRU_API_ID'],
        message: 'is required when SMS_PROVIDER=smsru',
      });
    }
  });

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Environment {
  dataDir: string;
  smsFile: string;
  webDistDir: string;
}

export class ConfigError extends Error {}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Environment> = {},
): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = environmentSchema.safeParse({ ...cleaned, ...overrides });
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || 'environment'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const parsed = result.data;
  const dataDir = path.resolve(parsed.DATA_DIR);
  return {
    ...parsed,
    dataDir,
    smsFile: path.resolve(parsed.SMS_FILE ?? path.join(dataDir, 'sms-outbox.jsonl')),
    webDistDir: path.resolve(parsed.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
  };
}
