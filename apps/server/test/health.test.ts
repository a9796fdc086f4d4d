import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';

describe('runtime surface', () => {
  const t = useTestApp();

  it('answers the health check once migrations are applied', async () => {
    const response = await t.request({ method: 'GET', url: '/api/health/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with a JSON 404 and any other path with the web app', async () => {
    const api = await t.request({ method: 'GET', url: '/api/no-such-thing/' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toHaveProperty('detail');
    const page = await t.request({ method: 'GET', url: '/barriers' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const missingAsset = await t.request({ method: 'GET', url: '/assets/index-old.js' });
    expect(missingAsset.statusCode).toBe(404);
  });

  it('publishes the OpenAPI document and its browser', async () => {
    const document = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    expect(document.json().openapi).toMatch(/^3\./);
    expect(Object.keys(document.json().paths)).toContain('/api/health/');
    const docs = await t.request({ method: 'GET', url: '/api/docs' });
    expect(docs.statusCode).toBe(200);
  });
});
