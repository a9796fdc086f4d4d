/**
 * Configuration: read once at start-up from the environment and validated. A bad value stops the process
 * with a message naming the variable (habit 6).
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { loadPrivacyPolicy, type PrivacyPolicy } from './privacy-policy.ts';

const booleanFlag = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((v) => ['on', 'true', '1'].includes(v));
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** TRUST_PROXY as Fastify takes it: nobody, the number of hops, or the proxies' addresses and CIDRs. */
export type TrustProxy = false | number | string[];

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export const environmentSchema = z
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
    /** Send rate of the SMS_PROVIDER gateway: SMS per minute, sustained (issue 15 part 1). */
    SMS_RATE_PER_MINUTE: z.coerce.number().positive().max(100_000).default(20),
    /** How many SMS the SMS_PROVIDER gateway may send at once after a quiet spell (the token bucket's size). */
    SMS_RATE_BURST: z.coerce.number().int().min(1).max(100_000).default(5),
    /**
     * Several gateways at once (issue 15 part 4): a JSON list of gateways (see `gatewaySchema`). Unset: the one
     * gateway of SMS_PROVIDER at SMS_RATE_PER_MINUTE / SMS_RATE_BURST. Device commands spread over them; codes
     * keep going through SMS_PROVIDER.
     */
    SMS_GATEWAYS: z.string().optional(),
    DEVICE_SIM: z.enum(['on', 'off']).default('on'),
    /**
     * With NODE_ENV=production the demo parts (SMS_PROVIDER=demo, a demo gateway, DEVICE_SIM=on) stop the start
     * unless this is on; then a warning is logged at every start (config/demo-in-production.ts).
     */
    ALLOW_DEMO: booleanFlag.default(false),
    DEVICE_SIM_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /**
     * The phone number of the gateway that talks to the devices (+7XXXXXXXXXX). Set: new barriers of models
     * that send alarms (RTU family) hold it in slot 1, where the unit sends its power-failure SMS, and keep
     * slots 2–6 free of residents where the unit has room (issue 30 item 5). Unset: residents from slot 1.
     */
    DEVICE_GATEWAY_PHONE: z
      .string()
      .regex(/^\+7\d{10}$/, { error: 'must be a number in the form +7XXXXXXXXXX' })
      .optional(),
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
    /** Look-ups by number (exact-phone search, invitation by number, staff by phone) per administrator per hour (issue 28). */
    ADMIN_LOOKUPS_PER_HOUR: positiveInt(60),
    /** Answers telling that a number has an account, per caller per 24 hours (issue 40 item 4, decision 0030). */
    ACCOUNT_ANSWERS_PER_DAY: positiveInt(10),
    /** Invitations an administrator's imports may make per 24 hours (issue 40 item 4, decision 0030). */
    IMPORT_INVITATIONS_PER_ADMIN_PER_DAY: positiveInt(500),
    /** The site's address, named in the SMS inviting a person without an account; unset: the app's name only. */
    SITE_URL: z.url().optional(),
    /**
     * Who runs this server, told to the push services with each Web Push (VAPID `sub`, issue 43): a
     * `mailto:` address or an https URL. Unset: SITE_URL, else a placeholder address.
     */
    VAPID_SUBJECT: z
      .string()
      .max(256)
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, {
        error: 'must be a mailto: address or an https:// URL',
      })
      .optional(),
    /**
     * Absolute lifetime of a session in days from its login, whatever its refreshes (the sliding lifetime is
     * 30 days): after it the user logs in again (docs/decisions/0012).
     */
    SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(90),
    DEVICE_REPLY_TIMEOUT_MS: positiveInt(120_000),
    DEVICE_MAX_ATTEMPTS: positiveInt(3),
    WEB_DIST_DIR: z.string().optional(),
    /**
     * Who may say where a request came from (issue 29 part 10): `off` (default) nobody; a number of proxies in
     * front (`1` behind one nginx: the address that proxy saw); or a comma-separated list of the proxies'
     * addresses and CIDRs (`127.0.0.1,10.0.0.0/8`). Never "all": `on` would believe the client's own header.
     */
    TRUST_PROXY: z
      .string()
      .default('off')
      .transform((value, ctx): TrustProxy => {
        const text = value.trim().toLowerCase();
        if (['off', 'false', '0', 'no'].includes(text)) return false;
        if (['on', 'true', 'yes', 'all'].includes(text)) {
          ctx.addIssue({
            code: 'custom',
            message: `"${value}" would believe any client's X-Forwarded-For. Set the number of proxies in front (1 behind one nginx) or their addresses/CIDRs (127.0.0.1,10.0.0.0/8)`,
          });
          return z.NEVER;
        }
        if (/^\d+$/.test(text)) {
          const hops = Number(text);
          if (hops <= 10) return hops;
        }
        const entries = value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '');
        const bad = entries.filter((entry) => !isAddressOrCidr(entry));
        if (entries.length === 0 || bad.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `must be off, a number of proxies (1–10) or a list of addresses/CIDRs; not ${bad.join(', ') || value}`,
          });
          return z.NEVER;
        }
        return entries;
      }),
    /** Strict-Transport-Security max-age; 0 (the default) sends none. Set it only when the site is on HTTPS. */
    HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(63_072_000).default(0),
    // --- abuse bounds (issue 29, docs/decisions/0024) ---
    /** Percent of SMS_CODE_BUDGET_PER_HOUR that only existing accounts may spend (public calls cannot). */
    SMS_CODE_ACCOUNT_RESERVE_PERCENT: z.coerce.number().int().min(0).max(100).default(50),
    /** Codes one guest link may have sent within 24 hours. */
    GUEST_PASS_CODES_PER_PASS_PER_DAY: positiveInt(5),
    /** Codes all guest links of one resident may have sent within 24 hours. */
    GUEST_PASS_CODES_PER_RESIDENT_PER_DAY: positiveInt(20),
    /** Comma-separated prefixes of the numbers codes may be sent to (default: Russian mobile numbers). */
    SMS_ALLOWED_PREFIXES: z
      .string()
      .default('+79')
      .transform((value) =>
        value
          .split(',')
          .map((prefix) => prefix.trim())
          .filter((prefix) => prefix !== ''),
      )
      .pipe(
        z
          .array(
            z.string().regex(/^\+7\d{0,9}$/, { error: 'each prefix must be +7 followed by up to 9 digits' }),
          )
          .min(1, { error: 'must name at least one prefix, such as +79' }),
      ),
    // --- end abuse bounds ---
    // --- deployment (issue 31, docs/decisions/0027) ---
    /** Apply pending migrations at start (`off`: `npm run migrate` does it, and a start on an old schema stops). */
    MIGRATE_ON_START: booleanFlag.default(true),
    /** Connections of this process's main PostgreSQL pool (requests, pg-boss). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
    /** Connections of this process's second pool, the device worker's sends. */
    DATABASE_SEND_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(4),
    /**
     * Named prepared statements for the hot queries (db/prepared.ts). `off` behind PgBouncer in transaction mode
     * (before 1.21 it cannot keep a statement across transactions): every query is then sent unnamed.
     */
    DATABASE_PREPARED_STATEMENTS: booleanFlag.default(true),
    // --- end deployment ---
    // The operator's privacy policy and retention (152-ФЗ, issue 28 part 6; docs/decisions/0022).
    /** A UTF-8 text (Markdown or plain) file with the operator's policy; unset: the built-in Russian text. */
    PRIVACY_POLICY_FILE: z.string().min(1).optional(),
    /** The policy's version; a new one asks everybody again. Unset: a short hash of the policy's text. */
    PRIVACY_POLICY_VERSION: z
      .string()
      .regex(/^[0-9A-Za-z._-]{1,64}$/, { error: 'must be 1–64 of 0-9, A-Z, a-z, ".", "_" and "-"' })
      .optional(),
    /** History, device conversation, openings and other logs are removed after this many days. */
    RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(365),
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

