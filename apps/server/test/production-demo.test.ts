/**
 * Production refuses the demo parts (issue 40 item 5, docs/decisions/0031). With NODE_ENV=production — what
 * `npm run start:prod`, deploy/propusk.service and the image set — the demo SMS provider, a demo gateway and the
 * device simulator stop the start with a message naming the variable, unless ALLOW_DEMO=on, which starts with
 * a warning; the simulator's /api/demo/ routes do not exist in production. `npm start` (no NODE_ENV) keeps the
 * demo defaults of the runtime contract. (.ci/prod-check shows the refusal and the warning on the compiled
 * server started by `npm run start:prod`.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { judgeDemoInProduction } from '../src/config/demo-in-production.ts';
import { createDeviceHarness } from './device-harness.ts';
import { createBarrier } from './domain-factories.ts';
import { createAdmin } from './factories.ts';
import { bundledArgs } from './server-bundle.ts';
import { useTestApp } from './test-app.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const REAL_SMS = { SMS_PROVIDER: 'smsru', SMSRU_API_ID: 'api-id-of-the-operator' };

const judge = (env: Record<string, string>) => judgeDemoInProduction(loadConfig(env));

describe('the demo parts with NODE_ENV=production', () => {
  it('refuses the demo provider and the simulator, each by its variable', () => {
    const defaults = judge({ NODE_ENV: 'production' });
    expect(defaults).toHaveProperty('refuse');
    const message = (defaults as { refuse: string }).refuse;
    expect(message).toContain('SMS_PROVIDER=demo');
    expect(message).toContain('DEVICE_SIM=on');
    expect(message).toContain('ALLOW_DEMO=on');

    const simulatorOnly = judge({ NODE_ENV: 'production', ...REAL_SMS, DEVICE_SIM: 'on' });
    expect((simulatorOnly as { refuse: string }).refuse).toContain('DEVICE_SIM=on');
    expect((simulatorOnly as { refuse: string }).refuse).not.toContain('SMS_PROVIDER=demo');

    const demoGateway = judge({
      NODE_ENV: 'production',
      ...REAL_SMS,
      DEVICE_SIM: 'off',
      SMS_GATEWAYS: JSON.stringify([{ name: 'spare', provider: 'demo', rate_per_minute: 10 }]),
    });
    expect((demoGateway as { refuse: string }).refuse).toContain('SMS_GATEWAYS: the gateway(s) spare');
  });

  it('starts a real configuration silently, and the demo with ALLOW_DEMO=on with a warning', () => {
    expect(judge({ NODE_ENV: 'production', ...REAL_SMS, DEVICE_SIM: 'off' })).toBeNull();
    const allowed = judge({ NODE_ENV: 'production', ALLOW_DEMO: 'on' });
    expect(allowed).toHaveProperty('warn');
    expect((allowed as { warn: string }).warn).toMatch(/ALLOW_DEMO=on.*SMS_PROVIDER=demo.*DEVICE_SIM=on/);
  });

  it('leaves npm start (no NODE_ENV) and the tests with their demo defaults', () => {
    expect(judge({})).toBeNull();
    expect(judge({ NODE_ENV: 'development', ALLOW_DEMO: 'off' })).toBeNull();
    expect(judge({ NODE_ENV: 'test' })).toBeNull();
  });

  it('stops the real process at start-up with the message, before it opens anything', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'propusk-prod-demo-'));
    try {
      const child = spawn(process.execPath, bundledArgs('main'), {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          SMS_PROVIDER: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain('Refusing to start: NODE_ENV=production with demo parts.');
      expect(output).toContain('SMS_PROVIDER=demo');
      expect(output).not.toMatch(/at .*\.ts:\d+/);
      // Nothing was opened: no database, no key.
      expect(() => readFileSync(path.join(dataDir, 'secret.key'))).toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is what start:prod, the systemd unit and the image set, whatever the env file says', () => {
    const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
    expect(scripts['start:prod']).toMatch(/^NODE_ENV=production exec node /);
    expect(scripts.start).not.toContain('NODE_ENV');
    const unit = readFileSync(path.join(root, 'deploy/propusk.service'), 'utf8');
    // EnvironmentFile= overrides Environment=: the command line sets it.
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/env NODE_ENV=production node .*main\.js$/m);
    const image = readFileSync(path.join(root, 'deploy/Containerfile'), 'utf8');
    expect(image).toMatch(/^ENV NODE_ENV=production\b/m);
    expect(image).toMatch(/^CMD \["env", "NODE_ENV=production", "node", .*main\.js"\]$/m);
  });
});

describe('the simulator routes', () => {
  const development = useTestApp();
  const production = useTestApp({ env: { NODE_ENV: 'production', ALLOW_DEMO: 'on' } });

  it('answer the owner outside production, and do not exist in production even with ALLOW_DEMO=on', async () => {
    for (const [t, status] of [
      [development, 200],
      [production, 404],
    ] as const) {
      createDeviceHarness(t);
      const owner = await createAdmin(t);
      const barrier = await createBarrier(t, owner);
      const read = await t.request({
        method: 'GET',
        url: `/api/demo/devices/${barrier.id}/`,
        token: owner.token,
      });
      expect(read.statusCode, read.body).toBe(status);
      const power = await t.request({
        method: 'POST',
        url: `/api/demo/devices/${barrier.id}/power/`,
        token: owner.token,
        payload: { event: 'lost' },
      });
      // Outside production the unit answers (409 here: it has heard nothing yet); in production no route.
      if (status === 404) expect(power.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
      else expect(power.json().code, power.body).toBe('simulator_empty');
      // Ringing the simulated unit (the conformance run's call step in demos) is a demo route as well.
      const ring = await t.request({
        method: 'POST',
        url: `/api/demo/devices/${barrier.id}/call/`,
        token: owner.token,
        payload: { from: '+79990000000' },
      });
      if (status === 404) expect(ring.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
      else expect(ring.json().code, ring.body).toBe('simulator_empty');
    }
  });
});
