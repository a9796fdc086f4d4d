/**
 * Lighthouse on /login and on a resident's first screen, N times each (issue 41: ≥ 95 on both). Run by hand after
 * `npm run build -w @propusk/web`, never in CI and never a dependency: Lighthouse 13 is installed into a temp folder
 * on first use (`npm install lighthouse@13`), Chromium is Debian's (`CHROME_PATH`, default /usr/bin/chromium),
 * headless, without the sandbox. Mobile, simulated slow 4G and 4× CPU (Lighthouse's default), performance only.
 *
 *   node apps/web/scripts/lighthouse.mjs [--runs 5] [--pages login,resident] [--port 3350] [--save DIR]
 *
 * It builds nothing. Without `--url` it starts the production server (`apps/server/src/main.ts`, NODE_ENV=production
 * with the demo SMS allowed) on `--port` over a fresh embedded database in a temp folder, with an administrator made
 * by the CLI first; with `--url http://host:port` it targets a running server whose demo SMS file is SMS_FILE and
 * whose administrator is LIGHTHOUSE_ADMIN_PHONE / LIGHTHOUSE_ADMIN_PASSWORD.
 * The resident, before each of his runs: a new barrier of the administrator and a new resident whose access request
 * the administrator accepts, all over the API (codes read from the demo SMS file, as DESIGN.md's runtime contract
 * writes them); his tokens are put in the localStorage of a new Chromium profile (through the API's origin, so the
 * HTTP cache holds none of the app's files) that Lighthouse opens with its storage reset off, on /start.
 * Prints each run (score, FCP, LCP, TBT, the LCP element, the 1-minute load average at its start), then per page the
 * median and the range. `--save DIR` keeps each run's report (JSON) for the network graph. To compare two builds,
 * copy each `apps/web/dist` aside and run this with `WEB_DIST_DIR=<copy>` (the started server serves it), in turns.
 * Lighthouse simulates slow 4G from the run's own trace: the server's observed latency and the CPU's task times
 * enter the figures, so a busy machine moves them (the load average is printed for that).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: 'login,resident' },
    port: { type: 'string', default: '3350' },
    url: { type: 'string' },
    save: { type: 'string' },
  },
});
const runs = Number(options.runs);
const pages = options.pages.split(',');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number from 1');
if (pages.some((page) => page !== 'login' && page !== 'resident'))
  throw new Error('--pages takes login and/or resident');
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
if (!existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath}: apt-get install -y chromium`);

/** Lighthouse 13 and what comes with it (chrome-launcher, puppeteer-core), from a temp folder. */
async function loadLighthouse() {
  const folder = path.join(tmpdir(), 'propusk-lighthouse');
  const modules = path.join(folder, 'node_modules');
  if (!existsSync(path.join(modules, 'lighthouse', 'package.json'))) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'package.json'), '{"private":true}');
    console.log(`Installing lighthouse@13 into ${folder}`);
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', 'lighthouse@13'], {
      cwd: folder,
      stdio: 'inherit',
    });
    if (install.status !== 0) throw new Error('npm install lighthouse@13 failed');
  }
  const resolve = createRequire(path.join(folder, 'package.json')).resolve;
  const from = (name) => import(pathToFileURL(resolve(name)).href);
  const version = JSON.parse(readFileSync(path.join(modules, 'lighthouse', 'package.json'), 'utf8')).version;
  return {
    version,
    lighthouse: (await from('lighthouse')).default,
    chromeLauncher: await from('chrome-launcher'),
    puppeteer: (await from('puppeteer-core')).default,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The production server on a fresh embedded database, its administrator made by the CLI before it starts. */
async function startServer(port) {
  const folder = mkdtempSync(path.join(tmpdir(), 'propusk-lighthouse-server-'));
  const admin = { phone: '+79990000042', password: 'lighthouse-admin-pass' };
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    ALLOW_DEMO: 'on',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: path.join(folder, 'data'),
    SMS_FILE: path.join(folder, 'sms-outbox.jsonl'),
    SMS_PROVIDER: 'demo',
    DEVICE_SIM_DELAY_MS: '200',
    SMS_RATE_PER_MINUTE: '600',
    SMS_RATE_BURST: '60',
    RATE_LIMIT_CODE_REQUESTS: '10000',
    RATE_LIMIT_AUTH_CALLS: '10000',
    LOG_LEVEL: 'warn',
  };
  const cli = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/cli.ts',
      'create-admin',
      '--phone',
      admin.phone,
      '--password',
      admin.password,
    ],
    { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (cli.status !== 0) throw new Error('create-admin failed');
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 250) {
    if (server.exitCode !== null) throw new Error(`The server stopped (exit ${server.exitCode})`);
    if (waited > 60_000) throw new Error('The server did not answer /api/health/ within 60 s');
    const health = await fetch(`${baseUrl}/api/health/`).catch(() => null);
    if (health?.ok) break;
    await sleep(250);
  }
  return {
    baseUrl,
    admin,
    smsFile: env.SMS_FILE,
    // The folder goes once the server has closed its database (removed under it, it was left half written).
    stop: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The API over HTTP, as the app calls it (JSON, bearer token), failing loudly on an error. */
function apiClient(baseUrl, smsFile) {
  async function call(method, url, data, token) {
    const response = await fetch(baseUrl + url, {
      method,
      headers: {
        ...(data === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(body)}`);
    return body;
  }
  const smsTo = (phone) => {
    if (!existsSync(smsFile)) return [];
    return readFileSync(smsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((sms) => sms.to === phone);
  };
  async function waitForCode(phone, before) {
    for (let waited = 0; waited < 15_000; waited += 100) {
      const code = smsTo(phone)
        .slice(before)
        .at(-1)
        ?.text.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
      await sleep(100);
    }
    throw new Error(`No code SMS to ${phone}`);
  }
  /** A login with the code from the demo SMS (and the administrator's password first), consenting to the policy. */
  async function login(phone, password) {
    const step = password
      ? await call('POST', '/api/auth/admin/password_verification/', { phone, password })
      : null;
    const before = smsTo(phone).length;
    const { verification_token } = await call('POST', '/api/auth/codes/', { phone, mode: 'login' });
    const code = await waitForCode(phone, before);
    const verified = await call('PATCH', '/api/auth/codes/verify/', { phone, code, verification_token });
    const consent = verified.consent_required ? { consent_version: verified.policy_version } : {};
    const session = await call('POST', '/api/auth/login/', {
      phone,
      verification_token,
      ...(step ? { password_nonce: step.password_nonce } : {}),
      ...consent,
    });
    return { phone, access_token: session.access_token, refresh_token: session.refresh_token };
  }
  return { call, login };
}

let phoneCounter = 0;
/** A fresh number: codes have a cooldown per number. */
function uniquePhone(prefix) {
  phoneCounter += 1;
  return `${prefix}${String(Date.now() % 100_000).padStart(5, '0')}${String(phoneCounter % 100).padStart(2, '0')}`;
}

/** A new resident with one barrier: the administrator's new barrier, the resident's request, accepted. */
async function residentWithOneBarrier(api, adminToken) {
  const barrier = await api.call(
    'POST',
    '/api/admin/barriers/',
    {
      address: `Лайтхаус, ворота ${phoneCounter + 1}`,
      device_phone: uniquePhone('+7916'),
      device_model: 'RTU5025',
      device_password: '1234',
      device_phones_amount: 20,
      is_public: true,
    },
    adminToken,
  );
  const resident = await api.login(uniquePhone('+7915'));
  const me = await api.call('GET', '/api/users/me/', undefined, resident.access_token);
  const asked = await api.call(
    'POST',
    '/api/access_requests/',
    { user: me.id, barrier: barrier.id },
    resident.access_token,
  );
  await api.call('PATCH', `/api/admin/access_requests/${asked.id}/`, { status: 'accepted' }, adminToken);
  return resident;
}

/** Puts the session where the app keeps it (localStorage), through a page of the origin that loads none of the app. */
async function storeSession(puppeteer, port, baseUrl, session) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  const page = await browser.newPage();
  await page.goto(`${baseUrl}/api/health/`);
  await page.evaluate((stored) => {
    localStorage.setItem('access_token', stored.access_token);
    localStorage.setItem('refresh_token', stored.refresh_token);
    localStorage.setItem('phone', stored.phone);
  }, session);
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await page.close();
  await browser.disconnect();
}

/** The text (or the tag) of the largest paint, from Lighthouse 13's LCP breakdown. */
function lcpElement(lhr) {
  const items = lhr.audits['lcp-breakdown-insight']?.details?.items ?? [];
  const node = items.find((item) => item.type === 'node');
  return node ? (node.nodeLabel ?? node.snippet ?? '').slice(0, 60) : '—';
}

async function runOnce(tools, page, target, api, adminToken) {
  const load = loadavg()[0];
  const chrome = await tools.chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    let url = `${target.baseUrl}/login`;
    if (page === 'resident') {
      const session = await residentWithOneBarrier(api, adminToken);
      await storeSession(tools.puppeteer, chrome.port, target.baseUrl, session);
      url = `${target.baseUrl}/start`;
    }
    const result = await tools.lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: page === 'resident',
    });
    const lhr = result.lhr;
    if (lhr.runtimeError) return { page, load, error: lhr.runtimeError.code };
    return {
      page,
      load,
      lhr,
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: lhr.audits['first-contentful-paint'].numericValue,
      lcp: lhr.audits['largest-contentful-paint'].numericValue,
      tbt: lhr.audits['total-blocking-time'].numericValue,
      finalUrl: lhr.finalDisplayedUrl,
      element: lcpElement(lhr),
    };
  } finally {
    await chrome.kill();
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const millis = (ms) => `${Math.round(ms)} ms`;
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
function summary(values, format) {
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

const tools = await loadLighthouse();
const target = options.url
  ? {
      baseUrl: options.url.replace(/\/+$/, ''),
      admin: { phone: process.env.LIGHTHOUSE_ADMIN_PHONE, password: process.env.LIGHTHOUSE_ADMIN_PASSWORD },
      smsFile: process.env.SMS_FILE,
      stop: async () => {},
    }
  : await startServer(Number(options.port));
try {
  let adminToken;
  const api = apiClient(target.baseUrl, target.smsFile ?? '');
  if (pages.includes('resident')) {
    if (!target.admin.phone || !target.admin.password || !target.smsFile)
      throw new Error('--url needs LIGHTHOUSE_ADMIN_PHONE, LIGHTHOUSE_ADMIN_PASSWORD and SMS_FILE');
    adminToken = (await api.login(target.admin.phone, target.admin.password)).access_token;
  }
  if (options.save) mkdirSync(options.save, { recursive: true });
  console.log(`Lighthouse ${tools.version}, mobile, performance; ${target.baseUrl}; ${runs} run(s) per page`);
  const results = [];
  for (let run = 1; run <= runs; run += 1) {
    for (const page of pages) {
      let result = await runOnce(tools, page, target, api, adminToken);
      // Lighthouse sometimes ends in an error of its own (NO_NAVSTART, NO_FCP) on a busy machine: once more.
      if (result.error) {
        console.log(`${page} #${run}: ${result.error}, once more`);
        result = await runOnce(tools, page, target, api, adminToken);
      }
      if (result.error) {
        console.log(`${page} #${run}: ${result.error}, left out`);
        continue;
      }
      results.push(result);
      if (options.save)
        writeFileSync(path.join(options.save, `${page}-${run}.json`), JSON.stringify(result.lhr));
      console.log(
        `${page} #${run}: ${result.score}  FCP ${seconds(result.fcp)}  LCP ${seconds(result.lcp)}  TBT ${millis(result.tbt)}  load ${result.load.toFixed(1)}  ${result.finalUrl.replace(target.baseUrl, '')}  LCP element: ${result.element}`,
      );
    }
  }
  console.log('\nMedian (range):');
  for (const page of pages) {
    const own = results.filter((result) => result.page === page);
    if (own.length === 0) continue;
    const pick = (key) => own.map((result) => result[key]);
    console.log(
      `${page.padEnd(8)} performance ${summary(pick('score'), String)}  FCP ${summary(pick('fcp'), seconds)}  LCP ${summary(pick('lcp'), seconds)}  TBT ${summary(pick('tbt'), millis)}  load ${summary(pick('load'), (value) => value.toFixed(1))}  (${own.length} runs)`,
    );
  }
} finally {
  await target.stop();
}