/**
 * One gateway of SMS_GATEWAYS. Secrets are never written into the list: it names the environment variables
 * that hold them (`login_env`, `password_env`, `api_id_env`), so the list itself can be logged or shown.
 */
const gatewaySchema = z
  .object({
    /** Stable name: the rate bucket's key across processes, and the `gateway` of each command it sent. */
    name: z.string().regex(/^[a-z0-9_-]{1,32}$/, { error: 'must be 1–32 of a-z, 0-9, _ and -' }),
    provider: z.enum(['demo', 'android', 'smsru']),
    rate_per_minute: z.number().positive().max(100_000),
    burst: z.number().int().min(1).max(100_000).default(1),
    /** android: the gateway's URL; smsru: the API's URL (default https://sms.ru). */
    url: z.url().optional(),
    login_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
    password_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
    api_id_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
    /** demo: the file it writes (default SMS_FILE). */
    file: z.string().min(1).optional(),
  })
  .strict();

export interface GatewayConfig {
  name: string;
  provider: 'demo' | 'android' | 'smsru';
  ratePerMinute: number;
  burst: number;
  url?: string;
  login?: string;
  password?: string;
  apiId?: string;
  file?: string;
}

export interface Config extends Environment {
  dataDir: string;
  smsFile: string;
  webDistDir: string;
  /** The gateways device commands go through: SMS_GATEWAYS, or the one of SMS_PROVIDER. Holds secrets: never log. */
  smsGateways: GatewayConfig[];
  /** The operator's privacy policy (PRIVACY_POLICY_FILE or the built-in text) and its version. */
  privacyPolicy: PrivacyPolicy;
}

