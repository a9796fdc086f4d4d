/**
 * Issue 29 part 10: TRUST_PROXY takes the number of proxies in front or their addresses, never "all". Behind
 * one nginx (`TRUST_PROXY=1`) the client's address is the one nginx appended to X-Forwarded-For, so a client
 * that sends its own leftmost X-Forwarded-For does not escape a per-address limit.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { nextPhone } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

/** A check_admin call as it reaches the server through nginx at 127.0.0.1. */
function throughProxy(t: TestApp, forwardedFor: string) {
  return t.request({
    method: 'POST',
    url: '/api/users/check_admin/',
    payload: { phone: nextPhone() },
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

describe('TRUST_PROXY=1 (one nginx in front)', () => {
  const t = useTestApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_CALLS: '5' } });

  it('does not let a client-sent leftmost X-Forwarded-For bypass a per-address limit', async () => {
    const answers = [];
    for (let index = 0; index < 7; index++) {
      // The client forges a new leftmost address each time; nginx appends the address it really saw.
      answers.push(await throughProxy(t, `198.51.100.${index + 1}, 203.0.113.77`));
    }
    expect(answers.slice(0, 5).map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]?.statusCode).toBe(429);
    expect(answers[6]?.statusCode).toBe(429);
    // Another real client behind the same nginx is counted on its own.
    expect((await throughProxy(t, '198.51.100.1, 203.0.113.78')).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY values', () => {
  it('refuses on/true/all at start-up, naming the forms to use', () => {
    for (const value of ['on', 'true', 'all']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/number of proxies.*addresses\/CIDRs/);
    }
  });

  it('takes off, a number of proxies, or a list of addresses and CIDRs', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    for (const bad of ['10.0.0.0/33', 'nginx', '1.2.3', '127.0.0.1,']) {
      if (bad === '127.0.0.1,') {
        expect(loadConfig({ TRUST_PROXY: bad }).TRUST_PROXY).toEqual(['127.0.0.1']);
        continue;
      }
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('TRUST_PROXY as a list of addresses', () => {
  const t = useTestApp({ env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_AUTH_CALLS: '3' } });

  it('believes only the listed proxy, never an address the client wrote itself', async () => {
    const answers = [];
    for (let index = 0; index < 5; index++) {
      answers.push(await throughProxy(t, `198.51.100.${index + 1}, 203.0.113.90`));
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429, 429]);
  });
});
