import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';

describe('serving the built web app', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'propusk-dist-'));
  const script = 'console.log("Пропуск");'.repeat(100);
  beforeAll(() => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    // The web app's public files (icons, manifest), as the build copies them into dist/.
    const publicDir = path.resolve(import.meta.dirname, '../../web/public');
    for (const name of readdirSync(publicDir))
      copyFileSync(path.join(publicDir, name), path.join(dist, name));
  });
  // Built once the files above are written (hooks run in order); closed after the folder is removed.
  const t = useTestApp({ env: { WEB_DIST_DIR: dist } });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves client routes with index.html, never cached', async () => {
    const page = await t.request({ method: 'GET', url: '/mybarrier' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });

  it('serves hashed assets pre-compressed and cached for a year', async () => {
    const asset = await t.request({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.rawPayload.length).toBeLessThan(Buffer.byteLength(script));
  });

  it('answers a missing asset with 404, not the page', async () => {
    const missing = await t.request({ method: 'GET', url: '/assets/app-old999.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('serves the favicon and the web manifest as files with their types, not as a JSON 404', async () => {
    const favicon = await t.request({ method: 'GET', url: '/favicon.ico' });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const svg = await t.request({ method: 'GET', url: '/favicon.svg' });
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const manifest = await t.request({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({ short_name: 'Пропуск', display: 'standalone', start_url: '/' });
    for (const icon of manifest.json().icons as { src: string; type: string }[]) {
      const file = await t.request({ method: 'GET', url: icon.src });
      expect(file.statusCode, icon.src).toBe(200);
      expect(file.headers['content-type']).toContain(icon.type);
    }
  });
});
