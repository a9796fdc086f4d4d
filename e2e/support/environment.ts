/** Where the journey server lives and what it starts with; shared by playwright.config.ts and the journeys. */
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const artifacts = path.join(root, 'e2e', '.artifacts');

// E2E_PORT lets two checkouts on one machine run their journeys at the same time.
const port = Number(process.env.E2E_PORT ?? 3210);

/**
 * What one journey server keeps, apart per port: its database, its SMS file, the logged-in sessions, the
 * failures' traces. CI runs the journeys in two shards side by side, each with servers of its own (.ci/run).
 */
const own = path.join(artifacts, `port-${port}`);

export const E2E = {
  port,
  baseUrl: `http://127.0.0.1:${port}`,
  artifacts,
  own,
  dataDir: path.join(own, 'data'),
  smsFile: path.join(own, 'sms-outbox.jsonl'),
  screenshots: path.join(artifacts, 'screenshots'),
} as const;

/**
 * A second journey server: a deployment whose gateway has a number (DEVICE_GATEWAY_PHONE), so that new RTU
 * barriers hold it in slot 1 and the units' power SMS reach the server (issue 30 item 5). Its own database,
 * the same SMS file (so codes are read as on the first one), one administrator made by the CLI. The first
 * server keeps the layout without a gateway number, which the other journeys' slots assume. Started by the first
 * journey of a shard that asks for it (the `gatewayServer` fixture, support/gateway-server.ts), not for every shard.
 */
// E2E_PORT + 1000: the ports next to E2E_PORT are other checkouts' journey servers on a shared machine.
export const E2E_GATEWAY_SERVER = {
  port: port + 1000,
  baseUrl: `http://127.0.0.1:${port + 1000}`,
  dataDir: path.join(own, 'data-gateway'),
  gatewayPhone: '+79990009999',
  admin: { phone: '+79990000007', password: 'admin-pass-7', name: 'Галина Шлюзова' },
} as const;

/** What a journey server starts with; `own` names its port and database (and the second one's gateway). */
export function journeyServerEnv(own: Record<string, string>): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    SMS_FILE: E2E.smsFile,
    SMS_PROVIDER: 'demo',
    DEVICE_SIM: 'on',
    DEVICE_SIM_DELAY_MS: '200',
    // The journeys share one server: its simulated gateway sends at 600 a minute, not a real phone's 20, so
    // one journey's device commands never wait behind another's (the rate itself: gateway-rate.test.ts).
    SMS_RATE_PER_MINUTE: '600',
    SMS_RATE_BURST: '60',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CODE_REQUESTS: '10000',
    RATE_LIMIT_AUTH_CALLS: '10000',
    NODE_ENV: 'test',
    ...own,
  };
}

/**
 * Administrators made by the CLI before the server starts (each CLI run takes seconds, so only two): one whose
 * login and password recovery the journeys walk through on screen, one who owns the barriers of the journeys
 * (logged in once over the API, see support/api.ts, because codes have a 60 s cooldown per phone).
 */
export const E2E_ADMINS = [
  { key: 'ui', phone: '+79990000001', password: 'admin-pass-1', name: 'Админ Вход' },
  { key: 'owner', phone: '+79990000002', password: 'admin-pass-2', name: 'Ольга Владелец' },
  // admin-account.spec.ts changes the phone and the password of its own administrator, once per project.
  { key: 'account-phone', phone: '+79990000003', password: 'admin-pass-3', name: 'Админ Телефон' },
  { key: 'account-desktop', phone: '+79990000004', password: 'admin-pass-4', name: 'Админ Десктоп' },
  // roles.spec.ts: the owner makes him an operator of a barrier.
  { key: 'operator', phone: '+79990000005', password: 'admin-pass-5', name: 'Оксана Оператор' },
  // relay.spec.ts: the owner makes him the dispatcher of three barriers, which he holds open.
  { key: 'dispatcher', phone: '+79990000006', password: 'admin-pass-6', name: 'Денис Диспетчер' },
] as const;

export type AdminKey = (typeof E2E_ADMINS)[number]['key'];

export function adminAccount(key: AdminKey) {
  const admin = E2E_ADMINS.find((candidate) => candidate.key === key);
  if (!admin) throw new Error(`No e2e admin ${key}`);
  return admin;
}

/** The phone the journeys run on (also for pages a serial journey opens itself with browser.newContext). */
export const PHONE_CONTEXT = {
  baseURL: E2E.baseUrl,
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'ru-RU',
  timezoneId: 'Europe/Moscow',
} as const;
