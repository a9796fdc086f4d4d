/**
 * Security headers (issue 13 part 2) on each kind of answer: the web app's page, one of its files, an API
 * JSON answer and the API's JSON errors (404, 400, 401, 500). The page's Content-Security-Policy allows
 * Mantine's <style> elements and the page's inline script by a nonce that is fresh on every load and written
 * into the page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, useTestApp } from './test-app.ts';

const POLICY =
  "default-src 'self';base-uri 'none';script-src 'self';script-src-attr 'none';style-src 'self';" +
  "img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';frame-ancestors 'none';" +
  "form-action 'self'";

/** index.html as `vite build` writes it with `html.cspNonce` (apps/web/vite.config.ts). */
const BUILT_PAGE = `<!doctype html>
<html lang="ru"><head>
<meta property="csp-nonce" nonce="PROPUSK_CSP_NONCE">
<script nonce="PROPUSK_CSP_NONCE">try{}catch{}</script>
<script type="module" crossorigin src="/assets/index-abc123.js" nonce="PROPUSK_CSP_NONCE"></script>
<link rel="stylesheet" crossorigin href="/assets/index-abc123.css" nonce="PROPUSK_CSP_NONCE">
</head><body><div id="root"></div></body></html>`;

function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  // Plain HTTP unless HSTS_MAX_AGE_SECONDS says otherwise.
  expect(response.headers['strict-transport-security']).toBeUndefined();
}

/** The nonce a page was served with, checked against its header: only that one may style the page. */
function pageNonce(response: LightMyRequestResponse): string {
  const nonce = response.body.match(/<meta property="csp-nonce" nonce="([^"]+)">/)?.[1];
  if (!nonce) throw new Error('no nonce in the page');
  expect(response.headers['content-security-policy']).toBe(
    POLICY.replace("script-src 'self'", `script-src 'self' 'nonce-${nonce}'`).replace(
      "style-src 'self'",
      `style-src 'self' 'nonce-${nonce}'`,
    ),
  );
  expect(response.body).not.toContain('PROPUSK_CSP_NONCE');
  expect(response.body.match(new RegExp(`nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`, 'g'))).toHaveLength(4);
  return nonce;
}

describe('security headers', () => {
  let databaseBroken = false;
  const dist = mkdtempSync(path.join(tmpdir(), 'propusk-dist-'));
  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), BUILT_PAGE);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1);');
  });
  // Built once the files above are written (hooks run in order); closed after the hook below.
  const t = useTestApp({
    env: { WEB_DIST_DIR: dist },
    configure: (deps) => {
      // Lets one test make every query fail, for a real 500.
      const db = deps.db;
      deps.db = new Proxy(db, {
        get(target, property, receiver) {
          if (databaseBroken) throw new Error('database unreachable (test)');
          return Reflect.get(target, property, receiver);
        },
      });
    },
  });
  afterAll(() => {
    databaseBroken = false;
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the page with a fresh style nonce in the policy and in the page, never cached', async () => {
    const first = await t.request({ method: 'GET', url: '/mybarrier' });
    expect(first.statusCode).toBe(200);
    expectCommonHeaders(first);
    expect(first.headers['cache-control']).toBe('no-store');
    const nonce = pageNonce(first);
    expect(Buffer.from(nonce, 'base64')).toHaveLength(16);

    const second = await t.request({ method: 'GET', url: '/' });
    expect(pageNonce(second)).not.toBe(nonce);
  });

  it('serves /index.html as the page too, never the file with its placeholder', async () => {
    const page = await t.request({ method: 'GET', url: '/index.html' });
    expect(page.statusCode).toBe(200);
    expectCommonHeaders(page);
    pageNonce(page);
  });

  it('sends the headers with the files of the web app', async () => {
    const asset = await t.request({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expectCommonHeaders(asset);
    expect(asset.headers['content-security-policy']).toBe(POLICY);
  });

  it('sends the headers with an API answer', async () => {
    const health = await t.request({ method: 'GET', url: '/api/health/' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expectCommonHeaders(health);
    expect(health.headers['content-security-policy']).toBe(POLICY);
  });

  it('keeps them on JSON errors: 404, 400 (fields and malformed JSON), 401, 500', async () => {
    const notFound = await t.request({ method: 'GET', url: '/api/no-such-thing/' });
    const invalid = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      payload: { phone: 'not a phone', mode: 'login' },
    });
    const malformed = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone":',
    });
    const unauthenticated = await t.request({ method: 'GET', url: '/api/barriers/' });
    databaseBroken = true;
    const fault = await t.request({
      method: 'POST',
      url: '/api/auth/codes/',
      payload: { phone: '+79990001122', mode: 'login' },
    });
    databaseBroken = false;

    const answers = [
      [notFound, 404],
      [invalid, 400],
      [malformed, 400],
      [unauthenticated, 401],
      [fault, 500],
    ] as const;
    for (const [response, status] of answers) {
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toContain('application/json');
      expectCommonHeaders(response);
      expect(response.headers['content-security-policy']).toBe(POLICY);
    }
    expect(fault.json()).toEqual({ detail: 'Internal server error.', code: 'internal_error' });
  });

  it('adds HSTS and upgrade-insecure-requests only when the site is declared HTTPS', async () => {
    const https = await createTestApp({ env: { HSTS_MAX_AGE_SECONDS: '31536000' } });
    try {
      const health = await https.request({ method: 'GET', url: '/api/health/' });
      expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(health.headers['content-security-policy']).toBe(`${POLICY};upgrade-insecure-requests`);
      const missing = await https.request({ method: 'GET', url: '/api/no-such-thing/' });
      expect(missing.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await https.close();
    }
  });
});