/** What all gateways together may send per minute (the sum of their sustained rates). */
export function totalSendRatePerMinute(config: Pick<Config, 'smsGateways'>): number {
  return config.smsGateways.reduce((sum, gateway) => sum + gateway.ratePerMinute, 0);
}

function parseGateways(parsed: Environment, env: Record<string, string | undefined>): GatewayConfig[] {
  if (parsed.SMS_GATEWAYS === undefined) {
    return [
      {
        name: parsed.SMS_PROVIDER,
        provider: parsed.SMS_PROVIDER,
        ratePerMinute: parsed.SMS_RATE_PER_MINUTE,
        burst: parsed.SMS_RATE_BURST,
        ...(parsed.SMS_PROVIDER === 'android'
          ? {
              url: parsed.ANDROID_SMS_URL ?? '',
              login: parsed.ANDROID_SMS_LOGIN ?? '',
              password: parsed.ANDROID_SMS_PASSWORD ?? '',
            }
          : {}),
        ...(parsed.SMS_PROVIDER === 'smsru'
          ? { apiId: parsed.SMSRU_API_ID ?? '', url: parsed.SMSRU_URL }
          : {}),
      },
    ];
  }
  let json: unknown;
  try {
    json = JSON.parse(parsed.SMS_GATEWAYS);
  } catch {
    throw new ConfigError('Invalid configuration:\n  SMS_GATEWAYS: is not valid JSON (a list of gateways)');
  }
  const list = z.array(gatewaySchema).min(1).max(20).safeParse(json);
  if (!list.success) {
    const lines = list.error.issues.map(
      (issue) => `  SMS_GATEWAYS.${issue.path.join('.') || '(list)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const problems: string[] = [];
  const names = new Set<string>();
  const gateways = list.data.map((entry, index): GatewayConfig => {
    const where = `SMS_GATEWAYS.${index}`;
    if (names.has(entry.name)) problems.push(`  ${where}.name: "${entry.name}" is used twice`);
    names.add(entry.name);
    const secret = (key: 'login_env' | 'password_env' | 'api_id_env', required: boolean) => {
      const variable = entry[key];
      if (variable === undefined) {
        if (required) problems.push(`  ${where}.${key}: is required for provider ${entry.provider}`);
        return undefined;
      }
      const value = env[variable];
      if (value === undefined || value === '') {
        problems.push(`  ${where}.${key}: the variable ${variable} is not set`);
        return undefined;
      }
      return value;
    };
    const base = {
      name: entry.name,
      provider: entry.provider,
      ratePerMinute: entry.rate_per_minute,
      burst: entry.burst,
    };
    if (entry.provider === 'android') {
      if (!entry.url) problems.push(`  ${where}.url: is required for provider android`);
      return {
        ...base,
        url: entry.url ?? '',
        login: secret('login_env', true) ?? '',
        password: secret('password_env', true) ?? '',
      };
    }
    if (entry.provider === 'smsru')
      return { ...base, url: entry.url ?? parsed.SMSRU_URL, apiId: secret('api_id_env', true) ?? '' };
    return { ...base, ...(entry.file === undefined ? {} : { file: entry.file }) };
  });
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return gateways;
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
    smsGateways: parseGateways(parsed, { ...cleaned, ...overrides } as Record<string, string | undefined>),
    smsFile: path.resolve(parsed.SMS_FILE ?? path.join(dataDir, 'sms-outbox.jsonl')),
    webDistDir: path.resolve(parsed.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
    privacyPolicy: loadPrivacyPolicy(parsed, (message) => new ConfigError(message)),
  };
}
